#!/usr/bin/env bash
# Parallel HDF5 under xsim: runs the unmodified program (built with h5pcc, not relinked)
# natively with mpirun -np 4, and under xsim with LD_PRELOAD=libxsim.so at -np 1 and 2 with
# 4 simulated ranks, then with 100 simulated ranks at -np 1 and 2; each run must pass its
# own read-back check, and the files must be byte for byte the same (4 ranks: as the
# native file; 100 ranks: -np 1 as -np 2).
# usage: hdf5_check.sh <program> <libxsim.so> <work dir>
set -u -o pipefail
prog=$1 lib=$2 dir=$3
mpirun=${MPIRUN:-mpirun}
flags=(--allow-run-as-root --oversubscribe)
rm -rf "$dir" && mkdir -p "$dir" || exit 2
fail() { echo "FAIL hdf5_check: $*"; exit 1; }
run() {  # run <file> <np> [xsim ranks]
    local out
    if [[ $# -eq 2 ]]; then
        out=$(timeout 120 "$mpirun" "${flags[@]}" -np "$2" "$prog" "$dir/$1" 2>&1)
    else
        out=$(timeout 120 "$mpirun" "${flags[@]}" -np "$2" -x LD_PRELOAD="$lib" "$prog" "$dir/$1" \
              -xsim-np "$3" -xsim-compute none 2>&1)
    fi
    local rc=$?
    echo "$out" | grep -q "^PASS hdf5_collective" && [[ $rc -eq 0 ]] || fail "$1 (rc $rc): $out"
}
run native.h5 4
run xsim.P1.N4.h5 1 4
run xsim.P2.N4.h5 2 4
cmp "$dir/native.h5" "$dir/xsim.P1.N4.h5" || fail "4 ranks on 1 process differ from the native file"
cmp "$dir/native.h5" "$dir/xsim.P2.N4.h5" || fail "4 ranks on 2 processes differ from the native file"
run xsim.P1.N100.h5 1 100
run xsim.P2.N100.h5 2 100
cmp "$dir/xsim.P1.N100.h5" "$dir/xsim.P2.N100.h5" || fail "100 ranks: -np 1 and -np 2 differ"
echo "PASS hdf5_check ($(stat -c %s "$dir/native.h5") bytes at 4 ranks, identical to native)"
