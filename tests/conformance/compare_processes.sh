#!/usr/bin/env bash
# Virtual times must not depend on how many real processes host the simulated ranks:
# runs <exe> with N simulated ranks on 1 and on 2 real processes and requires identical
# VTIME and TIME lines (printed by rank 0 alone), and that both runs pass on their own.
# usage: compare_processes.sh <exe> <N> [run_mpi_case.sh options] [-- program args...]
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"
[[ $# -ge 2 ]] || { sed -n '2,5p' "$0" >&2; exit 2; }
exe=$1 nranks=$2
shift 2
compare_run P=1 "$exe" 1 "$nranks" "$@"
compare_run P=2 "$exe" 2 "$nranks" "$@"
compare_same '^(VTIME|TIME) ' P=1 P=2
compare_finish
