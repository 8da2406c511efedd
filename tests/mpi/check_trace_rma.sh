#!/usr/bin/env bash
# -xsim-trace of one-sided communication: runs tests/mpi/trace_rma.c untraced (with
# -xsim-profile), traced to JSON and (when otf2-print is installed) to OTF2, and checks
#  - identical virtual times (the report's simulated time and VTIME), traced or not;
#  - the profile: each one-sided call's bytes (the data it moved) over all ranks;
#  - OTF2's window definition (RMA_WIN) carries the name MPI_Win_set_name gave it;
#  - OTF2 (otf2-print), per traced location r of N, ITER iterations: one RMA_WIN_CREATE and
#    one RMA_WIN_DESTROY, 2 + 3 x ITER RMA_COLLECTIVE_BEGIN/END (creation, free, fences);
#    RMA_PUT, RMA_GET and RMA_ATOMIC with the program's targets (right, left, two to the
#    right) and sizes; each operation completed once by RMA_OP_COMPLETE_BLOCKING (fence,
#    unlock, MPI_Win_complete) or, for MPI_Rput/MPI_Rget, RMA_OP_COMPLETE_NON_BLOCKING
#    (MPI_Waitall) and RMA_OP_COMPLETE_REMOTE (MPI_Win_flush_all), with the matching id of an
#    operation issued before on the same location; RMA_REQUEST/ACQUIRE/RELEASE_LOCK for the
#    locks (exclusive right, shared left, lock_all's on every member), 4 x ITER
#    RMA_GROUP_SYNC; no MPI_SEND/MPI_RECV (the window's notices and barriers are not user
#    traffic) and no MPI collective record inside an MPI_Win_* call;
#  - JSON: per operation of a traced origin a flow start "s" on its track, a step "t" on the
#    target's window memory track (tid = N + target) when the target is traced, and an end
#    "f" back on the origin's track, in time order, with the same id.
#
# With --calls rma (-xsim-trace-calls rma) only one-sided calls are traced: every JSON call
# event and OTF2 region is one, the operations and their completions in one-sided calls are all
# there, the completions in MPI_Waitall (of MPI_Rput/MPI_Rget) are not.
#
# usage: check_trace_rma.sh [--ranks LIST] [--calls rma] <trace_rma exe> <P> <N> ITER
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
ranks="" calls=""
while [[ ${1:-} == --* ]]; do
    case $1 in
        --ranks) ranks=$2 ;;
        --calls) calls=$2 ;;
        *) echo "check_trace_rma: unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
[[ $# -eq 4 ]] || { echo "usage: check_trace_rma.sh [--ranks LIST] [--calls rma] <exe> <P> <N> ITER" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 iterations=$4
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_trace_rma.XXXXXX")
fail() { echo "check_trace_rma: $*; files kept in $dir"; exit 1; }
filter=""
[[ -n $ranks ]] && filter="-xsim-trace-ranks $ranks"
[[ -n $calls ]] && filter="$filter -xsim-trace-calls $calls"
source "$here/trace_check_runs.sh"
trace_three_runs "-xsim-profile $dir/profile.csv" "$filter"
if [[ $have_otf2 == 1 ]]; then
    grep -q '^RMA_WIN .*Name: "halo words"' "$dir/defs.txt" || fail "the window's RMA_WIN is not named by MPI_Win_set_name"
fi

/usr/bin/python3 - "$dir" "$procs" "$nranks" "$iterations" "$have_otf2" "$ranks" "$calls" <<'PY' || fail "the traces are not what the program gives"
import csv, json, sys, collections, re
d, P, N, ITER, have_otf2, ranks = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1", sys.argv[6]
only_rma = sys.argv[7] == "rma"
traced = set(range(N))
if ranks:
    traced = set()
    for part in ranks.split(","):
        a, _, b = part.partition("-")
        traced |= set(range(int(a), int(b or a) + 1))


# The profile: the bytes each one-sided call moved (sent + fetched), over all ranks.
expected_bytes = {"MPI_Put": (16 + 16 + 4) * N * ITER, "MPI_Get": (12 + 12) * N * ITER, "MPI_Accumulate": 20 * N * ITER,
                  "MPI_Fetch_and_op": 8 * N * ITER, "MPI_Compare_and_swap": 12 * N * ITER, "MPI_Rput": 8 * N * ITER,
                  "MPI_Rget": 8 * N * ITER}
expected_calls = {"MPI_Put": 3 * N * ITER, "MPI_Get": 2 * N * ITER}
rows = {r["name"]: r for r in csv.DictReader(open(f"{d}/profile.csv")) if r["kind"] == "call"}
for call, b in expected_bytes.items():
    assert call in rows, f"profile: no row for {call}"
    assert int(rows[call]["bytes"]) == b, f"profile: {call} moved {rows[call]['bytes']} bytes, expected {b}"
    assert int(rows[call]["calls"]) == expected_calls.get(call, N * ITER), f"profile: {call}: {rows[call]['calls']} calls"

right = lambda r: (r + 1) % N
left = lambda r: (r + N - 1) % N

# JSON: one flow per operation: s (origin) -> t (target's window memory) -> f (origin).
events = []
for path in [f"{d}/trace.json"] + [f"{d}/trace.json.{p}" for p in range(1, P)]:
    events += json.load(open(path))["traceEvents"]
flows = collections.defaultdict(dict)
ops = collections.Counter()
for e in events:
    if e.get("cat") != "rma" or e["ph"] not in "stf":
        continue
    assert e["ph"] not in flows[e["id"]], f"two '{e['ph']}' for flow {e['id']}: {e}"
    flows[e["id"]][e["ph"]] = e
for fid, f in flows.items():
    if "s" not in f:
        assert "t" in f and f["t"]["tid"] - N in traced and len(f) == 1, f"flow {fid} without its start: {f}"
        continue
    s = f["s"]
    origin, target = s["tid"], s["args"]["target"]
    assert origin in traced, s
    ops[(origin, s["name"], target, s["args"]["bytes"], s["args"]["bytes_fetched"])] += 1
    if only_rma and s["args"]["bytes"] + s["args"]["bytes_fetched"] == 8 and s["name"] in ("MPI_Put", "MPI_Get"):
        assert "f" not in f, f"flow {fid}: an end in MPI_Waitall, which -xsim-trace-calls rma does not trace: {f}"
        f["f"] = dict(s, ts=float("inf"))  # for the checks below
    assert "f" in f and f["f"]["tid"] == origin and f["f"]["ts"] >= s["ts"], f"flow {fid}: no end on the origin: {f}"
    assert all(e["name"] == s["name"] for e in f.values()), f"flow {fid}: its events' names differ: {f}"
    if target in traced:
        assert "t" in f and f["t"]["tid"] == N + target and s["ts"] <= f["t"]["ts"] <= f["f"]["ts"], f"flow {fid}: {f}"
    else:
        assert "t" not in f, f
for r in traced:
    want = {(r, "MPI_Put", right(r), 16, 0): 2 * ITER, (r, "MPI_Put", right(r), 8, 0): ITER,
            (r, "MPI_Put", right(r), 4, 0): ITER, (r, "MPI_Get", left(r), 0, 12): 2 * ITER,
            (r, "MPI_Get", left(r), 0, 8): ITER, (r, "MPI_Accumulate", (r + 2) % N, 20, 0): ITER,
            (r, "MPI_Get_accumulate", right(r), 4, 4): ITER, (r, "MPI_Compare_and_swap", left(r), 8, 4): ITER}
    mine = collections.Counter({k: v for k, v in ops.items() if k[0] == r})
    assert mine == collections.Counter(want), f"rank {r}: operations {sorted(mine.items())}, expected {sorted(want.items())}"
calls = collections.Counter((e["tid"], e["name"]) for e in events if e["ph"] == "X" and e.get("cat") == "rma")
for r in traced:
    assert calls[(r, "MPI_Win_fence")] == 2 * ITER + ITER and calls[(r, "MPI_Win_lock")] == 2 * ITER, calls
    assert calls[(r, "MPI_Win_create")] == 1 and calls[(r, "MPI_Win_free")] == 1, calls
assert not any(e["ph"] == "X" and e.get("cat") == "rma" and e["tid"] not in traced for e in events)
if only_rma:
    others = [e for e in events if e["ph"] == "X" and e.get("cat") != "rma"]
    assert not others, f"-xsim-trace-calls rma traced {others[:3]}"

if have_otf2:
    # otf2-print: "NAME  LOCATION  TIME  Key: value, Key: value, ..."
    records = collections.defaultdict(list)
    for line in open(f"{d}/print.txt"):
        m = re.match(r"^([A-Z_]+)\s+(\d+)\s+(\d+)\s+(.*)$", line.rstrip("\n"))
        if not m:
            continue
        fields = {}
        for item in re.split(r", (?=[A-Z][A-Za-z ]*: )", m.group(4)):
            k, _, v = item.partition(": ")
            fields[k.strip()] = v.strip()
        records[int(m.group(2))].append((m.group(1), int(m.group(3)), fields))
    assert set(records) == traced, f"locations {sorted(records)}, expected {sorted(traced)}"
    rma_calls = {"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Fetch_and_op", "MPI_Compare_and_swap", "MPI_Rput", "MPI_Rget"}
    rma_calls |= {"MPI_Win_" + c for c in ("create", "free", "fence", "lock", "unlock", "lock_all", "unlock_all", "flush_all",
                                           "post", "start", "complete", "wait", "set_name")}
    num = lambda v: int(v.split()[0]) if v.split()[0].lstrip("-").isdigit() else v.split()[0]
    for r in traced:
        c = collections.Counter(name for name, _, _ in records[r])
        assert c["RMA_WIN_CREATE"] == 1 and c["RMA_WIN_DESTROY"] == 1, (r, c)
        assert c["RMA_COLLECTIVE_BEGIN"] == c["RMA_COLLECTIVE_END"] == 2 + 3 * ITER, (r, c)
        assert c["RMA_GROUP_SYNC"] == 4 * ITER, (r, c)
        for k in ("MPI_SEND", "MPI_ISEND", "MPI_RECV", "MPI_IRECV"):
            assert c[k] == 0, f"location {r}: {c[k]} {k} records (the program sends no messages)"
        issued, done = {}, collections.Counter()
        put, get, atomic = collections.Counter(), collections.Counter(), collections.Counter()
        locks = collections.Counter()
        stack, windows = [], set()
        for name, t, f in records[r]:
            if name == "ENTER":
                stack.append(f["Region"].split('"')[1])
                assert not only_rma or stack[-1] in rma_calls, f"location {r}: -xsim-trace-calls rma traced {stack[-1]}"
            elif name == "LEAVE":
                stack.pop()
            elif name.startswith("MPI_COLLECTIVE"):
                assert not any(s.startswith("MPI_Win_") for s in stack), f"location {r}: {name} inside {stack}"
            if name.startswith("RMA_") and name != "RMA_COLLECTIVE_BEGIN":
                windows.add(f["Window"])
                assert stack and stack[-1].startswith("MPI_"), f"location {r}: {name} outside an MPI call"
            if name in ("RMA_PUT", "RMA_GET", "RMA_ATOMIC"):
                mid = f["Matching"]
                assert mid not in issued, f"location {r}: matching id {mid} issued twice"
                issued[mid] = name
                if name == "RMA_PUT":
                    put[(num(f["Remote"]), num(f["Bytes"]))] += 1
                elif name == "RMA_GET":
                    get[(num(f["Remote"]), num(f["Bytes"]))] += 1
                else:
                    atomic[(f["Type"], num(f["Remote"]), num(f["Sent"]), num(f["Received"]))] += 1
            elif name.startswith("RMA_OP_COMPLETE"):
                mid = f["Matching"]
                assert mid in issued, f"location {r}: {name} of matching id {mid} never issued"
                done[(mid, name)] += 1
            elif name in ("RMA_REQUEST_LOCK", "RMA_ACQUIRE_LOCK", "RMA_RELEASE_LOCK"):
                locks[(name, num(f["Remote"]), f.get("Type", ""))] += 1
        assert len(windows) == 1, f"location {r}: windows {windows}"
        assert put == collections.Counter({(right(r), 16): 2 * ITER, (right(r), 8): ITER, (right(r), 4): ITER}), (r, put)
        assert get == collections.Counter({(left(r), 12): 2 * ITER, (left(r), 8): ITER}), (r, get)
        assert atomic == collections.Counter({("ACCUMULATE", (r + 2) % N, 20, 0): ITER,
                                              ("FETCH_AND_ACCUMULATE", right(r), 4, 4): ITER,
                                              ("COMPARE_AND_SWAP", left(r), 8, 4): ITER}), (r, atomic)
        kinds = collections.Counter(name for (_, name) in done)
        assert kinds["RMA_OP_COMPLETE_BLOCKING"] == 8 * ITER and kinds["RMA_OP_COMPLETE_NON_BLOCKING"] == (0 if only_rma else 2 * ITER) \
            and kinds["RMA_OP_COMPLETE_REMOTE"] == 2 * ITER, (r, kinds)
        assert all(v == 1 for v in done.values()), f"location {r}: an operation completed twice the same way"
        assert len(issued) == 10 * ITER, (r, len(issued))
        for name in ("RMA_REQUEST_LOCK", "RMA_ACQUIRE_LOCK"):
            assert locks[(name, right(r), "EXCLUSIVE")] + locks[(name, left(r), "SHARED")] == 2 * ITER, (r, locks)
        assert locks[("RMA_RELEASE_LOCK", right(r), "")] + locks[("RMA_RELEASE_LOCK", left(r), "")] == 2 * ITER, (r, locks)
        assert sum(v for k, v in locks.items() if k[1] not in (right(r), left(r))) == 3 * ITER, (r, locks)
print(f"check_trace_rma: {N} ranks x {ITER} iterations ({len(traced)} traced): profile bytes, OTF2 RMA records and JSON flows as expected")
PY
rm -rf "$dir"
