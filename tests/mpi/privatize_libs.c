/* privatize_libs: -xsim-privatize-libs makes a serial library of the system directories per
 * rank, as natively each process has its own. GMP (libgmp.so.10, present wherever gcc is)
 * keeps its allocation functions in process-wide globals: each rank installs its own
 * (one of four functions, by rank), all ranks pass a barrier, and each reads them back.
 *   argv[1] = "private": run with -xsim-privatize-libs gmp; every rank must read its own.
 *   argv[1] = "shared":  run without it, several ranks to a process; the library is shared by
 *                        default, so some rank must read another's (the option's effect is real).
 * The functions are declared here (not from gmp.h, which only libgmp-dev installs). */
#include <stddef.h>

#include "xsim_test.h"

typedef void *(*alloc_fn)(size_t);
typedef void *(*realloc_fn)(void *, size_t, size_t);
typedef void (*free_fn)(void *, size_t);
void __gmp_set_memory_functions(alloc_fn, realloc_fn, free_fn);
void __gmp_get_memory_functions(alloc_fn *, realloc_fn *, free_fn *);

static void *alloc0(size_t n) { return malloc(n); }
static void *alloc1(size_t n) { return malloc(n + 1); }
static void *alloc2(size_t n) { return malloc(n + 2); }
static void *alloc3(size_t n) { return malloc(n + 3); }
static void *grow(void *p, size_t old, size_t n) { (void)old; return realloc(p, n + 3); }
static void release(void *p, size_t n) { (void)n; free(p); }

int main(int argc, char **argv)
{
    static const alloc_fn mine[4] = {alloc0, alloc1, alloc2, alloc3};
    xt_t xt, *t = &xt;
    alloc_fn got = NULL;
    int expect_private, foreign, foreign_anywhere = 0;
    xt_init(t, &argc, &argv, "privatize_libs");
    if (argc < 2 || (strcmp(argv[1], "private") != 0 && strcmp(argv[1], "shared") != 0))
        xt_fatal(t, "usage: privatize_libs private|shared");
    expect_private = strcmp(argv[1], "private") == 0;
    __gmp_set_memory_functions(mine[t->rank % 4], grow, release);
    XT_MPI(t, MPI_Barrier(MPI_COMM_WORLD));
    __gmp_get_memory_functions(&got, NULL, NULL);
    foreign = got != mine[t->rank % 4];
    if (expect_private) XT_CHECK(t, !foreign, "rank %d reads another rank's GMP allocation function", t->rank);
    XT_MPI(t, MPI_Reduce(&foreign, &foreign_anywhere, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD));
    if (!expect_private && t->rank == 0)
        XT_CHECK(t, foreign_anywhere, "no rank read another's GMP allocation function: libgmp was not shared");
    return xt_finish(t, expect_private ? "private" : "shared");
}
