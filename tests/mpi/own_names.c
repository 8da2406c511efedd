/* own_names: a library a rank opens with dlopen (as R opens Rmpi) whose own C functions are
 * named like Fortran MPI entry points (mpi_comm_rank, mpi_send, pmpi_barrier:
 * own_names_plugin.c) calls its own functions, through its PLT and through a table of their
 * addresses, as natively, where libmpi exports no such names; and its real MPI calls are
 * still MPI's. Under xsim, libxsim (which exports those names as Fortran MPI calls) took them
 * over: Rmpi's mpi.comm.rank() ran xsim's Fortran MPI_COMM_RANK and crashed. Checked for a
 * library opened RTLD_NOW and for one linked -z lazy and opened RTLD_LAZY. */
#include <dlfcn.h>

#include "xsim_test.h"

struct routine {
    const char *name;
    int (*function)(int);
};

/* Checks the library at `path`, opened with dlopen's `mode`. */
static void check_library(xt_t *t_, const char *path, int mode)
{
    xt_t *t = t_;
    void *library;
    int (*call)(int, int);
    const struct routine *routines;
    int i;
    library = dlopen(path, mode | RTLD_LOCAL);
    if (!library) xt_fatal(t, "dlopen %s: %s", path, dlerror());
    call = (int (*)(int, int))dlsym(library, "plugin_call");
    routines = (const struct routine *)dlsym(library, "plugin_routines");
    if (!call || !routines) xt_fatal(t, "dlsym: %s", dlerror());
    for (i = 0; i < 3; ++i)
        XT_CHECK(t, call(i, t->rank) == 1000 * (i + 1) + t->rank, "%s: the library's call of its own %s went elsewhere",
                 path, routines[i].name);
    for (i = 0; routines[i].name; ++i)
        XT_CHECK(t, routines[i].function(7) == 1000 * (i + 1) + 7, "%s: the library's table entry %s is not its own",
                 path, routines[i].name);
    XT_CHECK(t, call(3, 0) == t->rank, "%s: the library's MPI_Comm_rank gave %d", path, call(3, 0));
}

int main(int argc, char **argv)
{
    xt_t t;
    xt_init(&t, &argc, &argv, "own_names");
    if (argc < 3) xt_fatal(&t, "usage: own_names <own_names_plugin.so> <own_names_lazy_plugin.so>");
    check_library(&t, argv[1], RTLD_NOW);  /* every reference bound at dlopen */
    check_library(&t, argv[2], RTLD_LAZY); /* linked -z lazy: its PLT slots bound at first call */
    MPI_Barrier(MPI_COMM_WORLD);
    return xt_finish(&t, NULL);
}
