/* untouched_bss: a program with a large .bss array that it never touches (32 MiB: a table sized
 * for the largest input, a Fortran COMMON block of which a run uses nothing) and a few globals
 * of its own that every rank writes, passed around a ring. Start-up takes the image as every
 * rank's start without reading the array (it reads as zero, for every rank), so no switch
 * moves it: where a read fault maps a page of the process's own instead of the shared zero
 * page (a PVM guest kernel), reading it made every page look written, and every switch
 * remapped 32 MiB (its test checks the run report's switched_bytes and remapped_bytes). */
#include "xsim_test.h"

static char big[32 << 20];
char *volatile big_at = big; /* kept, never read nor written */
int mine = -1;               /* .data: each rank's own */
static int seen;             /* .bss */

int main(int argc, char **argv)
{
    xt_t test, *t = &test;
    int round, token = 0;

    xt_init(t, &argc, &argv, "untouched_bss");
    XT_CHECK(t, mine == -1 && seen == 0, "rank %d starts with mine %d, seen %d: not the start-up image", t->rank,
             mine, seen);
    mine = t->rank;
    for (round = 0; round < 3; ++round) {
        int next = (t->rank + 1) % t->size, prev = (t->rank + t->size - 1) % t->size;
        if (t->rank == 0) {
            token = round * t->size + 1;
            MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ++token;
            MPI_Send(&token, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
        }
        ++seen;
        XT_CHECK(t, mine == t->rank && seen == round + 1, "rank %d sees mine %d, seen %d in round %d", t->rank, mine,
                 seen, round);
    }
    if (t->rank == 0)
        XT_CHECK(t, token == 3 * t->size, "the token came back as %d, expected %d", token, 3 * t->size);
    return xt_finish(t, "untouched");
}
