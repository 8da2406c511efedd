/* openmp_hybrid: MPI+OpenMP (GCC's libgomp) inside simulated ranks. argv[1] picks the case:
 *   compute  (default) every rank runs OMP_NUM_THREADS-thread regions (argv[2], the expected team
 *            size): `parallel for reduction` over a per-rank sum, a dynamic-schedule loop that
 *            fills a per-rank global array, `parallel sections`, tasks under `single`, and
 *            MPI_Allreduce between regions; the master calls MPI_Comm_rank, MPI_Wtime,
 *            MPI_Isend and MPI_Irecv to itself inside a region (calls that do not wait). Every
 *            value is checked against its closed form (what a native run gives).
 *   funneled every rank calls MPI_Allreduce from `omp master` inside a parallel region
 *            (MPI_THREAD_FUNNELED): natively fine, under xsim the run must end naming the
 *            first rank that has to wait.
 *   mixed    odd ranks call MPI_Allreduce inside one-thread regions (allowed), even ranks
 *            run argv[2]-thread regions meanwhile (checked team sizes and sums).
 *   worker   thread 1 of rank argv[2]'s region calls MPI_Comm_rank: refused under xsim.
 *   timing   12 units of work run on 1 thread, then on argv[2] threads of which the master
 *            does none (each of the argv[2] - 1 workers does 12 / (argv[2] - 1)); prints
 *            "RATIO r", the second region's time over the first's (MPI_Wtime), and with
 *            argv[3] and argv[4] checks lo <= r <= hi. */
#include <omp.h>
#include <string.h>

#include "xsim_test.h"

#define N 4096
static double g_fill[N]; /* per rank under xsim (privatized), written by the workers */

static double work(long iterations, long seed)
{
    double x = (double)seed;
    for (long i = 0; i < iterations; ++i) x = x * 0.999999 + 1.0 / (double)(i + 1);
    return x;
}

static void compute(xt_t *t, int threads)
{
    const long r = t->rank;
    for (int round = 0; round < 3; ++round) {
        /* parallel for reduction: sum of (r + round + 1) * i over i = 1..1000 */
        long sum = 0;
        int team = 0;
#pragma omp parallel for reduction(+ : sum)
        for (int i = 1; i <= 1000; ++i) {
            if (i == 1) team = omp_get_num_threads();
            sum += (r + round + 1) * i;
        }
        XT_CHECK(t, sum == (r + round + 1) * 500500, "round %d: parallel sum %ld", round, sum);
        /* a static loop's first iteration runs on thread 0, which knows the team size */
        XT_CHECK(t, team == threads, "round %d: team of %d threads, expected %d", round, team, threads);
        long total = 0;
        XT_MPI(t, MPI_Allreduce(&sum, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
        const long n = t->size;
        const long want = 500500 * (n * (n - 1) / 2 + n * (round + 1));
        XT_CHECK(t, total == want, "round %d: allreduce %ld, expected %ld", round, total, want);

        /* dynamic schedule, workers write the rank's global array */
#pragma omp parallel for schedule(dynamic, 64)
        for (int i = 0; i < N; ++i) g_fill[i] = (double)(r * N + i + round);
        double local = 0.0, global = 0.0;
        for (int i = 0; i < N; ++i) local += g_fill[i];
        XT_MPI(t, MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD));
        double expect = 0.0;
        for (long q = 0; q < n; ++q)
            for (int i = 0; i < N; ++i) expect += (double)(q * N + i + round);
        XT_CHECK(t, global == expect, "round %d: global array sum %.1f, expected %.1f", round, global, expect);
    }

    /* sections and tasks */
    long a = 0, b = 0;
#pragma omp parallel sections
    {
#pragma omp section
        a = 7 * (r + 1);
#pragma omp section
        b = 11 * (r + 1);
    }
    XT_CHECK(t, a == 7 * (r + 1) && b == 11 * (r + 1), "sections gave %ld %ld", a, b);
    long tasks = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int k = 1; k <= 20; ++k) {
#pragma omp task firstprivate(k) shared(tasks)
            {
#pragma omp atomic
                tasks += k * (r + 1);
            }
        }
    }
    XT_CHECK(t, tasks == 210 * (r + 1), "tasks summed %ld", tasks);

    /* calls that do not wait, from the master inside a region */
    int seen_rank = -1, got = -1, mine = (int)r + 100;
    double wtime = -1.0;
    MPI_Request req[2];
#pragma omp parallel shared(req)
    {
#pragma omp master
        {
            MPI_Comm_rank(MPI_COMM_WORLD, &seen_rank);
            wtime = MPI_Wtime();
            MPI_Irecv(&got, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &req[0]);
            MPI_Isend(&mine, 1, MPI_INT, 0, 5, MPI_COMM_SELF, &req[1]);
        }
    }
    /* completed after the region: a wait may have to let other ranks run */
    XT_MPI(t, MPI_Waitall(2, req, MPI_STATUSES_IGNORE));
    XT_CHECK(t, seen_rank == t->rank, "MPI_Comm_rank in the region gave %d", seen_rank);
    XT_CHECK(t, wtime >= 0.0, "MPI_Wtime in the region gave %f", wtime);
    XT_CHECK(t, got == t->rank + 100, "self message in the region carried %d", got);
    if (t->rank == 0) printf("OMP threads %d\n", threads);
}

/* 12 equal units of work on `threads` threads; with more than one, the master (thread 0)
 * does none and waits at the region's end: only the workers' CPU time shows the work. */
static double region_seconds(int threads, long iterations)
{
    double sink = 0.0;
    const double t0 = MPI_Wtime();
#pragma omp parallel num_threads(threads) reduction(+ : sink)
    {
        const int nt = omp_get_num_threads();
        const int workers = nt > 1 ? nt - 1 : 1;
        const int me = nt > 1 ? omp_get_thread_num() - 1 : 0;
        if (me >= 0)
            for (int k = me; k < 12; k += workers) sink += work(iterations, k);
    }
    const double t1 = MPI_Wtime();
    if (sink == 42.0) printf("unlikely\n"); /* keeps the work */
    return t1 - t0;
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    xt_init_after(t, "openmp_hybrid");
    XT_CHECK(t, provided >= MPI_THREAD_FUNNELED, "MPI_Init_thread provided %d", provided);
    const char *mode = argc > 1 ? argv[1] : "compute";
    const int arg = argc > 2 ? atoi(argv[2]) : 0;
    if (strcmp(mode, "compute") == 0) {
        compute(t, arg > 0 ? arg : omp_get_max_threads());
    } else if (strcmp(mode, "funneled") == 0) {
        long one = 1, all = 0;
#pragma omp parallel
        {
#pragma omp master
            MPI_Allreduce(&one, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
#pragma omp barrier
        }
        XT_CHECK(t, all == t->size, "allreduce in the region gave %ld", all);
    } else if (strcmp(mode, "mixed") == 0) {
        /* odd ranks wait in MPI_Allreduce inside a one-thread region (allowed: no workers),
         * while even ranks run argv[2]-thread regions and call it after theirs */
        for (int round = 0; round < 3; ++round) {
            long mine = t->rank + round, all = 0, sum = 0;
            int team = 0;
            if (t->rank % 2) {
#pragma omp parallel num_threads(1)
                {
#pragma omp master
                    MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
                }
            } else {
#pragma omp parallel num_threads(arg) reduction(+ : sum)
                {
#pragma omp master
                    team = omp_get_num_threads();
                    sum += 1;
                }
                XT_CHECK(t, team == arg && sum == arg, "round %d: team of %d threads summed %ld, expected %d",
                         round, team, sum, arg);
                MPI_Allreduce(&mine, &all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
            }
            const long n = t->size;
            XT_CHECK(t, all == n * (n - 1) / 2 + n * round, "round %d: allreduce gave %ld", round, all);
        }
    } else if (strcmp(mode, "worker") == 0) {
        int seen = -1;
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 1 && t->rank == arg % t->size) MPI_Comm_rank(MPI_COMM_WORLD, &seen);
        }
        XT_CHECK(t, t->rank != arg % t->size || seen == t->rank, "worker's MPI_Comm_rank gave %d", seen);
    } else if (strcmp(mode, "timing") == 0) {
        const long iterations = 4000000;
        region_seconds(arg, 1000); /* starts the pool's threads outside the measured pair */
        const double one = region_seconds(1, iterations);
        const double many = region_seconds(arg, iterations);
        const double ratio = many / one;
        if (t->rank == 0) printf("RATIO %.3f (1 thread %.6f s, %d threads %.6f s)\n", ratio, one, arg, many);
        if (argc > 4) {
            const double lo = atof(argv[3]), hi = atof(argv[4]);
            XT_CHECK(t, ratio >= lo && ratio <= hi, "%d threads took %.3f of 1 thread's time, outside [%.2f, %.2f]",
                     arg, ratio, lo, hi);
        }
    } else {
        xt_fatal(t, "unknown case %s", mode);
    }
    return xt_finish(t, NULL);
}
