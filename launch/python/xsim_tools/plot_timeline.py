"""xsim-plot timeline: selected ranks of a Perfetto/Chrome trace-event JSON (-xsim-trace
FILE.json, one or several per-process parts) as one row per rank, each MPI call a bar coloured
by the call, each message a line from its send to its receive."""
import math
import os
from dataclasses import dataclass, field

from matplotlib.collections import LineCollection

from xsim_tools import plot_common as pc

DEFAULT_MAX_RANKS = 64


@dataclass
class Trace:
    calls: list = field(default_factory=list)      # (rank, name, cat, start_us, dur_us)
    messages: list = field(default_factory=list)   # (src, send_us, dst, recv_us, bytes)
    ranks: set = field(default_factory=set)
    unmatched: int = 0                              # flow starts or finishes without their pair


def other_parts(path, doc):
    """The other processes' parts that xsim lists in a part's otherData.xsim_parts (FILE.json,
    FILE.json.1, ...), looked for beside the given file."""
    other = doc.get("otherData") if isinstance(doc, dict) else None
    names = other.get("xsim_parts") if isinstance(other, dict) else None
    if not isinstance(names, list):
        return []
    folder = os.path.dirname(path)
    found = [os.path.join(folder, os.path.basename(str(n))) for n in names]
    mine = os.path.basename(path)
    found = [f for f in found if os.path.basename(f) != mine]
    missing = [f for f in found if not os.path.exists(f)]
    if missing:
        raise pc.InputError(f"{path}: the trace has {len(names)} parts (one per real process) and "
                            f"{missing[0]} is missing; give the parts you have explicitly to draw those")
    return found


def load(paths):
    """Merges the events of every part; a flow's "s" and "f" may be in different parts. One
    file given: the other parts it lists are read too."""
    trace = Trace()
    starts, finishes = {}, {}
    paths = list(paths)
    auto_parts = len(paths) == 1
    for path in paths:
        doc = pc.read_json(path, "trace")
        if auto_parts:
            auto_parts = False
            paths += other_parts(path, doc)
        events = doc.get("traceEvents") if isinstance(doc, dict) else doc
        if not isinstance(events, list):
            raise pc.InputError(f"{path}: not a trace-event file (no \"traceEvents\" list)")
        for i, e in enumerate(events):
            if not isinstance(e, dict):
                raise pc.InputError(f"{path}: event {i} is not an object")
            ph = e.get("ph")
            if ph not in ("X", "s", "f"):
                continue
            where = f"{path}: event {i} ({e.get('name', ph)})"
            rank = pc.number(e.get("tid"), f"{where} tid", integer=True)
            ts = pc.number(e.get("ts"), f"{where} ts")
            if ph == "X":
                dur = pc.number(e.get("dur"), f"{where} dur")
                if dur < 0:
                    raise pc.InputError(f"{where}: negative dur {dur}")
                trace.calls.append((rank, str(e.get("name", "?")), str(e.get("cat", "other")), ts, dur))
                trace.ranks.add(rank)
            else:
                key = (e.get("id"), e.get("cat"))
                if key[0] is None:
                    raise pc.InputError(f"{where}: flow event without an id")
                table = starts if ph == "s" else finishes
                if key in table:
                    raise pc.InputError(f"{where}: flow id {key[0]} appears twice")
                args = e.get("args") or {}
                table[key] = (rank, ts, args.get("bytes") if isinstance(args, dict) else None)
    for key, (src, t_send, nbytes) in starts.items():
        f = finishes.pop(key, None)
        if f is None:
            trace.unmatched += 1
            continue
        trace.messages.append((src, t_send, f[0], f[1], nbytes))
    trace.unmatched += len(finishes)
    if not trace.calls and not trace.messages:
        raise pc.InputError(f"{', '.join(paths)}: the trace has no MPI calls (\"ph\": \"X\") or messages")
    return trace


def select(trace, ranks=None, window=None):
    """The calls and messages of the given ranks inside the window (seconds); a call or message
    overlapping the window is kept and clipped when drawn. Returns (ranks, calls, messages)."""
    present = sorted(trace.ranks | {m[0] for m in trace.messages} | {m[2] for m in trace.messages})
    if ranks is None:
        ranks = present[:DEFAULT_MAX_RANKS]
    else:
        missing = [r for r in ranks if r not in set(present)]
        if len(missing) == len(ranks):
            raise pc.InputError(f"--ranks: none of ranks {pc.rank_ranges(ranks)} is in the trace "
                                f"(it has ranks {pc.rank_ranges(present)})")
        ranks = [r for r in ranks if r in set(present)]
    chosen = set(ranks)
    lo, hi = (w * 1e6 for w in window) if window else (-math.inf, math.inf)
    calls = [c for c in trace.calls if c[0] in chosen and c[3] <= hi and c[3] + c[4] >= lo]
    messages = [m for m in trace.messages
                if m[0] in chosen and m[2] in chosen and min(m[1], m[3]) <= hi and max(m[1], m[3]) >= lo]
    if not calls and not messages:
        raise pc.InputError("nothing to draw: no call or message of the chosen ranks in the window")
    return ranks, calls, messages


def summary(ranks, calls, messages):
    """The numbers the picture shows (for --json)."""
    per_call = {}
    for _, name, _, _, dur in calls:
        n, t = per_call.get(name, (0, 0.0))
        per_call[name] = (n + 1, t + dur)
    times = [c[3] for c in calls] + [c[3] + c[4] for c in calls] + [m[1] for m in messages] + [m[3] for m in messages]
    return {"ranks": ranks, "calls": len(calls), "messages": len(messages),
            "by_call": {k: {"count": n, "time_us": t} for k, (n, t) in sorted(per_call.items())},
            "first_us": min(times), "last_us": max(times)}


def draw(trace, out, ranks=None, window=None, title=None):
    ranks, calls, messages = select(trace, ranks, window)
    info = summary(ranks, calls, messages)
    lo_us = max(info["first_us"], window[0] * 1e6) if window else info["first_us"]
    hi_us = min(info["last_us"], window[1] * 1e6) if window else info["last_us"]
    if hi_us <= lo_us:
        hi_us = lo_us + 1e-6
    scale, unit = pc.time_unit((hi_us - lo_us) * 1e-6)
    to_x = lambda us: us * 1e-6 * scale
    row = {r: i for i, r in enumerate(ranks)}

    fig, ax = pc.pyplot().subplots(figsize=(10, 1.2 + 0.28 * len(ranks)))
    names = sorted(info["by_call"], key=lambda n: -info["by_call"][n]["time_us"])
    cmap = pc.pyplot().get_cmap("tab20")
    colours = {n: cmap(i % 20) for i, n in enumerate(names)}
    by_name = {}
    for rank, name, _, start, dur in calls:
        by_name.setdefault(name, {}).setdefault(rank, []).append((to_x(start), max(to_x(dur), 0.0)))
    for name in names:
        for rank, spans in by_name[name].items():
            ax.broken_barh(spans, (row[rank] - 0.4, 0.8), facecolors=colours[name], edgecolor="none",
                           label=name if rank == next(iter(by_name[name])) else None)
    if messages:
        segments = [((to_x(m[1]), row[m[0]]), (to_x(m[3]), row[m[2]])) for m in messages]
        ax.add_collection(LineCollection(segments, colors="black", linewidths=0.6, alpha=0.6, label="message"))
    ax.set_xlim(to_x(lo_us), to_x(hi_us))
    ax.set_ylim(len(ranks) - 0.5, -0.5)
    step = max(1, len(ranks) // 32)
    ax.set_yticks(range(0, len(ranks), step))
    ax.set_yticklabels([str(ranks[i]) for i in range(0, len(ranks), step)], fontsize="small")
    ax.set_ylabel("rank")
    ax.set_xlabel(f"virtual time ({unit})")
    ax.set_title(title or f"ranks {pc.rank_ranges(ranks)}: {len(calls)} MPI calls, {len(messages)} messages")
    handles, labels = ax.get_legend_handles_labels()
    if len(labels) > 21:  # the 20 calls taking the most time, and the messages
        keep = labels[:20] + (["message"] if "message" in labels else [])
        handles, labels = [h for h, l in zip(handles, labels) if l in keep], [l for l in labels if l in keep]
    ax.legend(handles, labels, fontsize="x-small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    pc.save(fig, out)
    return info
