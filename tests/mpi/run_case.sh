#!/usr/bin/env bash
# Run one end-to-end MPI test program under xsim and judge the result.
#
# usage: run_case.sh <exe> <P> <N> [options] [-- app args...]
#   <exe>   test program linked with -lxsim
#   <P>     real Open MPI processes (mpirun -np P)
#   <N>     simulated ranks (-xsim-np N)
# options:
#   --expect-fail REGEX    the run must exit non-zero (but not time out) and its
#                          stdout+stderr must match the extended REGEX (grep -E);
#                          the executable's path and name are masked first, so a
#                          test's own name cannot satisfy its pattern
#   --expect-stdout REGEX  stdout must have a line matching REGEX (repeatable)
#   --xsim "OPTS"          extra xsim options, word-split, after -xsim-compute none
#   --timeout SEC          wall-clock limit (default 300, or $XSIM_TEST_TIMEOUT)
#   --env VAR=VALUE        set and forward (mpirun -x) an environment variable (repeatable)
#   --real                 validate on plain MPI instead: mpirun -np N <exe> [app args],
#                          no -xsim options and no xsim-only checks; P is ignored
# Success (without --expect-fail) means: exit status 0, exactly one "PASS <name>"
# line on stdout and no "FAIL " line. The VTIME/ORDER/INFO/ARGS lines are echoed
# (compare_p.sh compares them between runs).
#
# Environment given to the program (and forwarded with mpirun -x):
#   XSIM_TEST_EXPECT_SIZE=N   programs fail unless MPI_Comm_size == N
#   XSIM_TEST_VIRTUAL=1       xsim-only checks (virtual time, large truncation)
#   XSIM_TEST_STRICT_ORDER=1  any_source: receive order must follow virtual arrival
# (the last two are not set with --real).
# Also honoured: MPIRUN (default mpirun), MPIRUN_FLAGS (default
# "--allow-run-as-root --oversubscribe"), XSIM_TEST_KEEP=1 keeps the output dir.
set -u -o pipefail

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

[[ $# -ge 3 ]] || usage
exe=$1 procs=$2 nranks=$3
shift 3

expect_fail='' xsim_opts='' real=0
timeout_s=${XSIM_TEST_TIMEOUT:-300}
stdout_res=()
envs=()
app_args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --expect-fail) [[ $# -ge 2 ]] || usage; expect_fail=$2; shift 2 ;;
        --expect-stdout) [[ $# -ge 2 ]] || usage; stdout_res+=("$2"); shift 2 ;;
        --xsim) [[ $# -ge 2 ]] || usage; xsim_opts=$2; shift 2 ;;
        --timeout) [[ $# -ge 2 ]] || usage; timeout_s=$2; shift 2 ;;
        --env) [[ $# -ge 2 && $2 == *=* ]] || usage; envs+=("$2"); shift 2 ;;
        --real) real=1; shift ;;
        --) shift; app_args=("$@"); break ;;
        *) echo "run_case.sh: unknown option '$1'" >&2; usage ;;
    esac
done

[[ -x $exe ]] || { echo "run_case.sh: '$exe' is not an executable" >&2; exit 2; }
[[ $procs =~ ^[1-9][0-9]*$ && $nranks =~ ^[1-9][0-9]*$ ]] ||
    { echo "run_case.sh: P and N must be positive integers" >&2; exit 2; }

MPIRUN=${MPIRUN:-mpirun}
read -r -a mpirun_flags <<<"${MPIRUN_FLAGS:---allow-run-as-root --oversubscribe}"

export XSIM_TEST_EXPECT_SIZE=$nranks
fwd=(-x XSIM_TEST_EXPECT_SIZE)
if [[ $real == 0 ]]; then
    export XSIM_TEST_VIRTUAL=1 XSIM_TEST_STRICT_ORDER=1
    fwd+=(-x XSIM_TEST_VIRTUAL -x XSIM_TEST_STRICT_ORDER)
else
    unset XSIM_TEST_VIRTUAL XSIM_TEST_STRICT_ORDER
fi
for kv in "${envs[@]+"${envs[@]}"}"; do
    export "${kv?}"  # VAR=VALUE
    fwd+=(-x "${kv%%=*}")
done

if [[ $real == 0 ]]; then
    read -r -a extra <<<"$xsim_opts"
    cmd=("$MPIRUN" "${mpirun_flags[@]}" "${fwd[@]}" -np "$procs" "$exe"
         -xsim-np "$nranks" -xsim-compute none "${extra[@]+"${extra[@]}"}"
         "${app_args[@]+"${app_args[@]}"}")
else
    cmd=("$MPIRUN" "${mpirun_flags[@]}" "${fwd[@]}" -np "$nranks" "$exe"
         "${app_args[@]+"${app_args[@]}"}")
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/xsim_case.XXXXXX")
echo "run_case: $(printf '%q ' "${cmd[@]}")"
start=$(date +%s.%N)
timeout --kill-after=15 "$timeout_s" "${cmd[@]}" >"$out/stdout" 2>"$out/stderr" </dev/null
rc=$?
elapsed=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
echo "run_case: exit status $rc after ${elapsed}s (P=$procs N=$nranks)"

grep -E '^(ORDER|VTIME|INFO|ARGS) ' "$out/stdout"

problems=()
if [[ $rc == 124 || $rc == 137 ]]; then
    problems+=("timed out after ${timeout_s}s (hang?)")
fi
npass=$(grep -cE '^PASS [A-Za-z0-9_]+( |$)' "$out/stdout")
nfail=$(grep -cE '^FAIL ' "$out/stdout" "$out/stderr" | awk -F: '{ s += $NF } END { print s + 0 }')

if [[ -n $expect_fail ]]; then
    if [[ $rc == 0 ]]; then
        problems+=("exit status 0, expected a failure")
    fi
    if [[ $npass != 0 ]]; then
        problems+=("printed a PASS line, expected a failure")
    fi
    # Mask the executable's path and name so that e.g. "mpi_deadlock" cannot match "deadlock".
    text=$(cat "$out/stdout" "$out/stderr")
    text=${text//"$exe"/<exe>}
    text=${text//"$(basename -- "$exe")"/<exe>}
    if ! grep -qE -- "$expect_fail" <<<"$text"; then
        problems+=("output does not match the expected-failure pattern /$expect_fail/")
    else
        echo "run_case: expected failure matched /$expect_fail/:"
        grep -E -m 3 -- "$expect_fail" <<<"$text" | sed 's/^/    /'
    fi
else
    [[ $rc == 0 ]] || problems+=("exit status $rc")
    [[ $npass == 1 ]] || problems+=("expected exactly one PASS line, found $npass")
    [[ $nfail == 0 ]] || problems+=("$nfail FAIL line(s)")
fi
for re in "${stdout_res[@]+"${stdout_res[@]}"}"; do
    grep -qE -- "$re" "$out/stdout" || problems+=("no stdout line matches /$re/")
done

if [[ ${#problems[@]} == 0 ]]; then
    grep -E '^PASS ' "$out/stdout"
    echo "run_case: OK"
    if [[ ${XSIM_TEST_KEEP:-0} == 1 ]]; then
        echo "run_case: output kept in $out"
    else
        rm -rf "$out"
    fi
    exit 0
fi
for p in "${problems[@]}"; do echo "run_case: FAILED: $p"; done
echo "----- stdout (last 40 lines) -----"; tail -n 40 "$out/stdout"
echo "----- stderr (last 40 lines) -----"; tail -n 40 "$out/stderr"
echo "run_case: output kept in $out"
exit 1
