#!/usr/bin/env bash
# Every test: builds xsim (installing Debian packages if needed), then runs the unit,
# end-to-end and conformance tests through CTest.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/launch/bootstrap.sh"
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "${XSIM_BUILD_DIR:-$here/build}"
# Two tests per core: most tests are short runs whose wall time is mpirun's start-up and
# MPI_Init, waiting more than computing (0.37 s wall, 0.12 s CPU): on 2 cores the suite
# took 829 s with -j2 and 583 s with -j4. Three or four per core was not faster (session 41: 315
# short conformance tests, 80-82 s at -j4, 75 s at -j6, 81 s at -j8).
ctest --output-on-failure -j"$((2 * $(nproc)))" "$@"
