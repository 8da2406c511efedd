"""xsim-plot sweep: an xsim-sweep CSV (and optionally the JSON of `xsim-sweep fit --json`) as
the sweep's two figures: the linear model T = s*alpha + beta*L + gamma/BW against the
simulator, and the predicted time's sensitivity to each swept parameter (figures.py draws
both, for xsim-sweep too)."""
from xsim_tools import figures, linear_model
from xsim_tools import plot_common as pc

WHICH = ("both", "fitted", "sensitivity")


def column(columns, suffix, path):
    found = [c for c in columns if c.split(",")[0].endswith(suffix)]
    if len(found) > 1:
        raise pc.InputError(f"{path}: several columns could be the {suffix.strip('.')} ({', '.join(found)}): "
                            "give `xsim-sweep fit --json` output as FIT.json to name one")
    return found[0] if found else None


def load(csv_path, fit_path=None):
    """-> (rows, swept parameter columns, time_of, points {ranks: (simulated, fitted)})"""
    columns, rows = pc.read_csv(csv_path, "sweep")
    if not rows or "ranks" not in columns:
        raise pc.InputError(f"{csv_path}: not an xsim-sweep CSV with runs (needs a \"ranks\" column and rows)")
    fit_doc = pc.read_json(fit_path, "sweep fit") if fit_path else None
    if fit_doc is not None and not (isinstance(fit_doc, dict) and isinstance(fit_doc.get("fits"), list)):
        raise pc.InputError(f"{fit_path}: not the JSON of `xsim-sweep fit --json` (no \"fits\" list)")
    if fit_doc:
        latency, bandwidth, speed, time_col = (fit_doc.get(k) for k in ("latency", "bandwidth", "speed", "time"))
    else:
        latency, bandwidth = column(columns, ".latency", csv_path), column(columns, ".bandwidth", csv_path)
        speed = column(columns, "processor.speed", csv_path)
        time_col = "program_time_s" if "program_time_s" in columns else "simulated_time_s"
    for c in (latency, bandwidth, speed, time_col):
        if c and c not in columns:
            raise pc.InputError(f"{csv_path}: no column {c!r}")
    swept = [c for c in (latency, bandwidth, speed) if c]
    if not swept:
        raise pc.InputError(f"{csv_path}: the sweep varies no latency, bandwidth or processor.speed column")
    for i, r in enumerate(rows):
        for c in swept + [time_col, "ranks"]:
            pc.number(r.get(c), f"{csv_path}: run {i + 1} column {c}", integer=c == "ranks")
    value = lambda col, default: (lambda r: float(r[col])) if col else (lambda r: default)
    slowdown_of = (lambda r: 1.0 / float(r[speed])) if speed else (lambda r: 1.0)
    latency_of, bandwidth_of, time_of = value(latency, 0.0), value(bandwidth, float("inf")), value(time_col, None)
    if fit_doc:
        try:
            fits = {int(f["ranks"]): linear_model.Fit(**{k: f[k] for k in ("ranks", "alpha", "beta", "gamma", "r2",
                                                                             "worst_relative_error", "runs")})
                    for f in fit_doc["fits"]}
        except (KeyError, TypeError, ValueError) as e:
            raise pc.InputError(f"{fit_path}: a fit lacks {e}") from None
    else:
        try:
            fits, _, _ = linear_model.fit_sweep(rows, slowdown_of, latency_of, bandwidth_of, time_of)
        except ValueError as e:
            raise pc.InputError(f"{csv_path}: {e}") from None
    points = {}
    for n, fit in fits.items():
        rs = [r for r in rows if int(r["ranks"]) == n]
        if rs:
            points[n] = ([time_of(r) for r in rs], [fit.predict(slowdown_of(r), latency_of(r), bandwidth_of(r)) for r in rs])
    if not points:
        raise pc.InputError(f"{fit_path}: its fits are for rank counts not in {csv_path}")
    return rows, swept, time_of, points


def numbers(rows, swept, time_of, points):
    worst = {n: max(abs(f - s) / abs(s) if s else abs(f) for s, f in zip(*p)) for n, p in points.items()}
    return {"parameters": swept, "runs": len(rows),
            "worst_relative_error": {str(n): w for n, w in sorted(worst.items())},
            "sensitivity": {name: {str(n): pts for n, pts in lines.items()}
                            for name, lines in figures.sensitivity_lines(rows, swept, time_of).items()}}


def draw(csv_path, fit_path, out, which="both", title=None):
    rows, swept, time_of, points = load(csv_path, fit_path)
    panels = (["fitted"] if which in ("both", "fitted") else []) + (swept if which in ("both", "sensitivity") else [])
    fig, axes = pc.pyplot().subplots(1, len(panels), figsize=(4.4 * len(panels), 4.2), squeeze=False)
    axes = list(axes[0])
    if which in ("both", "fitted"):
        figures.draw_fitted(axes.pop(0), points)
    if which in ("both", "sensitivity"):
        figures.draw_sensitivity(axes, rows, swept, time_of)
    if title:
        fig.suptitle(title, fontsize="medium")
    fig.tight_layout()
    pc.save(fig, out)
    return numbers(rows, swept, time_of, points)
