#!/usr/bin/env bash
# Nonblocking collectives run the blocking ones' algorithms: coll_timing with every
# collective as MPI_I<collective> + MPI_Wait must print exactly the TIME and VTIME lines
# of the blocking calls (the same virtual times, to the picosecond printed).
# usage: compare_nonblocking.sh <coll_timing exe> <P> <N> [run_mpi_case.sh options]... [-- program args...]
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"
[[ $# -ge 3 ]] || { sed -n '2,5p' "$0" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3
shift 3
opts=() args=()
while [[ $# -gt 0 ]]; do
    if [[ $1 == -- ]]; then shift; args=("$@"); break; fi
    opts+=("$1"); shift
done
[[ ${#args[@]} -gt 0 ]] || args=(64)
compare_run blocking "$exe" "$procs" "$nranks" "${opts[@]+"${opts[@]}"}" -- "${args[@]}"
compare_run nonblocking "$exe" "$procs" "$nranks" "${opts[@]+"${opts[@]}"}" -- "${args[@]}" nonblocking
compare_same '^(VTIME|TIME) ' blocking nonblocking
compare_finish
