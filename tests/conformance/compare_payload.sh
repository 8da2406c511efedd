#!/usr/bin/env bash
# Payload-free mode must not change virtual time: runs coll_timing with real buffers and
# then with NULL buffers under -xsim-payload off, and requires the same final VTIME (which
# depends on every collective's completion on every rank: coll_timing lines the ranks up
# at rank 0 before each one).
# usage: compare_payload.sh <coll_timing exe> <P> <N> <bytes> [--args "WORDS"] [--mode MODE] [--env VAR=VALUE]...
# (--args: more coll_timing arguments, e.g. nonblocking; --mode: also a run with real
# buffers under -xsim-payload MODE, e.g. auto or 1k, whose TIME and VTIME lines must equal
# the full-payload run's: its final MPI_Reduce of the times is small enough to be kept)
set -u -o pipefail
[[ $# -ge 4 ]] || { sed -n '2,8p' "$0" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 bytes=$4
shift 4
words=() mode=''
if [[ ${1:-} == --args ]]; then read -r -a words <<< "$2"; shift 2; fi
if [[ ${1:-} == --mode ]]; then mode=$2; shift 2; fi
here=$(dirname "$0")
with=$(bash "$here/run_conformance.sh" "$exe" "$procs" "$nranks" --full "$@" -- "$bytes" "${words[@]}") || { echo "$with"; exit 1; }
without=$(bash "$here/run_conformance.sh" "$exe" "$procs" "$nranks" --full "$@" --xsim "-xsim-payload off" \
              -- "$bytes" nobuf "${words[@]}") || { echo "$without"; exit 1; }
a=$(grep -E '^VTIME ' <<< "$with")
b=$(grep -E '^VTIME ' <<< "$without")
[[ -n $a ]] || { echo "no times printed"; exit 1; }
if [[ "$a" != "$b" ]]; then
    echo "virtual times differ with and without payload:"
    diff <(echo "$a") <(echo "$b") | head -n 20
    exit 1
fi
echo "identical with and without payload: $a"
[[ -n $mode ]] || exit 0
threshold=$(bash "$here/run_conformance.sh" "$exe" "$procs" "$nranks" --full "$@" --xsim "-xsim-payload $mode" \
                -- "$bytes" "${words[@]}") || { echo "$threshold"; exit 1; }
a=$(grep -E '^(TIME|VTIME) ' <<< "$with")
c=$(grep -E '^(TIME|VTIME) ' <<< "$threshold")
if [[ "$a" != "$c" ]]; then
    echo "virtual times differ between payload on and -xsim-payload $mode:"
    diff <(echo "$a") <(echo "$c") | head -n 20
    exit 1
fi
echo "identical with payload on and -xsim-payload $mode ($(grep -c . <<< "$a") TIME/VTIME lines)"
