/* stack_overflow: every rank recurses through DEPTH frames of about 1 KiB each (argv[1],
 * default 200) and calls MPI_Barrier at the deepest point. When that is more than the
 * stack (-xsim-stack 64k with 200; the default 1 MiB with 2000) the run must end with a
 * clear "stack overflow" message naming a simulated rank; with a larger stack it must pass. */
#include "xsim_test.h"

static int descend(int depth)
{
    volatile char frame[1024];
    memset((char *)frame, depth & 0x7f, sizeof frame);
    if (depth == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        return frame[3];
    }
    return descend(depth - 1) + frame[5] - (depth & 0x7f);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "stack_overflow");
    const int depth = argc > 1 ? atoi(argv[1]) : 200;
    XT_CHECK(t, descend(depth) == 0, "recursion returned a wrong value");
    return xt_finish(t, NULL);
}
