#!/usr/bin/env bash
# The run report's critical_path (issue 13) and xsim-sweep's alpha, beta, gamma from it.
# 1. Its terms add up exactly to the clock of the rank that ended last, which is the run's
#    simulated time (ring, ping-pong eager and rendezvous, stencil; contention on and off).
# 2. Ping-pong with known counts (no compute, so each receive is posted before its message
#    arrives and every message is on the path): 8 messages of B bytes add exactly 8*B bytes and 8 latency
#    terms (eager) or 24 (rendezvous: request-to-send, clear-to-send, data) to the path of the
#    same program with 0-byte messages.
#    An allreduce after rank i computed i*T (8 ranks): the path of the last rank to end holds
#    exactly 7*T of compute (rank 7's), the rest is the allreduce's messages. A program of
#    nonblocking collectives (coll_nonblocking) adds up exactly too.
# 3. A sweep of the stencil skeleton over latency and bandwidth (every level linked): the path
#    of the base run gives beta and gamma equal to the least-squares fit's. Exact (to the fit's
#    rounding, 1e-6 relative) since this sweep does not change which path is critical; alpha
#    agrees to 1e-3 relative (ps rounding of every serialization term).
# usage: critical_path.sh SOURCE_DIR RING PINGPONG STENCIL WAIT_IMBALANCE COLL_NONBLOCKING WORK_DIR
set -euo pipefail
src=$1 ring=$2 pingpong=$3 stencil=$4 imbalance=$5 nonblocking=$6 work=$7
rm -rf "$work" && mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run() {  # NAME NP XSIM_NP PROGRAM ARGS...
    local name=$1 np=$2 n=$3; shift 3
    mpirun --oversubscribe -np "$np" "$@" -xsim-np "$n" -xsim-report "$work/$name.json" > "$work/$name.out" 2>&1 ||
        { echo "FAIL: $name exited non-zero"; tail "$work/$name.out"; exit 1; }
}
run ring 2 64 "$ring"
run ring_nocontention 1 64 "$ring" -xsim-set network.contention=false
run pp0 1 2 "$pingpong" 1 0 -xsim-compute none
run pp1k 2 2 "$pingpong" 1 1024 -xsim-compute none
run pp1m 1 2 "$pingpong" 1 1048576 -xsim-compute none
run stencil 2 64 "$stencil" -xsim-compute none -xsim-payload off
run stencil_measured 1 16 "$stencil"
run allreduce 2 8 "$imbalance" allreduce 0.001 -xsim-compute none
run nonblocking 2 16 "$nonblocking"
/usr/bin/python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def load(name):
    r = json.load(open(f"{work}/{name}.json"))
    assert "critical_path" in r, f"{name}: no critical_path in the report"
    return r
for name in ("ring", "ring_nocontention", "pp0", "pp1k", "pp1m", "stencil", "stencil_measured", "allreduce",
             "nonblocking"):
    r = load(name)
    p = r["critical_path"]
    total = p["compute_ps"] + p["latency_ps"] + p["bandwidth_ps"] + p["other_ps"]
    if total != p["end_ps"] or p["end_ps"] != r["simulated_time_ps"]:
        sys.exit(f"FAIL: {name}: terms add to {total} ps, the rank's end is {p['end_ps']}, "
                 f"the simulated time {r['simulated_time_ps']}: {p}")
    if min(p["compute_ps"], p["latency_ps"], p["bandwidth_ps"], p["other_ps"]) < 0:
        sys.exit(f"FAIL: {name}: a negative term: {p}")
    print(f"{name}: rank {p['rank']} {p['end_ps']} ps = compute {p['compute_ps']} + latency {p['latency_ps']} "
          f"({p['latencies']}) + bandwidth {p['bandwidth_ps']} ({p['bytes']} B) + other {p['other_ps']}")
if load("stencil_measured")["critical_path"]["compute_ps"] <= 0:
    sys.exit("FAIL: measured compute is not on the stencil's path")
if load("allreduce")["critical_path"]["compute_ps"] != 7 * 10**9:
    sys.exit(f"FAIL: allreduce: compute on the path is not rank 7's 7 ms: {load('allreduce')['critical_path']}")
base = load("pp0")["critical_path"]
for name, size, per_message in (("pp1k", 1024, 1), ("pp1m", 1048576, 3)):
    p = load(name)["critical_path"]
    got = (p["bytes"] - base["bytes"], p["latencies"] - base["latencies"])
    if got != (8 * size, 0 if per_message == 1 else 16):
        sys.exit(f"FAIL: {name}: the path gained {got} (bytes, latency terms) over 0 bytes, "
                 f"expected {(8 * size, 0 if per_message == 1 else 16)}")
print("ping-pong: exact byte and latency counts")
PY
"$src/launch/xsim-sweep" path "$work/stencil.json" --json "$work/path.json"
L=network.level.node.latency,network.level.switch.latency,network.level.system.latency
B=network.level.node.bandwidth,network.level.switch.bandwidth,network.level.system.bandwidth
"$src/launch/xsim-sweep" run --out "$work/sweep.csv" --ranks 16 --param "$L=1e-6,3e-6,9e-6" \
    --param "$B=1e9,3e9,9e9" --jobs 2 -- "$stencil" -xsim-compute none -xsim-payload off
"$src/launch/xsim-sweep" fit "$work/sweep.csv" --time simulated_time_s --json "$work/fit.json"
/usr/bin/python3 - "$work/fit.json" <<'PY'
import json, sys
fit = json.load(open(sys.argv[1]))
(f,), (p,) = fit["fits"], fit["critical_path"]
assert p["latency"] == 1e-6 and p["bandwidth"] == 9e9, p
for k, tol in (("beta", 1e-6), ("gamma", 1e-6), ("alpha", 1e-3)):
    if abs(p[k] - f[k]) > tol * max(abs(f[k]), 1e-12):
        sys.exit(f"FAIL: {k}: the critical path gives {p[k]}, the fit {f[k]} (tolerance {tol} relative)")
print(f"PASS: path beta {p['beta']}, gamma {p['gamma']}, alpha {p['alpha']:.6g} agree with the fit "
      f"({f['beta']:.6g}, {f['gamma']:.6g}, {f['alpha']:.6g})")
PY
