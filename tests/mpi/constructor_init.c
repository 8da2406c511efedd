/* constructor_init: MPI initialized in a static constructor of the program, before main (as
 * OpenCoarrays' runtime does in gfortran coarray programs); main uses MPI and finalizes.
 * Each rank runs the program's constructors, as each process does natively: the rank number
 * the constructor saved in a global and the count of its runs are the rank's own (globals
 * are per rank here on purpose, unlike the other programs of tests/mpi). */
#include "xsim_test.h"

static int constructions = 0;
static int rank_in_constructor = -1;
static int initialized_in_constructor = 0;

__attribute__((constructor)) static void start_mpi(void) {
    ++constructions;
    MPI_Init(NULL, NULL);
    MPI_Initialized(&initialized_in_constructor);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_in_constructor);
}

int main(void) {
    xt_t t;
    int initialized = 0;
    MPI_Initialized(&initialized);
    xt_init_after(&t, "constructor_init");
    XT_CHECK(&t, initialized && initialized_in_constructor, "MPI_Initialized gave %d in main, %d in the constructor",
             initialized, initialized_in_constructor);
    XT_CHECK(&t, constructions == 1, "the constructor ran %d times for this rank", constructions);
    XT_CHECK(&t, rank_in_constructor == t.rank, "the constructor saw rank %d", rank_in_constructor);
    return xt_finish(&t, NULL);
}
