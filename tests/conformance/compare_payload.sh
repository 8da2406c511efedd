#!/usr/bin/env bash
# Payload-free mode must not change virtual time: runs coll_timing with real buffers and
# then with NULL buffers under -xsim-payload off, and requires the same final VTIME (which
# depends on every collective's completion on every rank: coll_timing lines the ranks up
# at rank 0 before each one).
# usage: compare_payload.sh <coll_timing exe> <P> <N> <bytes> [--args "WORDS"] [--mode MODE] [run_mpi_case.sh options]...
# (--args: more coll_timing arguments, e.g. nonblocking; --mode: also a run with real
# buffers under -xsim-payload MODE, e.g. auto or 1k, whose TIME and VTIME lines must equal
# the full-payload run's: its final MPI_Reduce of the times is small enough to be kept)
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"
[[ $# -ge 4 ]] || { sed -n '2,8p' "$0" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 bytes=$4
shift 4
words=() mode=''
if [[ ${1:-} == --args ]]; then read -r -a words <<< "$2"; shift 2; fi
if [[ ${1:-} == --mode ]]; then mode=$2; shift 2; fi
compare_run payload "$exe" "$procs" "$nranks" "$@" -- "$bytes" "${words[@]+"${words[@]}"}"
compare_run no-payload "$exe" "$procs" "$nranks" "$@" --xsim "-xsim-payload off" \
    -- "$bytes" nobuf "${words[@]+"${words[@]}"}"
compare_same '^VTIME ' payload no-payload
if [[ -n $mode ]]; then
    compare_run "payload-$mode" "$exe" "$procs" "$nranks" "$@" --xsim "-xsim-payload $mode" \
        -- "$bytes" "${words[@]+"${words[@]}"}"
    compare_same '^(TIME|VTIME) ' payload "payload-$mode"
fi
compare_finish
