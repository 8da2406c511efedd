#!/usr/bin/env bash
# check_skeleton.sh: run a skeleton application under xsim and judge it (used by CTest).
#
#   check_skeleton.sh run     EXE NAME P N [payload on|off] [-- app args]
#       one run with -xsim-compute none: exit 0 and the line "NAME: N ranks, predicted time X s"
#   check_skeleton.sh compare EXE NAME N [-- app args]
#       three runs with -xsim-compute none: P=1 payload on, P=2 payload on, P=2 payload off;
#       each must pass as above, and the three predicted times must be identical
#   check_skeleton.sh real    EXE NAME P [-- app args]
#       EXE is built without xsim (plain MPI): mpirun -np P, exit 0 and the line
#
# Environment: MPIRUN (default mpirun), SKELETON_TIMEOUT (seconds per run, default 300).
set -u
MPIRUN=${MPIRUN:-mpirun}
TIMEOUT=${SKELETON_TIMEOUT:-300}
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

mode=${1:?mode}
exe=${2:?executable}
name=${3:?skeleton name}
shift 3
positional=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do positional+=("$1"); shift; done
[ $# -gt 0 ] && shift
app_args=("$@")

# run_xsim P N PAYLOAD: prints the predicted time (stdout) or fails with a message (stderr).
run_xsim() {
    local p=$1 n=$2 payload=$3 out status line
    out=$(timeout "$TIMEOUT" "$MPIRUN" --oversubscribe -np "$p" "$exe" -xsim-np "$n" -xsim-compute none \
        -xsim-payload "$payload" "${app_args[@]}" 2>&1)
    status=$?
    if [ $status -ne 0 ]; then
        echo "FAIL: $name P=$p N=$n payload=$payload: exit status $status" >&2
        echo "$out" | tail -n 20 >&2
        return 1
    fi
    line=$(echo "$out" | grep -E "^$name: $n ranks, predicted time [0-9.eE+-]+ s" | head -n1)
    if [ -z "$line" ]; then
        echo "FAIL: $name P=$p N=$n payload=$payload: no line '$name: $n ranks, predicted time X s'" >&2
        echo "$out" | tail -n 20 >&2
        return 1
    fi
    echo "P=$p N=$n payload=$payload: $line" >&2
    echo "$line" | sed -E 's/.*predicted time ([0-9.eE+-]+) s.*/\1/'
}

case "$mode" in
    run)
        p=${positional[0]:?P}; n=${positional[1]:?N}; payload=${positional[2]:-on}
        run_xsim "$p" "$n" "$payload" >/dev/null || exit 1
        echo "PASS"
        ;;
    compare)
        n=${positional[0]:?N}
        t1=$(run_xsim 1 "$n" on) || exit 1
        t2=$(run_xsim 2 "$n" on) || exit 1
        t3=$(run_xsim 2 "$n" off) || exit 1
        if [ "$t1" != "$t2" ]; then
            echo "FAIL: $name N=$n: predicted time differs between P=1 ($t1) and P=2 ($t2)" >&2; exit 1
        fi
        if [ "$t2" != "$t3" ]; then
            echo "FAIL: $name N=$n: predicted time differs between payload on ($t2) and off ($t3)" >&2; exit 1
        fi
        echo "PASS: $name N=$n: predicted time $t1 s for P=1, P=2 and payload off"
        ;;
    real)
        p=${positional[0]:?P}
        out=$(timeout "$TIMEOUT" "$MPIRUN" --oversubscribe -np "$p" "$exe" "${app_args[@]}" 2>&1)
        status=$?
        echo "$out" | tail -n 5
        [ $status -eq 0 ] || { echo "FAIL: $name on plain MPI: exit status $status" >&2; exit 1; }
        echo "$out" | grep -qE "^$name: $p ranks, predicted time [0-9.eE+-]+ s" ||
            { echo "FAIL: $name on plain MPI: no predicted-time line" >&2; exit 1; }
        echo "PASS"
        ;;
    *) echo "check_skeleton.sh: unknown mode '$mode'" >&2; exit 2 ;;
esac
