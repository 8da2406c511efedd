"""Runs the points of a sweep with mpirun, several at once, and appends one CSV row per run as
it ends, so an interrupted sweep resumes where it stopped."""
import csv
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor

from . import critical_path
from .sweep_plan import run_id

# Counters copied from the run report (-xsim-report) into every row.
REPORT_COLUMNS = ["simulated_time_s", "wall_time_s", "messages", "bytes", "collective_messages",
                  "remote_events", "context_switches", "events", "peak_rss_bytes", "exit_code"]


def run_command(mpirun, processes, program, ranks, point, keys_of, report):
    command = list(mpirun) + ["-np", str(processes)] + list(program)
    command += ["-xsim-np", str(ranks), "-xsim-report", report]
    for name, value in point.items():
        for key in keys_of[name]:
            command += ["-xsim-set", f"{key}={value!r}"]
    return command


def existing_rows(path):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return {}, None
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        return {row["run_id"]: row for row in reader}, reader.fieldnames


def sweep(points, parameters, program, out, processes=1, jobs=1, mpirun=None, time_regex=None,
          timeout=None, log=sys.stderr):
    """Runs every point not already in `out`; returns (rows run now, failures)."""
    mpirun = mpirun or ["mpirun", "--oversubscribe"]
    keys_of = {p.name: p.keys for p in parameters}
    names = [p.name for p in parameters]
    columns = ["run_id", "ranks", "processes"] + names + REPORT_COLUMNS + list(critical_path.COLUMNS.values())
    if time_regex:
        columns.append("program_time_s")
    done, old_columns = existing_rows(out)
    if old_columns and old_columns != columns:
        raise SystemExit(f"xsim-sweep: {out} has columns {old_columns}, this sweep writes {columns}: "
                         "use another --out (or the same parameters, program and --time-regex)")
    pending = []
    for ranks, point in points:
        rid = run_id(ranks, point, [str(processes)] + list(program))
        if rid in done or any(rid == r for r, _, _ in pending):
            continue
        pending.append((rid, ranks, point))
    print(f"xsim-sweep: {len(done)} run(s) already in {out}, {len(pending)} to run, {jobs} at a time",
          file=log)
    lock = threading.Lock()
    failures = []
    new_file = not done
    f = open(out, "a", newline="")
    writer = csv.DictWriter(f, fieldnames=columns)
    if new_file:
        writer.writeheader()
        f.flush()
    pattern = re.compile(time_regex) if time_regex else None
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
        env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")

    def one(item):
        rid, ranks, point = item
        with tempfile.TemporaryDirectory(prefix="xsim-sweep-") as tmp:
            report = os.path.join(tmp, "report.json")
            command = run_command(mpirun, processes, program, ranks, point, keys_of, report)
            # Each run's Open MPI session directory in its own folder: runs started together
            # shared /tmp/ompi.HOST.UID, and one run's clean-up could remove it while another
            # created its own inside ("orte_session_dir failed", seen once in CI).
            run_env = dict(env)
            run_env.setdefault("OMPI_MCA_orte_tmpdir_base", tmp)
            try:
                proc = subprocess.run(command, capture_output=True, text=True, env=run_env, timeout=timeout)
                output, code = proc.stdout + proc.stderr, proc.returncode
            except subprocess.TimeoutExpired:
                output, code = f"timed out after {timeout} s", None
            row = {"run_id": rid, "ranks": ranks, "processes": processes, **point}
            problem = None
            if code != 0:
                problem = f"exit status {code}"
            elif not os.path.exists(report):
                problem = "no report written"
            else:
                with open(report) as r:
                    data = json.load(r)
                for c in REPORT_COLUMNS:
                    row[c] = data.get(c)
                row.update(critical_path.row_columns(data))
                if pattern:
                    m = pattern.search(output)
                    if not m:
                        problem = f"--time-regex {time_regex!r} matched nothing in the output"
                    else:
                        row["program_time_s"] = float(m.group(1))
        with lock:
            if problem:
                failures.append((rid, ranks, point, problem))
                tail = "\n    ".join(output.strip().splitlines()[-5:])
                print(f"xsim-sweep: run {rid} ({ranks} ranks, {point}) failed: {problem}\n"
                      f"    {shlex.join(command)}\n    {tail}", file=log)
                return
            writer.writerow(row)
            f.flush()

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(one, pending))
    f.close()
    return len(pending) - len(failures), failures
