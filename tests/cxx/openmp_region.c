/* openmp_region: every rank runs an OpenMP parallel loop (sum of 1..1000 plus its rank).
 * With OMP_NUM_THREADS=1 no thread is created and the run passes under xsim; with more,
 * xsim ends the run at the first rank's parallel region with a message naming it. */
#include <omp.h>

#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "openmp_region");
    long sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 1; i <= 1000; ++i) sum += i;
    sum += t->rank;
    MPI_Barrier(MPI_COMM_WORLD);
    XT_CHECK(t, sum == 500500 + t->rank, "parallel sum %ld", sum);
    if (t->rank == 0) printf("OMP threads %d\n", omp_get_max_threads());
    return xt_finish(t, NULL);
}
