#!/usr/bin/env bash
# Runs one conformance program under xsim (or plain MPI) and judges the result.
#
# usage: run_conformance.sh <exe> <P> <N> [options] [-- program args...]
#   <P> real processes (mpirun -np P), <N> simulated ranks (-xsim-np N)
# options:
#   --env VAR=VALUE       set and forward (mpirun -x) an environment variable (repeatable)
#   --xsim "OPTS"         more xsim options, after -xsim-compute none
#   --expect-fail REGEX   the run must fail (non-zero exit, no time-out, no PASS line) and
#                         its output must match REGEX (grep -E)
#   --expect-stderr REGEX stderr must match REGEX (besides passing)
#   --real                run on plain MPI: mpirun -np N <exe>, no xsim options
#   --timeout SEC         wall-clock limit (default 600)
#   --full                echo all of stdout (default: its last 20 lines)
# Success: exit status 0, a "PASS <name>" line and no "FAIL" line on stdout.
set -u -o pipefail

[[ $# -ge 3 ]] || { sed -n '2,17p' "$0" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3
shift 3
envs=() xsim_opts="" expect_fail="" expect_stderr="" real=0 timeout_s=600 full=0 args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --env) envs+=("$2"); shift 2 ;;
        --xsim) xsim_opts=$2; shift 2 ;;
        --expect-fail) expect_fail=$2; shift 2 ;;
        --expect-stderr) expect_stderr=$2; shift 2 ;;
        --real) real=1; shift ;;
        --timeout) timeout_s=$2; shift 2 ;;
        --full) full=1; shift ;;
        --) shift; args=("$@"); break ;;
        *) echo "run_conformance.sh: unknown option $1" >&2; exit 2 ;;
    esac
done

MPIRUN=${MPIRUN:-mpirun}
read -r -a flags <<< "${MPIRUN_FLAGS:---allow-run-as-root --oversubscribe}"
forward=()
for e in "${envs[@]}"; do
    export "${e?}"
    forward+=(-x "${e%%=*}")
done
if [[ $real == 1 ]]; then
    cmd=("$MPIRUN" "${flags[@]}" "${forward[@]}" -np "$nranks" "$exe" "${args[@]}")
else
    read -r -a extra <<< "$xsim_opts"
    cmd=("$MPIRUN" "${flags[@]}" "${forward[@]}" -np "$procs" "$exe" "${args[@]}"
         -xsim-np "$nranks" -xsim-compute none "${extra[@]}")
fi

out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
echo "+ ${envs[*]} ${cmd[*]}"
timeout "$timeout_s" "${cmd[@]}" > "$out" 2> "$err"
status=$?
if [[ $full == 1 ]]; then cat "$out"; else tail -n 20 "$out"; fi
tail -n 20 "$err" >&2
if [[ $status == 124 ]]; then echo "TIMEOUT after ${timeout_s}s"; exit 1; fi

if [[ -n $expect_fail ]]; then
    [[ $status != 0 ]] || { echo "expected a failure, got exit status 0"; exit 1; }
    grep -q '^PASS ' "$out" && { echo "expected a failure, but the program printed PASS"; exit 1; }
    grep -Eq "$expect_fail" "$out" "$err" || { echo "output does not match /$expect_fail/"; exit 1; }
    echo "failed as expected (status $status)"
    exit 0
fi
[[ $status == 0 ]] || { echo "exit status $status"; exit 1; }
grep -q '^FAIL' "$out" && { echo "a FAIL line"; exit 1; }
grep -q '^PASS ' "$out" || { echo "no PASS line"; exit 1; }
if [[ -n $expect_stderr ]]; then
    grep -Eq "$expect_stderr" "$err" || { echo "stderr does not match /$expect_stderr/"; exit 1; }
fi
exit 0
