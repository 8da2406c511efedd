/* MPI_Finalize first does the equivalent of MPI_Comm_free on MPI_COMM_SELF (MPI-4.0
 * section 11.2.4): the delete callbacks of its attributes run, in the reverse order of
 * setting, while MPI is still initialized. Libraries (PETSc, tools) use them as at-exit
 * hooks. Keyvals freed before MPI_Finalize still have their attributes deleted.
 * The checks can only be made after MPI_Finalize, so every rank judges its own callbacks
 * and prints FAIL itself; rank 0 prints PASS when its own are right (the harness fails
 * on any FAIL line). */
#include <mpi.h>
#include <stdio.h>

#define KEYS 5

typedef struct {
    int calls;
    int order[KEYS];         /* attribute values (key indices) in callback order */
    int finalized_seen;      /* MPI_Finalized said true inside a callback */
    int rank_unavailable;    /* MPI_Comm_rank failed inside a callback */
} deletions_t;

static int record_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
    deletions_t* d = (deletions_t*)extra;
    int flag = 0, rank = -1;
    (void)comm, (void)keyval;
    if (d->calls < KEYS) d->order[d->calls] = (int)(long)value;
    d->calls++;
    MPI_Finalized(&flag);
    if (flag) d->finalized_seen = 1;
    if (MPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || rank < 0) d->rank_unavailable = 1;
    return MPI_SUCCESS;
}

int main(int argc, char** argv) {
    static const int set_order[KEYS] = {3, 2, 0, 1, 4};
    deletions_t d = {0, {0}, 0, 0};
    int keys[KEYS], rank, i, failures = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < KEYS; i++) MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &keys[i], &d);
    for (i = 0; i < KEYS; i++) MPI_Comm_set_attr(MPI_COMM_SELF, keys[set_order[i]], (void*)(long)set_order[i]);
    for (i = 0; i < KEYS; i++) MPI_Comm_free_keyval(&keys[i]);
    if (d.calls != 0) {
        printf("FAIL finalize_self_attrs: rank %d: %d delete callbacks before MPI_Finalize\n", rank, d.calls);
        failures++;
    }
    MPI_Finalize();

    if (d.calls != KEYS) {
        printf("FAIL finalize_self_attrs: rank %d: %d delete callbacks at MPI_Finalize, expected %d\n", rank, d.calls,
               KEYS);
        failures++;
    }
    for (i = 0; i < KEYS && i < d.calls; i++) {
        if (d.order[i] != set_order[KEYS - 1 - i]) {
            printf("FAIL finalize_self_attrs: rank %d: callback %d deleted attribute %d, expected %d (newest first)\n",
                   rank, i, d.order[i], set_order[KEYS - 1 - i]);
            failures++;
            break;
        }
    }
    if (d.finalized_seen) {
        printf("FAIL finalize_self_attrs: rank %d: MPI_Finalized was true inside a delete callback\n", rank);
        failures++;
    }
    if (d.rank_unavailable) {
        printf("FAIL finalize_self_attrs: rank %d: MPI_Comm_rank failed inside a delete callback\n", rank);
        failures++;
    }
    if (rank == 0 && failures == 0) printf("PASS finalize_self_attrs\n");
    return failures == 0 ? 0 : 1;
}
