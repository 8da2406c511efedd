/* loaded_library_chain: a library that ranks open with dlopen needs (DT_NEEDED) a library
 * that another rank of the same process opened before; each rank that opens it constructs
 * every library of the chain once, each after the one it needs, as natively the loader does
 * in each process (where the other rank's load does not exist).
 *
 * The chains (loaded_library_chain_member.c, one build per member, in the directory of the
 * program's RUNPATH): 0 <- 1 <- 2 (2 needs 1, which needs 0), and 3 <- 4. Rank 1 opens 0 by
 * path; then rank 0 opens 2 by path (the loader loads 1, not yet loaded, and finds 0 loaded),
 * then the other ranks. Rank 1 opens 3 by path; then rank 0 opens 4 by its bare name (the
 * loader's search: the program's RUNPATH), then the other ranks. Ranks 3k+2 open nothing.
 * argv[1] is the path of member 0's directory. */
#include <dlfcn.h>
#include <string.h>

#include "xsim_test.h"

#define MEMBERS 5
int chain_constructions[MEMBERS], chain_order[8], chain_saw_needed[MEMBERS], chain_seq; /* written by the libraries */

static void *open_library(xt_t *t, const char *dir, int member, int bare)
{
    char path[4096];
    void *library;
    snprintf(path, sizeof path, "%s%sloaded_library_chain_%d.so", bare ? "" : dir, bare ? "" : "/", member);
    library = dlopen(path, RTLD_NOW);
    if (!library) xt_fatal(t, "dlopen %s: %s", path, dlerror());
    return library;
}

int main(int argc, char **argv)
{
    xt_t t;
    void *handles[MEMBERS] = {0};
    int opens, i, expected;
    xt_init(&t, &argc, &argv, "loaded_library_chain");
    if (argc < 2) xt_fatal(&t, "usage: loaded_library_chain <directory of the libraries>");
    opens = t.rank % 3 != 2;

    if (t.rank == 1) handles[0] = open_library(&t, argv[1], 0, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 0) handles[2] = open_library(&t, argv[1], 2, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank != 0 && opens) handles[2] = open_library(&t, argv[1], 2, 0);
    if (opens) {
        XT_CHECK(&t, chain_seq >= 3, "%d constructions seen, expected at least 3", chain_seq);
        if (t.rank != 1 && chain_seq == 3)
            XT_CHECK(&t, chain_order[0] == 0 && chain_order[1] == 1 && chain_order[2] == 2,
                     "the chain was constructed in the order %d %d %d, expected 0 1 2", chain_order[0], chain_order[1],
                     chain_order[2]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 1) handles[3] = open_library(&t, argv[1], 3, 0);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 0) handles[4] = open_library(&t, argv[1], 4, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank != 0 && opens) handles[4] = open_library(&t, argv[1], 4, 1);

    for (i = 0; i < MEMBERS; ++i) {
        expected = opens;
        XT_CHECK(&t, chain_constructions[i] == expected, "library %d was constructed %d times, expected %d", i,
                 chain_constructions[i], expected);
        XT_CHECK(&t, chain_saw_needed[i] == expected,
                 "library %d found the library it needs constructed before it %d times, expected %d", i,
                 chain_saw_needed[i], expected);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = MEMBERS; i-- > 0;)
        if (handles[i]) dlclose(handles[i]);
    return xt_finish(&t, NULL);
}
