/* loaded_library_constructors: the constructors of a library that ranks open with dlopen run
 * once in each rank that opens it, as natively once in each process, and the exit handlers
 * they register run once per such rank.
 *
 * The library (loaded_library_constructors_plugin.c, argv[1]) counts its constructions in the
 * program's globals (plugin_constructions, exported) and in its own, and registers two exit
 * handlers (atexit, and __cxa_atexit for an object of its own, as a C++ static's destructor),
 * which count their runs in plugin_exit_handlers. Rank 0 opens it first; the others after a
 * barrier, rank 1 twice; ranks 3k+2 never open it. Each rank checks that it saw exactly one
 * construction (none without opening it) and no exit handler before its end; an exit handler
 * the program registers before the dlopen (so run after the library's) checks that they ran
 * once each. Natively they run at dlclose; under xsim at the rank's end (dlclose leaves a
 * library with per-rank globals loaded). Fails when the loading rank constructs the library
 * twice (a plugin registering itself twice in the program's tables: FreeFem++'s
 * "always load (skip)") or when the handlers of its first construction run at the dlopen.
 *
 * With argv[2] and argv[3] (loaded_library_needed.c, and loaded_library_needing.c, which
 * needs it): rank 1 opens the needed library, then rank 0 opens the needing one (the loader
 * finds the needed one loaded, but rank 0 has not constructed it), then the others. Each rank
 * that opens the needing library must see each constructed once, the needed one first. */
#include <dlfcn.h>

#include "xsim_test.h"

int plugin_constructions;  /* written by the library's constructor */
int plugin_exit_handlers;  /* written by the library's exit handlers */
int needed_constructions, needing_constructions, needing_saw_needed; /* by the second pair's */
static int my_rank = -1;
static int expected_handlers;

static void final_check(void)
{
    if (plugin_exit_handlers != expected_handlers)
        printf("FAIL loaded_library_constructors: rank %d: the library's exit handlers ran %d times, expected %d\n",
               my_rank, plugin_exit_handlers, expected_handlers);
    else if (my_rank == 0)
        printf("INFO rank 0: the library's exit handlers ran %d times\n", plugin_exit_handlers);
    fflush(stdout);
}

static void *open_library(xt_t *t, const char *path)
{
    void *library = dlopen(path, RTLD_NOW);
    if (!library) xt_fatal(t, "dlopen %s: %s", path, dlerror());
    return library;
}

int main(int argc, char **argv)
{
    xt_t t;
    void *library = NULL, *again = NULL;
    int (*own_count)(void);
    int opens;
    xt_init(&t, &argc, &argv, "loaded_library_constructors");
    if (argc < 2) xt_fatal(&t, "usage: loaded_library_constructors <library.so>");
    my_rank = t.rank;
    opens = t.rank % 3 != 2;
    expected_handlers = opens ? 2 : 0;
    atexit(final_check);
    if (t.rank == 0) library = open_library(&t, argv[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank != 0 && opens) library = open_library(&t, argv[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 1) {
        again = open_library(&t, argv[1]);
        XT_CHECK(&t, again == library, "a second dlopen gave another handle");
    }
    XT_CHECK(&t, plugin_constructions == opens, "the library's constructor wrote the program's globals %d times, expected %d",
             plugin_constructions, opens);
    XT_CHECK(&t, plugin_exit_handlers == 0, "%d of the library's exit handlers ran before the rank's end",
             plugin_exit_handlers);
    if (library) {
        own_count = (int (*)(void))dlsym(library, "plugin_own_constructions");
        if (!own_count) xt_fatal(&t, "dlsym: %s", dlerror());
        XT_CHECK(&t, own_count() == 1, "the library's own count of its constructions is %d", own_count());
    }
    if (argc > 3) {
        void *needed = NULL, *needing = NULL;
        if (t.rank == 1) needed = open_library(&t, argv[2]);
        MPI_Barrier(MPI_COMM_WORLD);
        if (t.rank == 0) needing = open_library(&t, argv[3]);
        MPI_Barrier(MPI_COMM_WORLD);
        if (t.rank != 0 && opens) needing = open_library(&t, argv[3]);
        XT_CHECK(&t, needed_constructions == (opens || t.rank == 1),
                 "the needed library's constructor ran %d times, expected %d", needed_constructions, opens || t.rank == 1);
        XT_CHECK(&t, needing_constructions == opens, "the needing library's constructor ran %d times, expected %d",
                 needing_constructions, opens);
        XT_CHECK(&t, needing_saw_needed == opens,
                 "the needing library's constructor found the needed one constructed %d times, expected %d",
                 needing_saw_needed, opens);
        if (needing) dlclose(needing);
        if (needed) dlclose(needed);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (again) dlclose(again);
    if (library) dlclose(library);
    return xt_finish(&t, NULL);
}
