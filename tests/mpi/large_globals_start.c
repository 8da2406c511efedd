/* large_globals_start: a program with more globals than privatization copies whole at every
 * switch (128 KiB and up: it tracks the pages ranks write, polling the kernel's page map,
 * guarded by a getrusage of the fault count). That getrusage, made while xsim switched in a
 * rank that had never run, was taken for the rank's own call: measured compute charged the
 * rank its compute clock since a last exit it never had, so each rank started at the host's
 * uptime (-xsim-compute-clock wall) or at the simulation thread's CPU time so far (thread:
 * growing with the rank's index, 8 ms a rank under mpiP). Every rank's clock right after
 * MPI_Init must be the short start-up its own code took, and the same order for every rank.
 * argv[1]: the largest virtual time allowed after MPI_Init, in seconds. */
#include <stdlib.h>
#include "xsim_test.h"

volatile char globals[1 << 20]; /* 1 MiB of .bss, page tracked (volatile: kept, written) */

int main(int argc, char **argv)
{
    xt_t test, *t = &test;
    double after_init, bound;

    xt_init(t, &argc, &argv, "large_globals_start");
    after_init = MPI_Wtime();
    bound = argc > 1 ? atof(argv[1]) : 1.0;
    globals[(size_t)t->rank * 4096 % sizeof globals] = 1; /* a page of its own, written */
    if (!(after_init >= 0 && after_init <= bound))
        xt_fail(t, "rank %d starts at virtual time %.6f s after MPI_Init, expected at most %.3f s", t->rank,
                after_init, bound);
    return xt_finish(t, "start");
}
