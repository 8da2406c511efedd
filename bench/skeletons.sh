#!/usr/bin/env bash
# skeletons.sh: the skeleton applications of examples/skeletons/ at scale, in
# application-model mode (issue 5: "each runnable at 2^20 ranks ... prints its predicted time").
#
# For each skeleton (default: stencil2d stencil3d cg sweep3d master_worker fft1d) runs once
#   mpirun --oversubscribe -np P <skeleton> -xsim-np N -xsim-compute none -xsim-payload off
#          -xsim-report R.json <its default options>
# under /usr/bin/time (whole-process wall, mpirun start-up included) and prints a markdown
# table: skeleton | ranks | P | wall s | predicted s (what rank 0 printed) | messages
# (point-to-point + inside collectives) | msgs/s | RSS/proc MiB | RSS/rank B (peak over N/P).
# Writes it, with the machine description, into bench/RESULTS.md (section "skeletons.sh").
#
# Usage: bench/skeletons.sh [--ranks N] [--procs P] [--only "cg fft1d"] [--build DIR]
#                           [--timeout SECONDS] [--results FILE] [--no-write]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ranks=1048576
procs=2
only="stencil2d stencil3d cg sweep3d master_worker fft1d"
build=${XSIM_BUILD:-/tmp/benchbuild}
timeout_s=1800
results="$BENCH_DIR/RESULTS.md"
write=1
while [ $# -gt 0 ]; do
    case "$1" in
        --ranks) ranks=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --build) build=$2; shift 2 ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-write) write=0; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

work=$(mktemp -d /tmp/xsim-skeletons.XXXXXX)
trap 'rm -rf "$work"' EXIT
find_or_build_xsim "$build"
for name in $only; do
    cmake --build "$build" --target "skeleton_$name" >&2 || die "building skeleton $name failed"
done

table="$work/table.md"
{
    echo "| skeleton | ranks | P | wall s | predicted s | messages | msgs/s | RSS/proc MiB | RSS/rank B |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
cat "$table"
for name in $only; do
    exe="$build/examples/skeletons/$name"
    STATUS=0
    timeout "$timeout_s" /usr/bin/time -f "%e" -o "$work/$name.time" \
        "$MPIRUN" --oversubscribe -np "$procs" "$exe" -xsim-np "$ranks" -xsim-compute none -xsim-payload off \
        -xsim-report "$work/$name.json" >"$work/$name.out" 2>"$work/$name.err" || STATUS=$?
    wall=$(tail -n1 "$work/$name.time" 2>/dev/null || echo "?")
    predicted=$(sed -n "s/^$name: $ranks ranks, predicted time \([0-9.eE+-]*\) s.*/\1/p" "$work/$name.out" | head -n1)
    if [ "$STATUS" != 0 ] || [ -z "$predicted" ]; then
        why="exit $STATUS"
        [ "$STATUS" = 124 ] && why="timeout after ${timeout_s}s"
        row="| $name | $ranks | $procs | $wall | FAILED: $why: $(tail -n1 "$work/$name.err" | tr '|' '/' | cut -c1-120) | - | - | - | - |"
    else
        row=$(python3 - "$work/$name.json" "$wall" "$ranks" "$procs" "$name" "$predicted" <<'EOF'
import json, sys
path, wall, n, p, name, predicted = sys.argv[1:7]
d = json.load(open(path)); wall = float(wall); n = int(n); p = int(p)
msgs = d["messages"] + d.get("collective_messages", 0)
print(f"| {name} | {n} | {p} | {wall:.1f} | {predicted} | {msgs} | {msgs / wall:,.0f} | "
      f"{d['peak_rss_bytes'] / 2**20:.0f} | {d['peak_rss_bytes'] / (n / p):,.0f} |")
EOF
)
    fi
    echo "$row" | tee -a "$table"
done

if [ "$write" = 1 ]; then
    body="$work/body.md"
    {
        machine_description
        echo "- command: \`bench/skeletons.sh --ranks $ranks --procs $procs --only \"$only\"\`"
        echo "- each run: \`mpirun --oversubscribe -np $procs <skeleton> -xsim-np $ranks -xsim-compute none -xsim-payload off -xsim-report R.json\` with the skeleton's default options (examples/skeletons/README.md), default machine, one run each"
        echo "- predicted s: the time rank 0 printed (between the barriers around the main loop); RSS/rank: peak RSS of the largest process / (N / P), everything included"
        echo
        cat "$table"
    } >"$body"
    write_results "$results" "skeletons.sh" "$body"
    echo "# written to $results" >&2
fi
