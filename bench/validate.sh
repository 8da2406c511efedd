#!/usr/bin/env bash
# Validation: each program runs natively (`mpirun -np K`, real Open MPI) and under xsim at the
# same K (`-xsim-np K` on one real process) with a calibrated machine and measured compute;
# prints native time, predicted time and error per program, then the mean and worst error.
# Every program times itself the same way in both runs (MPI_Wtime between two barriers).
# The skeletons' compute phases are xsim_compute(s) under xsim, charged exactly; natively they
# are usleep(s), which returns ~68 us late on this VM, so the native builds here busy-wait
# instead (validation/spin_usleep.c linked with --wrap=usleep), as a real code computes.
#
# usage: validate.sh [--build DIR] [--np K] [--machine FILE] [--hostfile H] [--repeats R]
#                    [--native-compute spin|sleep] [--native-stat median|min] [--quick] [--no-write]
#                    [-- EXTRA XSIM OPTIONS]
#   --machine   a machine file (default: `xsim-machine --calibrate` on this host, written to the work dir)
#   --hostfile  native runs across the hosts of H (and the calibration measures the network)
#   --native-compute  the skeletons' native compute phases: spin (default, exact) or sleep
#               (the plain usleep of examples/skeletons' _mpi builds, to show what it adds)
#   --native-stat  what of the R native times is compared: median (default) or min. Host
#               load only ever adds to a native run (preemption of a rank that another waits
#               for), so on a loaded host the fastest run is the best estimate of the machine's
#               own time; on a quiet host use the median.
#   --quick     two small programs, one repeat, quick calibration (CI: prints the table, asserts nothing)
# Writes the table into RESULTS.md ("Validation against native runs") unless --quick or --no-write.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build=${XSIM_BUILD:-/tmp/benchbuild}
np=$(nproc)
machine="" hostfile="" repeats=3 quick=0 write=1 native_compute=spin native_stat=median extra=()
while (($#)); do
    case $1 in
        --build) build=$2; shift 2 ;;
        --np) np=$2; shift 2 ;;
        --machine) machine=$2; shift 2 ;;
        --hostfile) hostfile=$2; shift 2 ;;
        --repeats) repeats=$2; shift 2 ;;
        --native-compute) native_compute=$2; shift 2 ;;
        --native-stat) native_stat=$2; shift 2 ;;
        --quick) quick=1; repeats=1; shift ;;
        --no-write) write=0; shift ;;
        --) shift; extra=("$@"); break ;;
        *) die "unknown argument $1 (see the header of $0)" ;;
    esac
done
[[ $np =~ ^[1-9][0-9]*$ && $np -ge 2 ]] || die "--np: expected a whole number >= 2, got '$np'"
[[ $repeats =~ ^[1-9][0-9]*$ ]] || die "--repeats: expected a positive whole number, got '$repeats'"
[[ $native_compute == spin || $native_compute == sleep ]] ||
    die "--native-compute: expected spin or sleep, got '$native_compute'"
[[ $native_stat == median || $native_stat == min ]] || die "--native-stat: expected median or min, got '$native_stat'"
[[ -z $machine || -r $machine ]] || die "--machine $machine: cannot read it"
[[ -z $hostfile || -r $hostfile ]] || die "--hostfile $hostfile: cannot read it"

find_or_build_xsim "$build"
cmake --build "$build" --target xsim-machine xsim-calibration-probe >&2 || die "building xsim-machine failed"
work=$(mktemp -d /tmp/xsim-validate.XXXXXX)
trap 'rm -rf "$work"' EXIT

if [[ -z $machine ]]; then
    machine=$work/host.toml
    cal=("$build/launch/xsim_machine/xsim-machine" --calibrate -o "$machine")
    ((quick)) && cal+=(--quick)
    [[ -n $hostfile ]] && cal+=(--hostfile "$hostfile")
    "${cal[@]}" 2> "$work/calibrate.err" || { cat "$work/calibrate.err" >&2; die "calibration failed"; }
fi

# program | arguments (same natively and under xsim)
programs=(
    "pingpong|-n 100"
    "ring|-n 2000 -w 20000"
    "allreduce_loop|-n 2000 -w 20000"
    "halo_compute|-m 20000 -n 400"
    "imbalance_anysource|-n 200 -w 30000"
    "skeleton:stencil2d|-i 20"
    "skeleton:cg|-i 20"
    "skeleton:sweep3d|-i 2"
)
((quick)) && programs=("pingpong|-n 20" "ring|-n 300 -w 5000")

native_launch=("$MPIRUN" --oversubscribe -np "$np" --bind-to core)
[[ -n $hostfile ]] && native_launch=("$MPIRUN" -np "$np" --hostfile "$hostfile")

build_program() {  # NAME -> sets NATIVE and SIMULATED executables
    local name=$1
    if [[ $name == skeleton:* ]]; then
        name=${name#skeleton:}
        cmake --build "$build" --target "skeleton_$name" "skeleton_${name}_mpi" >&2 || die "building $name failed"
        NATIVE=$build/examples/skeletons/${name}_mpi SIMULATED=$build/examples/skeletons/$name
        [[ $native_compute == sleep ]] && return
        local src=$name defs=()
        [[ $name == stencil2d || $name == stencil3d ]] && src=stencil defs=(-DSTENCIL_DIMS=${name: -2:1})
        NATIVE=$work/${name}_native_spin
        mpicc -O2 -std=gnu99 "${defs[@]}" -I"$BENCH_DIR/../include" "$BENCH_DIR/../examples/skeletons/$src.c" \
            "$BENCH_DIR/validation/spin_usleep.c" -Wl,--wrap=usleep -lm -o "$NATIVE" || die "mpicc $src.c (spin) failed"
        return
    fi
    NATIVE=$work/${name}_native SIMULATED=$work/${name}_xsim
    mpicc -O2 -std=c99 "$BENCH_DIR/validation/$name.c" -o "$NATIVE" || die "mpicc $name.c failed"
    build_with_xsim "$build" "$BENCH_DIR/validation/$name.c" "$SIMULATED"
}

median() { python3 -c 'import statistics,sys; print(statistics.median(float(v) for v in sys.argv[1:]))' "$@"; }
minimum() { python3 -c 'import sys; print(min(float(v) for v in sys.argv[1:]))' "$@"; }

table=$work/table.md
{
    echo "| program | arguments | native (s) | xsim (s) | error |"
    echo "|---|---|---:|---:|---:|"
} > "$table"
errors=()
for entry in "${programs[@]}"; do
    name=${entry%%|*} args=${entry#*|}
    build_program "$name"
    read -r -a argv <<< "$args"
    native=() simulated=()
    for ((r = 0; r < repeats; r++)); do
        "${native_launch[@]}" "$NATIVE" "${argv[@]}" > "$work/native.out" 2>&1 ||
            { cat "$work/native.out" >&2; die "$name: the native run failed"; }
        native+=("$(predicted_time "$work/native.out")")
        "$MPIRUN" --oversubscribe -np 1 "$SIMULATED" "${argv[@]}" -xsim-np "$np" -xsim-config "$machine" \
            "${extra[@]}" > "$work/xsim.out" 2>&1 || { cat "$work/xsim.out" >&2; die "$name: the xsim run failed"; }
        simulated+=("$(predicted_time "$work/xsim.out")")
    done
    [[ -n ${native[0]} && -n ${simulated[0]} ]] || die "$name: no 'predicted time' line"
    if [[ $native_stat == min ]]; then n=$(minimum "${native[@]}"); else n=$(median "${native[@]}"); fi
    s=$(median "${simulated[@]}")
    e=$(python3 -c "print(($s - $n) / $n)")
    errors+=("$e")
    printf '| %s | `%s` | %.6f | %.6f | %+.1f%% |\n' "${name#skeleton:}" "$args" "$n" "$s" "$(python3 -c "print(100*$e)")" >> "$table"
done
python3 - "${errors[@]}" >> "$table" <<'PY'
import sys
e = [abs(float(v)) for v in sys.argv[1:]]
print(f"\nmean |error| {100*sum(e)/len(e):.1f}%, worst {100*max(e):.1f}% over {len(e)} programs")
PY
cat "$table"
if ((write && !quick)); then
    body=$work/body.md
    {
        machine_description
        echo "- load before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
        echo "- native: \`${native_launch[*]} PROGRAM ARGS\` (skeletons' compute: $native_compute); xsim: \`mpirun -np 1 PROGRAM ARGS -xsim-np $np -xsim-config MACHINE ${extra[*]}\` (measured compute)"
        echo "- machine: $( [[ $machine == "$work/host.toml" ]] && echo "xsim-machine --calibrate on this host" || echo "$machine"); native: $native_stat, xsim: median of $repeats run(s)"
        echo
        cat "$table"
    } > "$body"
    write_results "$BENCH_DIR/RESULTS.md" "Validation against native runs" "$body"
fi
