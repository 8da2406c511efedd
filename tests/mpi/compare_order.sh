#!/usr/bin/env bash
# The order in which a process handles its events changes no result: runs <exe> with N
# simulated ranks on one real process in strict time order (-xsim-order time) and in cells
# (the default, pdes/processing_order.hpp), and on two processes in cells, and requires
# byte-identical VTIME and ORDER lines.
# usage: compare_order.sh <exe> <N> [run_mpi_case.sh options] [-- app args...]
set -u -o pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../compare_lines.sh"
[[ $# -ge 2 ]] || { sed -n '2,6p' "$0" >&2; exit 2; }
exe=$1 nranks=$2
shift 2
compare_run "time order, P=1" "$exe" 1 "$nranks" --env "XSIM_OPTIONS=-xsim-order time" "$@"
compare_run "cells, P=1" "$exe" 1 "$nranks" --env "XSIM_OPTIONS=-xsim-order cells" "$@"
compare_run "cells, P=2" "$exe" 2 "$nranks" "$@"
compare_same '^(VTIME|ORDER) ' "time order, P=1" "cells, P=1" "cells, P=2"
compare_finish
