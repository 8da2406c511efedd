#!/usr/bin/env bash
# measured_control.sh: where measured mode's extra time goes. Runs ring_allreduce (10
# iterations) at N ranks on P processes, alternating three modes after one untimed warm-up:
#   none       -xsim-compute none
#   measured   -xsim-compute measured (the default)
#   fast       measured, but charged at a millionth (-xsim-set processor.speed=1e6): every
#              clock read and charge happens as in measured mode, the virtual times stay
#              those of none
# If fast costs what none costs, the measuring is free and measured mode's extra is the
# timeline it simulates (bench/RESULTS.md, "Session 39"). Prints one line per run: wall,
# user and sys CPU (/usr/bin/time), then the report's engine wall, simulated time, peak RSS,
# windows and stack size.
#
# Usage: bench/measured_control.sh [--build DIR] [--ranks N] [--procs P] [--repeat K]
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=${XSIM_BUILD:-$REPO_DIR/build}
ranks=1048576
procs=2
repeat=2
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        *) die "unknown argument '$1' (see the usage at the top of the script)" ;;
    esac
done
program=$build/bench/ring_allreduce
[ -x "$program" ] || die "no $program: build xsim first (bash launch/bootstrap.sh)"
work=$(mktemp -d "${TMPDIR:-/tmp}/xsim-control.XXXXXX")

run() {
    local tag=$1
    shift
    /usr/bin/time -f "%e %U %S" -o "$work/$tag.time" "$MPIRUN" --oversubscribe -np "$procs" "$program" \
        -xsim-np "$ranks" -iterations 10 -xsim-report "$work/$tag.json" "$@" >/dev/null 2>"$work/$tag.err" ||
        die "$tag failed: $(tail -n 3 "$work/$tag.err")"
    /usr/bin/python3 - "$tag" "$work/$tag.time" "$work/$tag.json" <<'PY'
import json, sys
tag, times, report = sys.argv[1:4]
wall, user, system = open(times).read().split()[-3:]
d = json.load(open(report))
print(f"{tag:10s} wall {wall} s, user {user} s, sys {system} s; engine {d['wall_time_s']:.1f} s, "
      f"simulated {d['simulated_time_s']:.9f} s, peak RSS {d['peak_rss_bytes']} B, "
      f"windows {d['windows']}, stack {d['options']['stack_bytes']} B")
PY
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $ranks ranks on $procs processes"
run warm-up -xsim-compute none
for ((k = 1; k <= repeat; ++k)); do
    if ((k % 2)); then order="none measured fast"; else order="fast measured none"; fi
    for mode in $order; do
        case $mode in
            none) run "none.$k" -xsim-compute none ;;
            measured) run "measured.$k" -xsim-compute measured ;;
            fast) run "fast.$k" -xsim-compute measured -xsim-set processor.speed=1e6 ;;
        esac
    done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); reports in $work"
