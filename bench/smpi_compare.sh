#!/usr/bin/env bash
# smpi_compare.sh: xsim side by side with SimGrid/SMPI on the same program and network.
#
# Builds bench/ring_allreduce.c twice (smpicc; mpicc -lxsim) and runs it at each N
# (default 1024 2048 4096 8192 16384) with SMPI and with xsim at P=2 and P=1, timing the
# whole process (smpirun / mpirun included) with /usr/bin/time. Prints a markdown table
# (ranks, SMPI wall, xsim wall P=2 and P=1, ratios SMPI/xsim, both simulated times) and
# writes it into bench/RESULTS.md (section "smpi_compare.sh").
#
# The same network in both simulators: a flat network where every pair of ranks sees
# 12 us latency and 1834e6 B/s (the on-node level of xsim's default machine):
#   xsim: -xsim-set network.level=[{name="flat", latency=12e-6, bandwidth=1834e6, rendezvous=4096}]
#   SMPI: a <cluster> of N hosts, each with a private split-duplex link of 6 us and 1834e6 B/s
#         and no backbone (a route crosses the source's and the destination's links:
#         6 + 6 = 12 us, bottleneck 1834e6 B/s; split duplex = one NIC queue per direction,
#         as xsim serializes a rank's sends and its receives separately), with SMPI's
#         piecewise latency/bandwidth correction factors set to 1 (smpi/lat-factor:0:1,
#         smpi/bw-factor:0:1) and no cross-traffic (network/crosstraffic:0).
# Same algorithms: MPI_Allreduce recursive doubling (SMPI smpi/allreduce:rdb, xsim's choice
# for small messages), MPI_Barrier dissemination (SMPI smpi/barrier:ompi_bruck). Compute is
# not charged in either (xsim -xsim-compute none; SMPI smpi/simulate-computation:no), and
# MPI_Wtime costs nothing in SMPI (smpi/wtime:0).
# SMPI speed options used: smpi/privatization:no (the program has no globals),
# contexts/stack-size:64 (KiB, as xsim's -xsim-stack 64k), contexts/guard-size:0.
# Runs that exceed --smpi-max-seconds (default 300) are stopped and reported as timeouts;
# after an SMPI timeout, or when the last SMPI wall time x 1.25 x (N / its N) exceeds that
# limit (x 2.5 when N doubles), larger N are skipped for SMPI.
# The SMPI build, platform, flags, run and the xsim flat network are bench/common.sh's
# (shared with scale.sh, which puts the SMPI figures into its own table).
#
# Usage: bench/smpi_compare.sh [--ranks "1024 2048"] [--build DIR] [--smpi-max-seconds S]
#                              [--results FILE] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks="1024 2048 4096 8192 16384"
build=${XSIM_BUILD:-/tmp/benchbuild}
smpi_max=300
xsim_max=600
results="$BENCH_DIR/RESULTS.md"
write=1
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --smpi-max-seconds) smpi_max=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        -h|--help) sed -n '2,32p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

ensure_smpi || die "smpicc/smpirun missing and libsimgrid-dev could not be installed"

work=$(mktemp -d /tmp/xsim-smpi.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
build_ring_allreduce "$build" "$work/ring_allreduce_xsim"
build_ring_allreduce_smpi "$work/ring_allreduce_smpi"

table="$work/table.md"
{
    echo "| ranks | SMPI wall s | xsim P=2 wall s | xsim P=1 wall s | SMPI/xsim(P=2) | SMPI/xsim(P=1) | SMPI simulated s | xsim simulated s |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
cat "$table"

smpi_gave_up="" prev_n="" prev_wall=""
for n in $ranks; do
    if [ -z "$smpi_gave_up" ] && [ -n "$prev_n" ] && smpi_too_slow "$prev_n" "$prev_wall" "$n" "$smpi_max"; then
        smpi_gave_up="N=$prev_n took ${prev_wall} s; the estimate for N=$n exceeds the ${smpi_max} s limit"
    fi
    if [ -z "$smpi_gave_up" ]; then
        run_smpi "$work" "$work/ring_allreduce_smpi" "$n" "$smpi_max"
        smpi_wall=$WALL smpi_sim=$SIM smpi_status=$STATUS
        [ "$smpi_status" = 124 ] && smpi_gave_up="N=$n hit the ${smpi_max} s limit"
        [ "$smpi_status" = 0 ] && prev_n=$n prev_wall=$smpi_wall
    else
        smpi_wall="skipped" smpi_sim="-" smpi_status=1
    fi
    run_timed "$work" "xsim2_$n" "$xsim_max" "$MPIRUN" --oversubscribe -np 2 "$work/ring_allreduce_xsim" -xsim-np "$n" \
        -xsim-compute none -xsim-set "$XSIM_FLAT_NET"
    x2_wall=$WALL x2_sim=$SIM x2_status=$STATUS
    run_timed "$work" "xsim1_$n" "$xsim_max" "$MPIRUN" -np 1 "$work/ring_allreduce_xsim" -xsim-np "$n" \
        -xsim-compute none -xsim-set "$XSIM_FLAT_NET"
    x1_wall=$WALL x1_sim=$SIM x1_status=$STATUS
    if [ "$x1_sim" != "$x2_sim" ]; then
        echo "# WARNING: xsim simulated time differs between P=1 ($x1_sim) and P=2 ($x2_sim) at N=$n" >&2
    fi
    ratio() { # a/b when both are numbers
        if [ "$3" = 0 ] && [ "$4" = 0 ]; then python3 -c "print(f'{$1/$2:.1f}')"; else echo "-"; fi
    }
    echo "| $n | $smpi_wall | $x2_wall | $x1_wall | $(ratio "$smpi_wall" "$x2_wall" "$smpi_status" "$x2_status") | $(ratio "$smpi_wall" "$x1_wall" "$smpi_status" "$x1_status") | $smpi_sim | $x2_sim |" | tee -a "$table"
done

if [ "$write" = 1 ]; then
    body="$work/body.md"
    {
        machine_description
        echo "- command: \`bench/smpi_compare.sh --ranks \"$ranks\"\` (one run per cell; wall = whole process, /usr/bin/time)"
        smpi_description
        echo "- xsim: \`mpirun -np P ring_allreduce -xsim-np N -xsim-compute none -xsim-set '$XSIM_FLAT_NET'\`"
        [ -n "$smpi_gave_up" ] && echo "- SMPI: larger N skipped ($smpi_gave_up)"
        echo
        cat "$table"
    } >"$body"
    write_results "$results" "smpi_compare.sh" "$body"
    echo "# written to $results" >&2
fi
