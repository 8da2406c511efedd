/* thread_level: MPI_Init_thread provides the level asked for up to MPI_THREAD_SERIALIZED (a
 * simulated rank's calls come from its one thread, one at a time), and MULTIPLE gets
 * SERIALIZED; MPI_Query_thread returns what was provided and MPI_Is_thread_main is true.
 * argv[1] names the level asked for: single, funneled, serialized or multiple. Natively the
 * provided level may be higher (Open MPI gives MULTIPLE), so only the bounds are checked
 * there. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    const char *names[] = {"single", "funneled", "serialized", "multiple"};
    const int levels[] = {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE};
    int required = -1, provided = -1, queried = -1, is_main = 0, i, virt;
    for (i = 0; i < 4 && argc > 1; i++)
        if (strcmp(argv[1], names[i]) == 0) required = levels[i];
    if (required < 0) {
        fprintf(stderr, "FAIL thread_level: usage: thread_level single|funneled|serialized|multiple\n");
        return 2;
    }
    MPI_Init_thread(&argc, &argv, required, &provided);
    xt_init_after(t, "thread_level");
    virt = xt_env_flag("XSIM_TEST_VIRTUAL");
    MPI_Query_thread(&queried);
    MPI_Is_thread_main(&is_main);
    if (virt) {
        const int expected = required < MPI_THREAD_SERIALIZED ? required : MPI_THREAD_SERIALIZED;
        XT_CHECK(t, provided == expected, "asked for %s, provided %d, expected %d", argv[1], provided, expected);
    } else {
        XT_CHECK(t, provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE, "provided %d", provided);
    }
    XT_CHECK(t, queried == provided, "MPI_Query_thread gives %d, MPI_Init_thread provided %d", queried, provided);
    XT_CHECK(t, is_main, "MPI_Is_thread_main is false on the thread that called MPI_Init_thread");
    return xt_finish(t, NULL);
}
