#!/usr/bin/env bash
# -xsim-trace known answers (issue 11): runs tests/mpi/trace_pattern.c untraced and traced
# (../run_mpi_case.sh, both with -xsim-report) and checks
#  - the virtual times: the report's predicted time and rank 0's VTIME line are identical;
#  - the JSON trace (every process's part, merged): per traced rank the complete events of
#    each call and the flow starts/ends the pattern must give, each flow's two ends share
#    one id, the first message's bytes/peer/tag and the allreduce's figures in the args;
#  - with --otf2, the OTF2 archive read back by otf2-print: per location, the enter/leave
#    counts per region equal the JSON's, MPI_Send/Isend/IsendComplete/IrecvRequest/Irecv/
#    Recv counts, one MpiCollectiveEnd ALLREDUCE per iteration; `otf2-print -G` reads the
#    definitions (otf2-estimator estimates sizes from counts given on its input: it reads no
#    archive, so it is not run).
# Filters: --ranks LIST (-xsim-trace-ranks), --calls KINDS (-xsim-trace-calls),
# --window T0:T1 (-xsim-trace-window: then only "every traced call starts inside it, some
# were traced, and fewer than all" is checked).
#
# usage: check_trace.sh [--otf2] [--ranks L] [--calls K] [--window W] -- <trace_pattern exe> <P> <N> ITER BYTES
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
otf2=0 ranks="" calls="" window=""
while [[ $# -gt 0 && $1 != -- ]]; do
    case $1 in
        --otf2) otf2=1; shift ;;
        --ranks) ranks=$2; shift 2 ;;
        --calls) calls=$2; shift 2 ;;
        --window) window=$2; shift 2 ;;
        *) echo "check_trace.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[[ $# -eq 6 && $1 == -- ]] || { echo "usage: check_trace.sh [--otf2] [--ranks L] [--calls K] [--window W] -- <exe> <P> <N> ITER BYTES" >&2; exit 2; }
exe=$2 procs=$3 nranks=$4 iterations=$5 bytes=$6
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_trace.XXXXXX")
fail() { echo "check_trace: $*; files kept in $dir"; exit 1; }
ext=json
((otf2)) && ext=otf2
filters=""
[[ -n $ranks ]] && filters+=" -xsim-trace-ranks $ranks"
[[ -n $calls ]] && filters+=" -xsim-trace-calls $calls"
[[ -n $window ]] && filters+=" -xsim-trace-window $window"

run() {  # run <name> <xsim options>
    bash "$here/../run_mpi_case.sh" "$exe" "$procs" "$nranks" --timeout 150 --xsim "-xsim-report $dir/$1.report.json $2" \
        -- "$iterations" "$bytes" >"$dir/$1.out" 2>&1 || { cat "$dir/$1.out"; fail "the $1 run failed"; }
}
run untraced ""
run traced "-xsim-trace $dir/trace.$ext$filters"
((otf2)) && run traced_json "-xsim-trace $dir/trace.json$filters"

# Identical virtual times, traced or not.
python3 - "$dir" <<'PY' || fail "tracing changed virtual times"
import json, sys, re
d = sys.argv[1]
def times(name):
    report = json.load(open(f"{d}/{name}.report.json"))
    vtime = [l for l in open(f"{d}/{name}.out") if l.startswith("VTIME")]
    return report["simulated_time_s"], vtime
a, b = times("untraced"), times("traced")
print(f"untraced {a[0]!r} {a[1]}, traced {b[0]!r} {b[1]}")
sys.exit(0 if a == b else 1)
PY

json_base=$dir/trace.json
python3 - "$json_base" "$procs" "$nranks" "$iterations" "$bytes" "$ranks" "$calls" "$window" <<'PY' || fail "the JSON trace is not what the pattern gives"
import json, sys, collections
base, P, N, ITER, BYTES, ranks, calls, window = sys.argv[1:]
P, N, ITER, BYTES = int(P), int(N), int(ITER), int(BYTES)
events, parts = [], [base] + [f"{base}.{p}" for p in range(1, P)]
for i, path in enumerate(parts):
    doc = json.load(open(path))
    assert doc["otherData"]["xsim_ranks"] == N and doc["otherData"]["xsim_processes"] == P, doc["otherData"]
    # Every part names all the parts (as -xsim-trace was given), and its own process.
    assert doc["otherData"]["xsim_parts"] == parts, (doc["otherData"]["xsim_parts"], parts)
    assert doc["otherData"]["xsim_process"] == i, doc["otherData"]
    events += doc["traceEvents"]
traced = set(range(N))
if ranks:
    traced = set()
    for item in ranks.split(","):
        a, _, b = item.partition("-")
        traced |= set(range(int(a), int(b or a) + 1))
kinds = set((calls or "all").split(","))
if "all" in kinds: kinds = {"p2p", "coll", "other"}
cat = {"MPI_Irecv": "p2p", "MPI_Isend": "p2p", "MPI_Waitall": "p2p", "MPI_Send": "p2p", "MPI_Recv": "p2p",
       "MPI_Allreduce": "coll", "MPI_Barrier": "coll", "MPI_Comm_split": "coll", "MPI_Init": "coll",
       "MPI_Finalize": "coll", "MPI_Comm_free": "other", "MPI_Comm_rank": "other", "MPI_Comm_size": "other"}
X = [e for e in events if e["ph"] == "X"]
tracks = {e["tid"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
assert tracks == traced, f"tracks {sorted(tracks)} != traced ranks {sorted(traced)}"
for e in X:
    assert e["dur"] >= 0 and e["ts"] >= 0, e
    assert e["cat"] == cat.get(e["name"], e["cat"]), e
    assert e["cat"] in kinds, f"{e['name']} ({e['cat']}) traced although -xsim-trace-calls {calls}"
if window:
    lo, _, hi = window.partition(":")
    lo = float(lo or 0) * 1e6; hi = float(hi) * 1e6 if hi else float("inf")
    assert all(lo - 1e-6 <= e["ts"] < hi + 1e-6 for e in X), "a call outside the window was traced"
    assert X, "nothing traced in the window"
    assert len(X) < N * 5 * ITER, "the window left no call out"  # 5+ calls per rank and iteration
    print(f"check_trace: {len(X)} calls, all inside the window {window}")
    sys.exit(0)
count = collections.Counter((e["tid"], e["name"]) for e in X)
flows_s = collections.Counter(e["tid"] for e in events if e["ph"] == "s")
flows_f = collections.Counter(e["tid"] for e in events if e["ph"] == "f")
for r in sorted(traced):
    expect = {"MPI_Irecv": ITER, "MPI_Isend": ITER, "MPI_Waitall": ITER, "MPI_Allreduce": ITER,
              "MPI_Send": ITER if r % 2 == 0 else 0, "MPI_Recv": ITER if r % 2 else 0,
              "MPI_Barrier": 1, "MPI_Comm_split": 1, "MPI_Init": 1, "MPI_Finalize": 1}
    for name, n in expect.items():
        if cat[name] not in kinds: n = 0
        assert count[(r, name)] == n, f"rank {r}: {count[(r, name)]} {name}, expected {n}"
    p2p = "p2p" in kinds
    assert flows_s[r] == (ITER * (2 if r % 2 == 0 else 1) if p2p else 0), f"rank {r}: {flows_s[r]} flow starts"
    assert flows_f[r] == (ITER * (1 if r % 2 == 0 else 2) if p2p else 0), f"rank {r}: {flows_f[r]} flow ends"
# Each message's ends share one id: a flow end whose sender is traced has its start.
starts = {e["id"]: e for e in events if e["ph"] == "s"}
ends = [e for e in events if e["ph"] == "f"]
assert len(set(starts)) == sum(1 for e in events if e["ph"] == "s"), "two flow starts share an id"
pairs = 0
for f in ends:
    sender = (int(f["id"], 16) - 1) >> 32  # ids are hex strings: beyond 2^53 a JSON number is rounded
    if sender in traced and "p2p" in kinds:
        s = starts.get(f["id"])
        assert s is not None, f"flow end {f} has no start"
        assert s["ts"] <= f["ts"], (s, f)
        pairs += 1
if "p2p" in kinds:
    for e in X:
        if e["name"] == "MPI_Send":
            a = e["args"]
            assert a["bytes"] == BYTES and a["peer"] == e["tid"] + 1 and 1000 <= a["tag"] < 1000 + ITER, e
if "coll" in kinds:
    for e in X:
        if e["name"] == "MPI_Allreduce":
            a = e["args"]
            assert a["collective"] == "MPI_Allreduce" and a["comm"] == 0 and a["bytes_sent"] >= 4, e
print(f"check_trace: JSON: {len(X)} calls, {len(starts)} message starts, {pairs} complete arrows on {len(traced)} ranks")
PY

if ((otf2)); then
    command -v otf2-print >/dev/null || { echo "check_trace: otf2-print is not installed; OTF2 read-back skipped"; rm -rf "$dir"; exit 0; }
    otf2-print "$dir/trace.otf2" >"$dir/print.txt" 2>"$dir/print.err" || { cat "$dir/print.err"; fail "otf2-print could not read the archive"; }
    [[ -s $dir/print.err ]] && { cat "$dir/print.err"; fail "otf2-print complained"; }
    otf2-print -G "$dir/trace.otf2" >"$dir/defs.txt" 2>&1 || fail "otf2-print -G could not read the definitions"
    python3 - "$dir" "$nranks" "$iterations" "$ranks" "$calls" <<'PY' || fail "the OTF2 trace is not what the pattern gives"
import collections, json, re, sys
d, N, ITER, ranks, calls = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
traced = set(range(N))
if ranks:
    traced = set()
    for item in ranks.split(","):
        a, _, b = item.partition("-")
        traced |= set(range(int(a), int(b or a) + 1))
count = collections.Counter()
regions = collections.Counter()
ops = collections.Counter()
last = {}
for line in open(f"{d}/print.txt"):
    m = re.match(r"^(\w+)\s+(\d+)\s+(\d+)\s+(.*)$", line)
    if not m or m.group(1) in ("EVENT",):
        continue
    kind, loc, t, rest = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
    assert t >= last.get(loc, 0), f"location {loc}: time goes back at {line}"
    last[loc] = t
    count[(loc, kind)] += 1
    if kind == "ENTER":
        regions[(loc, re.search(r'Region: "([^"]+)"', rest).group(1))] += 1
    if kind == "MPI_COLLECTIVE_END":
        ops[(loc, re.search(r"Operation: (\w+)", rest).group(1))] += 1
assert set(last) == traced, f"locations {sorted(last)} != traced ranks {sorted(traced)}"
# Enter/leave per region: the same as the JSON trace's complete events of the same run.
events = json.load(open(f"{d}/trace.json"))["traceEvents"]
import glob
for part in sorted(glob.glob(f"{d}/trace.json.*")):
    events += json.load(open(part))["traceEvents"]
xcount = collections.Counter((e["tid"], e["name"]) for e in events if e["ph"] == "X")
assert dict(regions) == dict(xcount), f"OTF2 regions {dict(regions)} != JSON calls {dict(xcount)}"
p2p = not calls or "p2p" in calls or "all" in calls
coll = not calls or "coll" in calls or "all" in calls
for r in traced:
    assert count[(r, "ENTER")] == count[(r, "LEAVE")], f"rank {r}: enter/leave differ"
    even = r % 2 == 0
    expect = {"MPI_ISEND": ITER, "MPI_ISEND_COMPLETE": ITER, "MPI_IRECV_REQUEST": ITER, "MPI_IRECV": ITER,
              "MPI_SEND": ITER if even else 0, "MPI_RECV": 0 if even else ITER}
    for kind, n in expect.items():
        n = n if p2p else 0
        assert count[(r, kind)] == n, f"rank {r}: {count[(r, kind)]} {kind}, expected {n}"
    assert ops[(r, "ALLREDUCE")] == (ITER if coll else 0), f"rank {r}: {ops[(r, 'ALLREDUCE')]} allreduce ends"
    assert ops[(r, "BARRIER")] == (1 if coll else 0), f"rank {r}: {ops[(r, 'BARRIER')]} barrier ends"
    assert count[(r, "MPI_COLLECTIVE_BEGIN")] == count[(r, "MPI_COLLECTIVE_END")], f"rank {r}: collective begin/end differ"
defs = open(f"{d}/defs.txt").read()
assert re.search(r"CLOCK_PROPERTIES.*Ticks per Seconds: 1000000000000", defs), "clock resolution is not 1e12"
assert "MPI_COMM_WORLD" in defs and "xsim simulated machine" in defs, "definitions lack WORLD or the machine"
total = sum(count.values())
print(f"check_trace: OTF2: {total} events on {len(last)} locations, as the pattern and the JSON trace give")
PY
fi
echo "check_trace: PASS"
rm -rf "$dir"
