/* stack_overflow_between: one rank overflows its stack between two MPI calls (a local
 * array larger than the stack, written from its low end, no MPI call while it is live);
 * the run must end with "stack overflow in simulated rank R" naming that rank, never
 * with another rank's stack silently overwritten.
 *   argv[1]  the rank that overflows (default 1)
 *   argv[2]  the array's size in KiB (default 1536, larger than xsim's default stack)
 * Every other rank waits in MPI_Barrier meanwhile: its suspended frames sit at the top of
 * its stack, right under the overflowing rank's. If the overflow is not caught, the
 * program prints UNCAUGHT and exits 0, which the harness counts as a failure. */
#include "xsim_test.h"

/* Writes `bytes` of a local array from its lowest address up, with no call in between
 * (a call would push its return address far below the stack first). */
static int overflow(size_t bytes)
{
    volatile char *block = __builtin_alloca(bytes);
    size_t i;
    for (i = 0; i < bytes; i += 64) block[i] = (char)i;
    return block[bytes / 2];
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    const int victim = argc > 1 ? atoi(argv[1]) : 1;
    const size_t bytes = (size_t)(argc > 2 ? atol(argv[2]) : 1536) * 1024;
    xt_init(t, &argc, &argv, "stack_overflow_between");
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == victim) XT_CHECK(t, overflow(bytes) == (char)(bytes / 2), "array content");
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0) printf("UNCAUGHT rank %d wrote %zu bytes below its stack\n", victim, bytes);
    MPI_Finalize();
    return 0;
}
