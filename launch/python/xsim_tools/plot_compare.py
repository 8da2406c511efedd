"""xsim-plot compare: what changed between two runs (two -xsim-profile JSONs, or two
-xsim-report JSONs: two machines, or two rank counts). Times are compared as the mean per rank
(summed time / ranks), so runs at different rank counts compare fairly; each pair of bars is
labelled with B's change relative to A."""
import os

import numpy as np

from xsim_tools import plot_common as pc

MAX_CALLS = 12
REPORT_SPLIT = {"compute": "compute_s", "point_to_point": "point_to_point_s", "collective": "collective_s",
                "waiting": "waiting_s"}


def flatten(value, prefix=""):
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: value}


def load(path):
    """A profile or a run report, as {kind, ranks, time_s, split, calls, facts} with times in
    seconds per rank."""
    doc = pc.read_json(path, "profile or run report")
    if not isinstance(doc, dict):
        raise pc.InputError(f"{path}: neither an xsim profile nor a run report")
    ranks = doc.get("ranks") if isinstance(doc.get("ranks"), int) else doc.get("world_ranks")
    if not isinstance(ranks, int) or ranks < 1:
        raise pc.InputError(f"{path}: no rank count (\"ranks\")")
    run = {"path": path, "ranks": ranks, "time_s": None, "calls": {}, "split": {},
           "facts": {"ranks": ranks, "processes": doc.get("processes")}}
    if isinstance(doc.get("split"), dict) and isinstance(doc.get("calls"), list):
        run["kind"] = "profile"
        for k in pc.SPLIT:
            entry = doc["split"].get(k)
            if not isinstance(entry, dict):
                raise pc.InputError(f"{path}: the profile's \"split\" has no \"{k}\"")
            run["split"][k] = pc.number(entry.get("total_s"), f"{path}: split.{k}.total_s") / ranks
        calls = doc["calls"]
    elif "simulated_time_s" in doc:
        run["kind"] = "report"
        run["time_s"] = pc.number(doc["simulated_time_s"], f"{path}: simulated_time_s")
        split = doc.get("time_split")
        if isinstance(split, dict):
            for k, key in REPORT_SPLIT.items():
                run["split"][k] = pc.number(split.get(key), f"{path}: time_split.{key}") / ranks
        profile = doc.get("profile")
        calls = profile.get("calls", []) if isinstance(profile, dict) else doc.get("calls", [])
        for key in ("messages", "bytes"):
            if key in doc:
                run["facts"][key] = doc[key]
        run["facts"].update({f"machine.{k}": v for k, v in flatten(doc.get("machine") or {}).items()})
        run["facts"].update({f"options.{k}": v for k, v in flatten(doc.get("options") or {}).items()})
    else:
        raise pc.InputError(f"{path}: neither an xsim profile (\"split\", \"calls\") nor a run report (\"simulated_time_s\")")
    if not isinstance(calls, list):
        raise pc.InputError(f"{path}: \"calls\" is not a list")
    for i, c in enumerate(calls):
        if not isinstance(c, dict) or "name" not in c:
            raise pc.InputError(f"{path}: calls[{i}] has no name")
        run["calls"][str(c["name"])] = pc.number(c.get("total_s"), f"{path}: calls[{i}].total_s") / ranks
    return run


def relative(a, b):
    """B's change relative to A: None when A is 0 and B is not (new)."""
    if a == b:
        return 0.0
    return None if a == 0 else (b - a) / a


def differences(a, b, limit=4):
    """What differs between the runs, as short 'key a -> b' strings (rank count first)."""
    keys = [k for k in a["facts"] if k in b["facts"] and a["facts"][k] != b["facts"][k]
            and k not in ("messages", "bytes")]
    keys += [k for k in b["facts"] if k not in a["facts"]]
    keys.sort(key=lambda k: (k != "ranks", k != "processes", k))
    out = [f"{k} {a['facts'].get(k)} → {b['facts'].get(k)}" for k in keys[:limit]]
    if len(keys) > limit:
        out.append(f"and {len(keys) - limit} more")
    return out


def compare(a, b):
    """The numbers the picture shows (for --json)."""
    rows = lambda da, db: [{"name": n, "a_s": da.get(n, 0.0), "b_s": db.get(n, 0.0),
                            "relative_change": relative(da.get(n, 0.0), db.get(n, 0.0))}
                           for n in dict.fromkeys(list(da) + list(db))]
    # Calls that took no time in either run (MPI_Comm_rank, ...) say nothing.
    calls = [r for r in rows(a["calls"], b["calls"]) if r["a_s"] or r["b_s"]]
    calls.sort(key=lambda r: -max(r["a_s"], r["b_s"]))
    out = {"a": a["path"], "b": b["path"], "per": "rank", "differs": differences(a, b),
           "split": rows(a["split"], b["split"]) if a["split"] and b["split"] else [], "calls": calls}
    if a["time_s"] is not None and b["time_s"] is not None:
        out["simulated_time"] = {"a_s": a["time_s"], "b_s": b["time_s"], "relative_change": relative(a["time_s"], b["time_s"])}
    return out


def change_text(r):
    if r is None:
        return "new"
    return f"{r:+.1%}" if abs(r) < 10 else f"×{1 + r:.3g}"


def grouped(ax, rows, label_a, label_b, title):
    names = [r["name"] for r in rows]
    a = np.array([r["a_s"] for r in rows])
    b = np.array([r["b_s"] for r in rows])
    scale, unit = pc.time_unit(max(a.max(), b.max(), 1e-300))
    y = np.arange(len(rows))
    ax.barh(y - 0.2, a * scale, height=0.4, color="#8da0cb", label=label_a)
    ax.barh(y + 0.2, b * scale, height=0.4, color="#fc8d62", label=label_b)
    for i, r in enumerate(rows):
        ax.annotate(" " + change_text(r["relative_change"]), (max(a[i], b[i]) * scale, y[i]), va="center",
                    fontsize="x-small")
    ax.set_yticks(y)
    ax.set_yticklabels(names, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0, max(a.max(), b.max()) * scale * 1.2 or 1)
    ax.set_xlabel(f"mean virtual time per rank ({unit})")
    ax.set_title(title, fontsize="medium")
    ax.legend(fontsize="x-small", loc="lower right")


def draw(path_a, path_b, out, label_a=None, label_b=None, title=None):
    a, b = load(path_a), load(path_b)
    info = compare(a, b)
    label_a = label_a or f"A: {os.path.basename(path_a)} ({a['ranks']:,} ranks)"
    label_b = label_b or f"B: {os.path.basename(path_b)} ({b['ranks']:,} ranks)"
    split_rows = [dict(r, name=pc.SPLIT_LABELS[r["name"]]) for r in info["split"]]
    call_rows = info["calls"][:MAX_CALLS]
    panels = [p for p in (split_rows, call_rows) if p]
    if not panels:
        raise pc.InputError(f"{path_a}, {path_b}: no time split and no per-call times to compare")
    fig, axes = pc.pyplot().subplots(len(panels), 1, figsize=(9, 1.6 + 0.42 * sum(len(p) for p in panels) + 1.2 * len(panels)),
                                squeeze=False, gridspec_kw={"height_ratios": [len(p) + 1.5 for p in panels]})
    at = 0
    if split_rows:
        head = "time split"
        if "simulated_time" in info:
            t = info["simulated_time"]
            head += f" (predicted time {t['a_s']:.6g} s → {t['b_s']:.6g} s, {change_text(t['relative_change'])})"
        grouped(axes[at][0], split_rows, label_a, label_b, head)
        at += 1
    if call_rows:
        grouped(axes[at][0], call_rows, label_a, label_b,
                "per MPI call" + (f" ({MAX_CALLS} with the most time)" if len(info["calls"]) > MAX_CALLS else ""))
    differs = "; ".join(info["differs"]) or "no difference in ranks, processes, machine or options"
    fig.suptitle(title or f"what changed: {differs}", fontsize="medium")
    fig.tight_layout()
    pc.save(fig, out)
    return info
