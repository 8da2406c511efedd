"""alpha, beta and gamma of T = s*alpha + beta*L + gamma/BW from the critical path of ONE run
(issue 13): the run report's "critical_path" splits the clock of the rank that ended last into
compute, latency terms (and how many), bandwidth terms (and their bytes) and other. With one
latency L and one bandwidth BW on every level:

    alpha = (compute + other) / s    beta = latencies on the path    gamma = bytes on the path

They equal the least-squares fit over a sweep wherever the sweep does not change which path
is critical (then T is exactly linear in L and 1/BW); `other` holds NIC queueing and
contention, which a fit spreads over its coefficients."""
from dataclasses import dataclass

# Sweep CSV columns taken from the report's critical_path (report key -> column).
COLUMNS = {"rank": "cp_rank", "compute_s": "cp_compute_s", "latencies": "cp_latencies",
           "latency_s": "cp_latency_s", "bytes": "cp_bytes", "bandwidth_s": "cp_bandwidth_s",
           "other_s": "cp_other_s"}


@dataclass
class PathCoefficients:
    alpha: float
    beta: float
    gamma: float
    rank: int
    compute_s: float
    latency_s: float
    bandwidth_s: float
    other_s: float

    def predict(self, slowdown, latency, bandwidth):
        return slowdown * self.alpha + self.beta * latency + self.gamma / bandwidth


def from_path(path, slowdown=1.0):
    """path: the report's critical_path dict (or a CSV row's cp_* columns through row_path)."""
    missing = [k for k in COLUMNS if k not in path or path[k] in (None, "")]
    if missing:
        raise ValueError(f"the critical path lacks {', '.join(missing)} (a report of an xsim without issue 13?)")
    if not slowdown > 0:
        raise ValueError(f"slowdown {slowdown}: must be > 0")
    c = {k: float(path[k]) for k in COLUMNS}
    return PathCoefficients(alpha=(c["compute_s"] + c["other_s"]) / slowdown, beta=c["latencies"], gamma=c["bytes"],
                            rank=int(c["rank"]), compute_s=c["compute_s"], latency_s=c["latency_s"],
                            bandwidth_s=c["bandwidth_s"], other_s=c["other_s"])


def report_path(report):
    if "critical_path" not in report:
        raise ValueError("the report has no critical_path")
    return report["critical_path"]


def row_path(row):
    return {k: row.get(col) for k, col in COLUMNS.items()}


def row_columns(report):
    """The cp_* CSV columns of one run's report (empty strings when it has none)."""
    path = report.get("critical_path") or {}
    return {col: path.get(k, "") for k, col in COLUMNS.items()}


def base_row(rows, latency_of, bandwidth_of):
    """The base point of a rank count: the lowest latency, then the highest bandwidth, then run_id."""
    return min(rows, key=lambda r: (latency_of(r), -bandwidth_of(r), r.get("run_id", "")))
