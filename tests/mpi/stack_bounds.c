/* stack_bounds: a rank asking about its own thread (pthread_getattr_np, then
 * pthread_attr_getstack) is told of the stack it runs on, as a garbage collector that scans
 * its stack needs (Boehm's libgc): a local variable of main and of a deeper call lie inside
 * the bounds, and under xsim (XSIM_TEST_VIRTUAL=1) the stacks of different ranks do not
 * overlap. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "xsim_test.h"

static int inside(const void *p, const char *lo, size_t size)
{
    return (const char *)p >= lo && (const char *)p < lo + size;
}

static int deeper(const char *lo, size_t size, int depth)
{
    volatile char here[64];
    here[0] = (char)depth;
    if (depth > 0) return deeper(lo, size, depth - 1) && inside((const void *)here, lo, size);
    return inside((const void *)here, lo, size);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    pthread_attr_t attr;
    void *lo = NULL;
    size_t size = 0;
    int local = 0, i, j, overlaps = 0;
    unsigned long long mine[2], *all;
    xt_init(t, &argc, &argv, "stack_bounds");
    XT_CHECK(t, pthread_getattr_np(pthread_self(), &attr) == 0, "pthread_getattr_np failed");
    XT_CHECK(t, pthread_attr_getstack(&attr, &lo, &size) == 0, "pthread_attr_getstack failed");
    pthread_attr_destroy(&attr);
    XT_CHECK(t, size > 0 && inside(&local, (const char *)lo, size), "a local of main (%p) is outside the stack [%p, +%zu)",
             (void *)&local, lo, size);
    XT_CHECK(t, deeper((const char *)lo, size, 8), "a local of a deeper call is outside the stack [%p, +%zu)", lo, size);
    mine[0] = (unsigned long long)(uintptr_t)lo;
    mine[1] = mine[0] + size;
    all = (unsigned long long *)malloc(sizeof mine * (size_t)t->size);
    MPI_Allgather(mine, 2, MPI_UNSIGNED_LONG_LONG, all, 2, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    if (xt_env_flag("XSIM_TEST_VIRTUAL"))
        for (i = 0; i < t->size; i++)
            for (j = 0; j < i; j++)
                overlaps += all[2 * i] < all[2 * j + 1] && all[2 * j] < all[2 * i + 1];
    XT_CHECK(t, overlaps == 0, "%d pairs of ranks' stacks overlap", overlaps);
    free(all);
    return xt_finish(t, NULL);
}
