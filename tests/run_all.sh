#!/usr/bin/env bash
# Every test: builds xsim (installing Debian packages if needed), then runs the unit,
# end-to-end and conformance tests through CTest.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/launch/bootstrap.sh"
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "${XSIM_BUILD_DIR:-$here/build}"
ctest --output-on-failure -j"$(nproc)" "$@"
