/* argv_per_rank: each rank has its own argument vector, as each process has natively. R's
 * start-up removes the options it has processed from argv, shifting the pointers; under xsim
 * the ranks shared one vector, so the next rank found it rewritten (R then lost --no-echo and
 * echoed the script). Programs also write into the strings (strtok on "64x64x64"). Every
 * rank checks argv and its first string before writing them, rewrites both, starts MPI
 * (other ranks run meanwhile), and checks that its own writes are still there. */
#include "xsim_test.h"

static const char kMark[] = "argv rewritten by a rank";

int main(int argc, char **argv)
{
    xt_t t;
    char **own = argv;
    const int found_rewritten = argv[0] != NULL && strcmp(argv[0], kMark) == 0;
    const int terminated = argv[argc] == NULL;
    char *program = argv[0];
    const int found_scribbled = program[0] == '#';
    program[0] = '#';
    own[0] = (char *)kMark;
    xt_init(&t, &argc, &argv, "argv_per_rank");
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has rewritten its vector */
    XT_CHECK(&t, !found_rewritten, "rank %d started with an argv another rank had rewritten", t.rank);
    XT_CHECK(&t, terminated, "argv[argc] is not NULL at main");
    XT_CHECK(&t, own[0] == kMark, "rank %d's argv[0] was rewritten by another rank", t.rank);
    XT_CHECK(&t, !found_scribbled, "rank %d started with an argv[0] string another rank had written into", t.rank);
    XT_CHECK(&t, program[0] == '#', "rank %d's write into its argv[0] string was undone", t.rank);
    return xt_finish(&t, NULL);
}
