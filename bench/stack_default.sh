#!/usr/bin/env bash
# stack_default.sh: what a rank's stack size costs at start-up, to set the rank count up to
# which the default stack is 8 MiB (libxsim/engine/options.hpp, kLargeStackRanks). For each
# RANKS:P:STACK triple runs once
#   mpirun --oversubscribe -np P ring_allreduce -xsim-np RANKS -xsim-compute none -iterations 2
#          [-xsim-stack STACK] -xsim-quiet -xsim-report R.json
# (--iterations I instead of 2: a longer run, so that the poll sees the page tables of runs
# too short for it)
# (STACK "default": no -xsim-stack) and prints a markdown table: ranks | P | stack (the
# report's stack_bytes, and whether it was the default) | wall s | user+sys s | peak RSS per
# process MiB | largest VmPTE per process KiB (polled every 0.1 s; page tables are not in the
# RSS) | VmPTE per rank B | address space reserved per process (VmSize, polled) GiB.
#
# Usage: bench/stack_default.sh [--runs "64:1:1m 64:1:8m ..."] [--iterations I] [--build DIR]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

runs="64:1:1m 64:1:8m 1024:1:1m 1024:1:8m 4096:1:1m 4096:1:8m 16384:1:1m 16384:1:8m"
build=${XSIM_BUILD:-$REPO_DIR/build}
iterations=2
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --iterations) iterations=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) die "unknown argument '$1'" ;;
    esac
done
exe=$build/bench/ring_allreduce
[ -x "$exe" ] || die "no $exe (ninja -C $build bench_ring_allreduce)"
work=$(mktemp -d "${TMPDIR:-/tmp}/stack_default.XXXXXX")

echo "| ranks | P | stack | wall s | user+sys s | peak RSS/proc MiB | VmPTE/proc KiB | VmPTE/rank B | VmSize/proc GiB |"
echo "|---|---|---|---|---|---|---|---|---|"
for run in $runs; do
    IFS=: read -r ranks procs stack <<<"$run"
    opt=()
    [ "$stack" = default ] || opt=(-xsim-stack "$stack")
    tag=$ranks.$procs.$stack
    /usr/bin/time -f "%e %U %S" -o "$work/$tag.time" \
        "$MPIRUN" --allow-run-as-root --oversubscribe -np "$procs" "$exe" -xsim-np "$ranks" -xsim-compute none \
        -iterations "$iterations" "${opt[@]}" -xsim-quiet -xsim-report "$work/$tag.json" >"$work/$tag.out" 2>&1 &
    runner=$!
    pte=0 vsz=0
    while kill -0 "$runner" 2>/dev/null; do
        for pid in $(pgrep -f "^$exe -xsim-np $ranks " || true); do
            read -r p v < <(awk '/^VmPTE:/ {p=$2} /^VmSize:/ {v=$2} END {print p+0, v+0}' "/proc/$pid/status" 2>/dev/null || echo "0 0")
            [ "${p:-0}" -gt "$pte" ] && pte=$p
            [ "${v:-0}" -gt "$vsz" ] && vsz=$v
        done
        sleep 0.1
    done
    wait "$runner" || die "run $run failed: $(tail -3 "$work/$tag.out")"
    read -r wall user sys <"$work/$tag.time"
    rss=$(grep -o '"peak_rss_bytes": [0-9]*' "$work/$tag.json" | awk '{print $2}')
    used=$(grep -o '"stack_bytes": [0-9]*, "stack_default": [a-z]*' "$work/$tag.json" |
           awk '{printf "%d KiB%s", $2 / 1024, ($4 == "true," || $4 == "true") ? " (default)" : ""}')
    per_proc=$(( (ranks + procs - 1) / procs ))
    awk -v r="$ranks" -v p="$procs" -v s="$used" -v w="$wall" -v u="$user" -v y="$sys" -v rss="$rss" \
        -v pte="$pte" -v n="$per_proc" -v vsz="$vsz" \
        'BEGIN {printf "| %d | %d | %s | %.2f | %.2f | %.0f | %d | %.0f | %.1f |\n", r, p, s, w, u + y, rss / 1048576, pte, pte * 1024 / n, vsz / 1048576}'
done
rm -rf "$work"
