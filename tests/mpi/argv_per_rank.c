/* argv_per_rank: each rank has its own argument vector, as each process has natively. R's
 * start-up removes the options it has processed from argv, shifting the pointers; under xsim
 * the ranks shared one vector, so the next rank found it rewritten (R then lost --no-echo and
 * echoed the script). Every rank checks argv before writing it, rewrites it, starts MPI
 * (other ranks run meanwhile), and checks that its own write is still there. */
#include "xsim_test.h"

static const char kMark[] = "argv rewritten by a rank";

int main(int argc, char **argv)
{
    xt_t t;
    char **own = argv;
    const int found_rewritten = argv[0] != NULL && strcmp(argv[0], kMark) == 0;
    const int terminated = argv[argc] == NULL;
    own[0] = (char *)kMark;
    xt_init(&t, &argc, &argv, "argv_per_rank");
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has rewritten its vector */
    XT_CHECK(&t, !found_rewritten, "rank %d started with an argv another rank had rewritten", t.rank);
    XT_CHECK(&t, terminated, "argv[argc] is not NULL at main");
    XT_CHECK(&t, own[0] == kMark, "rank %d's argv[0] was rewritten by another rank", t.rank);
    return xt_finish(&t, NULL);
}
