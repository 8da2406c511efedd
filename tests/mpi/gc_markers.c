/* gc_markers: a program whose Boehm collector starts parallel marking threads, as Guile's
 * does (mpb-mpi, meep). A thread inside a simulated rank is refused; libgc starts none when
 * GC_MARKERS=1, which this program sets unless the environment already says otherwise. With
 * it the collector marks on the rank's own thread and the run passes (one rank per real
 * process, like garbage_collector). tests/mpi/CMakeLists.txt also runs it with GC_MARKERS=2
 * and expects xsim's message to name GC_MARKERS=1. Each rank builds a list of GC-allocated
 * cells across barriers, collects, and checks every cell. */
#define GC_THREADS
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
    setenv("GC_MARKERS", "1", 0);
    GC_INIT();
    GC_allow_register_threads();
    GC_start_mark_threads(); /* what a threaded client may ask for; starts GC_MARKERS - 1 threads */
    xt_init(t, &argc, &argv, "gc_markers");
    for (i = 0; i < 1000; i++) {
        c = (struct cell *)GC_MALLOC(sizeof *c);
        c->next = head;
        c->value = i + t->rank;
        head = c;
        if (i % 100 == 0) MPI_Barrier(MPI_COMM_WORLD);
    }
    GC_gcollect();
    for (i = 0; i < 100; i++) (void)GC_MALLOC(4096);
    for (c = head; c; c = c->next) {
        n++;
        sum += c->value - t->rank;
    }
    XT_CHECK(t, n == 1000 && sum == 999 * 1000 / 2, "the list holds %d cells summing to %d after a collection", n, sum);
    return xt_finish(t, NULL);
}
