#!/usr/bin/env bash
# SIGINT or SIGTERM to mpirun while rank 1 computes forever (spin.c): the run ends, and the
# report is still written, marked "end": "signal" with the exit code of SIGTERM (143: mpirun
# ends its job with SIGTERM on either signal).
# mpirun sends its processes SIGCONT, then SIGTERM odls_base_sigkill_timeout seconds later
# (1 by default), then SIGKILL as long again after that (strace of the processes). With 1 s,
# on a loaded machine a process was killed before it had written its report, so the
# processes get 3 s here, as the README advises for loaded machines and large runs, and the
# test runs alone (RUN_SERIAL). A longer limit only makes the test wait twice as long.
# usage: signal_report.sh SPIN_EXE PROCESSES RANKS INT|TERM
set -u -o pipefail
exe=$1 procs=$2 ranks=$3 sig=$4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_signal.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mpirun --oversubscribe --mca odls_base_sigkill_timeout 3 -np "$procs" "$exe" forever -xsim-np "$ranks" -xsim-report "$dir/report.json" \
    -xsim-progress on > "$dir/out" 2>&1 &
pid=$!
# Wait until the simulation runs (the progress line names the spinning rank: the report's
# directory was checked and the signal handlers are in place), then signal mpirun, which
# forwards it to its processes.
for _ in $(seq 120); do grep -q 'has computed for' "$dir/out" && break; sleep 0.5; done
grep -q 'has computed for' "$dir/out" || { kill -KILL "$pid"; cat "$dir/out"; echo "FAIL: the run did not start within 60 s"; exit 1; }
kill -s "$sig" "$pid" 2>/dev/null || { cat "$dir/out"; echo "FAIL: mpirun ended before the signal"; exit 1; }
for _ in $(seq 120); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    cat "$dir/out"
    echo "FAIL: the run did not end within 60 s of SIG$sig"
    exit 1
fi
wait "$pid"
status=$?
[[ -s $dir/report.json ]] || { cat "$dir/out"; echo "FAIL: no report after SIG$sig (mpirun exit $status)"; exit 1; }
grep -q '"end": *"signal"' "$dir/report.json" ||
    { cat "$dir/report.json"; echo "FAIL: the report does not say the run ended by a signal"; exit 1; }
# mpirun ends its job with SIGTERM whichever of the two it got: the processes see SIGTERM.
grep -Eq '"exit_code": *143' "$dir/report.json" ||
    { cat "$dir/report.json"; echo "FAIL: the report's exit code is not 128 + SIGTERM"; exit 1; }
[[ $status != 0 ]] || { echo "FAIL: mpirun exited 0 after SIG$sig"; exit 1; }
echo "PASS: SIG$sig ended the run (mpirun exit $status) and the report says so"
