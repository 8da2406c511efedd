#!/usr/bin/env bash
# scale.sh: how xsim's wall time, message rate and memory grow with the number of simulated
# ranks N and real processes P, on the reference program bench/ring_allreduce.c, next to
# SimGrid/SMPI running the same program on the same network.
#
# For each N (default 1024 4096 16384 65536 262144 1048576) and P (default 1 2), runs
#   mpirun --oversubscribe -np P ring_allreduce -xsim-np N -xsim-compute none -xsim-report R.json [NET]
# under /usr/bin/time, and for each N up to --smpi-max-ranks (default 16384; 0 = no SMPI) once
#   smpirun -np N -platform cluster.xml -hostfile hosts ring_allreduce_smpi <SMPI_CFG>
# (bench/common.sh: run_smpi), and prints a markdown table, one row per (N, P):
#   wall        whole-process wall time of mpirun (start-up and teardown included), /usr/bin/time
#   engine      wall_time_s of the xsim report (simulation only)
#   simulated   simulated_time_s of the report (must not depend on P)
#   messages    messages + collective_messages of the report
#   msgs/s      messages / whole-process wall
#   msgs/s per process   msgs/s / P
#   RSS/proc    peak_rss_bytes of the report (largest real process)
#   RSS/rank    (peak_rss_bytes - baseline) / (N / P), baseline = peak_rss_bytes of a 2-rank run at the same P
#   speedup     wall(P=1) / wall(P=2) on the P=2 row
#   SMPI wall   whole-process wall time of smpirun (start-up included), /usr/bin/time; the same
#               on every row of that N. "-" = not run (N above --smpi-max-ranks, or no SMPI
#               installed), "timeout >S" = stopped at --smpi-max-seconds (default 300),
#               "skipped" = not run because a smaller N timed out or its wall time predicts
#               a timeout (common.sh: smpi_too_slow)
#   SMPI simulated   the whole run's simulated time SMPI reports (smpi/display-timing), the
#               same span as "simulated" (ring_allreduce's printed loop time, which leaves out the
#               start-up barrier and MPI_Finalize, is what smpi_compare.sh compares)
#   SMPI/xsim wall   SMPI wall / this row's xsim wall (both whole processes)
# and writes it, with the machine description, into bench/RESULTS.md (section "scale.sh").
#
# NET (--network): "flat" = -xsim-set with every pair at 12 us, 1834e6 B/s, the network SMPI
# is given (common.sh: XSIM_FLAT_NET, smpi_platform); "default" = xsim's default machine, only
# without SMPI. Default: flat, or default when --smpi-max-ranks is 0. The baseline runs use
# the same network.
# If smpicc/smpirun are missing, Debian's libsimgrid-dev is installed (only when some N is
# within --smpi-max-ranks); when that fails the SMPI columns show "-".
#
# Usage: bench/scale.sh [--ranks "1024 4096"] [--max-ranks N] [--procs "1 2"] [--build DIR]
#                       [--timeout SECONDS] [--smpi-max-ranks N] [--smpi-max-seconds S]
#                       [--network flat|default] [--results FILE] [--title SECTION] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks="1024 4096 16384 65536 262144 1048576"
max_ranks=""
procs="1 2"
build=${XSIM_BUILD:-/tmp/benchbuild}
timeout_s=1800
smpi_max_ranks=16384
smpi_max_s=300
network=""
results="$BENCH_DIR/RESULTS.md"
write=1
title="scale.sh"
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks=$2; shift 2 ;;
        --max-ranks) max_ranks=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --smpi-max-ranks) smpi_max_ranks=$2; shift 2 ;;
        --smpi-max-seconds) smpi_max_s=$2; shift 2 ;;
        --network) network=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        --title) title=$2; shift 2 ;;
        -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

# the N actually run
selected=""
for n in $ranks; do
    if [ -n "$max_ranks" ] && [ "$n" -gt "$max_ranks" ]; then continue; fi
    selected="$selected $n"
done
selected=${selected# }

if [ -z "$network" ]; then
    if [ "$smpi_max_ranks" -gt 0 ]; then network=flat; else network=default; fi
fi
case "$network" in
    flat)
        net_args=(-xsim-set "$XSIM_FLAT_NET")
        net_cmd=" -xsim-set '$XSIM_FLAT_NET'"
        net_text="flat: every pair of ranks 12 us, 1834e6 B/s (\`-xsim-set '$XSIM_FLAT_NET'\`), the network SMPI is given" ;;
    default)
        [ "$smpi_max_ranks" -gt 0 ] && die "--network default needs --smpi-max-ranks 0: SMPI is only compared on the flat network"
        net_args=()
        net_cmd=""
        net_text="default: xsim's built-in default machine (no SMPI comparison)" ;;
    *) die "--network must be flat or default, not '$network'" ;;
esac

work=$(mktemp -d /tmp/xsim-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
app="$work/ring_allreduce"
build_ring_allreduce "$build" "$app"

# SMPI is run when some selected N is within --smpi-max-ranks
smpi_wanted=0
for n in $selected; do [ "$n" -le "$smpi_max_ranks" ] && smpi_wanted=1; done
smpi_state=off # off | ready | missing
if [ "$smpi_wanted" = 1 ]; then
    if ensure_smpi; then
        smpi_app="$work/ring_allreduce_smpi"
        build_ring_allreduce_smpi "$smpi_app"
        smpi_state=ready
    else
        echo "# smpicc/smpirun missing (libsimgrid-dev could not be installed): the SMPI columns show -" >&2
        smpi_state=missing
    fi
fi

# run_xsim P N TAG: runs xsim once; sets WALL, STATUS, SIM and leaves the report in $work/TAG.json.
run_xsim() {
    local p=$1 n=$2 tag=$3
    rm -f "$work/$tag.json"
    run_timed "$work" "$tag" "$timeout_s" "$MPIRUN" --oversubscribe -np "$p" "$app" -xsim-np "$n" \
        -xsim-compute none -xsim-report "$work/$tag.json" "${net_args[@]}"
}

declare -A baseline wall1
for p in $procs; do
    run_xsim "$p" 2 "base$p"
    [ "$STATUS" = 0 ] || die "baseline run (P=$p, 2 ranks) failed: $(tail -n3 "$work/base$p.err")"
    baseline[$p]=$(json_field "$work/base$p.json" peak_rss_bytes)
    echo "# baseline P=$p: peak RSS $(( ${baseline[$p]} / 1048576 )) MiB per process" >&2
done

table="$work/table.md"
{
    echo "| ranks | P | wall s | engine s | simulated s | messages | msgs/s | msgs/s per process | RSS/proc MiB | RSS/rank B | speedup P2/P1 | SMPI wall s | SMPI simulated s | SMPI/xsim wall |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
echo "network: $net_text"
echo
cat "$table"

smpi_gave_up="" smpi_prev_n="" smpi_prev_wall=""
for n in $selected; do
    # SMPI once for this N: smpi_wall / smpi_sim are the table cells, smpi_ok says whether they are numbers
    smpi_wall="-" smpi_sim="-" smpi_ok=0
    if [ "$smpi_state" = ready ] && [ "$n" -le "$smpi_max_ranks" ]; then
        if [ -z "$smpi_gave_up" ] && [ -n "$smpi_prev_n" ] &&
            smpi_too_slow "$smpi_prev_n" "$smpi_prev_wall" "$n" "$smpi_max_s"; then
            smpi_gave_up="N=$smpi_prev_n took ${smpi_prev_wall} s; the estimate for N=$n exceeds the ${smpi_max_s} s limit"
        fi
        if [ -n "$smpi_gave_up" ]; then
            smpi_wall="skipped"
        else
            run_smpi "$work" "$smpi_app" "$n" "$smpi_max_s"
            case "$STATUS" in
                0) smpi_wall=$WALL smpi_sim=$SMPI_SIMULATED smpi_ok=1 smpi_prev_n=$n smpi_prev_wall=$WALL ;;
                124) smpi_wall="timeout >${smpi_max_s}"
                     smpi_gave_up="N=$n was stopped at the ${smpi_max_s} s limit" ;;
                *) smpi_wall="failed (exit $STATUS)" ;;
            esac
        fi
    fi
    for p in $procs; do
        tag="n${n}p${p}"
        run_xsim "$p" "$n" "$tag"
        if [ "$STATUS" != 0 ]; then
            why="exit $STATUS"
            [ "$STATUS" = 124 ] && why="timeout after ${timeout_s}s"
            [ "$STATUS" = 99 ] && why="no predicted-time line"
            row="| $n | $p | ${WALL} | - | - | - | - | - | - | - | FAILED: $why: $(tail -n1 "$work/$tag.err" | tr '|' '/' | cut -c1-120) | $smpi_wall | $smpi_sim | - |"
        else
            row=$(python3 - "$work/$tag.json" "$WALL" "$n" "$p" "${baseline[$p]}" "${wall1[$n]:-}" \
                  "$smpi_wall" "$smpi_sim" "$smpi_ok" <<'EOF'
import json, sys
path, wall, n, p, base, w1, smpi_wall, smpi_sim, smpi_ok = sys.argv[1:10]
d = json.load(open(path)); wall = float(wall); n = int(n); p = int(p); base = int(base)
msgs = d["messages"] + d.get("collective_messages", 0)
per_rank = (d["peak_rss_bytes"] - base) / (n / p)
speed = f"{float(w1) / wall:.2f}" if (p == 2 and w1) else ""
ratio = f"{float(smpi_wall) / wall:.2f}" if smpi_ok == "1" else "-"
print(f"| {n} | {p} | {wall:.2f} | {d['wall_time_s']:.2f} | {d['simulated_time_s']:.9f} | {msgs} | "
      f"{msgs / wall:,.0f} | {msgs / wall / p:,.0f} | {d['peak_rss_bytes'] / 2**20:.0f} | "
      f"{per_rank:,.0f} | {speed} | {smpi_wall} | {smpi_sim} | {ratio} |")
EOF
)
            [ "$p" = 1 ] && wall1[$n]=$WALL
        fi
        echo "$row" | tee -a "$table"
    done
done

# what the SMPI columns mean in this run
smpi_notes="$work/smpi_notes.md"
{
    case "$smpi_state" in
        off) echo "- SMPI: not run (--smpi-max-ranks $smpi_max_ranks)" ;;
        missing) echo "- SMPI: not run (smpicc/smpirun missing and libsimgrid-dev could not be installed)" ;;
        ready)
            smpi_description
            echo "- SMPI simulated s: the whole run's simulated time SMPI reports (smpi/display-timing), the same span as xsim's simulated_time_s"
            echo "- SMPI run once per N <= $smpi_max_ranks (--smpi-max-ranks; larger N show -), stopped after ${smpi_max_s} s (--smpi-max-seconds); SMPI/xsim wall = SMPI whole-process wall (smpirun start-up included) / the row's xsim whole-process wall (mpirun start-up included)"
            [ -n "$smpi_gave_up" ] && echo "- SMPI: larger N skipped ($smpi_gave_up)" ;;
    esac
} >"$smpi_notes"
echo
cat "$smpi_notes"

if [ "$write" = 1 ]; then
    body="$work/body.md"
    {
        machine_description
        echo "- command: \`bench/scale.sh --ranks \"$ranks\"${max_ranks:+ --max-ranks $max_ranks} --procs \"$procs\" --network $network --smpi-max-ranks $smpi_max_ranks --smpi-max-seconds $smpi_max_s\`"
        echo "- network: $net_text"
        echo "- each xsim run: \`mpirun --oversubscribe -np P ring_allreduce -xsim-np N -xsim-compute none -xsim-report R.json$net_cmd\` (payload on), one run per cell"
        echo "- baseline peak RSS of a 2-rank run: $(for p in $procs; do printf 'P=%s %s MiB; ' "$p" "$(( ${baseline[$p]} / 1048576 ))"; done)"
        cat "$smpi_notes"
        echo
        cat "$table"
    } >"$body"
    write_results "$results" "$title" "$body"
    echo "# written to $results" >&2
fi
