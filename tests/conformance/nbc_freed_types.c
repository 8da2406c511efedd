/* Derived datatypes freed (MPI_Type_free) while a nonblocking collective using them is
 * pending: "Any communication that is currently using this datatype will complete
 * normally" (MPI-4.0 section 5.1.9). Every nonblocking collective -- rooted, all-to-all,
 * v and w variants, reductions (with a user op on the derived type) and the neighbourhood
 * ones -- is started with fresh send and receive types (a vector with gaps), the types are
 * freed at once on every rank, and all calls complete together; every received element,
 * and every gap of the receive buffers, must be right. */
#include "conformance.h"

enum { B = 2 };  /* elements of the gappy type per rank's block */

enum { BCAST, GATHER, GATHERV, SCATTER, SCATTERV, ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW,
       NB_ALLGATHER, NB_ALLGATHERV, NB_ALLTOALL, NB_ALLTOALLV, NB_ALLTOALLW,
       REDUCE, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN, NCALLS };
static const char* const kNames[NCALLS] = {
    "Ibcast", "Igather", "Igatherv", "Iscatter", "Iscatterv", "Iallgather", "Iallgatherv", "Ialltoall",
    "Ialltoallv", "Ialltoallw", "Ineighbor_allgather", "Ineighbor_allgatherv", "Ineighbor_alltoall",
    "Ineighbor_alltoallv", "Ineighbor_alltoallw", "Ireduce", "Iallreduce", "Ireduce_scatter",
    "Ireduce_scatter_block", "Iscan", "Iexscan"};

/* Sums pairs of ints: the reductions' element type is MPI_Type_contiguous(2, MPI_INT). */
static void pair_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
    int i;
    (void)type;
    for (i = 0; i < 2 * *len; i++) ((int*)inout)[i] += ((const int*)in)[i];
}

static MPI_Datatype pair_type(void) {
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    return t;
}

static long sum_of(int first, int last, long i) {
    long s = 0;
    int r;
    for (r = first; r <= last; r++) s += conf_value(r, i);
    return s;
}

typedef struct {
    int *send, *recv;  /* gappy elements (CONF_GAPPY_INTS ints each), or ints for reductions */
    MPI_Datatype *stypes, *rtypes;  /* the w variants' arrays: untouched until completion */
} bufs_t;

int main(int argc, char** argv) {
    conf_t t;
    int p, me, c, i, k, left, right;
    MPI_Comm ring;
    MPI_Request reqs[NCALLS];
    bufs_t b[NCALLS];
    int *counts, *displs, *rdispls, *wdispls, *seq_displs;
    MPI_Aint nb_wdispls[1];
    int zero = 0, block = B;
    MPI_Op op;
    MPI_Aint ext;
    MPI_Init(&argc, &argv);
    conf_init(&t, "nbc_freed_types");
    p = t.size;
    me = t.rank;
    left = (me + p - 1) % p;
    right = (me + 1) % p;
    /* Each rank's one in-neighbor is its left, its one out-neighbor its right. */
    CONF_CALL(&t, MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right,
                                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &ring));
    counts = (int*)conf_alloc((size_t)p * sizeof(int));
    displs = (int*)conf_alloc((size_t)p * sizeof(int));
    rdispls = (int*)conf_alloc((size_t)p * sizeof(int));
    wdispls = (int*)conf_alloc((size_t)p * sizeof(int));
    seq_displs = (int*)conf_alloc((size_t)p * sizeof(int));
    ext = (MPI_Aint)conf_extent(CONF_GAPPY);
    for (i = 0; i < p; i++) {
        counts[i] = B;
        seq_displs[i] = i * B;
        rdispls[i] = (p - 1 - i) * B;  /* blocks in reverse rank order */
        wdispls[i] = (int)(i * B * ext);
    }
    nb_wdispls[0] = 0;
    CONF_CALL(&t, MPI_Op_create(pair_sum, 1, &op));

    for (c = 0; c < NCALLS; c++) {
        const long elems = (long)p * B;
        MPI_Datatype s, r;
        const int reduction = c >= REDUCE;
        if (reduction) {
            s = pair_type();
            r = s;
            b[c].send = (int*)conf_alloc((size_t)elems * 2 * sizeof(int));
            b[c].recv = (int*)conf_alloc((size_t)elems * 2 * sizeof(int));
            for (k = 0; k < elems * 2; k++) {
                b[c].send[k] = (int)conf_value(me, k);
                b[c].recv[k] = -1;
            }
        } else {
            s = conf_gappy_type();
            r = conf_gappy_type();
            b[c].send = (int*)conf_alloc((size_t)elems * ext);
            b[c].recv = (int*)conf_alloc((size_t)elems * ext);
            conf_poison(CONF_GAPPY, b[c].send, elems);
            conf_poison(CONF_GAPPY, b[c].recv, elems);
            /* Send element j*B+k (block j, for rank j where blocks go to ranks) = conf_value(me, j*B+k). */
            for (k = 0; k < elems; k++) conf_put(CONF_GAPPY, b[c].send, k, conf_value(me, k));
        }
        b[c].stypes = (MPI_Datatype*)conf_alloc((size_t)p * sizeof(MPI_Datatype));
        b[c].rtypes = (MPI_Datatype*)conf_alloc((size_t)p * sizeof(MPI_Datatype));
        for (i = 0; i < p; i++) {
            b[c].stypes[i] = s;
            b[c].rtypes[i] = r;
        }
        switch (c) {
            case BCAST:
                if (me == 0)
                    for (k = 0; k < B; k++) conf_put(CONF_GAPPY, b[c].recv, k, conf_value(0, k));
                CONF_CALL(&t, MPI_Ibcast(b[c].recv, B, r, 0, MPI_COMM_WORLD, &reqs[c]));
                break;
            case GATHER: CONF_CALL(&t, MPI_Igather(b[c].send, B, s, b[c].recv, B, r, 0, MPI_COMM_WORLD, &reqs[c])); break;
            case GATHERV:
                CONF_CALL(&t, MPI_Igatherv(b[c].send, B, s, b[c].recv, counts, rdispls, r, 0, MPI_COMM_WORLD, &reqs[c]));
                break;
            case SCATTER: CONF_CALL(&t, MPI_Iscatter(b[c].send, B, s, b[c].recv, B, r, 0, MPI_COMM_WORLD, &reqs[c])); break;
            case SCATTERV:
                CONF_CALL(&t, MPI_Iscatterv(b[c].send, counts, rdispls, s, b[c].recv, B, r, 0, MPI_COMM_WORLD, &reqs[c]));
                break;
            case ALLGATHER: CONF_CALL(&t, MPI_Iallgather(b[c].send, B, s, b[c].recv, B, r, MPI_COMM_WORLD, &reqs[c])); break;
            case ALLGATHERV:
                CONF_CALL(&t, MPI_Iallgatherv(b[c].send, B, s, b[c].recv, counts, rdispls, r, MPI_COMM_WORLD, &reqs[c]));
                break;
            case ALLTOALL: CONF_CALL(&t, MPI_Ialltoall(b[c].send, B, s, b[c].recv, B, r, MPI_COMM_WORLD, &reqs[c])); break;
            case ALLTOALLV:
                CONF_CALL(&t, MPI_Ialltoallv(b[c].send, counts, seq_displs, s, b[c].recv, counts, rdispls, r,
                                             MPI_COMM_WORLD, &reqs[c]));
                break;
            case ALLTOALLW:
                CONF_CALL(&t, MPI_Ialltoallw(b[c].send, counts, wdispls, b[c].stypes, b[c].recv, counts, wdispls, b[c].rtypes,
                                             MPI_COMM_WORLD, &reqs[c]));
                break;
            case NB_ALLGATHER: CONF_CALL(&t, MPI_Ineighbor_allgather(b[c].send, B, s, b[c].recv, B, r, ring, &reqs[c])); break;
            case NB_ALLGATHERV:
                CONF_CALL(&t, MPI_Ineighbor_allgatherv(b[c].send, B, s, b[c].recv, &block, &zero, r, ring, &reqs[c]));
                break;
            case NB_ALLTOALL: CONF_CALL(&t, MPI_Ineighbor_alltoall(b[c].send, B, s, b[c].recv, B, r, ring, &reqs[c])); break;
            case NB_ALLTOALLV:
                CONF_CALL(&t, MPI_Ineighbor_alltoallv(b[c].send, &block, &zero, s, b[c].recv, &block, &zero, r, ring, &reqs[c]));
                break;
            case NB_ALLTOALLW:
                CONF_CALL(&t, MPI_Ineighbor_alltoallw(b[c].send, &block, nb_wdispls, b[c].stypes, b[c].recv, &block, nb_wdispls,
                                                      b[c].rtypes, ring, &reqs[c]));
                break;
            case REDUCE: CONF_CALL(&t, MPI_Ireduce(b[c].send, b[c].recv, 1, s, op, 0, MPI_COMM_WORLD, &reqs[c])); break;
            case ALLREDUCE: CONF_CALL(&t, MPI_Iallreduce(b[c].send, b[c].recv, 1, s, op, MPI_COMM_WORLD, &reqs[c])); break;
            case REDUCE_SCATTER:
                CONF_CALL(&t, MPI_Ireduce_scatter(b[c].send, b[c].recv, counts, s, op, MPI_COMM_WORLD,
                                                  &reqs[c]));
                break;
            case REDUCE_SCATTER_BLOCK:
                CONF_CALL(&t, MPI_Ireduce_scatter_block(b[c].send, b[c].recv, B, s, op, MPI_COMM_WORLD, &reqs[c]));
                break;
            case SCAN: CONF_CALL(&t, MPI_Iscan(b[c].send, b[c].recv, 1, s, op, MPI_COMM_WORLD, &reqs[c])); break;
            default: CONF_CALL(&t, MPI_Iexscan(b[c].send, b[c].recv, 1, s, op, MPI_COMM_WORLD, &reqs[c])); break;
        }
        /* Freed while the call is pending, on every rank (one handle when both are the same). */
        CONF_CALL(&t, MPI_Type_free(&s));
        if (!reduction) CONF_CALL(&t, MPI_Type_free(&r));
    }
    CONF_CALL(&t, MPI_Waitall(NCALLS, reqs, MPI_STATUSES_IGNORE));

    for (c = 0; c < NCALLS; c++) {
        const int* got = b[c].recv;
        if (c >= REDUCE) {
            /* 1 pair per rank (B pairs per block for the reduce_scatters): ints 0..2*count-1. */
            const int ints = (c == REDUCE_SCATTER || c == REDUCE_SCATTER_BLOCK) ? 2 * B : 2;
            for (k = 0; k < ints; k++) {
                long want;
                switch (c) {
                    case REDUCE: if (me != 0) continue; want = sum_of(0, p - 1, k); break;
                    case ALLREDUCE: want = sum_of(0, p - 1, k); break;
                    case SCAN: want = sum_of(0, me, k); break;
                    case EXSCAN: if (me == 0) continue; want = sum_of(0, me - 1, k); break;
                    default: want = sum_of(0, p - 1, (long)me * 2 * B + k); break;
                }
                CONF_CHECK(&t, got[k] == (int)want, "%s: int %d is %d, expected %ld", kNames[c], k, got[k], want);
            }
        } else {
            for (i = 0; i < p; i++) {
                for (k = 0; k < B; k++) {
                    long at = -1, want = 0;  /* element of recv, and the value it must hold */
                    switch (c) {
                        case BCAST: if (i == 0) at = k, want = conf_value(0, k); break;
                        case GATHER: if (me == 0) at = (long)i * B + k, want = conf_value(i, k); break;
                        case GATHERV: if (me == 0) at = (long)rdispls[i] + k, want = conf_value(i, k); break;
                        case SCATTER: if (i == 0) at = k, want = conf_value(0, (long)me * B + k); break;
                        case SCATTERV: if (i == 0) at = k, want = conf_value(0, (long)rdispls[me] + k); break;
                        case ALLGATHER: at = (long)i * B + k, want = conf_value(i, k); break;
                        case ALLGATHERV: at = (long)rdispls[i] + k, want = conf_value(i, k); break;
                        case ALLTOALL: case ALLTOALLW: at = (long)i * B + k, want = conf_value(i, (long)me * B + k); break;
                        case ALLTOALLV: at = (long)rdispls[i] + k, want = conf_value(i, (long)me * B + k); break;
                        default: if (i == 0) at = k, want = conf_value(left, k); break;  /* neighbourhood */
                    }
                    if (at >= 0)
                        CONF_CHECK(&t, conf_holds(CONF_GAPPY, got, at, want), "%s: element %ld (from rank %d) is wrong",
                                   kNames[c], at, i);
                }
            }
        }
        free(b[c].send);
        free(b[c].recv);
        free(b[c].stypes);
        free(b[c].rtypes);
    }
    CONF_CALL(&t, MPI_Op_free(&op));
    CONF_CALL(&t, MPI_Comm_free(&ring));
    free(counts);
    free(displs);
    free(rdispls);
    free(wdispls);
    free(seq_displs);
    return conf_finish(&t);
}
