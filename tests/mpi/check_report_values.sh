#!/usr/bin/env bash
# Run one case with ../run_mpi_case.sh writing the JSON run report, then check numbers in it
# against closed forms (known-answer tests of the time split and wait states).
#
# usage: check_report_values.sh [--value KEY EXPR TOL]... -- <exe> <P> <N> [run_mpi_case.sh options]
#   --value KEY EXPR TOL   the report's value at KEY (dotted path, e.g. time_split.waiting_s)
#                          is within TOL (absolute) of EXPR (both Python expressions; N is the
#                          number of simulated ranks). KEY "profile:..." reads the profile
#                          (-xsim-profile, JSON) instead; there "calls.NAME" is the call NAME's
#                          entry, e.g. profile:calls.MPI_Allreduce.max_rank; a number
#                          indexes a list (wait_states.kinds.late_sender.blamed.0.rank)
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
checks=()
while [[ $# -gt 0 && $1 != -- ]]; do
    case $1 in
        --value) checks+=("$2" "$3" "$4"); shift 4 ;;
        *) echo "check_report_values.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[[ $# -ge 4 && $1 == -- ]] || { echo "usage: check_report_values.sh [checks] -- <exe> <P> <N> [options]" >&2; exit 2; }
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_values.XXXXXX")
exe=$1 procs=$2 nranks=$3
shift 3
bash "$here/../run_mpi_case.sh" "$exe" "$procs" "$nranks" --env "XSIM_OPTIONS=-xsim-report $dir/report.json -xsim-profile $dir/profile.json" "$@" || {
    echo "check_report_values: the run failed; files kept in $dir"
    exit 1
}
if python3 - "$dir/report.json" "$dir/profile.json" "$nranks" "${checks[@]+"${checks[@]}"}" <<'PY'; then
import json, sys
report = json.load(open(sys.argv[1]))
profile = json.load(open(sys.argv[2]))
profile["calls"] = {c["name"]: c for c in profile["calls"]}
N = int(sys.argv[3])
args = sys.argv[4:]
failed = False
for i in range(0, len(args), 3):
    key, expr, tol = args[i], args[i + 1], float(eval(args[i + 2], {"N": N}))
    value = report
    path = key
    if key.startswith("profile:"):
        value, path = profile, key[len("profile:"):]
    for part in path.split("."):
        if isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
            value = value[int(part)]  # a list's entry by index, -1 the last (wait_states...blamed.0.rank)
            continue
        if not isinstance(value, dict) or part not in value:
            print(f"check_report_values: {key}: no '{part}' in the file")
            sys.exit(1)
        value = value[part]
    want = eval(expr, {"N": N})
    ok = abs(float(value) - want) <= tol
    print(f"check_report_values: {key} = {value} (expected {want} +- {tol}) {'ok' if ok else 'FAILED'}")
    failed |= not ok
sys.exit(1 if failed else 0)
PY
    rm -rf "$dir"
    exit 0
fi
echo "check_report_values: files kept in $dir"
exit 1
