#!/usr/bin/env bash
# Payload-free mode must not change virtual time: runs coll_timing with real buffers and
# then with NULL buffers under -xsim-payload off, and requires the same final VTIME (which
# depends on every collective's completion on every rank: coll_timing lines the ranks up
# at rank 0 before each one).
# usage: compare_payload.sh <coll_timing exe> <P> <N> <bytes> [--args "WORDS"] [--mode MODE]
#            [--save DIR | --payload-from DIR] [run_mpi_case.sh options]...
# (--args: more coll_timing arguments, e.g. nonblocking; --mode: also a run with real
# buffers under -xsim-payload MODE, e.g. auto or 1k, whose TIME and VTIME lines must equal
# the full-payload run's: its final MPI_Reduce of the times is small enough to be kept;
# --save: keep the full-payload run's output and command in DIR; --payload-from: take the
# full-payload run from DIR, where a test of the same command saved it (a CTest fixture),
# instead of running it again: with 100,000-byte blocks it is most of such a test's time)
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"
[[ $# -ge 4 ]] || { sed -n '2,13p' "$0" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 bytes=$4
shift 4
words=() mode='' save='' from=''
if [[ ${1:-} == --args ]]; then read -r -a words <<< "$2"; shift 2; fi
if [[ ${1:-} == --mode ]]; then mode=$2; shift 2; fi
if [[ ${1:-} == --save ]]; then save=$2; shift 2; fi
if [[ ${1:-} == --payload-from ]]; then from=$2; shift 2; fi
payload_run=("$exe" "$procs" "$nranks" "$@" -- "$bytes" "${words[@]+"${words[@]}"}")
if [[ -n $from ]]; then
    # The saved run counts only if it is this very command, and passed (it is saved after).
    echo "=== $compare_name: payload (saved in $from by the test of the same run)"
    if [[ ! -s $from/payload.log || $(<"$from/payload.command") != "${payload_run[*]}" ]]; then
        echo "$compare_name: FAILED: no passed run of '${payload_run[*]}' saved in $from"
        exit 1
    fi
    compare_log[payload]=$(<"$from/payload.log")
    echo "${compare_log[payload]}"
else
    [[ -z $save ]] || { rm -rf "$save" && mkdir -p "$save"; } || exit 1
    compare_run payload "${payload_run[@]}"
    if [[ -n $save ]]; then
        printf '%s\n' "${compare_log[payload]}" > "$save/payload.log"
        printf '%s\n' "${payload_run[*]}" > "$save/payload.command"
    fi
fi
compare_run no-payload "$exe" "$procs" "$nranks" "$@" --xsim "-xsim-payload off" \
    -- "$bytes" nobuf "${words[@]+"${words[@]}"}"
compare_same '^VTIME ' payload no-payload
if [[ -n $mode ]]; then
    compare_run "payload-$mode" "$exe" "$procs" "$nranks" "$@" --xsim "-xsim-payload $mode" \
        -- "$bytes" "${words[@]+"${words[@]}"}"
    compare_same '^(TIME|VTIME) ' payload "payload-$mode"
fi
compare_finish
