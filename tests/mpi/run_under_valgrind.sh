#!/usr/bin/env bash
# run_under_valgrind.sh <exe> <P> <N>: runs memcheck_ranks (linked with -lxsim) under
# valgrind's memcheck, N simulated ranks on P real processes, and requires that valgrind
# survives (no "VALGRIND INTERNAL ERROR"), the program passes (one PASS line), and memcheck
# reports the program's uninitialised read with a stack trace naming its function.
set -u
exe=$1 procs=$2 nranks=$3
out=$(timeout 240 "${MPIRUN:-mpirun}" --allow-run-as-root --oversubscribe -np "$procs" \
      valgrind -q "$exe" -xsim-np "$nranks" -xsim-compute none 2>&1)
status=$?
fail() { printf '%s\n' "$out" | tail -40; echo "FAIL: $*"; exit 1; }
grep -q 'VALGRIND INTERNAL ERROR' <<<"$out" && fail "valgrind died"
[[ $status -eq 0 ]] || fail "exit status $status"
[[ $(grep -c '^PASS memcheck_ranks' <<<"$out") -eq 1 ]] || fail "no PASS line"
grep -q 'Conditional jump or move depends on uninitialised value' <<<"$out" || fail "memcheck did not report the uninitialised read"
grep -q 'rank_reads_uninitialised' <<<"$out" || fail "memcheck's trace does not name the rank's function"
echo "PASS memcheck_ranks under valgrind, $nranks ranks on $procs processes"
