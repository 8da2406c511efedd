#!/usr/bin/env bash
# engine_p2p.sh: simulated point-to-point messages per second and fiber context switches per
# second of xsim's engine in ONE real process (P=1: no traffic between real processes).
#
# Runs bench/engine_p2p.c (a ring: -mode shift, every rank Sendrecv's 8 bytes to its right
# neighbour per round; -mode token, one token circling the ring) under
#   mpirun -np 1 engine_p2p -xsim-np N -xsim-compute none -xsim-report R.json -mode M -rounds R
# and prints a table from the report: messages / wall_time_s and context_switches /
# wall_time_s (the report's wall time covers the simulation, not mpirun start-up), the
# whole-process wall time, and the median engine rate of --repeat runs (default 3).
# Writes the table into bench/RESULTS.md (section "engine_p2p.sh").
#
# Usage: bench/engine_p2p.sh [--ranks "1024 16384 131072"] [--rounds R] [--repeat K]
#                            [--build DIR] [--results FILE] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks="1024 16384 131072"
rounds=10
repeat=3
build=${XSIM_BUILD:-/tmp/benchbuild}
results="$BENCH_DIR/RESULTS.md"
write=1
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-enginep2p.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
app="$work/engine_p2p"
mpicc -O2 -std=c99 "$BENCH_DIR/engine_p2p.c" -o "$app" -L"$build/libxsim" -Wl,-rpath,"$build/libxsim" -lxsim ||
    die "mpicc engine_p2p.c failed"

table="$work/table.md"
{
    echo "| mode | ranks | rounds | messages | engine wall s (median) | msgs/s (median) | ctx switches/s (median) | switches/msg | whole-process wall s | runs (msgs/s) |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
} >"$table"
cat "$table"

for mode in shift token; do
    for n in $ranks; do
        r=$rounds
        [ "$mode" = token ] && r=1 # one lap of the token: N messages strictly one after another
        for k in $(seq 1 "$repeat"); do
            status=0
            /usr/bin/time -f "%e" -o "$work/$k.time" "$MPIRUN" -np 1 "$app" -xsim-np "$n" -xsim-compute none \
                -xsim-report "$work/$k.json" -mode "$mode" -rounds "$r" >"$work/$k.out" 2>"$work/$k.err" || status=$?
            [ "$status" = 0 ] || die "engine_p2p failed (mode $mode, N=$n): $(tail -n3 "$work/$k.err")"
        done
        python3 - "$work" "$repeat" "$mode" "$n" "$r" <<'EOF' | tee -a "$table"
import json, statistics, sys
work, repeat, mode, n, r = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
runs = []
for k in range(1, repeat + 1):
    d = json.load(open(f"{work}/{k}.json"))
    whole = float(open(f"{work}/{k}.time").read().split()[-1])
    runs.append((d["messages"] / d["wall_time_s"], d["context_switches"] / d["wall_time_s"], d["wall_time_s"],
                 whole, d["messages"], d["context_switches"]))
med = lambda i: statistics.median(x[i] for x in runs)
msgs, switches = runs[0][4], runs[0][5]
print(f"| {mode} | {n} | {r} | {msgs} | {med(2):.3f} | {med(0):,.0f} | {med(1):,.0f} | {switches / max(msgs, 1):.2f} | "
      f"{med(3):.2f} | {', '.join(f'{x[0]:,.0f}' for x in runs)} |")
EOF
    done
done

if [ "$write" = 1 ]; then
    body="$work/body.md"
    {
        machine_description
        echo "- command: \`bench/engine_p2p.sh --ranks \"$ranks\" --rounds $rounds --repeat $repeat\`"
        echo "- each run: \`mpirun -np 1 engine_p2p -xsim-np N -xsim-compute none -xsim-report R.json -mode shift|token -rounds R\` (payload on, 8-byte messages; token: 4 bytes, one lap)"
        echo "- rates = report messages (resp. context_switches) / report wall_time_s; medians of $repeat runs"
        echo
        cat "$table"
    } >"$body"
    write_results "$results" "engine_p2p.sh" "$body"
    echo "# written to $results" >&2
fi
