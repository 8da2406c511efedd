#!/usr/bin/env bash
# -xsim-profile FILE.csv known answers: runs tests/mpi/wait_imbalance.c (allreduce after
# compute of rank r * T) and checks that every row has the header's columns, that the call
# rows hold MPI_Allreduce, that the per-rank rows give rank r compute r * T, and that the
# wait_state row of wait at N x N holds T * N(N-1)/2 (each rank waits for the last one).
#
# usage: check_profile_csv.sh <wait_imbalance exe> <P> <N> T
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
[[ $# -eq 4 ]] || { echo "usage: check_profile_csv.sh <exe> <P> <N> T" >&2; exit 2; }
exe=$1 procs=$2 nranks=$3 t=$4
dir=$(mktemp -d "${TMPDIR:-/tmp}/xsim_profile_csv.XXXXXX")
fail() { echo "check_profile_csv: $*; files kept in $dir"; exit 1; }
bash "$here/../run_mpi_case.sh" "$exe" "$procs" "$nranks" --timeout 120 --xsim "-xsim-profile $dir/p.csv" \
    -- allreduce "$t" >"$dir/run.out" 2>&1 || { cat "$dir/run.out"; fail "the run failed"; }
python3 - "$dir/p.csv" "$nranks" "$t" <<'PY' || fail "the CSV profile is not what the program gives"
import csv, sys
path, N, T = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
rows = list(csv.reader(open(path)))
header = rows[0]
assert header[:2] == ["kind", "name"] and header[-3:] == ["compute_s", "point_to_point_s", "collective_s"], header
for row in rows[1:]:
    assert len(row) == len(header), f"{len(row)} columns, the header has {len(header)}: {row}"
table = [dict(zip(header, row)) for row in rows[1:]]
kinds = {r["kind"] for r in table}
assert {"split", "call", "rank", "wait_state"} <= kinds, kinds
assert any(r["kind"] == "call" and r["name"] == "MPI_Allreduce" for r in table), "no MPI_Allreduce row"
ranks = {r["name"]: r for r in table if r["kind"] == "rank"}
for rank in range(N):
    got = float(ranks[str(rank)]["compute_s"])
    assert abs(got - rank * T) < 1e-9, f"rank {rank}: compute {got}, expected {rank * T}"
nxn = [r for r in table if r["kind"] == "wait_state" and r["name"] == "wait_at_nxn"]
assert nxn and abs(float(nxn[0]["total_s"]) - T * N * (N - 1) / 2) < 1e-3, nxn
print(f"check_profile_csv: {len(table)} rows of {len(header)} columns; compute per rank and wait at N x N as expected")
PY
rm -rf "$dir"
