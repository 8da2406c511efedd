#!/usr/bin/env bash
# mitgcm.sh: MITgcm's exp4 (a channel with open boundaries, 4 ranks of 40x21 points) natively and
# under xsim (LD_PRELOAD, not relinked) on 1 and 2 real processes: wall, user and system time,
# and whether every .data file the run writes is byte-identical to the native run's. A code
# with 12.9 MB of Fortran COMMON blocks that every rank writes, switched at every global sum of
# its solvers (bench/RESULTS.md, "Session 35: Ludwig, MITgcm exp4" and "Session 36: close runs
# of written globals remapped as one map").
#
# Needs a MITgcm source tree (github.com/MITgcm/MITgcm: model, pkg, eesupp, tools and
# verification/exp4 are enough) and gfortran. Builds exp4 for 4 ranks in WORK/build once.
#
# Usage: bench/mitgcm.sh --source DIR [--build XSIM_BUILD] [--work WORK] [--steps N]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"

build="$REPO_DIR/build"
source_dir=""
work=/tmp/xsim-mitgcm
steps=10
while [ $# -gt 0 ]; do
    case "$1" in
        --source) source_dir=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        --steps) steps=$2; shift 2 ;;
        *) die "unknown argument $1 (see the usage at the top of this script)" ;;
    esac
done
if [ -z "$source_dir" ] || [ ! -x "$source_dir/tools/genmake2" ]; then
    die "--source DIR must be a MITgcm tree (no tools/genmake2 in '$source_dir')"
fi
[ -d "$source_dir/verification/exp4/input" ] || die "no verification/exp4 in $source_dir"
command -v gfortran >/dev/null || die "gfortran not found (apt-get install -y gfortran)"
find_or_build_xsim "$build"
lib="$build/libxsim/libxsim.so"

# exp4 for 4 ranks: SIZE.h_mpi with 40x21 points per rank on a 2x2 process grid.
app="$work/build/mitgcmuv"
if [ ! -x "$app" ]; then
    echo "# building MITgcm exp4 for 4 ranks in $work/build" >&2
    mkdir -p "$work/build/code"
    cp "$source_dir"/verification/exp4/code/* "$work/build/code/"
    cp "$work/build/code/SIZE.h_mpi" "$work/build/code/SIZE.h"
    [ -f "$work/build/code/CPP_EEOPTIONS.h_mpi" ] && cp "$work/build/code/CPP_EEOPTIONS.h_mpi" "$work/build/code/CPP_EEOPTIONS.h"
    sed -i -e "s/sNx = *[0-9]*,/sNx = 40,/" -e "s/sNy = *[0-9]*,/sNy = 21,/" -e "s/nSx = *[0-9]*,/nSx = 1,/" \
        -e "s/nSy = *[0-9]*,/nSy = 1,/" -e "s/nPx = *[0-9]*,/nPx = 2,/" -e "s/nPy = *[0-9]*,/nPy = 2,/" \
        "$work/build/code/SIZE.h"
    (cd "$work/build" &&
        MPI_INC_DIR=/usr/lib/x86_64-linux-gnu/openmpi/include "$source_dir/tools/genmake2" -mpi \
            -of "$source_dir/tools/build_options/linux_amd64_gfortran" -rootdir "$source_dir" -mods code \
            > genmake.log 2>&1 && make depend > depend.log 2>&1 && make -j2 > make.log 2>&1) ||
        die "building exp4 failed (see $work/build/*.log)"
fi

# run NAME CMD...: runs CMD in a fresh copy of exp4's input; prints its times.
run() {
    local name=$1; shift
    local dir="$work/runs/$name"
    rm -rf "$dir"; mkdir -p "$dir"
    cp "$source_dir"/verification/exp4/input/* "$dir/"
    sed -i "s/nTimeSteps=[0-9]*,/nTimeSteps=$steps,/" "$dir/data"
    (cd "$dir" && /usr/bin/time -f "%e %U %S" -o time.txt timeout 1800 "$@" > out.txt 2> err.txt) ||
        die "$name failed (see $dir/err.txt)"
    read -r wall user sys < "$dir/time.txt"
    local same=""
    if [ "$name" != native ]; then
        local files=0 differ=0 f
        for f in "$work/runs/native"/*.data; do
            files=$((files + 1))
            cmp -s "$f" "$dir/$(basename "$f")" || differ=$((differ + 1))
        done
        same="; .data files: $files, differing from native: $differ"
    fi
    printf '%-16s wall %7.2f s  user %7.2f s  system %7.2f s%s\n' "$name" "$wall" "$user" "$sys" "$same"
}

echo "# MITgcm exp4, 4 ranks, $steps time steps; xsim $XSIM_BUILT_FROM"
run native "$MPIRUN" --oversubscribe -np 4 "$app"
run xsim-np1 "$MPIRUN" --oversubscribe -np 1 -x LD_PRELOAD="$lib" "$app" -xsim-np 4
run xsim-np2 "$MPIRUN" --oversubscribe -np 2 -x LD_PRELOAD="$lib" "$app" -xsim-np 4
