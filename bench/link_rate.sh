#!/usr/bin/env bash
# link_rate.sh: what a synchronization window costs between real processes. Runs
# bench/master_worker.c (rank 0 exchanges one int at a time with workers; on P=2 the workers
# are mostly in the other process, two windows per exchange, almost no work in them):
#   mpirun -np P master_worker -n EXCHANGES -xsim-np RANKS -xsim-compute none -xsim-report R.json
# for P in --procs, --repeat times each (medians), first on the host as it is, then with
# --hogs K busy loops (`sh -c 'while :; do :; done'`) running beside it, as on a host shared
# with other jobs (more runnable threads than cores; 0 skips that part). Prints a markdown
# table: load | P | windows | wall s (median) | us per window | exchanges/s | simulated s
# (the simulated time must not depend on P or the load).
#
# Usage: bench/link_rate.sh [--ranks 65] [--procs "1 2"] [--exchanges 20000] [--repeat 3]
#                           [--hogs 2] [--build DIR]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks=65
procs_list="1 2"
exchanges=20000
repeat=3
hogs=2
build=${XSIM_BUILD:-/tmp/benchbuild}
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks=$2; shift 2 ;;
        --procs) procs_list=$2; shift 2 ;;
        --exchanges) exchanges=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --hogs) hogs=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-link-rate.XXXXXX)
hog_pids=()
stop_hogs() {
    for pid in "${hog_pids[@]+"${hog_pids[@]}"}"; do kill "$pid" 2>/dev/null || true; done
    hog_pids=()
}
trap 'stop_hogs; rm -rf "$work"' EXIT
find_or_build_xsim "$build"
cmake --build "$build" --target bench_master_worker >&2 || die "building master_worker failed"

echo "| load | P | windows | wall s (median) | us per window | exchanges/s | simulated s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for load in host hogs; do
    if [ "$load" = hogs ]; then
        [ "$hogs" -gt 0 ] || break
        for _ in $(seq "$hogs"); do
            sh -c 'while :; do :; done' &
            hog_pids+=($!)
        done
    fi
    label=$([ "$load" = hogs ] && echo "+$hogs busy loops" || echo "as is ($(cut -d' ' -f1 /proc/loadavg))")
    for p in $procs_list; do
        for k in $(seq "$repeat"); do
            "$MPIRUN" --oversubscribe -np "$p" "$build/bench/master_worker" -n "$exchanges" -xsim-np "$ranks" \
                -xsim-compute none -xsim-report "$work/R.$k.json" >"$work/out" 2>&1 ||
                die "the run on $p processes failed: $(tail -n2 "$work/out")"
        done
        python3 - "$label" "$p" "$exchanges" "$work"/R.*.json <<'PY'
import json, statistics, sys
label, p, exchanges = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = [json.load(open(f)) for f in sys.argv[4:]]
wall = statistics.median(r["wall_time_s"] for r in runs)
windows = runs[0]["windows"]
sims = {r["simulated_time_ps"] for r in runs}
sim = f"{runs[0]['simulated_time_s']:.9f}" + ("" if len(sims) == 1 else " (differs between runs!)")
per = f"{wall / windows * 1e6:.1f}" if windows > 1 else "-"
print(f"| {label} | {p} | {windows} | {wall:.3f} | {per} | {exchanges / wall:,.0f} | {sim} |")
PY
        rm -f "$work"/R.*.json
    done
    stop_hogs
done
