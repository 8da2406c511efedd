# What check_trace_nonblocking.sh and check_trace_rma.sh share; sourced after they set here,
# exe, procs, nranks, iterations, dir and fail.
#   trace_run NAME OPTIONS: one run with a run report ($dir/NAME.report.json, output in NAME.out).
#   trace_three_runs UNTRACED_OPTIONS FILTER: the run untraced, traced to JSON and, when
#     otf2-print is installed, to OTF2, whose events it prints to print.txt and definitions to
#     defs.txt (a warning of otf2-print fails); sets have_otf2=1 when the OTF2 run was read back.
#     Fails unless every traced run has the untraced run's virtual times (the report's
#     simulated time and the program's VTIME lines): tracing must not change them.
trace_run() {
    bash "$here/../run_mpi_case.sh" "$exe" "$procs" "$nranks" --timeout 150 --xsim "-xsim-report $dir/$1.report.json $2" \
        -- "$iterations" >"$dir/$1.out" 2>&1 || { cat "$dir/$1.out"; fail "the $1 run failed"; }
}

trace_three_runs() {
    trace_run untraced "$1"
    trace_run json "-xsim-trace $dir/trace.json $2"
    have_otf2=0
    if ! command -v otf2-print >/dev/null; then
        echo "$(basename "$0"): otf2-print is not installed; OTF2 read-back skipped"
        trace_same_times
        return
    fi
    trace_run otf2 "-xsim-trace $dir/trace.otf2 $2" && have_otf2=1
    otf2-print "$dir/trace.otf2" >"$dir/print.txt" 2>"$dir/print.err" || { cat "$dir/print.err"; fail "otf2-print could not read the archive"; }
    otf2-print -G "$dir/trace.otf2" >"$dir/defs.txt" 2>>"$dir/print.err" || fail "otf2-print -G could not read the definitions"
    [[ -s $dir/print.err ]] && { cat "$dir/print.err"; fail "otf2-print warned about the archive"; }
    trace_same_times
}

trace_same_times() {
    local runs=json
    [[ $have_otf2 == 1 ]] && runs="json otf2"
    /usr/bin/python3 - "$dir" $runs <<'PY' || fail "tracing changed the virtual times"
import json, sys
d, runs = sys.argv[1], sys.argv[2:]
def times(name):
    vtime = [l for l in open(f"{d}/{name}.out") if l.startswith("VTIME")]
    return json.load(open(f"{d}/{name}.report.json"))["simulated_time_s"], vtime
base = times("untraced")
for name in runs:
    assert times(name) == base, f"tracing ({name}) changed virtual times: {times(name)} vs {base}"
PY
}
