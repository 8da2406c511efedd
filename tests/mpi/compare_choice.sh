#!/usr/bin/env bash
# Which algorithm a default selection ran, told by its virtual time: runs <exe> with N
# simulated ranks on P real processes once as given and once with the collective forced
# (XSIM_COLL_<NAME>=<algorithm>), and requires identical VTIME lines. Analytic and
# message-level times of a call differ (the closed form is not the simulation), so equal
# times say the default ran the forced algorithm.
# usage: compare_choice.sh <exe> <P> <N> <NAME> <algorithm> [run_mpi_case.sh options] [-- app args...]
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"
[[ $# -ge 5 ]] || { sed -n '2,7p' "$0" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 coll=$4 algorithm=$5
shift 5
compare_run default "$exe" "$procs" "$nranks" "$@"
compare_run "$algorithm" "$exe" "$procs" "$nranks" --env "XSIM_COLL_$coll=$algorithm" "$@"
compare_same '^VTIME ' default "$algorithm"
compare_finish
