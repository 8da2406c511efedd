#!/usr/bin/env bash
# Figures of per-rank globals (libxsim/runtime/privatization), for bench/RESULTS.md:
#  1. cost per switch for 1 KiB, 64 KiB and 1 MiB of globals, copy on switch vs remapping
#     a memfd image (bench/privatization_switch, Google Benchmark, CPU time);
#  2. bytes privatized per rank, with what is covered (a privatize.c-like program: its own);
#  3. ring_allreduce at N ranks (default 2^20) on 2 processes with -xsim-privatize off and
#     auto: wall time, ratio, context switches, peak RSS per rank.
# usage: bench/privatization.sh [--build DIR] [--ranks N] [--procs P] [--skip-ring]
# The machine's load (uptime) is printed next to every timing: shared machines give noisy walls.
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=$REPO_DIR/build ranks=1048576 procs=2 ring=1
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --skip-ring) ring=0; shift ;;
        *) die "unknown argument '$1' (see the header of $0)" ;;
    esac
done
find_or_build_xsim "$build"
work=$(mktemp -d "${TMPDIR:-/tmp}/xsim_privatization.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "## Cost per switch (CPU time; load: $(uptime | sed 's/.*load average: //'))"
if cmake --build "$build" --target bench_privatization_switch >&2 && [ -x "$build/bench/privatization_switch" ]; then
    "$build/bench/privatization_switch" --benchmark_min_time=0.3 2>/dev/null |
        awk '/^(copy|remap)_switch/ { printf "%-45s %12s %s CPU\n", $1, $4, $5 }'
else
    echo "(bench/privatization_switch not built: needs libbenchmark-dev)"
fi

echo
echo "## Bytes privatized per rank (tests/mpi/privatize.c built as an application)"
build_with_xsim "$build" "$REPO_DIR/tests/mpi/privatize.c" "$work/privatize" -std=gnu99 -I"$REPO_DIR/tests/mpi"
"$MPIRUN" --oversubscribe -np 1 "$work/privatize" -xsim-np 4 -xsim-compute none -xsim-privatize on 2>&1 |
    grep -E '^xsim: (privatized|left shared)|^PASS|^FAIL'

[ "$ring" = 1 ] || exit 0
echo
echo "## ring_allreduce, $ranks ranks on $procs processes, -xsim-compute none"
build_ring_allreduce "$build" "$work/ring_allreduce"
declare -A wall
for mode in off auto; do
    load=$(uptime | sed 's/.*load average: //')
    start=$(date +%s.%N)
    "$MPIRUN" --oversubscribe -np "$procs" "$work/ring_allreduce" -xsim-np "$ranks" -xsim-compute none \
        -xsim-privatize "$mode" -xsim-report "$work/$mode.json" >"$work/$mode.out" 2>&1 || die "run ($mode) failed: $(tail -3 "$work/$mode.out")"
    wall[$mode]=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    rss=$(grep -o '"peak_rss_bytes": [0-9]*' "$work/$mode.json" | awk '{ print $2 }')
    sw=$(grep -o '"context_switches": [0-9]*' "$work/$mode.json" | awk '{ print $2 }')
    printf "privatize %-4s  wall %8s s  context switches %12s  peak RSS %6.0f MB (%.0f bytes/rank/process)  load %s\n" \
        "$mode" "${wall[$mode]}" "$sw" "$(echo "$rss / 1e6" | bc -l)" "$(echo "$rss * $procs / $ranks" | bc -l)" "$load"
done
awk -v on="${wall[auto]}" -v off="${wall[off]}" 'BEGIN { printf "ratio on/off: %.2f (target <= 1.5)\n", on / off }'
