#!/usr/bin/env bash
# Prints a markdown table of collective completion times, message-level (default
# algorithms) against analytic, for one communicator size and several message sizes.
# Both runs use -xsim-payload off and NULL buffers; the time of a collective is the
# longest any rank spent in it, all ranks starting together (coll_timing).
# usage: compare_analytic.sh <coll_timing exe> <N> <bytes>... (e.g. 64 8 4096 65536)
set -u -o pipefail
[[ $# -ge 3 ]] || { sed -n '2,6p' "$0" >&2; exit 2; }
exe=$1 nranks=$2
shift 2
MPIRUN=${MPIRUN:-mpirun}
read -r -a flags <<< "${MPIRUN_FLAGS:---allow-run-as-root --oversubscribe}"
colls=(barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv alltoall alltoallv
       alltoallw reduce_scatter reduce_scatter_block scan exscan)
analytic=()
for c in "${colls[@]}"; do analytic+=("XSIM_COLL_${c^^}=analytic"); done

# Maximum RTIME per collective, in microseconds, one "name value" line each.
times() {
    "$@" | awk '$1 == "RTIME" { if ($4 > m[$2]) m[$2] = $4 } END { for (c in m) printf "%s %.1f\n", c, m[c] * 1e6 }'
}

header="| collective |"
rule="|---|"
for b in "$@"; do
    header+=" $b B msg | analytic | diff |"
    rule+="---:|---:|---:|"
done
declare -A msg ana
for b in "$@"; do
    run=("$MPIRUN" "${flags[@]}" -np 1 "$exe" "$b" nobuf perrank -xsim-np "$nranks" -xsim-compute none -xsim-payload off)
    while read -r c v; do msg[$c,$b]=$v; done < <(times "${run[@]}")
    while read -r c v; do ana[$c,$b]=$v; done < <(times env "${analytic[@]}" "${run[@]}")
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
