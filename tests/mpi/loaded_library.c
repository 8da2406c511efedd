/* loaded_library: a library that each rank opens with dlopen after MPI_Init (as the Python
 * interpreter opens its extension modules) has per-rank globals, as natively per process.
 *
 * Every rank opens the library named by argv[1] (loaded_library_plugin.c), finds it freshly
 * constructed (its constructor ran once per process, before any rank changed its globals),
 * sets all its globals to the rank, waits at a barrier for every other rank of the process
 * to do the same, and checks its own values. The ranks open it at different times (rank
 * order, around a barrier), so the library is loaded while other ranks are inside MPI calls.
 * Fails when the ranks of a process share the library's globals.
 */
#include <dlfcn.h>

#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t t;
    void *library;
    int (*set)(int), (*check)(int);
    xt_init(&t, &argc, &argv, "loaded_library");
    if (argc < 2) xt_fatal(&t, "usage: loaded_library <library.so>");
    if (t.rank % 2) MPI_Barrier(MPI_COMM_WORLD); /* odd ranks open it after even ones */
    library = dlopen(argv[1], RTLD_NOW);
    if (!library) xt_fatal(&t, "dlopen %s: %s", argv[1], dlerror());
    set = (int (*)(int))dlsym(library, "plugin_set");
    check = (int (*)(int))dlsym(library, "plugin_check");
    if (!set || !check) xt_fatal(&t, "dlsym: %s", dlerror());
    XT_CHECK(&t, set(t.rank), "rank %d found the library's globals changed before it set them", t.rank);
    if (t.rank % 2 == 0) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    XT_CHECK(&t, check(t.rank) == 0, "rank %d: %d of the library's globals are not its own", t.rank, check(t.rank));
    return xt_finish(&t, NULL);
}
