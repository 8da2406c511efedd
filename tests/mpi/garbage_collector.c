/* garbage_collector: a program using the Boehm-Demers-Weiser collector (libgc, as Guile and
 * meep do). With one simulated rank per real process it runs: the collector scans the rank's
 * own stack (pthread_getattr_np gives the rank's stack, not the process's main one) and keeps
 * what the rank refers to. With several ranks in a process xsim refuses it at start-up (the
 * collector would free what only the other ranks refer to); tests/mpi/CMakeLists.txt expects
 * that message. Each rank builds a list of GC-allocated cells across barriers, collects, and
 * checks every cell.
 * Built with GC_MARKERS_TEST (gc_markers): the collector starts parallel marking threads, as
 * Guile's does (mpb-mpi, meep), which a rank alone in its real process may start; libgc starts
 * none when GC_MARKERS=1, which the program sets unless the environment already says
 * otherwise; tests/mpi/CMakeLists.txt also runs it with GC_MARKERS=2 (one marking thread). */
#ifdef GC_MARKERS_TEST
#define GC_THREADS
#define TEST_NAME "gc_markers"
#else
#define TEST_NAME "garbage_collector"
#endif
#include <gc.h>
#include <stdio.h>
#include <stdlib.h>

#include "xsim_test.h"

struct cell {
    struct cell *next;
    int value;
};

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    struct cell *head = NULL, *c;
    int i, n = 0, sum = 0;
#ifdef GC_MARKERS_TEST
    setenv("GC_MARKERS", "1", 0);
#endif
    GC_INIT();
#ifdef GC_MARKERS_TEST
    GC_allow_register_threads();
    GC_start_mark_threads(); /* what a threaded client may ask for; starts GC_MARKERS - 1 threads */
#endif
    xt_init(t, &argc, &argv, TEST_NAME);
    for (i = 0; i < 1000; i++) {
        c = (struct cell *)GC_MALLOC(sizeof *c);
        c->next = head;
        c->value = i + t->rank;
        head = c;
        if (i % 100 == 0) MPI_Barrier(MPI_COMM_WORLD);
    }
    GC_gcollect();
    for (i = 0; i < 100; i++) (void)GC_MALLOC(4096); /* reuses whatever was freed */
    for (c = head; c; c = c->next) {
        n++;
        sum += c->value - t->rank;
    }
    XT_CHECK(t, n == 1000 && sum == 999 * 1000 / 2, "the list holds %d cells summing to %d after a collection", n, sum);
    return xt_finish(t, NULL);
}
