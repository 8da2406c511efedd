#!/usr/bin/env bash
# python.sh: Python programs (mpi4py, numpy) under xsim, the interpreter with libxsim
# preloaded: the figures of bench/RESULTS.md, "Session 28". For each rank count, runs
#   mpirun --oversubscribe -np P -x LD_PRELOAD=libxsim.so python3 SCRIPT -xsim-np N -xsim-compute none
# and prints one line: script, N, P, wall s, peak memory of one real process, and the
# script's verdict (mpi4py_app: its PASS line; heat: its verification line).
#   SCRIPT = tests/python/mpi4py_app.py (numpy buffers, pickled objects, Isend/Irecv, Split)
#          | examples/apps/heat.py 40 40 60 20 (2-D heat stencil, Sendrecv of numpy slices)
#
# Usage: bench/python.sh [--build DIR] [--python PY] [--procs P] [--script app|heat] [N ...]
# Defaults: /usr/bin/python3 (needs mpi4py and numpy: Debian python3-mpi4py, python3-numpy),
# 2 processes, the app script, N = 64 1024.
set -euo pipefail
# shellcheck source=bench/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build=${XSIM_BUILD:-/tmp/benchbuild}
python=/usr/bin/python3
procs=2
script=app
counts=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --python) python=$2; shift 2 ;;
        --procs) procs=$2; shift 2 ;;
        --script) script=$2; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        [0-9]*) counts+=("$1"); shift ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done
[ ${#counts[@]} -gt 0 ] || counts=(64 1024)
"$python" -c "import mpi4py, numpy" 2>/dev/null || die "$python cannot import mpi4py and numpy"
case "$script" in
    app) args=("$REPO_DIR/tests/python/mpi4py_app.py"); verdict='^PASS ' ;;
    heat) args=("$REPO_DIR/examples/apps/heat.py" 40 40 60 20); verdict='^RESULT verification ' ;;
    *) die "--script is app or heat, got '$script'" ;;
esac
build=$(cd "$build" 2>/dev/null && pwd || echo "$build")
find_or_build_xsim "$build"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-6s %8s %3s %9s %12s  %s\n' script N P wall_s peak_MiB verdict
for n in "${counts[@]}"; do
    /usr/bin/time -f "%e %M" -o "$out/time" "$MPIRUN" --oversubscribe -np "$procs" \
        -x LD_PRELOAD="$build/libxsim/libxsim.so" "$python" "${args[@]}" -xsim-np "$n" -xsim-compute none \
        >"$out/stdout" 2>"$out/stderr" || true
    read -r wall kib <"$out/time" || { wall=-; kib=0; }
    line=$(grep -E "$verdict" "$out/stdout" | head -1 || true)
    printf '%-6s %8s %3s %9s %12s  %s\n' "$script" "$n" "$procs" "$wall" "$((kib / 1024))" "${line:-FAILED: $(tail -1 "$out/stderr")}"
done
