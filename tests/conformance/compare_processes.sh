#!/usr/bin/env bash
# Virtual times must not depend on how many real processes host the simulated ranks:
# runs <exe> with N simulated ranks on 1 and on 2 real processes and requires identical
# VTIME and TIME lines (printed by rank 0 alone), and a PASS line from both.
# usage: compare_processes.sh <exe> <N> [--env VAR=VALUE]... [-- program args...]
set -u -o pipefail
[[ $# -ge 2 ]] || { sed -n '2,5p' "$0" >&2; exit 2; }
exe=$1 nranks=$2
shift 2
here=$(dirname "$0")
runs=()
for p in 1 2; do
    out=$(bash "$here/run_conformance.sh" "$exe" "$p" "$nranks" --full "$@") || { echo "$out"; echo "P=$p failed"; exit 1; }
    runs+=("$(grep -E '^(VTIME|TIME) ' <<< "$out")")
done
[[ -n ${runs[0]} ]] || { echo "no VTIME line"; exit 1; }
if [[ "${runs[0]}" != "${runs[1]}" ]]; then
    echo "virtual times differ between 1 and 2 real processes:"
    diff <(echo "${runs[0]}") <(echo "${runs[1]}")
    exit 1
fi
echo "identical on 1 and 2 processes:"
echo "${runs[0]}" | tail -n 5
