#!/usr/bin/env bash
# The one end-to-end harness: runs one MPI program under xsim (or plain MPI) and judges it.
# Every CTest registration of an MPI program (tests/mpi, tests/conformance, tests/cxx,
# tests/fortran) and every comparison script (compare_lines.sh) goes through it.
#
# usage: run_mpi_case.sh <exe> <P> <N> [options] [-- app args...]
#   <exe>   test program linked with -lxsim
#   <P>     real Open MPI processes (mpirun -np P)
#   <N>     simulated ranks (-xsim-np N)
# options:
#   --expect-fail REGEX    the run must exit non-zero (not by the time limit), print no PASS
#                          line, and its stdout+stderr must match the extended REGEX
#                          (grep -E); the executable's path and name are masked first, so
#                          a test's own name cannot satisfy its pattern
#   --expect-stdout REGEX  stdout must have a line matching REGEX (repeatable)
#   --expect-stderr REGEX  stderr must have a line matching REGEX (repeatable)
#   --expect-value "PREFIX" "EXPR" TOL
#                          the stdout line starting with "PREFIX " must be followed by a
#                          number within TOL (absolute) of EXPR, an awk expression: the
#                          closed form of a golden virtual time (repeatable)
#   --pass-line REGEX      the program prints REGEX (exactly one line) instead of the
#                          "PASS <name>" protocol line (programs outside tests/, e.g. bench/)
#   --xsim "OPTS"          extra xsim options, word-split, after -xsim-compute none
#                          (repeatable, in order: a later option overrides an earlier one)
#   --timeout SEC          wall-clock limit (default $XSIM_TEST_TIMEOUT, else 300)
#   --env VAR=VALUE        set and forward (mpirun -x) an environment variable (repeatable)
#   --real                 run on plain MPI instead: mpirun -np N <exe> [app args], no -xsim
#                          options and no xsim-only checks; P is ignored
#   --singleton            start the program without mpirun (an MPI singleton, P must be 1):
#                          <exe> -xsim-np N ..., or with --real <exe> alone (N must be 1)
#   --full                 echo all of stdout (default: the protocol lines only)
# Success (without --expect-fail) means all of:
#   exit status 0, no time-out;
#   exactly one "PASS <name>" line on stdout (or one --pass-line line);
#   no "FAIL" line on stdout or stderr;
#   no error text: an xsim error report ("xsim: ..." other than a warning or note, "error in
#   MPI_..."), an MPI_ABORT or a segmentation fault;
#   every --expect-stdout, --expect-stderr and --expect-value holds.
# The protocol lines (PASS, VTIME, TIME, ORDER, INFO, ARGS) are echoed; the comparison
# scripts read them.
#
# Environment given to the program (and forwarded with mpirun -x):
#   XSIM_TEST_EXPECT_SIZE=N   programs fail unless MPI_Comm_size == N
#   XSIM_TEST_VIRTUAL=1       xsim-only checks (virtual time, large truncation)
#   XSIM_TEST_STRICT_ORDER=1  any_source: receive order must follow virtual arrival
# (the last two are not set with --real).
# Also honoured: MPIRUN (default mpirun), MPIRUN_FLAGS (default
# "--allow-run-as-root --oversubscribe"), XSIM_TEST_KEEP=1 keeps the output dir.
set -u -o pipefail

me=run_mpi_case.sh
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
bad() { echo "$me: $*" >&2; exit 2; }

[[ $# -ge 3 ]] || usage
exe=$1 procs=$2 nranks=$3
shift 3

expect_fail='' pass_re='' real=0 full=0 singleton=0
timeout_s=${XSIM_TEST_TIMEOUT:-300}
stdout_res=() stderr_res=() values=() envs=() xsim_opts=() app_args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --expect-fail) [[ $# -ge 2 ]] || usage; expect_fail=$2; shift 2 ;;
        --expect-stdout) [[ $# -ge 2 ]] || usage; stdout_res+=("$2"); shift 2 ;;
        --expect-stderr) [[ $# -ge 2 ]] || usage; stderr_res+=("$2"); shift 2 ;;
        --expect-value) [[ $# -ge 4 ]] || usage; values+=("$2" "$3" "$4"); shift 4 ;;
        --pass-line) [[ $# -ge 2 ]] || usage; pass_re=$2; shift 2 ;;
        --xsim) [[ $# -ge 2 ]] || usage; read -r -a words <<<"$2"; xsim_opts+=("${words[@]+"${words[@]}"}"); shift 2 ;;
        --timeout) [[ $# -ge 2 ]] || usage; timeout_s=$2; shift 2 ;;
        --env) [[ $# -ge 2 && $2 == [A-Za-z_]*=* ]] || bad "--env needs VAR=VALUE, got '${2:-}'"; envs+=("$2"); shift 2 ;;
        --real) real=1; shift ;;
        --singleton) singleton=1; shift ;;
        --full) full=1; shift ;;
        --) shift; app_args=("$@"); break ;;
        *) bad "unknown option '$1' (see the usage at the top of $0)" ;;
    esac
done

[[ -x $exe ]] || bad "'$exe' is not an executable"
[[ $procs =~ ^[1-9][0-9]*$ && $nranks =~ ^[1-9][0-9]*$ ]] || bad "P and N must be positive integers, got '$procs' '$nranks'"
[[ $singleton == 0 || ( $procs == 1 && ( $real == 0 || $nranks == 1 ) ) ]] ||
    bad "--singleton runs one real process: P must be 1 (and N too with --real)"
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || bad "--timeout needs a positive number of seconds, got '$timeout_s'"
[[ -z $expect_fail || ( ${#stdout_res[@]} == 0 && ${#values[@]} == 0 && -z $pass_re ) ]] ||
    bad "--expect-fail excludes --expect-stdout, --expect-value and --pass-line (a failing run has no results)"
for ((i = 0; i < ${#values[@]}; i += 3)); do
    awk "BEGIN { v = (${values[i + 1]}) + 0; t = (${values[i + 2]}) + 0; exit !(t > 0) }" 2>/dev/null ||
        bad "--expect-value '${values[i]}': '${values[i + 1]}' or tolerance '${values[i + 2]}' is not a valid awk expression (tolerance > 0)"
done

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

# The launcher, or none for a singleton (the variables are exported).
launch=("$MPIRUN" "${mpirun_flags[@]}" "${fwd[@]}" -np)
[[ $singleton == 1 ]] && launch=()
if [[ $real == 0 ]]; then
    [[ $singleton == 1 ]] || launch+=("$procs")
    cmd=("${launch[@]+"${launch[@]}"}" "$exe"
         -xsim-np "$nranks" -xsim-compute none "${xsim_opts[@]+"${xsim_opts[@]}"}"
         "${app_args[@]+"${app_args[@]}"}")
else
    [[ $singleton == 1 ]] || launch+=("$nranks")
    cmd=("${launch[@]+"${launch[@]}"}" "$exe"
         "${app_args[@]+"${app_args[@]}"}")
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/xsim_case.XXXXXX")
printf -v shown '%q ' "${cmd[@]}"
echo "$me: $shown"
start=$EPOCHREALTIME
timeout --kill-after=15 "$timeout_s" "${cmd[@]}" >"$out/stdout" 2>"$out/stderr" </dev/null
rc=$?
end=$EPOCHREALTIME
us=$((${end//[!0-9]/} - ${start//[!0-9]/} + 5000))  # EPOCHREALTIME has 6 decimals
printf -v elapsed '%d.%02d' $((us / 1000000)) $((us % 1000000 / 10000))
echo "$me: exit status $rc after ${elapsed}s (P=$procs N=$nranks)"

# One pass over both streams (every process started costs about 10 ms of CPU on a VM whose
# hypervisor shadows page tables, and the suite runs this script a thousand times): echoes
# stdout's protocol lines (all of stdout with --full) and writes to $out/scan the number of
# "PASS <name>" lines of stdout, of FAIL lines in both streams, and of error text in both
# streams, with the first of these. Error text is an xsim error report ("xsim: ..." other
# than its warnings, notes, the privatization summary and the run summary), an MPI error, an
# MPI_ABORT or a crash: never part of a passing run.
awk -v full="$full" -v scan="$out/scan" '
    FILENAME == ARGV[1] && (full || /^(PASS|ORDER|VTIME|TIME|INFO|ARGS) /) { print }
    FILENAME == ARGV[1] && /^PASS [A-Za-z0-9_]+( |$)/ { npass++ }
    /^FAIL( |:|$)/ { nfail++ }
    /^xsim: |error in MPI_|MPI_ABORT was invoked|[Ss]egmentation fault|core dumped/ &&
        !/^xsim: (warning|note|privatized|left shared|summary)/ { if (!nerror++) first = $0 }
    END { printf "%d\n%d\n%d\n%s\n", npass, nfail, nerror, first > scan }
' "$out/stdout" "$out/stderr"
{ read -r npass; read -r nfail; read -r nerror; IFS= read -r first_error; } <"$out/scan"

problems=()
if [[ $rc == 124 || $rc == 137 ]]; then
    problems+=("timed out after ${timeout_s}s (hang?)")
fi
if [[ -n $pass_re ]]; then
    npass=$(grep -cE -- "$pass_re" "$out/stdout")
fi

if [[ -n $expect_fail ]]; then
    [[ $rc != 0 ]] || problems+=("exit status 0, expected a failure")
    [[ $npass == 0 ]] || problems+=("printed a PASS line, expected a failure")
    # Mask the executable's path and name so that e.g. "mpi_deadlock" cannot match "deadlock".
    text=$(cat "$out/stdout" "$out/stderr")
    text=${text//"$exe"/<exe>}
    text=${text//"$(basename -- "$exe")"/<exe>}
    if ! grep -qE -- "$expect_fail" <<<"$text"; then
        problems+=("output does not match the expected-failure pattern /$expect_fail/")
    else
        echo "$me: expected failure matched /$expect_fail/:"
        grep -E -m 3 -- "$expect_fail" <<<"$text" | sed 's/^/    /'
    fi
else
    [[ $rc == 0 ]] || problems+=("exit status $rc")
    if [[ -n $pass_re ]]; then
        [[ $npass == 1 ]] || problems+=("expected exactly one line matching /$pass_re/, found $npass")
    else
        [[ $npass == 1 ]] || problems+=("expected exactly one PASS line, found $npass")
    fi
    [[ $nfail == 0 ]] || problems+=("$nfail FAIL line(s)")
    [[ $nerror == 0 ]] || problems+=("$nerror line(s) of error text, the first: '$first_error'")
    for ((i = 0; i < ${#values[@]}; i += 3)); do
        prefix=${values[i]} expr=${values[i + 1]} tol=${values[i + 2]}
        got=$(awk -v p="$prefix" 'index($0, p " ") == 1 { $0 = substr($0, length(p) + 2); print $1; exit }' "$out/stdout")
        if [[ -z $got ]]; then
            problems+=("no stdout line starts with '$prefix '")
        elif verdict=$(awk -v got="$got" "BEGIN { want = ($expr); d = got - want; if (d < 0) d = -d;
                           printf \"%.10g (closed form %s = %.10g, |difference| %.3g, tolerance %g)\", got, \"$expr\", want, d, $tol;
                           exit !(got ~ /^[-+0-9.eE]+\$/ && d <= $tol) }"); then
            echo "$me: $prefix $verdict"
        else
            problems+=("$prefix $verdict")
        fi
    done
fi
for re in "${stdout_res[@]+"${stdout_res[@]}"}"; do
    grep -qE -- "$re" "$out/stdout" || problems+=("no stdout line matches /$re/")
done
for re in "${stderr_res[@]+"${stderr_res[@]}"}"; do
    grep -qE -- "$re" "$out/stderr" || problems+=("no stderr line matches /$re/")
done

if [[ ${#problems[@]} == 0 ]]; then
    echo "$me: OK"
    if [[ ${XSIM_TEST_KEEP:-0} == 1 ]]; then
        echo "$me: output kept in $out"
    else
        rm -rf "$out"
    fi
    exit 0
fi
for p in "${problems[@]}"; do echo "$me: FAILED: $p"; done
echo "----- stdout (last 40 lines) -----"; tail -n 40 "$out/stdout"
echo "----- stderr (last 40 lines) -----"; tail -n 40 "$out/stderr"
echo "$me: output kept in $out"
exit 1
