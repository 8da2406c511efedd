#!/usr/bin/env bash
# Nonblocking collectives run the blocking ones' algorithms: coll_timing with every
# collective as MPI_I<collective> + MPI_Wait must print exactly the TIME and VTIME lines
# of the blocking calls (the same virtual times, to the picosecond printed).
# usage: compare_nonblocking.sh <coll_timing exe> <P> <N> [run_conformance options]... [-- program args...]
set -u -o pipefail
[[ $# -ge 3 ]] || { sed -n '2,5p' "$0" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3
shift 3
opts=() args=()
while [[ $# -gt 0 ]]; do
    if [[ $1 == -- ]]; then shift; args=("$@"); break; fi
    opts+=("$1"); shift
done
[[ ${#args[@]} -gt 0 ]] || args=(64)
here=$(dirname "$0")
blocking=$(bash "$here/run_conformance.sh" "$exe" "$procs" "$nranks" --full "${opts[@]}" -- "${args[@]}") ||
    { echo "$blocking"; exit 1; }
nonblocking=$(bash "$here/run_conformance.sh" "$exe" "$procs" "$nranks" --full "${opts[@]}" -- "${args[@]}" nonblocking) ||
    { echo "$nonblocking"; exit 1; }
a=$(grep -E '^(VTIME|TIME) ' <<< "$blocking")
b=$(grep -E '^(VTIME|TIME) ' <<< "$nonblocking")
[[ -n $a ]] || { echo "no times printed"; exit 1; }
if [[ "$a" != "$b" ]]; then
    echo "nonblocking collectives + MPI_Wait took other times than the blocking ones:"
    diff <(echo "$a") <(echo "$b") | head -n 40
    exit 1
fi
echo "identical blocking and nonblocking times:"
echo "$a"
