#!/usr/bin/env bash
# scale.sh: how xsim's wall time, message rate and memory grow with the number of simulated
# ranks N and real processes P, on the reference program bench/ring_allreduce.c.
#
# For each N (default 1024 4096 16384 65536 262144 1048576) and P (default 1 2), runs
#   mpirun --oversubscribe -np P ring_allreduce -xsim-np N -xsim-compute none -xsim-report R.json
# under /usr/bin/time and prints a markdown table:
#   wall       whole-process wall time of mpirun (start-up and teardown included), /usr/bin/time
#   engine     wall_time_s of the xsim report (simulation only)
#   simulated  simulated_time_s of the report (must not depend on P)
#   msgs/s     (messages + collective_messages) / whole-process wall
#   ctx/s      context_switches / whole-process wall
#   RSS/proc   peak_rss_bytes of the report (largest real process)
#   RSS/rank   (peak_rss_bytes - baseline) / (N / P), baseline = peak_rss_bytes of a 2-rank run at the same P
#   speedup    wall(P=1) / wall(P=2) on the P=2 row
# and writes it, with the machine description, into bench/RESULTS.md (section "scale.sh").
#
# Usage: bench/scale.sh [--ranks "1024 4096"] [--max-ranks N] [--procs "1 2"] [--build DIR]
#                       [--timeout SECONDS] [--results FILE] [--title SECTION] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks="1024 4096 16384 65536 262144 1048576"
max_ranks=""
procs="1 2"
build=${XSIM_BUILD:-/tmp/benchbuild}
timeout_s=1800
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
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        --title) title=$2; shift 2 ;;
        -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-scale.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
app="$work/ring_allreduce"
build_ring_allreduce "$build" "$app"

# run_one P N TAG: runs once; sets WALL, STATUS and leaves the report in $work/TAG.json.
run_one() {
    local p=$1 n=$2 tag=$3
    rm -f "$work/$tag.json" "$work/$tag.time"
    STATUS=0
    timeout "$timeout_s" /usr/bin/time -f "%e" -o "$work/$tag.time" \
        "$MPIRUN" --oversubscribe -np "$p" "$app" -xsim-np "$n" -xsim-compute none \
        -xsim-report "$work/$tag.json" >"$work/$tag.out" 2>"$work/$tag.err" || STATUS=$?
    WALL=$(tail -n1 "$work/$tag.time" 2>/dev/null || echo "?")
    if [ "$STATUS" = 0 ] && ! grep -q "^ring_allreduce: $n ranks, predicted time" "$work/$tag.out"; then
        STATUS=99
    fi
}

declare -A baseline wall1
for p in $procs; do
    run_one "$p" 2 "base$p"
    [ "$STATUS" = 0 ] || die "baseline run (P=$p, 2 ranks) failed: $(tail -n3 "$work/base$p.err")"
    baseline[$p]=$(json_field "$work/base$p.json" peak_rss_bytes)
    echo "# baseline P=$p: peak RSS $(( ${baseline[$p]} / 1048576 )) MiB per process" >&2
done

table="$work/table.md"
{
    echo "| ranks | P | wall s | engine s | simulated s | messages | msgs/s | ctx switches/s | RSS/proc MiB | RSS/rank B | speedup P2/P1 |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
cat "$table"

for n in $ranks; do
    if [ -n "$max_ranks" ] && [ "$n" -gt "$max_ranks" ]; then continue; fi
    for p in $procs; do
        tag="n${n}p${p}"
        run_one "$p" "$n" "$tag"
        if [ "$STATUS" != 0 ]; then
            why="exit $STATUS"
            [ "$STATUS" = 124 ] && why="timeout after ${timeout_s}s"
            [ "$STATUS" = 99 ] && why="no predicted-time line"
            row="| $n | $p | ${WALL} | - | - | - | - | - | - | - | FAILED: $why: $(tail -n1 "$work/$tag.err" | tr '|' '/' | cut -c1-120) |"
        else
            row=$(python3 - "$work/$tag.json" "$WALL" "$n" "$p" "${baseline[$p]}" "${wall1[$n]:-}" <<'EOF'
import json, sys
path, wall, n, p, base, w1 = sys.argv[1:7]
d = json.load(open(path)); wall = float(wall); n = int(n); p = int(p); base = int(base)
msgs = d["messages"] + d.get("collective_messages", 0)
per_rank = (d["peak_rss_bytes"] - base) / (n / p)
speed = f"{float(w1) / wall:.2f}" if (p == 2 and w1) else ""
print(f"| {n} | {p} | {wall:.2f} | {d['wall_time_s']:.2f} | {d['simulated_time_s']:.9f} | {msgs} | "
      f"{msgs / wall:,.0f} | {d['context_switches'] / wall:,.0f} | {d['peak_rss_bytes'] / 2**20:.0f} | "
      f"{per_rank:,.0f} | {speed} |")
EOF
)
            [ "$p" = 1 ] && wall1[$n]=$WALL
        fi
        echo "$row" | tee -a "$table"
    done
done

if [ "$write" = 1 ]; then
    body="$work/body.md"
    {
        machine_description
        echo "- command: \`bench/scale.sh --ranks \"$ranks\"${max_ranks:+ --max-ranks $max_ranks} --procs \"$procs\"\`"
        echo "- each run: \`mpirun --oversubscribe -np P ring_allreduce -xsim-np N -xsim-compute none -xsim-report R.json\` (payload on, default machine), one run per cell"
        echo "- baseline peak RSS of a 2-rank run: $(for p in $procs; do printf 'P=%s %s MiB; ' "$p" "$(( ${baseline[$p]} / 1048576 ))"; done)"
        echo
        cat "$table"
    } >"$body"
    write_results "$results" "$title" "$body"
    echo "# written to $results" >&2
fi
