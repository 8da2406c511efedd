#!/usr/bin/env bash
# -xsim-commmatrix known answer (issue 11): runs tests/mpi/comm_pattern.c (a ring of COUNT
# messages of BYTES bytes to rank+1, then a broadcast of BYTES from rank 0) with ../run_mpi_case.sh
# writing the matrix, and compares the whole file with the matrix this pattern must give: the
# ring's pairs plus the binomial broadcast tree's (BYTES below 12 KiB: Bcast's default is the
# binomial tree; parent of rank r is r minus its lowest set bit), by rank, or above LIMIT ranks
# by node of a block mapping with RPN ranks per node (above LIMIT nodes by groups of nodes).
#
# usage: check_comm_matrix.sh [--limit L] [--rpn R] -- <comm_pattern exe> <P> <N> COUNT BYTES
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
limit=4096 rpn=16
while [[ $# -gt 0 && $1 != -- ]]; do
    case $1 in
        --limit) limit=$2; shift 2 ;;
        --rpn) rpn=$2; shift 2 ;;
        *) echo "check_comm_matrix.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[[ $# -eq 6 && $1 == -- ]] || { echo "usage: check_comm_matrix.sh [--limit L] [--rpn R] -- <exe> <P> <N> COUNT BYTES" >&2; exit 2; }
exe=$2 procs=$3 nranks=$4 count=$5 bytes=$6
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_matrix.XXXXXX")
bash "$here/../run_mpi_case.sh" "$exe" "$procs" "$nranks" --timeout 120 \
    --xsim "-xsim-commmatrix $dir/matrix.csv -xsim-commmatrix-limit $limit -xsim-set mapping.ranks_per_node=$rpn" \
    -- "$count" "$bytes" || { echo "check_comm_matrix: the run failed; files kept in $dir"; exit 1; }
python3 - "$dir/matrix.csv" "$procs" "$nranks" "$count" "$bytes" "$limit" "$rpn" >"$dir/expected.csv" <<'PY'
import sys
_, path, P, N, count, size, limit, rpn = sys.argv
P, N, count, size, limit, rpn = map(int, (P, N, count, size, limit, rpn))
pairs = {}
def add(src, dst, messages, nbytes):
    m, b = pairs.get((src, dst), (0, 0))
    pairs[(src, dst)] = (m + messages, b + nbytes)
if count:
    for r in range(N):
        add(r, (r + 1) % N, count, count * size)
for r in range(1, N):
    add(r - (r & -r), r, 1, size)
nodes = (N + rpn - 1) // rpn
if N <= limit:
    entity, entities, of, extra = "rank", N, (lambda r: r), ""
elif nodes <= limit:
    entity, entities, of, extra = "node", nodes, (lambda r: r // rpn), ""
else:
    k = (nodes + limit - 1) // limit
    entity, entities, of, extra = "node_group", (nodes + k - 1) // k, (lambda r: r // rpn // k), f" nodes_per_entity={k}"
agg = {}
for (s, d), (m, b) in pairs.items():
    key = (of(s), of(d))
    am, ab = agg.get(key, (0, 0))
    agg[key] = (am + m, ab + b)
print(f"# xsim comm matrix: entity={entity} entities={entities} ranks={N} processes={P}{extra}")
print("src,dst,messages,bytes")
for (s, d) in sorted(agg):
    print(f"{s},{d},{agg[(s, d)][0]},{agg[(s, d)][1]}")
PY
if diff -u "$dir/expected.csv" "$dir/matrix.csv"; then
    echo "check_comm_matrix: $(($(wc -l <"$dir/matrix.csv") - 2)) rows as expected"
    rm -rf "$dir"
    exit 0
fi
echo "check_comm_matrix: the matrix differs from the expected one (- expected, + written); files kept in $dir"
exit 1
