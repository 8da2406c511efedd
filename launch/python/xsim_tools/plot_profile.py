"""xsim-plot profile: a -xsim-profile JSON as pictures: each rank's time split into compute,
point-to-point, collective and waiting (stacked bars; the per-rank section, binned by xsim
above 65,536 ranks and here above MAX_BARS), and the per-call table as bars (time in the call,
its waiting part apart)."""
import numpy as np

from xsim_tools import plot_common as pc

MAX_BARS = 256   # contiguous ranks are averaged into this many bars at most
MAX_CALLS = 15   # calls with the most time


def load(path):
    doc = pc.read_json(path, "profile")
    if not isinstance(doc, dict) or not isinstance(doc.get("split"), dict) or not isinstance(doc.get("calls"), list):
        raise pc.InputError(f"{path}: not an xsim profile (-xsim-profile FILE.json: needs \"split\" and \"calls\")")
    return doc


def rank_section(doc):
    """formats.md names the per-rank section "ranks"; the profile already had "ranks" as the
    world size, so the section may come as "per_rank" instead: either is read."""
    for key in ("ranks", "per_rank"):
        if isinstance(doc.get(key), dict):
            return doc[key]
    return None


def world_ranks(doc):
    for key in ("ranks", "world_ranks", "ranks_count"):
        if isinstance(doc.get(key), int):
            return doc[key]
    return None


def per_rank(doc, path):
    """The per-rank section as numpy arrays: first, last (rank range of each entry) and one
    array of seconds per category; None when the profile has none."""
    section = rank_section(doc)
    if section is None:
        return None
    keys = {k: f"{k}_s" for k in pc.SPLIT}
    try:
        cols = {k: np.asarray(section[v], dtype=float) for k, v in keys.items()}
        first = np.asarray(section.get("first", []), dtype=np.int64)
        last = np.asarray(section.get("last", first), dtype=np.int64)
    except (KeyError, TypeError, ValueError) as e:
        raise pc.InputError(f"{path}: the per-rank section \"ranks\" is malformed ({e})") from None
    n = len(cols["compute"])
    if n == 0 or any(len(c) != n for c in cols.values()) or len(first) != n or len(last) != n:
        raise pc.InputError(f"{path}: the per-rank section's arrays differ in length")
    if any(not np.isfinite(c).all() or (c < 0).any() for c in cols.values()):
        raise pc.InputError(f"{path}: the per-rank section has a negative or non-finite time")
    return first, last, cols


def rebin(first, last, cols, max_bars=MAX_BARS):
    """Contiguous entries averaged (weighted by their rank counts) into at most max_bars bars."""
    n = len(first)
    if n <= max_bars:
        return first, last, cols
    edges = np.linspace(0, n, max_bars + 1).astype(int)
    weights = (last - first + 1).astype(float)
    out = {}
    for k, c in cols.items():
        sums = np.add.reduceat(c * weights, edges[:-1])
        out[k] = sums / np.add.reduceat(weights, edges[:-1])
    return first[edges[:-1]], last[edges[1:] - 1], out


def numbers(doc, path):
    """What the pictures show (for --json)."""
    ranks = per_rank(doc, path)
    split = {}
    for k in pc.SPLIT:
        entry = doc["split"].get(k)
        if not isinstance(entry, dict):
            raise pc.InputError(f"{path}: \"split\" has no \"{k}\" entry")
        split[k] = pc.number(entry.get("total_s"), f"{path}: split.{k}.total_s")
    calls = []
    for i, c in enumerate(doc["calls"]):
        if not isinstance(c, dict) or "name" not in c:
            raise pc.InputError(f"{path}: calls[{i}] has no name")
        calls.append({"name": str(c["name"]), "calls": int(pc.number(c.get("calls", 0), f"{path}: calls[{i}].calls")),
                      "total_s": pc.number(c.get("total_s"), f"{path}: calls[{i}].total_s"),
                      "waiting_s": pc.number(c.get("waiting_s", 0.0), f"{path}: calls[{i}].waiting_s")})
    calls.sort(key=lambda c: -c["total_s"])
    out = {"ranks": world_ranks(doc), "split_total_s": split, "calls": calls, "per_rank_entries": 0,
           "wait_states": wait_states(doc, path)}
    if ranks is not None:
        first, last, cols = ranks
        out["per_rank_entries"] = int(len(first))
        out["per_rank_binned"] = bool(rank_section(doc).get("binned", False))
        out["per_rank_sum_s"] = {k: float((cols[k] * (last - first + 1)).sum()) for k in pc.SPLIT}
    return out


def draw(path, out, title=None):
    doc = load(path)
    info = numbers(doc, path)
    ranks = per_rank(doc, path)
    waits = info.get("wait_states", [])
    fig = pc.pyplot().figure(figsize=(11 if waits else 9, 7.5))
    grid = fig.add_gridspec(2, 2 if waits else 1, height_ratios=[3, 2])
    top = fig.add_subplot(grid[0, :])
    bottom = fig.add_subplot(grid[1, 0])
    if ranks is not None:
        first, last, cols = rebin(*ranks)
        x = np.arange(len(first))
        span = max(max(c.max() for c in cols.values()), 1e-300)
        scale, unit = pc.time_unit(span)
        base = np.zeros(len(first))
        for k in pc.SPLIT:
            top.bar(x, cols[k] * scale, bottom=base, width=1.0 if len(x) > 64 else 0.8, color=pc.SPLIT_COLOURS[k],
                    label=pc.SPLIT_LABELS[k], linewidth=0)
            base += cols[k] * scale
        binned = bool((last != first).any())
        ticks = np.unique(np.linspace(0, len(x) - 1, min(len(x), 16)).astype(int))
        top.set_xticks(ticks)
        top.set_xticklabels([f"{first[i]}" if first[i] == last[i] else f"{first[i]}-{last[i]}" for i in ticks],
                            fontsize="x-small", rotation=45 if binned else 0)
        top.set_xlim(-0.6, len(x) - 0.4)
        top.set_xlabel("rank" + (" (bars: mean over consecutive ranks)" if binned else ""))
        top.set_ylabel(f"virtual time ({unit})")
        top.legend(fontsize="small", ncol=4, loc="lower right")
    else:
        # An xsim without the per-rank section: the totals over all ranks as one bar.
        total = sum(info["split_total_s"].values()) or 1.0
        left = 0.0
        for k in pc.SPLIT:
            share = info["split_total_s"][k] / total
            top.barh([0], [share * 100], left=left, color=pc.SPLIT_COLOURS[k], label=f"{pc.SPLIT_LABELS[k]} {share:.0%}")
            left += share * 100
        top.set_yticks([])
        top.set_xlabel("share of all ranks' time (%); this profile has no per-rank section")
        top.legend(fontsize="small", ncol=4)
    ranks_label = f"{info['ranks']:,} ranks" if isinstance(info["ranks"], int) else "ranks"
    top.set_title(title or (f"time of each rank ({ranks_label})" if ranks is not None
                            else f"time of all {ranks_label} together"))

    # Calls that took no virtual time (MPI_Comm_rank, ...) are left out of the bars.
    calls = [c for c in info["calls"] if c["total_s"] > 0][:MAX_CALLS]
    if calls:
        longest = max(c["total_s"] for c in calls) or 1e-300
        scale, unit = pc.time_unit(longest)
        names = [c["name"] for c in calls][::-1]
        waiting = np.array([min(c["waiting_s"], c["total_s"]) for c in calls][::-1]) * scale
        inside = np.array([c["total_s"] for c in calls][::-1]) * scale - waiting
        bottom.barh(names, inside, color="#8172b3", label="in the call, not waiting")
        bottom.barh(names, waiting, left=inside, color=pc.SPLIT_COLOURS["waiting"], label="waiting")
        for y, c in enumerate(calls[::-1]):
            bottom.annotate(f" {c['calls']:,} calls", (inside[y] + waiting[y], y), va="center", fontsize="x-small")
        bottom.set_xlabel(f"virtual time summed over ranks ({unit})")
        bottom.set_xlim(0, (inside + waiting).max() * 1.18)
        bottom.legend(fontsize="x-small", loc="lower right")
        bottom.tick_params(axis="y", labelsize="small")
    bottom.set_title("time per MPI call" + (f" ({MAX_CALLS} with the most time)" if len(calls) == MAX_CALLS else ""),
                     fontsize="medium")
    if waits:
        draw_wait_states(fig.add_subplot(grid[1, 1]), waits)
    fig.tight_layout()
    pc.save(fig, out)
    return info


def wait_states(doc, path):
    """The wait-state kinds of the profile ("wait_states": kinds with total_s and the ranks
    blamed), largest first; [] when the profile has none."""
    section = doc.get("wait_states")
    if section is None:
        return []
    kinds = section.get("kinds") if isinstance(section, dict) else None
    if not isinstance(kinds, dict):
        raise pc.InputError(f"{path}: \"wait_states\" has no \"kinds\"")
    out = []
    for kind, k in kinds.items():
        if not isinstance(k, dict):
            raise pc.InputError(f"{path}: wait_states.kinds.{kind} is not an object")
        blamed = k.get("blamed") or []
        if not isinstance(blamed, list) or not all(isinstance(b, dict) and "rank" in b for b in blamed):
            raise pc.InputError(f"{path}: wait_states.kinds.{kind}.blamed is malformed")
        out.append({"kind": str(kind), "total_s": pc.number(k.get("total_s"), f"{path}: wait_states.kinds.{kind}.total_s"),
                    "blamed": [int(b["rank"]) for b in blamed[:3]]})
    return sorted((w for w in out if w["total_s"] > 0), key=lambda w: -w["total_s"])


def draw_wait_states(ax, waits):
    scale, unit = pc.time_unit(max(w["total_s"] for w in waits))
    names = [w["kind"].replace("_", " ") for w in waits][::-1]
    values = [w["total_s"] * scale for w in waits][::-1]
    ax.barh(names, values, color=pc.SPLIT_COLOURS["waiting"])
    for y, w in enumerate(waits[::-1]):
        if w["blamed"]:
            who = ("rank " if len(w["blamed"]) == 1 else "ranks ") + ", ".join(map(str, w["blamed"]))
            ax.annotate(f" caused by {who}", (values[y], y), va="center", fontsize="x-small")
    ax.set_xlim(0, max(values) * 1.5)
    ax.set_xlabel(f"waiting summed over ranks ({unit})")
    ax.tick_params(axis="y", labelsize="small")
    ax.set_title("wait states (ranks that caused the most)", fontsize="medium")
