#!/usr/bin/python3
"""xsim-plot on small known inputs: every subcommand writes a non-empty PNG and a well-formed
SVG, the numbers it reports with --json are the known ones (timeline counts, a matrix's
totals, a profile's per-rank sums, compare's relative changes, a sweep's exact fit), and bad
inputs end with one line on stderr and exit 2, never a traceback.
usage: test_xsim_plot.py SOURCE_DIR WORK_DIR"""
import json
import math
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import traceback
import xml.etree.ElementTree as ET

src, work = sys.argv[1], sys.argv[2]
plot = os.path.join(src, "launch", "xsim-plot")
sys.path.insert(0, os.path.join(src, "launch", "python"))
from xsim_tools import plot_common, plot_compare, plot_matrix, plot_profile  # noqa: E402

shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def close(a, b, rel=1e-9):
    return a is not None and abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def path(name):
    return os.path.join(work, name)


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text if isinstance(text, str) else json.dumps(text))
    return path(name)


# Each run of xsim-plot is a child process with its own exit status, stdout and stderr, as
# `python3 xsim-plot ARGS` would be, but forked from this one, which has loaded matplotlib
# and xsim_tools once: started afresh, each of the ~50 runs spent about a second of CPU
# importing them, most of this test's time. The script itself runs from its file as
# __main__ in every child.
pc_pyplot = plot_common.pyplot()


def xsim_plot(*args):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.argv = [plot, *args]
                try:
                    runpy.run_path(plot, run_name="__main__")
                    code = 0
                except SystemExit as e:  # as the interpreter does with sys.exit's argument
                    if e.code is None or isinstance(e.code, int):
                        code = e.code or 0
                    else:
                        print(e.code, file=sys.stderr)
                except BaseException:
                    traceback.print_exc()
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        status = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess([plot, *args], status, out.read().decode(), err.read().decode())


def pictures(stem, *args):
    """Runs the subcommand for a PNG (with --json) and an SVG; checks both files; returns the
    numbers."""
    png, svg, numbers = path(stem + ".png"), path(stem + ".svg"), path(stem + ".numbers.json")
    r = xsim_plot(*args, "-o", png, "--json", numbers)
    check(r.returncode == 0, f"{stem}: png exit {r.returncode}: {r.stderr.strip()}")
    r = xsim_plot(*args, "-o", svg)
    check(r.returncode == 0, f"{stem}: svg exit {r.returncode}: {r.stderr.strip()}")
    if os.path.exists(png):
        with open(png, "rb") as f:
            head = f.read(8)
        check(head == b"\x89PNG\r\n\x1a\n", f"{stem}.png: not a PNG ({head!r})")
        check(os.path.getsize(png) > 5000, f"{stem}.png: only {os.path.getsize(png)} bytes")
    else:
        check(False, f"{stem}.png not written")
    try:
        root = ET.parse(svg).getroot()
        check(root.tag.endswith("svg"), f"{stem}.svg: root element {root.tag}")
        check(sum(1 for _ in root.iter()) > 50, f"{stem}.svg: almost empty")
    except (OSError, ET.ParseError) as e:
        check(False, f"{stem}.svg: {e}")
    try:
        with open(numbers) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        check(False, f"{stem}: --json not written: {e}")
        return {}


def refused(what, *args, mentions=""):
    r = xsim_plot(*args)
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2, f"{what}: exit {r.returncode}, expected 2 ({r.stderr.strip()})")
    check(len(lines) == 1 and "Traceback" not in r.stderr, f"{what}: not one line: {r.stderr!r}")
    check(mentions in r.stderr, f"{what}: message does not mention {mentions!r}: {r.stderr.strip()}")


# --- timeline: 4 ranks, 3 iterations of send to the right neighbour, receive, allreduce; the
# trace split into two parts as two real processes write it (a message's "s" in one, "f" in the other).
events, parts = [[], []], []
for rank in range(4):
    part = events[rank // 2]
    part.append({"ph": "M", "name": "thread_name", "pid": 0, "tid": rank, "args": {"name": f"rank {rank}"}})
    for it in range(3):
        t = 5.0 * it
        msg = 100 * it + rank
        part.append({"ph": "X", "name": "MPI_Send", "cat": "p2p", "ts": t + 1, "dur": 0.5, "pid": 0, "tid": rank,
                     "args": {"bytes": 8, "peer": (rank + 1) % 4, "tag": 0, "comm": 0}})
        part.append({"ph": "s", "cat": "message", "name": "msg", "id": msg, "ts": t + 1, "pid": 0, "tid": rank,
                     "args": {"bytes": 8, "tag": 0}})
        events[((rank + 1) % 4) // 2].append({"ph": "f", "bp": "e", "cat": "message", "name": "msg", "id": msg,
                                              "ts": t + 2.5, "pid": 0, "tid": (rank + 1) % 4})
        part.append({"ph": "X", "name": "MPI_Recv", "cat": "p2p", "ts": t + 1.5, "dur": 1.0, "pid": 0, "tid": rank,
                     "args": {"bytes": 8, "peer": (rank + 3) % 4}})
        part.append({"ph": "X", "name": "MPI_Allreduce", "cat": "coll", "ts": t + 3.0, "dur": 2.0, "pid": 0, "tid": rank,
                     "args": {"bytes": 8, "comm": 0}})
for i, part in enumerate(events):
    parts.append(write("trace.json" + (f".{i}" if i else ""),
                       {"displayTimeUnit": "ns", "otherData": {"xsim_ranks": 4, "xsim_parts": ["trace.json", "trace.json.1"]},
                        "traceEvents": part}))
n = pictures("timeline", "timeline", *parts)
check(n.get("calls") == 36 and n.get("messages") == 12, f"timeline: {n.get('calls')} calls, {n.get('messages')} messages, expected 36, 12")
# The first part alone: xsim lists the other parts in it, and they are read too.
n = pictures("timeline_parts", "timeline", parts[0])
check(n.get("calls") == 36 and n.get("messages") == 12, f"timeline: {n.get('calls')} calls, {n.get('messages')} messages, expected 36, 12")
check(n.get("by_call", {}).get("MPI_Allreduce", {}).get("time_us") == 24.0, f"timeline: allreduce time {n.get('by_call')}")
# Ranks 0-1 in the first 5.5 us: 2 ranks x 3 calls of iteration 0, and the one message 0 -> 1.
n = pictures("timeline_window", "timeline", *parts, "--ranks", "0-1", "--window", "0:5.5e-6")
check(n.get("ranks") == [0, 1] and n.get("calls") == 6 and n.get("messages") == 1,
      f"timeline window: ranks {n.get('ranks')}, {n.get('calls')} calls, {n.get('messages')} messages; expected [0,1], 6, 1")
refused("timeline: ranks not in the trace", "timeline", *parts, "--ranks", "10-20", "-o", path("x.png"), mentions="10-20")
refused("timeline: bad window", "timeline", *parts, "--window", "5:1", "-o", path("x.png"), mentions="--window")
refused("timeline: bad ranks", "timeline", *parts, "--ranks", "a-b", "-o", path("x.png"), mentions="--ranks")
os.rename(parts[1], parts[1] + ".moved")
refused("timeline: a listed part missing", "timeline", parts[0], "-o", path("x.png"), mentions="trace.json.1 is missing")
os.rename(parts[1] + ".moved", parts[1])
write("not_trace.json", {"traceEvents": 3})
refused("timeline: not a trace", "timeline", path("not_trace.json"), "-o", path("x.png"), mentions="traceEvents")
write("bad_ts.json", {"traceEvents": [{"ph": "X", "name": "MPI_Send", "ts": "soon", "dur": 1, "tid": 0}]})
refused("timeline: bad ts", "timeline", path("bad_ts.json"), "-o", path("x.png"), mentions="ts")

# --- matrix: a ring of 4 ranks (3 messages of 8 bytes each) plus one 1000-byte message 0 -> 2.
matrix = write("comm.csv", "# xsim comm matrix: entity=rank entities=4 ranks=4 processes=2\nsrc,dst,messages,bytes\n"
               "0,1,3,24\n1,2,3,24\n2,3,3,24\n3,0,3,24\n0,2,1,1000\n")
n = pictures("matrix", "matrix", matrix)
check(n.get("messages") == 13 and n.get("bytes") == 1096 and n.get("pairs") == 5, f"matrix totals: {n}")
check(n.get("busiest_pair") == {"src": 0, "dst": 2, "messages": 1, "bytes": 1000}, f"matrix busiest pair: {n.get('busiest_pair')}")
pictures("matrix_bytes", "matrix", matrix, "--bytes")
# Blocks: 3000 entities at most 1000 a side are drawn as blocks of 3 (their sums).
import numpy as np  # noqa: E402
m, block = plot_matrix.dense(3000, np.array([0, 2, 1000, 2999]), np.array([1, 0, 2000, 2999]), np.array([1, 2, 3, 4]),
                             max_cells=1000)
check(block == 3 and m.shape == (1000, 1000), f"dense: block {block}, shape {m.shape}")
check(m.sum() == 10 and m[0, 0] == 3 and m[333, 666] == 3 and m[999, 999] == 4,
      f"dense: blocks hold {m[0, 0]}, {m[333, 666]}, {m[999, 999]}, total {m.sum()}")
write("bad_matrix.csv", "# xsim comm matrix: entity=rank entities=4 ranks=4 processes=1\nsrc,dst,messages,bytes\n0,7,1,8\n")
refused("matrix: dst out of range", "matrix", path("bad_matrix.csv"), "-o", path("x.png"), mentions=":3:")
write("no_header.csv", "src,dst,messages,bytes\n0,1,1,8\n")
refused("matrix: no header", "matrix", path("no_header.csv"), "-o", path("x.png"), mentions="comm matrix")
refused("matrix: missing file", "matrix", path("missing.csv"), "-o", path("x.png"), mentions="missing.csv")

# --- profile: 4 ranks with known splits; per-call totals with their waiting parts.
split = {"compute": [0.1, 0.1, 0.1, 0.1], "point_to_point": [0.05] * 4, "collective": [0.05, 0.06, 0.09, 0.1],
         "waiting": [0.0, 0.02, 0.03, 0.05]}
profile = {"ranks": 4, "processes": 1, "rank_time_s": 1.0,
           "split": {k: {"total_s": sum(v)} for k, v in split.items()},
           "calls": [{"name": "MPI_Send", "calls": 12, "total_s": 0.1, "waiting_s": 0.0},
                     {"name": "MPI_Recv", "calls": 12, "total_s": 0.2, "waiting_s": 0.05},
                     {"name": "MPI_Allreduce", "calls": 12, "total_s": 0.3, "waiting_s": 0.05}],
           "per_rank": {"binned": False, "first": [0, 1, 2, 3], "last": [0, 1, 2, 3],
                        **{f"{k}_s": v for k, v in split.items()}}}
prof_a = write("profile_a.json", profile)
n = pictures("profile", "profile", prof_a)
check(n.get("per_rank_entries") == 4, f"profile: {n.get('per_rank_entries')} per-rank entries")
for k, v in split.items():
    check(close(n.get("per_rank_sum_s", {}).get(k), sum(v)), f"profile: per-rank {k} sums to {n.get('per_rank_sum_s')}")
check([c["name"] for c in n.get("calls", [])] == ["MPI_Allreduce", "MPI_Recv", "MPI_Send"], f"profile: call order {n.get('calls')}")
# Wait states (a third panel): kinds largest first, the blamed ranks kept, empty kinds left out.
with_waits = dict(profile, wait_states={"waiting_s": 0.1, "kinds": {
    "late_sender": {"total_s": 0.06, "waits": 3, "by_call": [], "blamed": [{"rank": 3, "caused_s": 0.05}, {"rank": 1, "caused_s": 0.01}]},
    "wait_at_nxn": {"total_s": 0.04, "waits": 4, "by_call": [], "blamed": [{"rank": 2, "caused_s": 0.04}]},
    "late_receiver": {"total_s": 0.0, "waits": 0, "by_call": [], "blamed": []}}})
n = pictures("profile_waits", "profile", write("profile_waits.json", with_waits))
check([(w["kind"], w["blamed"]) for w in n.get("wait_states", [])] == [("late_sender", [3, 1]), ("wait_at_nxn", [2])],
      f"profile wait states: {n.get('wait_states')}")
refused("profile: bad wait states", "profile", write("profile_bad_waits.json", dict(profile, wait_states={"kinds": 3})),
        "-o", path("x.png"), mentions="wait_states")
# Binned entries (xsim bins above 65,536 ranks) are averaged by rank count when rebinned.
first, last, cols = plot_profile.rebin(np.array([0, 1, 3]), np.array([0, 2, 3]), {"compute": np.array([1.0, 4.0, 7.0])}, max_bars=1)
check(first.tolist() == [0] and last.tolist() == [3] and close(cols["compute"][0], (1 + 8 + 7) / 4), f"rebin: {first}, {last}, {cols}")
# A profile without the per-rank section still draws (the totals as one bar).
old = {k: v for k, v in profile.items() if k != "per_rank"}
n = pictures("profile_totals", "profile", write("profile_old.json", old))
check(n.get("per_rank_entries") == 0, "profile without per-rank section")
bad = dict(profile, per_rank=dict(profile["per_rank"], waiting_s=[0.0, 0.1]))
refused("profile: arrays of different lengths", "profile", write("profile_bad.json", bad), "-o", path("x.png"), mentions="length")
write("broken.json", "{\"split\": ")
refused("profile: malformed JSON", "profile", path("broken.json"), "-o", path("x.png"), mentions="not a valid JSON")
refused("profile: not a profile", "profile", matrix, "-o", path("x.png"), mentions="comm.csv")

# --- compare: B has 8 ranks; per-rank means change by known factors.
b = dict(profile, ranks=8, split={"compute": {"total_s": 0.8}, "point_to_point": {"total_s": 0.2},
                                  "collective": {"total_s": 0.3}, "waiting": {"total_s": 0.0}},
         calls=[{"name": "MPI_Send", "calls": 24, "total_s": 0.3}, {"name": "MPI_Bcast", "calls": 8, "total_s": 0.04}])
prof_b = write("profile_b.json", b)
n = pictures("compare", "compare", prof_a, prof_b)
rel = {r["name"]: r["relative_change"] for r in n.get("split", []) + n.get("calls", [])}
# compute: 0.4/4 = 0.1 -> 0.8/8 = 0.1 (0%); collective 0.3/4 -> 0.3/8 (-50%); waiting -> 0 (-100%);
# MPI_Send 0.1/4 -> 0.3/8 (+50%); MPI_Bcast new (null); MPI_Allreduce gone (-100%).
for name, want in (("compute", 0.0), ("collective", -0.5), ("waiting", -1.0), ("MPI_Send", 0.5), ("MPI_Allreduce", -1.0)):
    check(close(rel.get(name), want), f"compare {name}: {rel.get(name)}, expected {want}")
check(rel.get("MPI_Bcast", 0) is None, f"compare MPI_Bcast: {rel.get('MPI_Bcast')}, expected null (new)")
check(n.get("differs") == ["ranks 4 → 8"], f"compare differs: {n.get('differs')}")
check(plot_compare.relative(0.0, 0.0) == 0.0 and plot_compare.relative(2.0, 3.0) == 0.5, "relative()")
# Two run reports: two machines (a latency differs), the predicted time's change.
report = {"ranks": 16, "processes": 1, "simulated_time_s": 0.002, "messages": 10, "bytes": 80,
          "time_split": {"compute_s": 0.016, "point_to_point_s": 0.008, "collective_s": 0.004, "waiting_s": 0.004},
          "machine": {"network": {"level": {"node": {"latency": 1e-6}}}}}
rep_a = write("report_a.json", report)
rep_b = write("report_b.json", dict(report, simulated_time_s=0.003, machine={"network": {"level": {"node": {"latency": 3e-6}}}},
                                    time_split=dict(report["time_split"], waiting_s=0.012)))
n = pictures("compare_reports", "compare", rep_a, rep_b)
check(close(n.get("simulated_time", {}).get("relative_change"), 0.5), f"compare reports: time change {n.get('simulated_time')}")
check(n.get("differs") == ["machine.network.level.node.latency 1e-06 → 3e-06"], f"compare reports differs: {n.get('differs')}")
check(close({r["name"]: r["relative_change"] for r in n.get("split", [])}.get("waiting"), 2.0), "compare reports: waiting +200%")
refused("compare: not a run", "compare", prof_a, matrix, "-o", path("x.png"), mentions="comm.csv")

# --- sweep: runs generated from T = 0.01 + 20*L + 1e6/BW at 16 ranks and 0.02 + 40*L + 2e6/BW
# at 64: the fit is exact, the worst relative error 0.
lat, bw = "network.level.node.latency", "network.level.node.bandwidth"
rows = [f"run_id,ranks,{lat},{bw},simulated_time_s"]
for p, (a_, b_, g_) in ((16, (0.01, 20, 1e6)), (64, (0.02, 40, 2e6))):
    for L in (1e-6, 3e-6, 9e-6):
        for BW in (1e9, 3e9, 9e9):
            rows.append(f"{p}-{L}-{BW},{p},{L},{BW},{a_ + b_ * L + g_ / BW!r}")
sweep = write("sweep.csv", "\n".join(rows) + "\n")
n = pictures("sweep", "sweep", sweep)
check(all(w is not None and w < 1e-9 for w in n.get("worst_relative_error", {0: None}).values()), f"sweep: worst errors {n.get('worst_relative_error')}")
check(n.get("parameters") == [lat, bw], f"sweep parameters {n.get('parameters')}")
sens = n.get("sensitivity", {}).get(lat, {}).get("16", [])
# Latency line at 16 ranks, bandwidth held at its most common value (all equally common: the smallest, 1e9).
check([round(t, 12) for _, t in sens] == [round(0.01 + 20 * L + 1e6 / 1e9, 12) for L in (1e-6, 3e-6, 9e-6)], f"sweep sensitivity {sens}")
fit = write("fit.json", {"time": "simulated_time_s", "latency": lat, "bandwidth": bw, "speed": None,
                         "fits": [{"ranks": 16, "alpha": 0.01, "beta": 20, "gamma": 1e6, "r2": 1, "worst_relative_error": 0, "runs": 9}]})
n = pictures("sweep_fitted", "sweep", sweep, fit, "--only", "fitted")
check(list(n.get("worst_relative_error", {})) == ["16"], f"sweep with FIT.json: {n.get('worst_relative_error')}")
write("sweep_bad.csv", "\n".join(rows[:3] + [rows[3].replace(",1e-06,", ",fast,")]) + "\n")
refused("sweep: bad value", "sweep", path("sweep_bad.csv"), "-o", path("x.png"), mentions="fast")

# --- outputs and arguments
refused("output not png/svg", "matrix", matrix, "-o", path("x.jpg"), mentions=".png or .svg")
refused("output folder missing", "matrix", matrix, "-o", path("no/such/dir/x.png"), mentions="does not exist")
try:
    plot_common.parse_window("1e-3:")
    check(plot_common.parse_window("1e-3:")[1] == math.inf, "open window")
    check(plot_common.parse_ranks("3,0-2,2") == [0, 1, 2, 3], "parse_ranks")
except plot_common.InputError as e:
    check(False, f"parse: {e}")

print(f"{'FAILED' if failures else 'PASS'}: xsim-plot, {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
