#!/usr/bin/env bash
# openfoam.sh: OpenFOAM (Debian's openfoam + openfoam-examples packages, not rebuilt) under
# xsim, libxsim preloaded: the lid-driven cavity of the icoFoam tutorial on a CELLS x CELLS
# mesh, decomposed into N = k x k subdomains (decomposePar, method simple), STEPS time steps
# (Courant number 0.5), run
#   natively:   mpirun --oversubscribe -np N icoFoam -parallel
#   under xsim: mpirun --oversubscribe -np P -x LD_PRELOAD=libxsim.so icoFoam -parallel -xsim-np N
#               -xsim-compute none -xsim-report R.json          (and on -np 1 with --compare-p)
# and prints one line per N: N, P, native wall s, xsim wall s, simulated s, whether every
# processor's fields at the last time are byte for byte the native run's, and with
# --compare-p whether -np 1 gives the same simulated time to the picosecond.
# Exits 1 when a run fails or a comparison differs (bench/RESULTS.md, "Session 29").
#
# --library FILE uses that libxsim.so as it is (ctest's apps.openfoam_cavity), instead of
# building --build DIR's.
# Usage: bench/openfoam.sh [--build DIR | --library FILE] [--procs P] [--cells C] [--steps S] [--no-native]
#                          [--compare-p] [--keep DIR] [N ...]      (N: squares, default 4 16)
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=${XSIM_BUILD:-/tmp/benchbuild}
library=""
procs=2
cells=40
steps=10
native=1
compare_p=0
keep=""
counts=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --library) library=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --cells) cells=$2; shift 2 ;;
        --steps) steps=$2; shift 2 ;;
        --no-native) native=0; shift ;;
        --compare-p) compare_p=1; shift ;;
        --keep) keep=$2; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        [0-9]*) counts+=("$1"); shift ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ ${#counts[@]} -gt 0 ] || counts=(4 16)
tutorial=/usr/share/doc/openfoam-examples/examples/incompressible/icoFoam/cavity/cavity
for tool in icoFoam blockMesh decomposePar; do
    command -v "$tool" >/dev/null || die "$tool not found (apt-get install -y openfoam openfoam-examples)"
done
[ -d "$tutorial" ] || die "$tutorial not found (apt-get install -y openfoam-examples)"
# Debian's OpenFOAM finds its etc/ (controlDict, cellModels) through these.
export FOAM_ETC=${FOAM_ETC:-/usr/share/openfoam/etc} WM_PROJECT_DIR=${WM_PROJECT_DIR:-/usr/share/openfoam}
if [ -z "$library" ]; then
    build=$(cd "$build" 2>/dev/null && pwd || echo "$build")
    find_or_build_xsim "$build"
    library=$build/libxsim/libxsim.so
fi
[ -f "$library" ] || die "$library not found"
library=$(cd "$(dirname "$library")" && pwd)/$(basename "$library")  # the runs cd into their case
work=${keep:-$(mktemp -d)}
mkdir -p "$work"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT

# The time step for Courant number 0.5 (lid speed 1, cavity 0.1 wide), and the last time.
dt=$(python3 -c "print(repr(0.05 / $cells))")
end=$(python3 -c "print(repr($steps * 0.05 / $cells))")

# make_case DIR N: the tutorial case at CELLS x CELLS, decomposed into N subdomains.
make_case() {
    local dir=$1 n=$2 k
    k=$(python3 -c "import math; k = math.isqrt($n); print(k if k * k == $n else 0)")
    [ "$k" -gt 0 ] || die "N must be a square (k x k subdomains), got $n"
    rm -rf "$dir" && cp -r "$tutorial" "$dir"
    sed -i "s/(20 20 1)/($cells $cells 1)/" "$dir/system/blockMeshDict"
    sed -i "s/^endTime .*/endTime $end;/; s/^deltaT .*/deltaT $dt;/; s/^writeControl .*/writeControl timeStep;/; s/^writeInterval .*/writeInterval $steps;/" \
        "$dir/system/controlDict"
    printf 'FoamFile { version 2.0; format ascii; class dictionary; object decomposeParDict; }\nnumberOfSubdomains %s;\nmethod simple;\ncoeffs { n (%s %s 1); }\n' \
        "$n" "$k" "$k" >"$dir/system/decomposeParDict"
    (cd "$dir" && blockMesh >log.blockMesh 2>&1 && decomposePar >log.decomposePar 2>&1) || die "setting up $dir failed (see $dir/log.*)"
}

# run DIR NP [xsim N]: icoFoam -parallel in DIR; prints its wall seconds.
run() {
    local dir=$1 np=$2 start end_ns
    shift 2
    start=$(date +%s%N)
    if [ $# -gt 0 ]; then
        (cd "$dir" && "$MPIRUN" --oversubscribe -np "$np" -x FOAM_ETC -x WM_PROJECT_DIR \
            -x LD_PRELOAD="$library" icoFoam -parallel -xsim-np "$2" -xsim-compute none \
            -xsim-report report.json >log 2>&1) || { echo "FAILED: $(tail -n 3 "$dir/log" | tr '\n' ' ')" >&2; return 1; }
    else
        (cd "$dir" && "$MPIRUN" --oversubscribe -np "$np" -x FOAM_ETC -x WM_PROJECT_DIR icoFoam -parallel >log 2>&1) ||
            { echo "FAILED: $(tail -n 3 "$dir/log" | tr '\n' ' ')" >&2; return 1; }
    fi
    end_ns=$(date +%s%N)
    python3 -c "print('%.2f' % (($end_ns - $start) / 1e9))"
}

simulated() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['simulated_time_ps'])" "$1/report.json"; }

# same_fields A B N: every processor's fields at the last time are identical.
same_fields() {
    local last p
    last=$(cd "$1/processor0" && ls -d [0-9]* | sort -g | tail -1)
    [ "$last" != 0 ] || { echo no; return; }
    for ((p = 0; p < $3; p++)); do
        diff -r "$1/processor$p/$last" "$2/processor$p/$last" >/dev/null || { echo no; return; }
    done
    echo yes
}

status=0
printf '%6s %3s %10s %10s %12s %14s %10s\n' N P native_s xsim_s simulated_s fields_native same_np1
for n in "${counts[@]}"; do
    make_case "$work/xsim$n" "$n"
    xsim_wall=$(run "$work/xsim$n" "$procs" xsim "$n") || { status=1; continue; }
    ps=$(simulated "$work/xsim$n")
    native_wall=- fields=-
    if [ "$native" = 1 ]; then
        make_case "$work/native$n" "$n"
        native_wall=$(run "$work/native$n" "$n") || { status=1; continue; }
        fields=$(same_fields "$work/native$n" "$work/xsim$n" "$n")
        [ "$fields" = yes ] || status=1
    fi
    same=-
    if [ "$compare_p" = 1 ]; then
        make_case "$work/one$n" "$n"
        run "$work/one$n" 1 xsim "$n" >/dev/null || { status=1; continue; }
        same=$([ "$(simulated "$work/one$n")" = "$ps" ] && echo yes || echo no)
        [ "$same" = yes ] || status=1
    fi
    printf '%6s %3s %10s %10s %12s %14s %10s\n' "$n" "$procs" "$native_wall" "$xsim_wall" \
        "$(python3 -c "print('%.6f' % ($ps / 1e12))")" "$fields" "$same"
done
exit $status
