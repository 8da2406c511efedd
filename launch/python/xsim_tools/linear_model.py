"""The linear model of predicted time that Dimemas and STORM use for sweeps:

    T = s*alpha + beta*L + gamma/BW

per rank count (s: processor slowdown, 1/processor.speed; L: latency; BW: bandwidth), fitted
by least squares, then alpha, beta and gamma as functions of the rank count so that counts
not simulated can be predicted."""
import math
from dataclasses import dataclass, field

import numpy as np


@dataclass
class Fit:
    ranks: int
    alpha: float
    beta: float
    gamma: float
    r2: float
    worst_relative_error: float
    runs: int

    def predict(self, slowdown, latency, bandwidth):
        return slowdown * self.alpha + self.beta * latency + self.gamma / bandwidth


def regressors(slowdown, latency, bandwidth):
    return np.column_stack([np.asarray(slowdown, float), np.asarray(latency, float),
                            1.0 / np.asarray(bandwidth, float)])


def fit_one(ranks, slowdown, latency, bandwidth, times):
    """Least-squares alpha, beta, gamma for one rank count. A parameter that was not swept
    makes its column constant; alpha then absorbs it (only the sum is identifiable)."""
    times = np.asarray(times, float)
    X = regressors(slowdown, latency, bandwidth)
    if len(times) < 1:
        raise ValueError(f"{ranks} ranks: no runs to fit")
    # Columns that do not vary cannot be told from alpha: fit them as one intercept.
    varies = [np.ptp(X[:, j]) > 0 for j in range(3)]
    coef = np.zeros(3)
    cols = [j for j in (1, 2) if varies[j]]
    design = np.column_stack([X[:, 0]] + [X[:, j] for j in cols])
    sol, *_ = np.linalg.lstsq(design, times, rcond=None)
    coef[0] = sol[0]
    for k, j in enumerate(cols):
        coef[j] = sol[k + 1]
    # A constant L or 1/BW column is folded into alpha (its beta or gamma stays 0), so
    # predict() still reproduces the swept runs.
    fitted = design @ sol
    residual = times - fitted
    total = np.sum((times - times.mean()) ** 2)
    r2 = 1.0 - float(np.sum(residual ** 2) / total) if total > 0 else (1.0 if np.allclose(residual, 0) else 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.abs(residual) / np.abs(times)
    worst = float(np.nanmax(rel)) if len(rel) else 0.0
    return Fit(int(ranks), float(coef[0]), float(coef[1]), float(coef[2]), r2, worst, len(times))


# Candidate forms of a coefficient as a function of the rank count p.
FORMS = {
    "a+b*p": (lambda p: np.column_stack([np.ones_like(p), p]), lambda c, p: c[0] + c[1] * p),
    "a+b*log2(p)": (lambda p: np.column_stack([np.ones_like(p), np.log2(p)]), lambda c, p: c[0] + c[1] * np.log2(p)),
    "a+b*p+c*log2(p)": (lambda p: np.column_stack([np.ones_like(p), p, np.log2(p)]),
                        lambda c, p: c[0] + c[1] * p + c[2] * np.log2(p)),
}


@dataclass
class Trend:
    """One coefficient (alpha, beta or gamma) as a function of the rank count."""
    name: str
    form: str
    coef: list
    loo_error: float = field(default=float("nan"))

    def __call__(self, p):
        return float(FORMS[self.form][1](self.coef, np.asarray(float(p))))


def _fit_form(form, p, y):
    design = FORMS[form][0](p)
    c, *_ = np.linalg.lstsq(design, y, rcond=None)
    return c


def trend(name, ranks, values):
    """Picks the form with the smallest leave-one-out error (ties: the simpler form). Needs
    more points than a form has coefficients for leave-one-out; with fewer, the simplest form
    that fits exactly is kept."""
    p = np.asarray(ranks, float)
    y = np.asarray(values, float)
    best = None
    for form in FORMS:
        n_coef = FORMS[form][0](p[:1]).shape[1]
        if len(p) < n_coef:
            continue
        if len(p) > n_coef:
            errors = []
            for i in range(len(p)):
                keep = np.arange(len(p)) != i
                c = _fit_form(form, p[keep], y[keep])
                pred = FORMS[form][1](c, p[i])
                scale = max(abs(y[i]), 1e-300)
                errors.append(abs(pred - y[i]) / scale)
            loo = float(np.max(errors))
        else:
            loo = float("inf")
        candidate = Trend(name, form, [float(v) for v in _fit_form(form, p, y)], loo)
        if best is None or candidate.loo_error < best.loo_error * (1 - 1e-9) - 1e-15:
            best = candidate
    if best is None:
        raise ValueError(f"{name}: needs runs at 2 or more rank counts to extrapolate")
    return best


def fit_sweep(rows, slowdown_of, latency_of, bandwidth_of, time_of, holdout=()):
    """rows: dicts. Returns (fits per rank count, trends, held-out check)."""
    by_ranks = {}
    for r in rows:
        by_ranks.setdefault(int(r["ranks"]), []).append(r)
    fits = {}
    for n, rs in sorted(by_ranks.items()):
        fits[n] = fit_one(n, [slowdown_of(r) for r in rs], [latency_of(r) for r in rs],
                          [bandwidth_of(r) for r in rs], [time_of(r) for r in rs])
    trained = [n for n in fits if n not in set(holdout)]
    trends = None
    if len(trained) >= 2:
        trends = {c: trend(c, trained, [getattr(fits[n], c) for n in trained]) for c in ("alpha", "beta", "gamma")}
    checks = []
    for n in holdout:
        if n not in by_ranks:
            raise ValueError(f"--holdout {n}: no runs at {n} ranks in the sweep")
        if trends is None:
            raise ValueError("--holdout needs runs at 2 or more other rank counts")
        errors = []
        for r in by_ranks[n]:
            t = time_of(r)
            pred = (slowdown_of(r) * trends["alpha"](n) + trends["beta"](n) * latency_of(r)
                    + trends["gamma"](n) / bandwidth_of(r))
            errors.append(abs(pred - t) / t if t else abs(pred))
        checks.append({"ranks": n, "runs": len(errors), "mean_relative_error": float(np.mean(errors)),
                       "worst_relative_error": float(np.max(errors))})
    return fits, trends, checks
