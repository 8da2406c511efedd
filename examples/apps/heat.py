# heat.py: explicit 2-D heat equation (Jacobi sweeps) in Python, numpy and mpi4py, written the
# way such scripts are: module-level state, a Cartesian grid of ranks, halos by Sendrecv of
# numpy slices, the residual by allreduce. Unmodified under xsim (see README.md).
#
# usage: python3 heat.py [NX NY STEPS REPORT]   (a NX x NY interior, STEPS sweeps, the
#                                                 residual checked every REPORT sweeps)
# Every grid point gets the same operations in the same order on any decomposition, so the
# final grid is bitwise identical for any number of ranks; rank 0 prints RESULT lines
# (compare_runs.sh): exact points, checksum (both 32-bit halves of every value weighted by
# its global index, integer sums), maximum and centre value; total heat and residual within
# a tolerance (sums over ranks); verification: the maximum principle and a residual that
# never grows.
import sys

import numpy as np
from mpi4py import MPI

nx, ny, steps, report = (int(a) for a in (sys.argv[1:5] if len(sys.argv) >= 5 else (64, 64, 100, 25)))
comm = MPI.COMM_WORLD
dims = MPI.Compute_dims(comm.Get_size(), 2)
grid = comm.Create_cart(dims, periods=[False, False], reorder=False)
coords = grid.Get_coords(grid.Get_rank())


def block(n, parts, index):  # rows (or columns) [first, last) of block `index`
    return index * n // parts, (index + 1) * n // parts


x0, x1 = block(nx, dims[0], coords[0])
y0, y1 = block(ny, dims[1], coords[1])
u = np.zeros((x1 - x0 + 2, y1 - y0 + 2))  # with one ghost layer
if coords[0] == 0:
    u[0, :] = 1.0  # the hot edge: global row -1
up, down = grid.Shift(0, 1)
left, right = grid.Shift(1, 1)


def exchange_halos(u):
    # (row or column sent, where the received one goes, to, from): towards each neighbour in
    # turn; a side without a neighbour (MPI.PROC_NULL) keeps its boundary values.
    for send, recv, dest, source in ((np.s_[1, :], np.s_[-1, :], up, down), (np.s_[-2, :], np.s_[0, :], down, up),
                                     (np.s_[:, 1], np.s_[:, -1], left, right), (np.s_[:, -2], np.s_[:, 0], right, left)):
        incoming = np.empty_like(u[recv])
        grid.Sendrecv(np.ascontiguousarray(u[send]), dest=dest, recvbuf=incoming, source=source)
        if source != MPI.PROC_NULL:
            u[recv] = incoming


residuals = []
ok = True
for step in range(1, steps + 1):
    exchange_halos(u)
    new = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    change = float(np.sum((new - u[1:-1, 1:-1]) ** 2))
    u[1:-1, 1:-1] = new
    if step % report == 0:
        residuals.append(grid.allreduce(change, op=MPI.SUM) ** 0.5)
        ok = ok and (len(residuals) < 2 or residuals[-1] <= residuals[-2])

inner = u[1:-1, 1:-1]
bits = inner.view(np.uint64)
index = (np.arange(x0, x1)[:, None] * ny + np.arange(y0, y1)[None, :]).astype(np.uint64) + np.uint64(1)
with np.errstate(over="ignore"):
    low = int(np.sum((bits & np.uint64(0xFFFFFFFF)) * index, dtype=np.uint64))
    high = int(np.sum((bits >> np.uint64(32)) * index, dtype=np.uint64))
checksum = grid.allreduce((low + (high << 1)) % 2**64, op=MPI.SUM) % 2**64
points = grid.allreduce(inner.size, op=MPI.SUM)
largest = grid.allreduce(float(inner.max()) if inner.size else 0.0, op=MPI.MAX)
smallest = grid.allreduce(float(inner.min()) if inner.size else 1.0, op=MPI.MIN)
total = grid.allreduce(float(inner.sum()), op=MPI.SUM)
cx, cy = nx // 2, ny // 2
centre = float(u[cx - x0 + 1, cy - y0 + 1]) if x0 <= cx < x1 and y0 <= cy < y1 else None
centre = grid.allreduce(0.0 if centre is None else centre, op=MPI.SUM)
ok = grid.allreduce(ok and 0.0 <= smallest and largest <= 1.0, op=MPI.LAND)
if grid.Get_rank() == 0:
    print(f"RESULT points exact {points}")
    print(f"RESULT checksum exact {checksum}")
    print(f"RESULT maximum exact {largest!r}")
    print(f"RESULT centre exact {centre!r}")
    print(f"RESULT total_heat rel 1e-12 {total!r}")
    print(f"RESULT residual rel 1e-10 {residuals[-1]!r}")
    print(f"RESULT verification exact {'SUCCESSFUL' if ok else 'UNSUCCESSFUL'}")
sys.exit(0 if ok else 1)
