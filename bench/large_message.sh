#!/usr/bin/env bash
# large_message.sh: one large message each way between two real processes, under xsim and
# natively. Compiles bench/large_message.c twice (against BUILD's libxsim, and plain mpicc),
# then for each size runs, alternating, --repeat times each:
#   xsim:    mpirun --oversubscribe -np 2 large_message_xsim MIB -xsim-np 2 -xsim-quiet
#   native:  mpirun --oversubscribe -np 2 large_message_native MIB
# and prints a markdown table of the whole runs' wall times (/usr/bin/time, medians), the
# program's own data check included. The figure of bench/RESULTS.md, "Session 43".
#
# Usage: bench/large_message.sh [--mib "1024 4096"] [--repeat 2] [--build DIR]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

sizes="1024 4096"
repeat=2
build=${XSIM_BUILD:-$REPO_DIR/build}
while [ $# -gt 0 ]; do
    case "$1" in
        --mib) sizes=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ -f "$build/libxsim/libxsim.so" ] || die "no $build/libxsim/libxsim.so: build xsim first (bash launch/bootstrap.sh)"
work=$(mktemp -d "${TMPDIR:-/tmp}/xsim-large-message.XXXXXX")
trap 'rm -rf "$work"' EXIT
build_with_xsim "$build" "$BENCH_DIR/large_message.c" "$work/large_message_xsim"
mpicc -O2 -std=c99 "$BENCH_DIR/large_message.c" -o "$work/large_message_native" || die "mpicc large_message.c failed"

run() {  # run TAG MIB CMD...: one timed run (common.sh); its wall seconds go to WORK/TAG.walls
    local tag=$1 mib=$2
    shift 2
    run_timed "$work" "$tag" 3600 "$MPIRUN" --oversubscribe -np 2 "$@"
    [ "$STATUS" = 0 ] || die "$tag at $mib MiB failed (status $STATUS)"
    grep -q "data checked" "$work/$tag.out" || die "$tag at $mib MiB: wrong data: $(cat "$work/$tag.out")"
    echo "$WALL" >>"$work/$tag.walls"
}

echo "| MiB each way | xsim wall s (runs) | native wall s (runs) | xsim / native (medians) |"
echo "|---:|---|---|---:|"
for mib in $sizes; do
    rm -f "$work"/*.walls
    for _ in $(seq "$repeat"); do
        run xsim "$mib" "$work/large_message_xsim" "$mib" -xsim-np 2 -xsim-quiet
        run native "$mib" "$work/large_message_native" "$mib"
    done
    python3 - "$mib" "$work/xsim.walls" "$work/native.walls" <<'PY'
import statistics, sys
mib, xs, ns = sys.argv[1], *[[float(l) for l in open(f)] for f in sys.argv[2:4]]
print(f"| {mib} | {', '.join(f'{w:.2f}' for w in xs)} | {', '.join(f'{w:.2f}' for w in ns)} | "
      f"{statistics.median(xs) / statistics.median(ns):.2f} |")
PY
done
