/* A user-defined op freed (MPI_Op_free) while a nonblocking reduction using it is pending:
 * the standard lets the operation complete normally (MPI-4.0 section 6.9.5, "any
 * operation that uses it will complete normally"), like a freed datatype. Every
 * nonblocking reduction (Ireduce, Iallreduce, Ireduce_scatter, Ireduce_scatter_block,
 * Iscan, Iexscan) is started with a fresh user op, commutative and not, the op is freed at
 * once, and all are completed together; the results must be the sums. */
#include "conformance.h"

enum { N = 3 };  /* ints per rank's block */

/* A plain sum; registered as non-commutative too (which picks order-keeping algorithms). */
static void user_sum(void* in, void* inout, int* len, MPI_Datatype* type) {
    int i;
    (void)type;
    for (i = 0; i < *len; i++) ((int*)inout)[i] += ((const int*)in)[i];
}

/* Sum over ranks first..last of conf_value(r, i). */
static long sum_of(int first, int last, long i) {
    long s = 0;
    int r;
    for (r = first; r <= last; r++) s += conf_value(r, i);
    return s;
}

enum { REDUCE, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN, NKINDS };
static const char* const kNames[NKINDS] = {"Ireduce", "Iallreduce", "Ireduce_scatter", "Ireduce_scatter_block",
                                           "Iscan", "Iexscan"};

int main(int argc, char** argv) {
    conf_t t;
    int kind, commute, i, p, me;
    MPI_Request reqs[2 * NKINDS];
    int* in[2 * NKINDS];
    int* out[2 * NKINDS];
    int* counts;
    MPI_Init(&argc, &argv);
    conf_init(&t, "nbc_freed_op");
    p = t.size;
    me = t.rank;
    counts = (int*)conf_alloc((size_t)p * sizeof(int));
    for (i = 0; i < p; i++) counts[i] = N;
    for (commute = 0; commute < 2; commute++) {
        for (kind = 0; kind < NKINDS; kind++) {
            const int k = commute * NKINDS + kind;
            const long len = (long)N * p;
            MPI_Op op;
            long j;
            in[k] = (int*)conf_alloc((size_t)len * sizeof(int));
            out[k] = (int*)conf_alloc((size_t)len * sizeof(int));
            for (j = 0; j < len; j++) {
                in[k][j] = (int)conf_value(me, j);
                out[k][j] = -1;
            }
            CONF_CALL(&t, MPI_Op_create(user_sum, commute, &op));
            switch (kind) {
                case REDUCE: CONF_CALL(&t, MPI_Ireduce(in[k], out[k], N, MPI_INT, op, 0, MPI_COMM_WORLD, &reqs[k])); break;
                case ALLREDUCE: CONF_CALL(&t, MPI_Iallreduce(in[k], out[k], N, MPI_INT, op, MPI_COMM_WORLD, &reqs[k])); break;
                case REDUCE_SCATTER:
                    CONF_CALL(&t, MPI_Ireduce_scatter(in[k], out[k], counts, MPI_INT, op, MPI_COMM_WORLD, &reqs[k]));
                    break;
                case REDUCE_SCATTER_BLOCK:
                    CONF_CALL(&t, MPI_Ireduce_scatter_block(in[k], out[k], N, MPI_INT, op, MPI_COMM_WORLD, &reqs[k]));
                    break;
                case SCAN: CONF_CALL(&t, MPI_Iscan(in[k], out[k], N, MPI_INT, op, MPI_COMM_WORLD, &reqs[k])); break;
                default: CONF_CALL(&t, MPI_Iexscan(in[k], out[k], N, MPI_INT, op, MPI_COMM_WORLD, &reqs[k])); break;
            }
            CONF_CALL(&t, MPI_Op_free(&op));
            CONF_CHECK(&t, op == MPI_OP_NULL, "%s: MPI_Op_free left the handle set", kNames[kind]);
        }
    }
    CONF_CALL(&t, MPI_Waitall(2 * NKINDS, reqs, MPI_STATUSES_IGNORE));
    for (commute = 0; commute < 2; commute++) {
        for (kind = 0; kind < NKINDS; kind++) {
            const int k = commute * NKINDS + kind;
            for (i = 0; i < N; i++) {
                long want;
                const int* got = out[k];
                switch (kind) {
                    case REDUCE: if (me != 0) continue; want = sum_of(0, p - 1, i); break;
                    case ALLREDUCE: want = sum_of(0, p - 1, i); break;
                    case REDUCE_SCATTER: case REDUCE_SCATTER_BLOCK: want = sum_of(0, p - 1, (long)me * N + i); break;
                    case SCAN: want = sum_of(0, me, i); break;
                    default: if (me == 0) continue; want = sum_of(0, me - 1, i); break;
                }
                CONF_CHECK(&t, got[i] == (int)want, "%s (commute %d): element %d is %d, expected %ld", kNames[kind],
                           commute, i, got[i], want);
            }
            free(in[k]);
            free(out[k]);
        }
    }
    free(counts);
    return conf_finish(&t);
}
