/* MPI_Reduce_scatter and MPI_Reduce_scatter_block: every predefined op on every type it
 * is defined for, the non-commutative user op, pieces of differing sizes (some empty),
 * long pieces (ring path), MPI_IN_PLACE. */
#include "reduction_data.h"

/* Rank i's piece: (i % 3) * unit + extra elements (Reduce_scatter), or unit (block). */
static void pieces(int size, int unit, int extra, int block, int* counts, long* offsets) {
    int i;
    offsets[0] = 0;
    for (i = 0; i < size; i++) {
        counts[i] = block ? unit : (i % 3) * unit + extra;
        offsets[i + 1] = offsets[i] + counts[i];
    }
}

static void predefined(conf_t* t, int o, int ty, int unit, int block) {
    int* counts = (int*)conf_alloc((size_t)t->size * sizeof(int));
    long* offsets = (long*)conf_alloc(((size_t)t->size + 1) * sizeof(long));
    char *in, *out;
    long k;
    int inplace;
    pieces(t->size, unit, 1, block, counts, offsets);
    in = (char*)conf_alloc((size_t)offsets[t->size] * red_size(ty));
    out = (char*)conf_alloc((size_t)offsets[t->size] * red_size(ty));
    for (inplace = 0; inplace < 2; inplace++) {
        const int n = counts[t->rank];
        red_fill(o, ty, t->rank, inplace ? out : in, offsets[t->size]);
        if (!inplace) memset(out, 0x11, (size_t)offsets[t->size] * red_size(ty));
        if (block)
            CONF_CALL(t, MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : in, out, unit, red_type(ty), red_op(o),
                                                  MPI_COMM_WORLD));
        else
            CONF_CALL(t, MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : in, out, counts, red_type(ty), red_op(o),
                                            MPI_COMM_WORLD));
        for (k = 0; k < n; k++) {
            const long at = offsets[t->rank] + k;
            if (!red_sampled(k, n)) continue;
            if (red_load(ty, out, k) != red_fold(o, ty, 0, t->size - 1, at)) {
                conf_fail(t, "Reduce_scatter%s%s %s type %d: element %ld is %lld, expected %lld",
                          block ? "_block" : "", inplace ? " in place" : "", red_op_name(o), ty, k,
                          red_load(ty, out, k), red_fold(o, ty, 0, t->size - 1, at));
                break;
            }
        }
    }
    free(counts);
    free(offsets);
    free(in);
    free(out);
}

static void sequence(conf_t* t, int unit, int block) {
    int* counts = (int*)conf_alloc((size_t)t->size * sizeof(int));
    long* offsets = (long*)conf_alloc(((size_t)t->size + 1) * sizeof(long));
    MPI_Datatype triple;
    MPI_Op seq;
    int *in, *out, inplace;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Op_create(red_sequence_op, 0, &seq);
    pieces(t->size, unit, 0, block, counts, offsets);
    in = (int*)conf_alloc((size_t)offsets[t->size] * 3 * sizeof(int));
    out = (int*)conf_alloc((size_t)offsets[t->size] * 3 * sizeof(int));
    for (inplace = 0; inplace < 2; inplace++) {
        red_sequence_fill(t->rank, inplace ? out : in, offsets[t->size]);
        if (block)
            CONF_CALL(t, MPI_Reduce_scatter_block(inplace ? MPI_IN_PLACE : in, out, unit, triple, seq, MPI_COMM_WORLD));
        else
            CONF_CALL(t, MPI_Reduce_scatter(inplace ? MPI_IN_PLACE : in, out, counts, triple, seq, MPI_COMM_WORLD));
        CONF_CHECK(t, red_sequence_is(out, counts[t->rank], 0, t->size - 1), "Reduce_scatter%s%s non-commutative",
                   block ? "_block" : "", inplace ? " in place" : "");
    }
    MPI_Op_free(&seq);
    MPI_Type_free(&triple);
    free(counts);
    free(offsets);
    free(in);
    free(out);
}

int main(int argc, char** argv) {
    conf_t t;
    int o, ty, block;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_reduce_scatter");
    for (block = 0; block < 2; block++) {
        for (ty = 0; ty < R_TYPES; ty++)
            for (o = 0; o < OP_COUNT; o++)
                if (red_allowed(o, ty)) predefined(&t, o, ty, 2, block);
        /* Long pieces (every rank holds the whole vector, so only for smaller sizes). */
        predefined(&t, OP_SUM, R_INT, t.size <= 64 ? 700 : 3, block);
        predefined(&t, OP_MAX, R_DOUBLE, t.size <= 64 ? 700 : 3, block);
        sequence(&t, 2, block);
        sequence(&t, t.size <= 64 ? 300 : 2, block);
    }
    return conf_finish(&t);
}
