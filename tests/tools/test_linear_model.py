#!/usr/bin/python3
"""The sweep's linear model recovers known coefficients exactly: runs generated from
T = s*alpha(p) + beta(p)*L + gamma(p)/BW, with alpha, beta, gamma of known forms in p, give
back those coefficients per rank count and predict a held-out rank count exactly. Also: the
sweep's parameter syntax refuses bad input with a message naming it."""
import itertools
import math
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "launch", "python"))
from xsim_tools import linear_model, sweep_plan  # noqa: E402

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


alpha = lambda p: 2e-3 + 1e-4 * math.log2(p)      # compute on the path grows like log p
beta = lambda p: 12 + 2 * math.log2(p)             # latencies on the critical path
gamma = lambda p: 4096 + 512 * math.log2(p)        # bytes on the critical path
rows = []
for p in (16, 64, 256, 1024, 4096):
    for s, L, BW in itertools.product((0.5, 1.0, 2.0), (1e-6, 2e-6, 5e-6), (1e9, 3e9, 1e10)):
        rows.append({"ranks": p, "s": s, "L": L, "BW": BW,
                     "T": s * alpha(p) + beta(p) * L + gamma(p) / BW})

fits, trends, checks = linear_model.fit_sweep(
    rows, lambda r: r["s"], lambda r: r["L"], lambda r: r["BW"], lambda r: r["T"], holdout=[4096])
for p, fit in fits.items():
    check(close(fit.alpha, alpha(p)), f"{p} ranks: alpha {fit.alpha} != {alpha(p)}")
    check(close(fit.beta, beta(p)), f"{p} ranks: beta {fit.beta} != {beta(p)}")
    check(close(fit.gamma, gamma(p)), f"{p} ranks: gamma {fit.gamma} != {gamma(p)}")
    check(fit.r2 > 1 - 1e-12 and fit.worst_relative_error < 1e-9, f"{p} ranks: fit not exact (R^2 {fit.r2})")
for name in ("alpha", "beta", "gamma"):
    check(trends[name].form == "a+b*log2(p)", f"{name}: chose {trends[name].form}, expected a+b*log2(p)")
check(len(checks) == 1 and checks[0]["ranks"] == 4096 and checks[0]["worst_relative_error"] < 1e-9,
      f"held-out 4096 ranks not predicted exactly: {checks}")

# A linear trend is recognised as such.
lin_rows = [{"ranks": p, "s": 1.0, "L": L, "BW": 1e9, "T": (1e-3 + 1e-6 * p) + (3 + 0.5 * p) * L}
            for p in (8, 32, 128, 512) for L in (1e-6, 4e-6)]
_, lin_trends, lin_checks = linear_model.fit_sweep(
    lin_rows, lambda r: r["s"], lambda r: r["L"], lambda r: r["BW"], lambda r: r["T"], holdout=[512])
check(lin_trends["beta"].form == "a+b*p", f"beta: chose {lin_trends['beta'].form}, expected a+b*p")
check(lin_checks[0]["worst_relative_error"] < 1e-9, f"linear trend: held-out error {lin_checks}")

# Parameter syntax: errors name the problem.
for text, words in [("network.level.node.latency", "KEY=VALUES"), ("latency=1e-6", "not a machine key"),
                    ("network.x.latency=1e-6,abc", "not a number"), ("network.x.latency=5:1", "empty"),
                    ("network.x.latency=log:0:1", "LOW > 0"), ("network.x.latency=nan", "not finite")]:
    try:
        sweep_plan.parse_parameter(text)
        check(False, f"{text!r} accepted")
    except ValueError as e:
        check(words in str(e), f"{text!r}: message {e} lacks {words!r}")
p = sweep_plan.parse_parameter("network.a.latency,network.b.latency=1e-6,2e-6")
check(p.keys == ("network.a.latency", "network.b.latency") and p.values == (1e-6, 2e-6), f"linked keys parsed as {p}")
grid = list(sweep_plan.points([p, sweep_plan.parse_parameter("network.a.bandwidth=1e9,2e9,4e9")], [4, 8]))
check(len(grid) == 2 * 2 * 3, f"grid has {len(grid)} points, expected 12")
sampled = list(sweep_plan.points([sweep_plan.parse_parameter("network.a.latency=log:1e-7:1e-5")], [4], samples=20, seed=3))
check(len(sampled) == 20 and all(1e-7 <= v["network.a.latency"] <= 1e-5 for _, v in sampled), "samples out of range")

if failures:
    sys.exit(f"{len(failures)} check(s) failed")
print("linear model: coefficients, trends and held-out prediction recovered exactly")
