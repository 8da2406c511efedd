/* tbb_threads: each rank sums with oneTBB's parallel_reduce inside a tbb::task_arena of
 * argv[1] threads (default 1), then the ranks combine their sums with MPI_Allreduce; every
 * value is checked against its closed form. With one thread, TBB runs the algorithm on the
 * rank's own thread and starts no worker: the run passes under xsim, as deal.II's programs
 * do with one thread (MPI_InitFinalize(argc, argv, 1), DEAL_II_NUM_THREADS=1). With more,
 * TBB starts a worker thread (on a host with more than one core), which xsim refuses, naming
 * libtbb and the remedy (DEAL_II_NUM_THREADS=1, tbb::global_control). (A task_arena, not a
 * scoped global_control: a global_control of 1 that is destroyed while the limit had held
 * back an arena's request for workers lets oneTBB start them then, at the rank's end.) */
#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/parallel_reduce.h>

#include <cstdlib>

#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "tbb_threads");
    const int threads = argc > 1 ? std::atoi(argv[1]) : 1;
    tbb::task_arena arena(threads, 1);
    const long long n = 200000;
    const long long local = arena.execute([&] { return tbb::parallel_reduce(
        tbb::blocked_range<long long>(0, n, 1000), 0LL,
        [&](const tbb::blocked_range<long long> &r, long long s) {
            for (long long i = r.begin(); i != r.end(); ++i) s += (t->rank + 1) * i;
            return s;
        },
        [](long long a, long long b) { return a + b; }); });
    const long long per_rank = n * (n - 1) / 2;
    XT_CHECK(t, local == (t->rank + 1) * per_rank, "rank %d: parallel_reduce gave %lld", t->rank, local);
    long long total = 0;
    MPI_Allreduce(&local, &total, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    const long long size = t->size;
    XT_CHECK(t, total == size * (size + 1) / 2 * per_rank, "the sum over ranks is %lld", total);
    return xt_finish(t, NULL);
}
