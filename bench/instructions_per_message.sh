#!/usr/bin/env bash
# instructions_per_message.sh: the instructions xsim executes per simulated message, counted by
# callgrind (deterministic, unlike wall time on a shared host): ring_allreduce with
# -xsim-compute none on one process, run for I1 and I2 iterations; the figure is the
# difference of the two runs' instructions over the difference of their messages
# (messages + collective_messages of -xsim-report), so that start-up cancels out.
# Needs valgrind (Debian package `valgrind`).
#
# Usage: bench/instructions_per_message.sh [--build DIR] [--ranks N] [--iterations I1,I2]
# shellcheck source=bench/common.sh
source "$(dirname "$0")/common.sh"

build="$REPO_DIR/build"
ranks=256
iterations=20,60
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --iterations) iterations=$2; shift 2 ;;
        *) die "unknown argument $1 (see the usage at the top of this script)" ;;
    esac
done
command -v valgrind >/dev/null || die "valgrind not found (apt-get install -y valgrind)"
first=${iterations%,*}
second=${iterations#*,}
[ "$first" -lt "$second" ] 2>/dev/null || die "--iterations I1,I2 needs integers I1 < I2, got '$iterations'"

find_or_build_xsim "$build"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
build_ring_allreduce "$build" "$work/ring_allreduce"

# count ITERATIONS: prints "instructions messages" of one run under callgrind.
count() {
    local it=$1
    "$MPIRUN" --oversubscribe -np 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.$it" \
        "$work/ring_allreduce" -xsim-np "$ranks" -xsim-compute none -iterations "$it" \
        -xsim-report "$work/report.$it.json" >"$work/run.$it.out" 2>&1 || die "the run of $it iterations failed: $(tail -n2 "$work/run.$it.out")"
    local instructions
    instructions=$(awk '/^(summary|totals):/ {print $2; exit}' "$work/cg.$it")
    [ -n "$instructions" ] || die "no instruction total in $work/cg.$it"
    python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sys.argv[2], r["messages"] + r["collective_messages"])' \
        "$work/report.$it.json" "$instructions"
}

read -r ir1 m1 < <(count "$first")
read -r ir2 m2 < <(count "$second")
echo "# ring_allreduce, $ranks ranks, -xsim-compute none, one process, xsim $XSIM_BUILT_FROM"
echo "# $first iterations: $ir1 instructions, $m1 messages; $second iterations: $ir2 instructions, $m2 messages"
python3 -c 'import sys; a,b,c,d=map(int,sys.argv[1:]); print("instructions per message: %.1f" % ((c-a)/(d-b)))' \
    "$ir1" "$m1" "$ir2" "$m2"
