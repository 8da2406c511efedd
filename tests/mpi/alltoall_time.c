/* alltoall_time: right after MPI_Init (all clocks at 0 with -xsim-compute none) every
 * rank calls MPI_Alltoall with BYTES (argv[1]) bytes per pair; rank 0 prints
 * `ALLTOALL <bytes> <seconds>` so the harness can compare it with the closed form of
 * the forced algorithm on the machine model. The data is checked too. */
#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "alltoall_time");
    const int bytes = argc > 1 ? atoi(argv[1]) : 1024;
    const double start = MPI_Wtime();
    char *out = malloc((size_t)bytes * (size_t)t->size + 1), *in = malloc((size_t)bytes * (size_t)t->size + 1);
    if (!out || !in) xt_fatal(t, "cannot allocate %d x %d bytes", bytes, t->size);
    for (int peer = 0; peer < t->size; ++peer)
        memset(out + (size_t)peer * (size_t)bytes, (t->rank * 7 + peer) & 0x7f, (size_t)bytes);
    MPI_Alltoall(out, bytes, MPI_CHAR, in, bytes, MPI_CHAR, MPI_COMM_WORLD);
    const double elapsed = MPI_Wtime() - start;
    for (int peer = 0; peer < t->size && bytes > 0; ++peer) {
        const char want = (char)((peer * 7 + t->rank) & 0x7f);
        const char *block = in + (size_t)peer * (size_t)bytes;
        XT_CHECK(t, block[0] == want && block[bytes - 1] == want, "block from %d is wrong", peer);
    }
    if (t->rank == 0) printf("ALLTOALL %d %.12f\n", bytes, elapsed);
    free(out);
    free(in);
    return xt_finish(t, NULL);
}
