/* garbage_collector: a program using the Boehm-Demers-Weiser collector (libgc, as Guile and
 * meep do). With one simulated rank per real process it runs: the collector scans the rank's
 * own stack (pthread_getattr_np gives the rank's stack, not the process's main one) and keeps
 * what the rank refers to. With several ranks in a process xsim refuses it at start-up (the
 * collector would free what only the other ranks refer to); tests/mpi/CMakeLists.txt expects
 * that message. Each rank builds a list of GC-allocated cells across barriers, collects, and
 * checks every cell. */
#include <gc.h>
#include <stdio.h>

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
    GC_INIT();
    xt_init(t, &argc, &argv, "garbage_collector");
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
