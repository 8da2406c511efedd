/* pingpong: rank 0 and rank PEER (argv[1]) exchange a BYTES-byte message (argv[2])
 * ITERATIONS times; rank 0 prints `HALFRTT <bytes> <seconds>` (half the average round
 * trip, MPI_Wtime) so the harness can compare it with the machine model's closed form.
 * Every other rank only joins the final tally. */
#include "xsim_test.h"

#define ITERATIONS 4

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "pingpong");
    const int peer = argc > 1 ? atoi(argv[1]) : 1;
    const long bytes = argc > 2 ? atol(argv[2]) : 0;
    if (peer <= 0 || peer >= t->size) xt_fatal(t, "peer %d must be in [1, %d)", peer, t->size);
    char *buffer = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (!buffer) xt_fatal(t, "cannot allocate %ld bytes", bytes);
    memset(buffer, (t->rank + 1) & 0xff, bytes > 0 ? (size_t)bytes : 1);
    if (t->rank == 0 || t->rank == peer) {
        const int other = t->rank == 0 ? peer : 0;
        const double start = MPI_Wtime();
        for (int i = 0; i < ITERATIONS; ++i) {
            /* Each side checks it got the other's pattern, then sends its own back. */
            if (t->rank == 0) MPI_Send(buffer, (int)bytes, MPI_CHAR, other, i, MPI_COMM_WORLD);
            MPI_Recv(buffer, (int)bytes, MPI_CHAR, other, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            XT_CHECK(t, bytes == 0 || (buffer[0] == (char)(other + 1) && buffer[bytes - 1] == (char)(other + 1)),
                     "iteration %d: payload from rank %d is wrong", i, other);
            if (bytes > 0) memset(buffer, (t->rank + 1) & 0xff, (size_t)bytes);
            if (t->rank != 0) MPI_Send(buffer, (int)bytes, MPI_CHAR, other, i, MPI_COMM_WORLD);
        }
        if (t->rank == 0) printf("HALFRTT %ld %.12f\n", bytes, (MPI_Wtime() - start) / (2.0 * ITERATIONS));
    }
    free(buffer);
    return xt_finish(t, NULL);
}
