#!/usr/bin/env bash
# A sweep of the stencil skeleton over latency and bandwidth (every network level set to the
# same value) at two rank counts: every run is written, a rerun runs nothing (resumable), and
# the fit T = alpha + beta*L + gamma/BW has R^2 > 0.99 at each count.
# usage: sweep_stencil.sh SOURCE_DIR STENCIL_BINARY WORK_DIR
set -euo pipefail
src=$1 app=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
L=network.level.node.latency,network.level.switch.latency,network.level.system.latency
B=network.level.node.bandwidth,network.level.switch.bandwidth,network.level.system.bandwidth
sweep=("$src/launch/xsim-sweep" run --out "$work/sweep.csv" --ranks 16,64 --param "$L=1e-6,3e-6,9e-6"
       --param "$B=1e9,3e9,9e9" --jobs 2 --time-regex 'predicted time ([0-9.eE+-]+) s'
       -- "$app" -xsim-compute none -xsim-payload off)
"${sweep[@]}"
rows=$(($(wc -l < "$work/sweep.csv") - 1))
[[ $rows == 18 ]] || { echo "FAIL: $rows rows in the sweep, expected 18"; exit 1; }
again=$("${sweep[@]}" 2>&1)
grep -q "18 run(s) already in" <<<"$again" || { echo "FAIL: the rerun did not resume: $again"; exit 1; }
"$src/launch/xsim-sweep" fit "$work/sweep.csv" --json "$work/fit.json" --plots "$work/plots"
/usr/bin/python3 - "$work/fit.json" <<'PY'
import json, sys
fit = json.load(open(sys.argv[1]))
bad = [f for f in fit["fits"] if not f["r2"] > 0.99]
assert fit["time"] == "program_time_s", fit["time"]
assert len(fit["fits"]) == 2, fit["fits"]
if bad:
    sys.exit(f"FAIL: R^2 <= 0.99: {bad}")
print("sweep fit: R^2", [round(f["r2"], 6) for f in fit["fits"]])
PY
for png in fitted_vs_simulated sensitivity; do
    [[ -s $work/plots/$png.png ]] || { echo "FAIL: $png.png not written"; exit 1; }
done
echo "PASS: sweep of stencil2d written, resumed and fitted"
