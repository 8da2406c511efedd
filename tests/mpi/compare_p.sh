#!/usr/bin/env bash
# Determinism across the number of real processes: run one test program with the
# same N at several P and require byte-identical VTIME and ORDER lines.
#
# usage: compare_p.sh <exe> <N> [--procs "1 2 4"] [run_mpi_case.sh options] [-- app args...]
#   --procs "LIST"   values of P to run (default "1 2"); at least two
# Every run must pass on its own (../run_mpi_case.sh), and every run must print a VTIME
# line, otherwise nothing would have been compared (../compare_lines.sh).
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"

[[ $# -ge 2 ]] || { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
exe=$1 nranks=$2
shift 2
procs="1 2"
if [[ $# -ge 2 && $1 == --procs ]]; then
    procs=$2
    shift 2
fi
read -r -a plist <<<"$procs"
[[ ${#plist[@]} -ge 2 ]] || { echo "compare_p.sh: need at least two values of P" >&2; exit 2; }

labels=()
for p in "${plist[@]}"; do
    compare_run "P=$p" "$exe" "$p" "$nranks" "$@"
    labels+=("P=$p")
done
compare_same '^(VTIME|ORDER) ' "${labels[@]}"
compare_finish
