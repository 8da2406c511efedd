#!/usr/bin/env bash
# Runs a program as 2 real processes on two "hosts" -- this machine under its own name and
# under an alias reached through Open MPI's remote launch path (local_rsh.sh as the rsh agent)
# -- and on one host, and checks that the virtual times are identical and the reports agree.
# usage: two_hosts.sh PROGRAM [ARGS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
this=$(hostname)
alias_name=xsim-second-host
# The report path is relative: each process resolves it in its own working directory, which
# is the same directory on a shared file system (and here).
cd "$work"
mpirun --oversubscribe --mca plm_rsh_agent "$here/local_rsh.sh" --host "$this:1,$alias_name:1" -np 2 \
    --display-map "$@" -xsim-report two_hosts.json > two_hosts.out 2>&1 ||
    { cat two_hosts.out; echo "FAIL: the two-host run failed"; exit 1; }
grep -q "Data for node: $alias_name" two_hosts.out ||
    { cat two_hosts.out; echo "FAIL: Open MPI did not place a process on $alias_name"; exit 1; }
mpirun --oversubscribe -np 2 "$@" -xsim-report one_host.json > one_host.out 2>&1 ||
    { cat one_host.out; echo "FAIL: the one-host run failed"; exit 1; }
/usr/bin/env python3 - two_hosts.json one_host.json <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for key in ("simulated_time_ps", "ranks", "processes", "messages", "bytes", "remote_events"):
    if a[key] != b[key]:
        sys.exit(f"FAIL: {key} differs: two hosts {a[key]}, one host {b[key]}")
print(f"two hosts and one host agree: {a['ranks']} ranks, {a['simulated_time_ps']} ps, "
      f"{a['remote_events']} events between the processes")
PY
diff <(grep 'predicted time' two_hosts.out) <(grep 'predicted time' one_host.out) ||
    { echo "FAIL: the program's output differs"; exit 1; }
echo "PASS: two hosts through Open MPI's remote launch give the one-host virtual times"
