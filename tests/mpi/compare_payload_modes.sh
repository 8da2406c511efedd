#!/usr/bin/env bash
# Virtual times must not depend on -xsim-payload: runs one test program in several
# (processes, payload mode, program arguments) combinations and requires byte-identical
# VTIME lines. Each run must also pass on its own (../run_mpi_case.sh), with its own checks.
#
# usage: compare_payload_modes.sh <exe> <N> RUN RUN... [-- run_mpi_case.sh options]
#   RUN  "P:MODE[:ARG,ARG...]", e.g. "1:on:checked" "2:auto:dropped" "2:64k:checked"
#        (P real processes, -xsim-payload MODE, program arguments separated by commas)
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 4 ]] || usage
exe=$1 nranks=$2
shift 2
runs=()
while [[ $# -gt 0 && $1 != -- ]]; do runs+=("$1"); shift; done
[[ ${1:-} == -- ]] && shift
[[ ${#runs[@]} -ge 2 ]] || { echo "compare_payload_modes.sh: need at least two runs" >&2; exit 2; }

for run in "${runs[@]}"; do
    IFS=: read -r procs mode args <<<"$run"
    [[ $procs =~ ^[1-9][0-9]*$ && -n $mode ]] || { echo "compare_payload_modes.sh: bad run '$run'" >&2; exit 2; }
    IFS=, read -r -a app_args <<<"${args:-}"
    compare_run "$run" "$exe" "$procs" "$nranks" --xsim "-xsim-payload $mode" "$@" \
        -- "${app_args[@]+"${app_args[@]}"}"
done
compare_same '^VTIME ' "${runs[@]}"
compare_finish
