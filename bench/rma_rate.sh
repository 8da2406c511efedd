#!/usr/bin/env bash
# rma_rate.sh: simulated one-sided operations per second (bench/rma_rate.c: fetch-and-op +
# flush to random targets, checked). For each RANKS and P runs
#   mpirun -np P rma_rate ITERATIONS -xsim-np RANKS -xsim-compute none -xsim-report R.json
# and prints a markdown table: ranks | P | operations | wall s | operations/s | simulated s.
#
# Usage: bench/rma_rate.sh [--ranks "16384"] [--procs "1 2"] [--iterations 100] [--build DIR]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks_list="16384"
procs_list="1 2"
iterations=100
build=${XSIM_BUILD:-/tmp/benchbuild}
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks_list=$2; shift 2 ;;
        --procs) procs_list=$2; shift 2 ;;
        --iterations) iterations=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-rma-rate.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
cmake --build "$build" --target bench_rma_rate >&2 || die "building rma_rate failed"

echo "| ranks | P | operations | wall s | operations/s | simulated s |"
echo "|---:|---:|---:|---:|---:|---:|"
for ranks in $ranks_list; do
    for p in $procs_list; do
        "$MPIRUN" --oversubscribe -np "$p" "$build/bench/rma_rate" "$iterations" -xsim-np "$ranks" \
            -xsim-compute none -xsim-report "$work/R.json" >"$work/out" 2>&1 ||
            die "the run at $ranks ranks on $p processes failed: $(tail -n2 "$work/out")"
        python3 - "$work/R.json" "$ranks" "$p" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ops, wall = r["rma_operations"], r["wall_time_s"]
print(f"| {sys.argv[2]} | {sys.argv[3]} | {ops} | {wall:.2f} | {ops / wall / 1e6:.3f} M | {r['simulated_time_s']:.6f} |")
PY
    done
done
