/* loaded_exit_handlers: the C++ statics of a library that each rank opens with dlopen
 * (loaded_exit_handlers_plugin.cpp; DOLFINx's libraries, loaded by Python) are destroyed once
 * per rank, on the rank's own copy, when the rank ends, as once per process natively. Before
 * the fix, the global's destructor ran twice per loading rank (a double free), and a
 * function-local static's destructor ran at the process's exit once per rank on one copy
 * (a double free): the library opened first (loaded_exit_handlers_tls.cpp) has thread-locals,
 * and xsim did not find the statics of a library loaded after it to be the rank's. Each rank's static destructor prints "LOADED_DTOR ok rank <r>"; the
 * harness expects the lines of the first and the last rank, and the run must end cleanly. */
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>

#include "xsim_test.h"

int main(int argc, char** argv) {
    xt_t t;
    xt_init(&t, &argc, &argv, "loaded_exit_handlers");
    if (argc < 3) xt_fatal(&t, "usage: loaded_exit_handlers <tls library.so> <library.so>");
    if (t.rank % 2) MPI_Barrier(MPI_COMM_WORLD); /* odd ranks open them after even ones */
    void* first = dlopen(argv[1], RTLD_NOW);
    if (!first) xt_fatal(&t, "dlopen %s: %s", argv[1], dlerror());
    auto tls_use = reinterpret_cast<int (*)(int)>(dlsym(first, "tls_use"));
    void* library = dlopen(argv[2], RTLD_NOW);
    if (!library) xt_fatal(&t, "dlopen %s: %s", argv[2], dlerror());
    auto use = reinterpret_cast<int (*)(int)>(dlsym(library, "plugin_use"));
    if (!use || !tls_use) xt_fatal(&t, "dlsym: %s", dlerror());
    XT_CHECK(&t, tls_use(t.rank) == 1, "rank %d found the first library's thread-local set by another rank", t.rank);
    XT_CHECK(&t, use(t.rank) == 1, "rank %d found the library's statics used by another rank", t.rank);
    if (t.rank % 2 == 0) MPI_Barrier(MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    return xt_finish(&t, NULL);
}
