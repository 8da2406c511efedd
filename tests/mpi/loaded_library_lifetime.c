/* loaded_library_lifetime: a library that ranks open and close with dlopen/dlclose lives in
 * each rank as it lives natively in each process: the library's reference count is the
 * rank's. The last dlclose of a rank runs the exit handlers the library's constructor
 * registered and its destructor, in that rank; a later dlopen constructs a fresh copy (its
 * own statics back to their initial values); dlopen(RTLD_NOLOAD) finds the library only in a
 * rank that has it open (natively another rank is another process, where NOLOAD gives NULL).
 *
 * The library (loaded_library_lifetime_plugin.c, argv[1]) counts its constructions and
 * destructions and its exit handlers' runs in the program's globals, and its constructions in
 * its own globals and thread-locals. Rank 0 opens it first, the others after a barrier; each
 * opens it twice, closes it once (still open: nothing runs), then even ranks close it and
 * open it again while odd ranks keep it open; at the end every rank closes it. */
#include <dlfcn.h>

#include "xsim_test.h"

int lifetime_constructions, lifetime_destructions, lifetime_exit_handlers; /* written by the library */
static int my_rank = -1, expected_at_end = -1;

static void final_check(void)
{
    /* Nothing of the library runs at the rank's end: the last dlclose ran it all. */
    if (lifetime_exit_handlers != expected_at_end)
        printf("FAIL loaded_library_lifetime: rank %d: the library's exit handlers ran %d times by the rank's end, "
               "expected %d\n", my_rank, lifetime_exit_handlers, expected_at_end);
    fflush(stdout);
}

static void *open_library(xt_t *t, const char *path, int mode)
{
    void *library = dlopen(path, mode);
    if (!library && !(mode & RTLD_NOLOAD)) xt_fatal(t, "dlopen %s: %s", path, dlerror());
    return library;
}

static void expect(xt_t *t, const char *when, int constructions, int destructions, int handlers)
{
    XT_CHECK(t, lifetime_constructions == constructions, "%s: the library was constructed %d times, expected %d", when,
             lifetime_constructions, constructions);
    XT_CHECK(t, lifetime_destructions == destructions, "%s: the library's destructor ran %d times, expected %d", when,
             lifetime_destructions, destructions);
    XT_CHECK(t, lifetime_exit_handlers == handlers, "%s: the library's exit handlers ran %d times, expected %d", when,
             lifetime_exit_handlers, handlers);
}

static void expect_own(xt_t *t, void *library, const char *when)
{
    int (*own)(void) = (int (*)(void))dlsym(library, "lifetime_own_constructions");
    int (*object)(void) = (int (*)(void))dlsym(library, "lifetime_object");
    int (*thread_own)(void) = (int (*)(void))dlsym(library, "lifetime_thread_constructions");
    if (!own || !object || !thread_own) xt_fatal(t, "dlsym: %s", dlerror());
    XT_CHECK(t, own() == 1, "%s: the library's own count of its constructions is %d, expected 1 (a fresh copy)", when,
             own());
    XT_CHECK(t, thread_own() == 1,
             "%s: the library's thread-local count of its constructions is %d, expected 1 (a fresh copy)", when,
             thread_own());
    XT_CHECK(t, object() == 1, "%s: the library's object is in state %d, expected 1 (constructed)", when, object());
}

int main(int argc, char **argv)
{
    xt_t t;
    void *library = NULL, *again, *found;
    const int mode = RTLD_NOW | RTLD_LOCAL;
    int even;
    xt_init(&t, &argc, &argv, "loaded_library_lifetime");
    if (argc < 2) xt_fatal(&t, "usage: loaded_library_lifetime <library.so>");
    my_rank = t.rank;
    even = t.rank % 2 == 0;
    expected_at_end = even ? 4 : 2;
    atexit(final_check);

    if (t.rank == 0) library = open_library(&t, argv[1], mode);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank != 0) {
        found = open_library(&t, argv[1], mode | RTLD_NOLOAD);
        XT_CHECK(&t, found == NULL, "dlopen(RTLD_NOLOAD) found the library that only rank 0 opened");
        if (found) dlclose(found);
        library = open_library(&t, argv[1], mode);
    }
    found = open_library(&t, argv[1], mode | RTLD_NOLOAD);
    XT_CHECK(&t, found == library, "dlopen(RTLD_NOLOAD) of the open library gave %p, expected its handle", found);
    if (found) dlclose(found); /* NOLOAD counts as an open */
    expect(&t, "opened", 1, 0, 0);
    expect_own(&t, library, "opened");
    again = open_library(&t, argv[1], mode);
    XT_CHECK(&t, again == library, "a second dlopen gave another handle");
    XT_CHECK(&t, dlclose(again) == 0, "dlclose of the second handle failed");
    expect(&t, "opened twice, closed once", 1, 0, 0);
    MPI_Barrier(MPI_COMM_WORLD);

    if (even) {
        XT_CHECK(&t, dlclose(library) == 0, "the last dlclose failed");
        expect(&t, "closed", 1, 1, 2);
        found = open_library(&t, argv[1], mode | RTLD_NOLOAD);
        XT_CHECK(&t, found == NULL, "dlopen(RTLD_NOLOAD) found the library after the rank's last dlclose");
        if (found) dlclose(found);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (even) {
        library = open_library(&t, argv[1], mode);
        expect(&t, "opened again", 2, 1, 2);
        expect_own(&t, library, "opened again");
    } else {
        expect(&t, "kept open while other ranks closed it", 1, 0, 0);
        expect_own(&t, library, "kept open while other ranks closed it");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    XT_CHECK(&t, dlclose(library) == 0, "the last dlclose failed");
    if (even)
        expect(&t, "closed again", 2, 2, 4);
    else
        expect(&t, "closed", 1, 1, 2);
    MPI_Barrier(MPI_COMM_WORLD);
    return xt_finish(&t, NULL);
}
