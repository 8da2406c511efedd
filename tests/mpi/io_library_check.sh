#!/usr/bin/env bash
# A parallel I/O library's program under xsim (parallel HDF5 built with h5pcc, PnetCDF, not
# relinked): runs it natively with mpirun -np 4, and under xsim with LD_PRELOAD=libxsim.so at
# -np 1 and 2 with 4 simulated ranks, then with 100 simulated ranks at -np 1 and 2; each run
# must print "PASS <name>" (its own read-back check) and exit 0, and the files must be byte
# for byte the same (4 ranks: as the native file; 100 ranks: -np 1 as -np 2).
# usage: io_library_check.sh <program> <libxsim.so> <work dir> <name> <file suffix>
set -u -o pipefail
prog=$1 lib=$2 dir=$3 name=$4 suffix=$5
mpirun=${MPIRUN:-mpirun}
flags=(--allow-run-as-root --oversubscribe)
rm -rf "$dir" && mkdir -p "$dir" || exit 2
fail() { echo "FAIL $name: $*"; exit 1; }
run() {  # run <file> <np> [xsim ranks]
    local out
    if [[ $# -eq 2 ]]; then
        out=$(timeout 120 "$mpirun" "${flags[@]}" -np "$2" "$prog" "$dir/$1" 2>&1)
    else
        out=$(timeout 120 "$mpirun" "${flags[@]}" -np "$2" -x LD_PRELOAD="$lib" "$prog" "$dir/$1" \
              -xsim-np "$3" -xsim-compute none 2>&1)
    fi
    local rc=$?
    echo "$out" | grep -q "^PASS $name" && [[ $rc -eq 0 ]] || fail "$1 (rc $rc): $out"
}
run "native.$suffix" 4
run "xsim.P1.N4.$suffix" 1 4
run "xsim.P2.N4.$suffix" 2 4
cmp "$dir/native.$suffix" "$dir/xsim.P1.N4.$suffix" || fail "4 ranks on 1 process differ from the native file"
cmp "$dir/native.$suffix" "$dir/xsim.P2.N4.$suffix" || fail "4 ranks on 2 processes differ from the native file"
run "xsim.P1.N100.$suffix" 1 100
run "xsim.P2.N100.$suffix" 2 100
cmp "$dir/xsim.P1.N100.$suffix" "$dir/xsim.P2.N100.$suffix" || fail "100 ranks: -np 1 and -np 2 differ"
echo "PASS io_library_check $name ($(stat -c %s "$dir/native.$suffix") bytes at 4 ranks, identical to native)"
