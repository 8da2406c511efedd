#!/usr/bin/env bash
# Run one case with ../run_mpi_case.sh, writing the run report (and regions) into a fresh
# directory, then check what was written: the report must exist even when the run
# failed, and match every pattern.
#
# usage: check_report.sh [--report REGEX]... [--regions REGEX]... [--lines FILE COUNT]...
#                        -- <exe> <P> <N> [run_mpi_case.sh options]
#   --report REGEX    the run report (-xsim-report DIR/report.json) has a matching line
#   --regions REGEX   record regions (-xsim-regions-out DIR/regions.txt); a line matches
#   --lines FILE N    DIR/FILE exists and has N lines
# The options are passed in XSIM_OPTIONS (forwarded to every process).
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
report_res=() regions_res=() line_checks=()
while [[ $# -gt 0 && $1 != -- ]]; do
    case $1 in
        --report) report_res+=("$2"); shift 2 ;;
        --regions) regions_res+=("$2"); shift 2 ;;
        --lines) line_checks+=("$2:$3"); shift 3 ;;
        *) echo "check_report.sh: unknown option '$1'" >&2; exit 2 ;;
    esac
done
[[ $# -ge 4 && $1 == -- ]] || { echo "usage: check_report.sh [checks] -- <exe> <P> <N> [options]" >&2; exit 2; }
shift
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_report.XXXXXX")
opts="-xsim-report $dir/report.json"
[[ ${#regions_res[@]} -gt 0 ]] && opts+=" -xsim-regions-out $dir/regions.txt"
exe=$1 procs=$2 nranks=$3
shift 3
bash "$here/../run_mpi_case.sh" "$exe" "$procs" "$nranks" --env "XSIM_OPTIONS=$opts" "$@"
rc=$?
problems=()
[[ -f $dir/report.json ]] || problems+=("no run report was written")
for re in "${report_res[@]+"${report_res[@]}"}"; do
    grep -qE -- "$re" "$dir/report.json" 2>/dev/null || problems+=("the report has no line matching /$re/")
done
for re in "${regions_res[@]+"${regions_res[@]}"}"; do
    grep -qE -- "$re" "$dir/regions.txt" 2>/dev/null || problems+=("the regions file has no line matching /$re/")
done
for check in "${line_checks[@]+"${line_checks[@]}"}"; do
    file=${check%:*} want=${check##*:}
    have=$(wc -l <"$dir/$file" 2>/dev/null || echo missing)
    [[ $have == "$want" ]] || problems+=("$file has $have lines, expected $want")
done
if [[ $rc == 0 && ${#problems[@]} == 0 ]]; then
    echo "check_report: OK"
    rm -rf "$dir"
    exit 0
fi
for p in "${problems[@]+"${problems[@]}"}"; do echo "check_report: FAILED: $p"; done
echo "----- report -----"; head -n 20 "$dir/report.json" 2>/dev/null
[[ -f $dir/regions.txt ]] && { echo "----- regions -----"; cat "$dir/regions.txt"; }
echo "check_report: files kept in $dir"
exit 1
