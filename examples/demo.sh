#!/usr/bin/env bash
# The main demo: builds xsim (installing Debian packages if needed), then runs an
# unmodified MPI program with 131,072 simulated ranks on 2 real Open MPI processes, prints the
# run's summary and draws its profile (each rank's compute / communication / waiting).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bash "$here/launch/bootstrap.sh"
[ "$(id -u)" -ne 0 ] || export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ranks=${1:-131072}
# -xsim-compute none: only modeled time (the usleep compute phases and the network), so the
# predicted time is reproducible and independent of how busy this host is.
# -xsim-profile: per call and per rank (binned above 65,536 ranks), cheap at any scale.
echo "demo: mpirun -np 2 ring_exchange -xsim-np $ranks -xsim-compute none -xsim-summary on -xsim-report demo-report.json -xsim-profile demo-profile.json"
/usr/bin/time -f "demo: wall time %e s, peak memory of one real process %M KiB" \
  mpirun --oversubscribe -np 2 "${XSIM_BUILD_DIR:-$here/build}/examples/ring_exchange" \
  -xsim-np "$ranks" -xsim-compute none -xsim-summary on -xsim-report "$here/demo-report.json" \
  -xsim-profile "$here/demo-profile.json"
echo "demo: run report in $here/demo-report.json, profile in $here/demo-profile.json"
"$here/launch/xsim-plot" profile "$here/demo-profile.json" -o "$here/demo-profile.png"
echo "demo: picture of the profile in $here/demo-profile.png"
