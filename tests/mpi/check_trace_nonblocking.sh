#!/usr/bin/env bash
# -xsim-trace of nonblocking collectives (issue 11): runs tests/mpi/trace_nonblocking.c
# untraced, traced to JSON and (when otf2-print is installed) to OTF2, and checks
#  - identical virtual times (the report's predicted time and VTIME), traced or not;
#  - JSON: per rank 2 x ITER "MPI_Allreduce completed" / "MPI_Barrier completed" instants,
#    each inside one of the rank's MPI_Waitall events;
#  - OTF2 (otf2-print): per location 2 x ITER NON_BLOCKING_COLLECTIVE_REQUEST and as many
#    NON_BLOCKING_COLLECTIVE_COMPLETE (ITER ALLREDUCE, ITER BARRIER), every completion's
#    request id issued before on the same location and still open, and no MPI_COLLECTIVE_BEGIN/END records
#    (those are for blocking collectives).
#
# usage: check_trace_nonblocking.sh <trace_nonblocking exe> <P> <N> ITER
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -eq 4 ]] || { echo "usage: check_trace_nonblocking.sh <exe> <P> <N> ITER" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 iterations=$4
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_trace_nbc.XXXXXX")
fail() { echo "check_trace_nonblocking: $*; files kept in $dir"; exit 1; }
source "$here/trace_check_runs.sh"
trace_three_runs "" ""

python3 - "$dir" "$procs" "$nranks" "$iterations" "$have_otf2" <<'PY' || fail "the traces are not what the program gives"
import json, sys, collections
d, P, N, ITER, have_otf2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] == "1"
events = []
for path in [f"{d}/trace.json"] + [f"{d}/trace.json.{p}" for p in range(1, P)]:
    events += json.load(open(path))["traceEvents"]
waits = collections.defaultdict(list)
for e in events:
    if e["ph"] == "X" and e["name"] == "MPI_Waitall":
        waits[e["tid"]].append((e["ts"], e["ts"] + e["dur"]))
done = collections.Counter()
for e in events:
    if e["ph"] != "i":
        continue
    assert e["args"]["nonblocking"] is True and e["args"]["comm_name"] == "MPI_COMM_WORLD", e
    assert any(a <= e["ts"] <= b for a, b in waits[e["tid"]]), f"completion outside the rank's waits: {e}"
    done[(e["tid"], e["name"])] += 1
for r in range(N):
    for name in ("MPI_Allreduce completed", "MPI_Barrier completed"):
        assert done[(r, name)] == ITER, f"rank {r}: {done[(r, name)]} '{name}' instants, expected {ITER}"
if have_otf2:
    # Request ids are reused once completed (as MPI handles are): a completion must name one
    # issued on its location and still open.
    issued, open_ids = collections.Counter(), collections.defaultdict(collections.Counter)
    completed, ops, blocking = collections.Counter(), collections.Counter(), 0
    for line in open(f"{d}/print.txt"):
        words = line.split()
        if not words:
            continue
        if words[0] in ("MPI_COLLECTIVE_BEGIN", "MPI_COLLECTIVE_END"):
            blocking += 1
        if words[0] == "NON_BLOCKING_COLLECTIVE_REQUEST":
            issued[int(words[1])] += 1
            open_ids[int(words[1])][words[-1]] += 1
        elif words[0] == "NON_BLOCKING_COLLECTIVE_COMPLETE":
            loc = int(words[1])
            assert open_ids[loc][words[-1]] > 0, f"location {loc}: completion of a request not open: {line}"
            open_ids[loc][words[-1]] -= 1
            completed[loc] += 1
            ops[(loc, line.split("Operation: ")[1].split(",")[0])] += 1
    assert blocking == 0, f"{blocking} MpiCollectiveBegin/End records for nonblocking collectives"
    for r in range(N):
        assert issued[r] == 2 * ITER and completed[r] == 2 * ITER, f"location {r}: {issued[r]} requests, {completed[r]} completions"
        assert ops[(r, "ALLREDUCE")] == ITER and ops[(r, "BARRIER")] == ITER, f"location {r}: {ops}"
print(f"check_trace_nonblocking: {N} ranks x {ITER} iterations: JSON instants and OTF2 request/complete pairs as expected")
PY
rm -rf "$dir"
