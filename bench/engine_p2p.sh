#!/usr/bin/env bash
# engine_p2p.sh: simulated point-to-point messages per second and fiber context switches per
# second of xsim's engine in ONE real process (P=1: no traffic between real processes).
#
# Runs bench/engine_p2p.c (a ring: -mode shift, every rank Sendrecv's 8 bytes to its right
# neighbour per round; -mode token, one token circling the ring) under
#   mpirun -np 1 engine_p2p -xsim-np N -xsim-compute none -xsim-report R.json -mode M -rounds R
# twice, a short run (R rounds; token: 1 lap) and a long one (R x F rounds; token: F laps),
# each --repeat times (default 3, medians). Every simulated rank also costs a fixed amount
# (fiber and stack set-up, MPI_Init/Finalize) that a short ring run is dominated by, so
# the table gives the MARGINAL rates between the two runs:
#   marginal msgs/s  = (messages_long - messages_short) / (wall_long - wall_short)
#   marginal ctx/s   = the same for context_switches
#   fixed per rank   = (wall_short - messages_short / marginal rate) / N
# with wall = the report's wall_time_s (simulation only, not mpirun start-up), and the
# plain messages / whole-process wall of the long run for reference.
# Writes the table into bench/RESULTS.md (section "engine_p2p.sh").
#
# Usage: bench/engine_p2p.sh [--ranks "1024 16384 131072"] [--rounds R] [--long-factor F] [--repeat K]
#                            [--build DIR] [--results FILE] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks="1024 16384 131072"
rounds=10
long_factor=6
repeat=3
build=${XSIM_BUILD:-/tmp/benchbuild}
results="$BENCH_DIR/RESULTS.md"
write=1
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --long-factor) long_factor=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-enginep2p.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
app="$work/engine_p2p"
build_with_xsim "$build" "$BENCH_DIR/engine_p2p.c" "$app"

table="$work/table.md"
{
    echo "| mode | ranks | rounds short/long | messages short/long | engine wall s short/long (median) | marginal msgs/s | marginal ctx switches/s | switches/msg | fixed cost per rank us | whole-process msgs/s (long run) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
cat "$table"

# run_set MODE N ROUNDS TAG: --repeat runs; reports in $work/TAG.K.json, times in $work/TAG.K.time
run_set() {
    local mode=$1 n=$2 r=$3 tag=$4 k status
    for k in $(seq 1 "$repeat"); do
        status=0
        /usr/bin/time -f "%e" -o "$work/$tag.$k.time" "$MPIRUN" -np 1 "$app" -xsim-np "$n" -xsim-compute none \
            -xsim-report "$work/$tag.$k.json" -mode "$mode" -rounds "$r" >"$work/$tag.$k.out" 2>"$work/$tag.$k.err" ||
            status=$?
        [ "$status" = 0 ] || die "engine_p2p failed (mode $mode, N=$n): $(tail -n3 "$work/$tag.$k.err")"
    done
}

for mode in shift token; do
    for n in $ranks; do
        short=$rounds long=$((rounds * long_factor))
        if [ "$mode" = token ]; then short=1 long=$long_factor; fi # laps of the token
        run_set "$mode" "$n" "$short" short
        run_set "$mode" "$n" "$long" long
        python3 - "$work" "$repeat" "$mode" "$n" "$short" "$long" <<'EOF2' | tee -a "$table"
import json, statistics, sys
work, repeat, mode, n, short, long_ = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
def load(tag):
    runs = [json.load(open(f"{work}/{tag}.{k}.json")) for k in range(1, repeat + 1)]
    whole = [float(open(f"{work}/{tag}.{k}.time").read().split()[-1]) for k in range(1, repeat + 1)]
    return (runs[0]["messages"], runs[0]["context_switches"], statistics.median(r["wall_time_s"] for r in runs),
            statistics.median(whole))
ms, cs, ws, _ = load("short")
ml, cl, wl, whole_l = load("long")
dw = wl - ws
rate = (ml - ms) / dw if dw > 0 else float("nan")
srate = (cl - cs) / dw if dw > 0 else float("nan")
fixed = (ws - ms / rate) / n * 1e6 if dw > 0 else float("nan")
print(f"| {mode} | {n} | {short}/{long_} | {ms}/{ml} | {ws:.3f}/{wl:.3f} | {rate:,.0f} | {srate:,.0f} | "
      f"{(cl - cs) / max(ml - ms, 1):.2f} | {fixed:.1f} | {ml / whole_l:,.0f} |")
EOF2
    done
done

if [ "$write" = 1 ]; then
    body="$work/body.md"
    {
        machine_description
        echo "- command: \`bench/engine_p2p.sh --ranks \"$ranks\" --rounds $rounds --long-factor $long_factor --repeat $repeat\`"
        echo "- each run: \`mpirun -np 1 engine_p2p -xsim-np N -xsim-compute none -xsim-report R.json -mode shift|token -rounds R\` (payload on; shift 8-byte messages, token 4 bytes)"
        echo "- marginal rates between the short and the long run (report wall_time_s, medians of $repeat runs each); fixed cost per rank = what the short run spends beyond its messages at the marginal rate, per rank"
        echo
        cat "$table"
    } >"$body"
    write_results "$results" "engine_p2p.sh" "$body"
    echo "# written to $results" >&2
fi
