#!/usr/bin/env bash
# One-sided traffic in -xsim-commmatrix: runs tests/mpi/comm_pattern_rma.c with and without its
# operations (the same window and fences) and checks that the matrices differ by exactly them:
# rank r -> r+1, 2 messages of 12 + 4 bytes (the put's ints, the fetch-and-op's operand);
# rank r+1 -> r, 2 messages of 40 + 4 bytes (the get's doubles, the fetched int).
#
# usage: check_comm_matrix_rma.sh <comm_pattern_rma exe> <P> <N>   (N >= 3)
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -eq 3 && $3 -ge 3 ]] || { echo "usage: check_comm_matrix_rma.sh <exe> <P> <N>, N >= 3" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_matrix_rma.XXXXXX")
for mode in ops none; do
    bash "$here/../run_mpi_case.sh" "$exe" "$procs" "$nranks" --timeout 120 \
        --xsim "-xsim-commmatrix $dir/$mode.csv" -- "$mode" ||
        { echo "check_comm_matrix_rma: the run with '$mode' failed; files kept in $dir"; exit 1; }
done
python3 - "$dir/ops.csv" "$dir/none.csv" "$nranks" <<'PY' || { echo "files kept in $dir"; exit 1; }
import csv, sys
def load(path):
    with open(path) as f:
        rows = [line for line in f if not line.startswith("#")]
    return {(int(r["src"]), int(r["dst"])): (int(r["messages"]), int(r["bytes"])) for r in csv.DictReader(rows)}
ops, none, n = load(sys.argv[1]), load(sys.argv[2]), int(sys.argv[3])
expected = {}
for r in range(n):
    expected[(r, (r + 1) % n)] = (2, 16)
    expected[((r + 1) % n, r)] = (2, 44)
diff = {}
for key in set(ops) | set(none):
    a, b = ops.get(key, (0, 0)), none.get(key, (0, 0))
    if a != b:
        diff[key] = (a[0] - b[0], a[1] - b[1])
if diff != expected:
    wrong = sorted(set(diff.items()) ^ set(expected.items()))[:10]
    print("check_comm_matrix_rma: the operations' difference is not as expected; (pair, (messages, bytes)) "
          "in one but not the other:", wrong)
    sys.exit(1)
print(f"check_comm_matrix_rma: {len(diff)} pairs differ by the operations, as expected")
PY
rm -rf "$dir"
