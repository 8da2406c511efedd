#!/usr/bin/env bash
# opencoarrays_tests.sh: OpenCoarrays' own test programs (Fortran coarrays on MPI), as Debian's
# libcoarrays-openmpi-dev installs them prebuilt, run natively on IMAGES processes and under
# xsim with LD_PRELOAD=libxsim.so on 1 and 2 real processes with -xsim-np IMAGES. Nothing is
# rebuilt: the programs are unmodified binaries linked with Open MPI.
# A run passes when it exits 0; the suite's failed-image tests (FAIL IMAGE, ULFM) end killed
# natively too. Output, one line per program:
#   NAME  native=RC  xsim-np1=RC  xsim-np2=RC  [MISMATCH]
# MISMATCH marks a program that passes natively and not under xsim; the last line counts them.
# usage: bench/opencoarrays_tests.sh [--build DIR] [--images N] [--timeout S] [--work DIR] [NAME...]
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=$REPO_DIR/build images=4 limit=60 work=/tmp/xsim-opencoarrays
suite=/usr/lib/x86_64-linux-gnu/open-coarrays/openmpi/bin/OpenCoarrays-2.10.1-tests
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --images) images=$2; shift 2 ;;
        --timeout) limit=$2; shift 2 ;;
        --work) work=$2; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        -*) die "unknown option '$1' (see --help)" ;;
        *) break ;;
    esac
done
[ -d "$suite" ] || die "no $suite: apt-get install libcoarrays-openmpi-dev"
find_or_build_xsim "$build"
lib=$build/libxsim/libxsim.so
mkdir -p "$work"
names=("$@")
[ ${#names[@]} -gt 0 ] || mapfile -t names < <(ls "$suite")

run() {  # run TAG CMD...: exit status of CMD under the time limit, output in $work/NAME.TAG
    local tag=$1; shift
    timeout "$limit" "$@" > "$work/$name.$tag" 2>&1
    echo $?
}
passed=0 mismatches=0 native_failures=0
for name in "${names[@]}"; do
    exe=$suite/$name
    [ -x "$exe" ] || die "no test program $exe"
    n=$(run native "$MPIRUN" --oversubscribe -np "$images" "$exe")
    x1=$(run xsim1 "$MPIRUN" -np 1 -x LD_PRELOAD="$lib" "$exe" -xsim-np "$images" -xsim-quiet)
    x2=$(run xsim2 "$MPIRUN" --oversubscribe -np 2 -x LD_PRELOAD="$lib" "$exe" -xsim-np "$images" -xsim-quiet)
    mark=""
    if [ "$n" = 0 ] && { [ "$x1" != 0 ] || [ "$x2" != 0 ]; }; then mark="MISMATCH"; mismatches=$((mismatches + 1)); fi
    [ "$n" = 0 ] || native_failures=$((native_failures + 1))
    [ "$x1" = 0 ] && [ "$x2" = 0 ] && passed=$((passed + 1))
    printf "%-48s native=%-3s xsim-np1=%-3s xsim-np2=%-3s %s\n" "$name" "$n" "$x1" "$x2" "$mark"
done
echo "programs: ${#names[@]}; pass under xsim (np 1 and 2): $passed; fail natively: $native_failures;" \
     "pass natively but not under xsim: $mismatches"
