/* args: command-line arguments after MPI_Init.
 *
 * Rank 0 prints "ARGS <argc> <argv[1]> <argv[2]> ..." (single spaces) so the
 * harness can check that xsim removed every -xsim-* option and kept the
 * application's arguments in order. Every rank also checks by itself that
 * argv[argc] == NULL, that no argument starts with "-xsim", and that its
 * arguments are identical to rank 0's (a 64-bit hash passed down a binary
 * tree of MPI_Send/MPI_Recv: rank r receives from (r-1)/2).
 */
#define _DEFAULT_SOURCE
#include "xsim_test.h"

#define TAG_HASH 1

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    unsigned long long h = XT_FNV_OFFSET, parent_h = 0;
    int i;
    size_t k;

    xt_init(t, &argc, &argv, "args");

    XT_CHECK(t, argc >= 1, "argc is %d after MPI_Init", argc);
    XT_CHECK(t, argv != NULL && argv[argc] == NULL, "argv[argc] is not NULL after MPI_Init");
    for (i = 1; i < argc; ++i) {
        XT_CHECK(t, strncmp(argv[i], "-xsim", 5) != 0, "argv[%d] = \"%s\" was not removed", i, argv[i]);
        for (k = 0; argv[i][k] != '\0'; ++k) h = xt_fnv_int(h, (unsigned char)argv[i][k]);
        h = xt_fnv_int(h, 0x100u + (unsigned int)i); /* argument separator */
    }
    h = xt_fnv_int(h, (unsigned int)argc);

    if (t->rank > 0) {
        MPI_Recv(&parent_h, 1, MPI_UNSIGNED_LONG_LONG, (t->rank - 1) / 2, TAG_HASH, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        XT_CHECK(t, parent_h == h, "arguments differ from rank %d's (hash %016llx vs %016llx)",
                 (t->rank - 1) / 2, h, parent_h);
    }
    for (i = 1; i <= 2; ++i)
        if (2LL * t->rank + i < t->size)
            MPI_Send(&h, 1, MPI_UNSIGNED_LONG_LONG, 2 * t->rank + i, TAG_HASH, MPI_COMM_WORLD);

    if (t->rank == 0) {
        printf("ARGS %d", argc);
        for (i = 1; i < argc; ++i) printf(" %s", argv[i]);
        printf("\n");
        fflush(stdout);
    }
    return xt_finish(t, NULL);
}
