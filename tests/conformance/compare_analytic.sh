#!/usr/bin/env bash
# Prints a markdown table of collective completion times, message-level (default
# algorithms) against analytic, for one communicator size and several message sizes.
# Both runs use -xsim-payload off and NULL buffers; the time of a collective is the
# longest any rank spent in it, all ranks starting together (coll_timing).
# usage: compare_analytic.sh <coll_timing exe> <N> <bytes>... (e.g. 64 8 4096 65536)
# Each run goes through the e2e harness (../run_mpi_case.sh): a run that fails stops the
# table instead of leaving a hole in it.
set -u -o pipefail
[[ $# -ge 3 ]] || { sed -n '2,6p' "$0" >&2; exit 2; }
exe=$1 nranks=$2
shift 2
harness=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/run_mpi_case.sh
colls=(barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv alltoall alltoallv
       alltoallw reduce_scatter reduce_scatter_block scan exscan)
analytic=()
for c in "${colls[@]}"; do analytic+=(--env "XSIM_COLL_${c^^}=analytic"); done

# Maximum RTIME per collective, in microseconds, one "name value" line each, of a run of
# <bytes> per message with the given harness options.
times() {
    local b=$1 log
    shift
    log=$(bash "$harness" "$exe" 1 "$nranks" --full --xsim "-xsim-payload off" "$@" -- "$b" nobuf perrank) ||
        { echo "$log" >&2; echo "compare_analytic: the run with $b B messages failed" >&2; exit 1; }
    awk '$1 == "RTIME" { if ($4 > m[$2]) m[$2] = $4 } END { for (c in m) printf "%s %.1f\n", c, m[c] * 1e6 }' <<<"$log"
}

header="| collective |"
rule="|---|"
for b in "$@"; do
    header+=" $b B msg | analytic | diff |"
    rule+="---:|---:|---:|"
done
declare -A msg ana
for b in "$@"; do
    out=$(times "$b") || exit 1
    while read -r c v; do msg[$c,$b]=$v; done <<<"$out"
    out=$(times "$b" "${analytic[@]}") || exit 1
    while read -r c v; do ana[$c,$b]=$v; done <<<"$out"
done
echo "$header"
echo "$rule"
for c in "${colls[@]}"; do
    line="| $c |"
    for b in "$@"; do
        m=${msg[$c,$b]:-?} a=${ana[$c,$b]:-?}
        d=$(awk -v m="$m" -v a="$a" 'BEGIN { if (m > 0) printf "%+.0f%%", (a - m) / m * 100; else print "-" }')
        line+=" $m | $a | $d |"
    done
    echo "$line"
done
