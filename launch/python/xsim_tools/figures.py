"""Figures of a sweep with matplotlib: simulated against fitted times, and the sensitivity of
the predicted time to each swept parameter. Shared by `xsim-sweep fit --plots DIR` and
`xsim-plot sweep`; each draw_* function draws into axes it is given."""
import os

from xsim_tools import plot_common as pc


def draw_fitted(ax, points):
    """points: {ranks: (simulated times, fitted times)}"""
    lo, hi = float("inf"), 0.0
    for n, (sim, fit) in sorted(points.items()):
        ax.scatter(sim, fit, s=14, label=f"{n} ranks")
        lo, hi = min(lo, min(sim), min(fit)), max(hi, max(sim), max(fit))
    ax.plot([lo, hi], [lo, hi], color="gray", linewidth=0.8, label="fitted = simulated")
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("T = s·α + β·L + γ/BW (s)")
    ax.set_title("linear model against the simulator", fontsize="medium")
    ax.legend(fontsize="small")


def base_values(rows, parameters):
    """Each parameter's most common value (ties: the smallest), where the others are held."""
    base = {}
    for p in parameters:
        values = sorted(float(r[p]) for r in rows)
        base[p] = max(sorted(set(values)), key=values.count)
    return base


def sensitivity_lines(rows, parameters, time_of):
    """{parameter: {ranks: [(value, time)]}}: the predicted time against each parameter, the
    other parameters held at their most common value."""
    base = base_values(rows, parameters)
    out = {}
    for name in parameters:
        others = [p for p in parameters if p != name]
        by_ranks = {}
        for r in rows:
            if all(float(r[p]) == base[p] for p in others):
                by_ranks.setdefault(int(r["ranks"]), []).append((float(r[name]), time_of(r)))
        out[name] = {n: sorted(pts) for n, pts in sorted(by_ranks.items())}
    return out


def draw_sensitivity(axes, rows, parameters, time_of):
    """One axes per parameter: predicted time against its value, one line per rank count."""
    lines = sensitivity_lines(rows, parameters, time_of)
    for ax, name in zip(axes, parameters):
        for n, pts in lines[name].items():
            ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", markersize=3, label=f"{n} ranks")
        ax.set_xscale("log")
        ax.set_xlabel(name if len(name) < 40 else name.split(",")[0] + ",...", fontsize="small")
        ax.set_ylabel("predicted time (s)")
        ax.legend(fontsize="x-small")


def fitted_vs_simulated(points, path):
    fig, ax = pc.pyplot().subplots(figsize=(5, 5))
    draw_fitted(ax, points)
    fig.tight_layout()
    pc.save(fig, path)


def sensitivity(rows, parameters, time_of, path):
    fig, axes = pc.pyplot().subplots(1, len(parameters), figsize=(4.2 * len(parameters), 3.6), squeeze=False)
    draw_sensitivity(axes[0], rows, parameters, time_of)
    fig.tight_layout()
    pc.save(fig, path)


def write_all(directory, rows, parameters, time_of, fitted_points):
    os.makedirs(directory, exist_ok=True)
    paths = [os.path.join(directory, "fitted_vs_simulated.png"), os.path.join(directory, "sensitivity.png")]
    fitted_vs_simulated(fitted_points, paths[0])
    sensitivity(rows, parameters, time_of, paths[1])
    return paths
