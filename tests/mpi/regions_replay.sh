#!/usr/bin/env bash
# Record, then replay, the regions of tests/mpi/regions.c and compare.
# usage: regions_replay.sh <regions exe> <N> [--timeout SEC]
# Every run goes through the e2e harness (../run_mpi_case.sh: exit status, one PASS line, no
# FAIL or error text).
#   1. record: mpirun -np 2 <exe> -xsim-np N -xsim-compute measured -xsim-regions-out F
#   2. F must be a valid regions file: setup called N times, step 4N times.
#   3. replay: the skeleton (XSIM_REGIONS_SKELETON=1: no compute in the regions) with
#      -xsim-compute none -xsim-regions-in F, on P = 1 and P = 2.
#   4. empty: the skeleton without a regions file (regions take no time), P = 2.
# Passes when: both replays print the same VTIME (determinism); in each replay every
# region's summed duration equals calls x F's mean_s plus the empty run's sum for it (the
# MPI_Wtime read that closes each bracket costs processor.clock_read_cost under
# -xsim-compute none; 1e-9 relative); the recorded run's
# sums are at least calls x mean_s (each MPI_Wtime bracket holds its region; exact to the
# printed precision) and at most 1 % + 200 us more: the brackets also hold the host time
# between the MPI_Wtime reads and the region calls, about 0.2 us warm, but the first call of
# xsim_region_begin and _end in a real process binds the symbol and may touch cold pages
# (20-50 us a fault on a loaded host, charged as measured compute like in a native run);
# the replay's end time is the empty run's plus setup's mean
# plus 4 x step's mean (every rank runs the same regions, so they shift the whole timeline;
# 2 ns for the printed precision) and at most 1.05 x the recorded run's (which waited in
# each allreduce for its slowest rank).
set -u -o pipefail
[[ $# -ge 2 ]] || { sed -n '2,13p' "$0" >&2; exit 2; }
exe=$1 n=$2
timeout_s=240
[[ ${3:-} == --timeout ]] && timeout_s=$4
harness=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/run_mpi_case.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/xsim_regions.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "regions_replay: FAILED: $*"; for f in "$work"/*.out "$work"/*.err "$work"/regions.txt; do [[ -f $f ]] && { echo "----- $f"; tail -n 20 "$f"; }; done; exit 1; }

run() {  # run TAG P SKELETON(0|1) -- xsim options (one run through the e2e harness)
    local tag=$1 p=$2 skeleton=$3; shift 4
    bash "$harness" "$exe" "$p" "$n" --full --timeout "$timeout_s" --env "XSIM_REGIONS_SKELETON=$skeleton" \
        --xsim "$*" >"$work/$tag.out" || fail "$tag: the run failed (run_mpi_case.sh)"
    grep -E '^(VTIME|REGION) ' "$work/$tag.out" | sed "s/^/    $tag: /"
}

run record 2 0 -- -xsim-compute measured -xsim-regions-out "$work/regions.txt"
[[ -s $work/regions.txt ]] || fail "record: no regions file written"
sed 's/^/    file: /' "$work/regions.txt"
head -n 1 "$work/regions.txt" | grep -qx 'xsim-regions 1' || fail "regions file header"
calls() { awk -v r="$1" '$1 == r { print $2 }' "$work/regions.txt"; }
[[ $(calls setup) == "$n" ]] || fail "setup: calls $(calls setup), expected $n"
[[ $(calls step) == "$((4 * n))" ]] || fail "step: calls $(calls step), expected $((4 * n))"

run replay1 1 1 -- -xsim-compute none -xsim-regions-in "$work/regions.txt"
run replay2 2 1 -- -xsim-compute none -xsim-regions-in "$work/regions.txt"

run empty 2 1 -- -xsim-compute none

vtime() { awk '$1 == "VTIME" { print $3 }' "$work/$1.out"; }
mean() { awk -v r="$1" '$1 == r { print $3 }' "$work/regions.txt"; }
[[ $(vtime replay1) == "$(vtime replay2)" ]] || fail "replay VTIME differs between P=1 ($(vtime replay1)) and P=2 ($(vtime replay2))"
for r in setup step; do
    rec=$(awk -v r="$r" '$1 == "REGION" && $2 == r { print $4 }' "$work/record.out")
    rep=$(awk -v r="$r" '$1 == "REGION" && $2 == r { print $4 }' "$work/replay2.out")
    emp=$(awk -v r="$r" '$1 == "REGION" && $2 == r { print $4 }' "$work/empty.out")
    awk -v m="$(mean "$r")" -v c="$(calls "$r")" -v rep="$rep" -v rec="$rec" -v emp="$emp" 'BEGIN {
        d1 = rep - (c * m + emp); if (d1 < 0) d1 = -d1
        d2 = rec - c * m
        exit !(d1 <= 1e-9 * rep + 1e-12 && d2 >= -(1e-11 * rec + c * 1e-12) && d2 <= 0.01 * rec + 2e-4) }' ||
        fail "$r: replayed sum $rep, recorded sum $rec, calls x mean $(calls "$r") x $(mean "$r") + clock reads $emp"
done
awk -v a="$(vtime replay2)" -v e="$(vtime empty)" -v s="$(mean setup)" -v t="$(mean step)" -v b="$(vtime record)" \
    'BEGIN { d = a - (e + s + 4 * t); if (d < 0) d = -d; exit !(d <= 2e-9 && a <= 1.05 * b) }' ||
    fail "replay end time $(vtime replay2): expected empty $(vtime empty) + $(mean setup) + 4 x $(mean step), and <= 1.05 x recorded $(vtime record)"
echo "regions_replay: OK"
