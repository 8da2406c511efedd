# mpi4py_app: an unmodified mpi4py program under xsim (the Python interpreter preloaded with
# libxsim, given -xsim- options). Each rank is a whole interpreter with its own modules
# (mpi4py's and numpy's extension modules have per-rank globals).
# Checks, on every rank: the size (XSIM_TEST_EXPECT_SIZE), the launcher's rank and size in
# os.environ, buffer collectives on numpy arrays
# (Allreduce, Bcast, Allgather; Allreduce with an op written in Python), pickled-object
# point-to-point and collectives (sendrecv around a ring, gather, bcast of a dict),
# nonblocking Isend/Irecv of arrays, a Split communicator, and that a numpy array computed
# before the MPI calls is still the rank's.
# Rank 0 prints VTIME (the virtual time after a final barrier) and PASS, or FAIL lines.
import os
import sys

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
errors = []


def check(ok, what):
    if not ok:
        errors.append(f"rank {rank}: {what}")


expected = os.environ.get("XSIM_TEST_EXPECT_SIZE")
check(not expected or int(expected) == size, f"size {size}, expected {expected}")

# The launcher's variables are the rank's own, in os.environ (built from the environment array
# when the interpreter starts) and through os.getenv's view of it, as natively under mpirun.
launched = os.environ.get("OMPI_COMM_WORLD_RANK")
check(launched is None or int(launched) == rank, f"OMPI_COMM_WORLD_RANK is {launched}")
launched_size = os.environ.get("OMPI_COMM_WORLD_SIZE")
check(launched_size is None or int(launched_size) == size, f"OMPI_COMM_WORLD_SIZE is {launched_size}")

mine = np.arange(8, dtype="d") + rank  # kept across the calls below
total = np.empty(8)
comm.Allreduce(mine, total, op=MPI.SUM)
check(np.array_equal(total, np.arange(8) * size + size * (size - 1) / 2), f"Allreduce gave {total}")

data = np.full(4, 42 if rank == 0 else -1, dtype="i")
comm.Bcast(data, root=0)
check((data == 42).all(), f"Bcast gave {data}")

everyone = np.empty(size, dtype="i")
comm.Allgather(np.array([rank * 3], dtype="i"), everyone)
check(np.array_equal(everyone, np.arange(size) * 3), "Allgather")

left = comm.sendrecv({"from": rank}, dest=(rank + 1) % size, source=(rank - 1) % size)
check(left == {"from": (rank - 1) % size}, f"sendrecv gave {left}")

squares = comm.gather(rank * rank, root=0)
check(rank != 0 or squares == [r * r for r in range(size)], f"gather gave {squares}")
config = comm.bcast({"steps": 10, "name": "xsim"} if rank == 0 else None, root=0)
check(config == {"steps": 10, "name": "xsim"}, f"bcast gave {config}")

incoming = np.empty(16, dtype="i")
requests = [comm.Irecv(incoming, source=(rank - 1) % size, tag=7),
            comm.Isend(np.full(16, rank, dtype="i"), dest=(rank + 1) % size, tag=7)]
MPI.Request.Waitall(requests)
check((incoming == (rank - 1) % size).all(), "Isend/Irecv")

# A reduction op written in Python: xsim may run it as a message arrives, outside the rank's
# fiber, where it enters the rank's interpreter (its thread state is under a pthread key).
def elementwise_max(inbuf, outbuf, datatype):
    a = np.frombuffer(inbuf, dtype="d")
    b = np.frombuffer(outbuf, dtype="d")
    np.maximum(a, b, out=b)


python_max = MPI.Op.Create(elementwise_max, commute=True)
peak = np.empty(8)
comm.Allreduce(mine, peak, op=python_max)
check(np.array_equal(peak, np.arange(8) + size - 1), f"Allreduce with a Python op gave {peak}")
python_max.Free()

half = comm.Split(rank % 2, rank)
check(half.Get_size() == (size + 1 - rank % 2) // 2 and half.allreduce(1) == half.Get_size(), "Split")
half.Free()

check(np.array_equal(mine, np.arange(8, dtype="d") + rank), "the rank's array changed")

failures = comm.gather(errors, root=0)
comm.Barrier()
now = MPI.Wtime()
if rank == 0:
    lines = [line for ranks in failures for line in ranks]
    for line in lines[:5]:
        print("FAIL mpi4py_app:", line)
    if not lines:
        print(f"VTIME mpi4py_app {now:.9f}")
        print("PASS mpi4py_app")
    sys.stdout.flush()
