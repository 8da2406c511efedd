/* memcheck_ranks: several simulated ranks per real process under valgrind's memcheck
 * (tests/mpi/run_under_valgrind.sh). Memcheck takes a stack trace at every malloc; on a
 * fiber stack valgrind did not know, the walk went past the fiber into the guard pages
 * above it and valgrind itself died of SIGSEGV ("VALGRIND INTERNAL ERROR"). xsim now
 * registers each rank's stack with valgrind. Each rank allocates, branches on one byte it
 * never wrote (memcheck must report it, naming this program's function: the trace is
 * walked on the rank's stack), passes a token round a ring and checks an allreduce. */
#include <stdlib.h>

#include "xsim_test.h"

static int __attribute__((noinline)) rank_reads_uninitialised(const int *cells)
{
    if (cells[1] > 0) return 1; /* cells[1] was never written: a jump on it */
    return 2;
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    int *cells, got = -1, sum = 0;
    volatile int branch; /* kept: the uninitialised read must happen */
    xt_init(t, &argc, &argv, "memcheck_ranks");
    cells = (int *)malloc(4 * sizeof *cells);
    cells[0] = t->rank;
    branch = rank_reads_uninitialised(cells);
    MPI_Sendrecv(&cells[0], 1, MPI_INT, (t->rank + 1) % t->size, 0, &got, 1, MPI_INT,
                 (t->rank + t->size - 1) % t->size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&got, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    free(cells);
    XT_CHECK(t, got == (t->rank + t->size - 1) % t->size, "rank %d got %d from its left neighbour", t->rank, got);
    XT_CHECK(t, sum == t->size * (t->size - 1) / 2, "the ranks' tokens sum to %d", sum);
    return xt_finish(t, NULL);
}
