"""Figures of a sweep with matplotlib: simulated against fitted times, and the sensitivity of
the predicted time to each swept parameter."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def fitted_vs_simulated(points, path):
    """points: {ranks: (simulated times, fitted times)}"""
    fig, ax = plt.subplots(figsize=(5, 5))
    lo, hi = float("inf"), 0.0
    for n, (sim, fit) in sorted(points.items()):
        ax.scatter(sim, fit, s=14, label=f"{n} ranks")
        lo, hi = min(lo, min(sim), min(fit)), max(hi, max(sim), max(fit))
    ax.plot([lo, hi], [lo, hi], color="gray", linewidth=0.8, label="fitted = simulated")
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("T = s·α + β·L + γ/BW (s)")
    ax.set_title("linear model against the simulator")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def sensitivity(rows, parameters, time_of, path):
    """One panel per parameter: predicted time against its value, the other parameters held
    at their most common value, one line per rank count."""
    fig, axes = plt.subplots(1, len(parameters), figsize=(4.2 * len(parameters), 3.6), squeeze=False)
    for ax, name in zip(axes[0], parameters):
        others = [p for p in parameters if p != name]
        base = {}
        for p in others:
            values = [float(r[p]) for r in rows]
            base[p] = max(set(values), key=values.count)
        by_ranks = {}
        for r in rows:
            if all(float(r[p]) == base[p] for p in others):
                by_ranks.setdefault(int(r["ranks"]), []).append((float(r[name]), time_of(r)))
        for n, pts in sorted(by_ranks.items()):
            pts.sort()
            ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", markersize=3, label=f"{n} ranks")
        ax.set_xscale("log")
        ax.set_xlabel(name if len(name) < 40 else name.split(",")[0] + ",...")
        ax.set_ylabel("predicted time (s)")
        ax.legend(fontsize="x-small")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def write_all(directory, rows, parameters, time_of, fitted_points):
    os.makedirs(directory, exist_ok=True)
    paths = [os.path.join(directory, "fitted_vs_simulated.png"), os.path.join(directory, "sensitivity.png")]
    fitted_vs_simulated(fitted_points, paths[0])
    sensitivity(rows, parameters, time_of, paths[1])
    return paths
