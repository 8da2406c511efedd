#!/usr/bin/env bash
# allgather_scale.sh: what simulating one MPI_Allgather of ~64 KB in all costs, message-level
# (the ring the default selector picks above 50000 bytes: p(p-1) messages) against the
# analytic algorithm with data (direct copies between the ranks' buffers, sent between real
# processes as CollectiveData events; the default choice from -xsim-analytic-ranks 4096 up,
# the option's default). For each RANKS and P runs
#   XSIM_COLL_ALLGATHER=ring|auto mpirun -np P allgather_scale -xsim-np RANKS -xsim-compute none [-xsim-analytic-ranks 4096] TOTAL
# and prints a markdown table: ranks | P | algorithm | wall s | predicted s | results.
# "ring" runs force the ring (the selector's choice, and the default before analytic
# collectives became it); "default" runs the default selection with -xsim-analytic-ranks 4096.
#
# Usage: bench/allgather_scale.sh [--ranks "4096 16384"] [--procs "1 2"] [--algos "ring default"]
#                                 [--total BYTES] [--build DIR] [--timeout SECONDS]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks_list="4096 16384"
procs_list="1 2"
algos="ring default"
total=65536
build=${XSIM_BUILD:-/tmp/benchbuild}
timeout_s=900
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks_list=$2; shift 2 ;;
        --procs) procs_list=$2; shift 2 ;;
        --algos) algos=$2; shift 2 ;;
        --total) total=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --timeout) timeout_s=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-allgather-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
cmake --build "$build" --target bench_allgather_scale >&2 || die "building allgather_scale failed"
exe="$build/bench/allgather_scale"

echo "| ranks | P | algorithm | wall s | predicted s | results |"
echo "|---:|---:|---|---:|---:|---|"
for ranks in $ranks_list; do
    for procs in $procs_list; do
        for algo in $algos; do
            tag="$ranks.$procs.$algo"
            value=$([ "$algo" = default ] && echo auto || echo "$algo")
            status=0
            XSIM_COLL_ALLGATHER=$value timeout "$timeout_s" /usr/bin/time -f "%e" -o "$work/$tag.time" \
                "$MPIRUN" --oversubscribe -np "$procs" -x XSIM_COLL_ALLGATHER "$exe" \
                -xsim-np "$ranks" -xsim-compute none $([ "$algo" = default ] && echo -xsim-analytic-ranks 4096) "$total" \
                >"$work/$tag.out" 2>"$work/$tag.err" || status=$?
            wall=$(tail -n1 "$work/$tag.time" 2>/dev/null || echo "?")
            [ "$status" = 124 ] && wall=">$timeout_s"
            sim=$(awk '/^predicted /{print $2}' "$work/$tag.out")
            results=$(sed -n 's/.*results \([a-zA-Z]*\).*/\1/p' "$work/$tag.out")
            [ "$status" = 0 ] || results="exit $status${results:+, $results}"
            echo "| $ranks | $procs | $algo | $wall | ${sim:--} | ${results:--} |"
        done
    done
done
