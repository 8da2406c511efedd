/* regions: xsim_region_begin/end, recorded by a measured run and replayed by a model run
 * (tests/mpi/regions_replay.sh runs both and compares them).
 *
 * Every rank runs region "setup" once, then STEPS times region "step" followed by an
 * MPI_Allreduce. Inside a region the rank does host compute (a fixed arithmetic loop),
 * unless XSIM_REGIONS_SKELETON=1: the model run leaves the regions empty and relies on
 * the recorded times. Rank 0 prints, besides VTIME and PASS:
 *   REGION <name> <calls> <seconds>  over all ranks: how many begin/end pairs, and the
 *                                    sum of their MPI_Wtime durations
 * App argument (misuse cases, each must end the run with a message):
 *   normal (default) | nested | end_without_begin | wrong_end | open_at_exit | null_name */
#include <string.h>
#include <xsim.h>

#include "xsim_test.h"

#define STEPS 4

static double work(long n)
{
    double x = 1.0;
    long i;
    for (i = 0; i < n; ++i) x = x * 1.0000001 + 1e-9;
    return x;
}

/* Runs region `name` with `n` loop iterations of compute (none in a skeleton); returns its
 * duration in virtual time. */
static double region(const char *name, long n, int skeleton, double *sink)
{
    double start = MPI_Wtime();
    xsim_region_begin(name);
    if (!skeleton) *sink += work(n);
    xsim_region_end(name);
    return MPI_Wtime() - start;
}

int main(int argc, char **argv)
{
    xt_t t;
    const char *mode = argc > 1 ? argv[1] : "normal";
    const int skeleton = xt_env_flag("XSIM_REGIONS_SKELETON");
    double sink = 0, setup, step = 0, totals[2], sums[2];
    int i;

    xt_init(&t, &argc, &argv, "regions");
    if (strcmp(mode, "nested") == 0 && t.rank == 1) {
        xsim_region_begin("setup");
        xsim_region_begin("step");
    } else if (strcmp(mode, "end_without_begin") == 0 && t.rank == 1) {
        xsim_region_end("setup");
    } else if (strcmp(mode, "wrong_end") == 0 && t.rank == 1) {
        xsim_region_begin("setup");
        xsim_region_end("step");
    } else if (strcmp(mode, "open_at_exit") == 0 && t.rank == 1) {
        xsim_region_begin("setup");
    } else if (strcmp(mode, "null_name") == 0 && t.rank == 1) {
        xsim_region_begin(NULL);
    }
    if (strcmp(mode, "open_at_exit") != 0 || t.rank != 1) {
        setup = region("setup", 200000, skeleton, &sink);
        for (i = 0; i < STEPS; ++i) {
            double mine, all;
            step += region("step", 100000, skeleton, &sink);
            mine = (double)t.rank;
            MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            XT_CHECK(&t, all == (double)t.size * (t.size - 1) / 2, "allreduce gave %g", all);
        }
    } else {
        setup = 0;
        for (i = 0; i < STEPS; ++i) {
            double mine = (double)t.rank, all;
            MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        }
    }
    XT_CHECK(&t, setup >= 0 && step >= 0, "negative region time");
    totals[0] = setup;
    totals[1] = step;
    MPI_Reduce(totals, sums, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (t.rank == 0) {
        printf("REGION setup %d %.12e\n", t.size, sums[0]);
        printf("REGION step %d %.12e\n", t.size * STEPS, sums[1]);
    }
    if (sink == 12345.0) printf("INFO unlikely\n"); /* keeps the compute loop */
    if (strcmp(mode, "open_at_exit") == 0) { /* xsim fails the run after it ends: no PASS line */
        MPI_Finalize();
        return 0;
    }
    return xt_finish(&t, NULL);
}
