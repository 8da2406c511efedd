#!/usr/bin/env bash
# gromacs.sh: Debian's prebuilt GROMACS (package `gromacs`: gmx_mpi, linked with Open MPI, not
# rebuilt) under xsim by preloading libxsim, against the same run natively. Builds a box of
# SPC water (gmx solvate from spc216.gro, OPLS-AA), minimises it, runs NSTEPS of MD with PME
# (-reprod: no timing-driven load balancing, so both runs take the same decomposition) and
# compares the energies' averages that mdrun prints in md.log, which must be identical.
#   native  mpirun --oversubscribe -np N gmx_mpi mdrun -s md.tpr -ntomp 1 -reprod ARGS
#   xsim    mpirun --oversubscribe -np P -x LD_PRELOAD=libxsim.so gmx_mpi mdrun ... -xsim-np N
# Prints one line per run: ranks, wall s, domain decomposition, simulated s (xsim), and
# whether the averages match the native ones. --no-native runs xsim only (a scale the
# machine cannot run natively); then nothing is compared.
#
# Usage: bench/gromacs.sh [--build DIR] [--box NM] [--nsteps S] [--ranks N] [--procs P]
#                         [--mdrun-args "ARGS"] [--no-native] [--work DIR]
# Defaults: box 5 nm (about 12,000 atoms), 200 steps, 64 ranks on 2 processes.
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=${XSIM_BUILD:-/tmp/benchbuild}
box=5
nsteps=200
ranks=64
procs=2
mdrun_args=""
native=1
work=""
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --box) box=$2; shift 2 ;;
        --nsteps) nsteps=$2; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --mdrun-args) mdrun_args=$2; shift 2 ;;
        --no-native) native=0; shift ;;
        --work) work=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
command -v gmx_mpi >/dev/null || die "gmx_mpi not found: apt-get install gromacs"
find_or_build_xsim "$build"
build=$(cd "$build" && pwd)  # preloaded from the runs' own directories
[ -n "$work" ] || { work=$(mktemp -d /tmp/xsim-gromacs.XXXXXX); trap 'rm -rf "$work"' EXIT; }
mkdir -p "$work"
cd "$work"
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# The system: water, minimised, then the MD input.
common="cutoff-scheme = Verlet
coulombtype = PME
rcoulomb = 0.9
rvdw = 0.9"
printf 'integrator = steep\nnsteps = 500\nemtol = 100\n%s\n' "$common" >em.mdp
printf 'integrator = md\ndt = 0.002\nnsteps = %s\nnstlog = 100\nnstenergy = 100\nnstcalcenergy = 100\n%s
fourierspacing = 0.12\ntcoupl = v-rescale\ntc-grps = System\ntau_t = 0.1\nref_t = 300
gen_vel = yes\ngen_temp = 300\ngen_seed = 1234\nconstraints = h-bonds\n' "$nsteps" "$common" >md.mdp
gmx solvate -cs spc216.gro -box "$box" "$box" "$box" -o water.gro >solvate.log 2>&1 || die "gmx solvate failed"
molecules=$(($(grep -c SOL water.gro) / 3))
printf '#include "oplsaa.ff/forcefield.itp"\n#include "oplsaa.ff/spc.itp"\n[ system ]\nwater\n[ molecules ]\nSOL %s\n' \
    "$molecules" >topol.top
gmx grompp -f em.mdp -c water.gro -p topol.top -o em.tpr -maxwarn 2 >grompp_em.log 2>&1 || die "grompp (minimisation) failed"
gmx mdrun -s em.tpr -deffnm em -ntomp 1 -ntmpi 1 >em.log.out 2>&1 || die "minimisation failed"
gmx grompp -f md.mdp -c em.gro -p topol.top -o md.tpr -maxwarn 2 >grompp_md.log 2>&1 || die "grompp (MD) failed"
echo "GROMACS $(gmx_mpi --version 2>/dev/null | awk '/GROMACS version/ {print $3}'): $((molecules * 3)) atoms, $nsteps steps"

averages() { awk '/A V E R A G E S/ {f = 1} f && /Energies/ {g = 1} g && NF == 0 {exit} g' "$1/md.log"; }
# run DIR NP [mpirun and mdrun arguments...]
run() {
    local dir=$1 np=$2 start status=0
    shift 2
    mkdir -p "$dir"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    (cd "$dir" && "$MPIRUN" --oversubscribe -np "$np" -x OMP_NUM_THREADS "$@" >out.txt 2>err.txt) || status=$?
    WALL=$(echo "$(date +%s.%N) - $start" | bc)
    [ "$status" = 0 ] || die "$dir failed (status $status): $(tail -n3 "$dir/err.txt")"
}
grid() { sed -n 's/^Domain decomposition grid \(.*\)/\1/p' "$1/md.log" | head -n1; }
if [ "$native" = 1 ]; then
    # shellcheck disable=SC2086
    run native "$ranks" gmx_mpi mdrun -s ../md.tpr -ntomp 1 -reprod $mdrun_args
    printf 'native  %6d ranks  %8.2f s wall  grid %s\n' "$ranks" "$WALL" "$(grid native)"
fi
# shellcheck disable=SC2086
run xsim "$procs" -x LD_PRELOAD="$build/libxsim/libxsim.so" gmx_mpi mdrun -s ../md.tpr -ntomp 1 -reprod $mdrun_args \
    -xsim-np "$ranks" -xsim-report R.json
same="not compared"
if [ "$native" = 1 ]; then
    if [ -n "$(averages native)" ] && [ "$(averages native)" = "$(averages xsim)" ]; then same="identical to native"
    else same="DIFFER from native"; fi
fi
printf 'xsim    %6d ranks  %8.2f s wall  grid %s  on %d processes  %s s simulated  averages %s\n' "$ranks" "$WALL" \
    "$(grid xsim)" "$procs" "$(json_field xsim/R.json simulated_time_s)" "$same"
averages xsim
[ "$same" != "DIFFER from native" ]
