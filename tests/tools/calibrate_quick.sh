#!/usr/bin/env bash
# xsim-machine --calibrate --quick writes a machine file that loads (xsim-machine --check and a
# real run under xsim), whose every measured value is within sane bounds for a shared-memory
# MPI host and carries its comment (median, runs, spread).
# usage: calibrate_quick.sh XSIM_MACHINE PROBE APP WORK_DIR
set -euo pipefail
machine_tool=$1 probe=$2 app=$3 work=$4
rm -rf "$work" && mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$machine_tool" --calibrate --quick --probe "$probe" -o "$work/host.toml"
"$machine_tool" --check "$work/host.toml" > "$work/effective.json"
/usr/bin/python3 - "$work/host.toml" <<'PY'
import sys, tomllib
text = open(sys.argv[1]).read()
m = tomllib.loads(text)
p = m["processor"]
bounds = {"flops": (1e6, 1e13), "poll_cost": (1e-10, 1e-4), "clock_read_cost": (1e-10, 1e-4)}
bad = [f"processor.{k} = {p[k]}" for k, (lo, hi) in bounds.items() if not lo <= p[k] <= hi]
measured = [l for l in m["network"]["level"] if l["name"] != "network"]
if len(measured) < 2:
    bad.append(f"expected the self and node levels measured, got {[l['name'] for l in measured]}")
for l in measured:
    if not 1e-9 <= l["latency"] <= 1e-3: bad.append(f"{l['name']}.latency = {l['latency']}")
    if not 1e7 <= l["bandwidth"] <= 1e13: bad.append(f"{l['name']}.bandwidth = {l['bandwidth']}")
    if not 0 < l["rendezvous"] <= 1 << 26: bad.append(f"{l['name']}.rendezvous = {l['rendezvous']}")
for key in ("latency =", "poll_cost =", "flops ="):
    for line in (l for l in text.splitlines() if l.startswith(key)):
        if "median of" not in line and "typical" not in line and "seconds to the first byte" not in line:
            bad.append(f"no measurement comment: {line}")
if bad:
    sys.exit("FAIL: " + "; ".join(bad))
print("calibrated values within bounds:", {k: p[k] for k in bounds},
      [(l["name"], l["latency"], l["bandwidth"]) for l in measured])
PY
mpirun --oversubscribe -np 1 "$app" -xsim-np 64 -xsim-config "$work/host.toml" -xsim-compute none > "$work/run.out"
grep -q "predicted time" "$work/run.out" || { cat "$work/run.out"; echo "FAIL: no run with the calibrated machine"; exit 1; }
echo "PASS: calibrated machine file written, loaded and used"
