/* MPI_Scan and MPI_Exscan: every predefined op on every type it is defined for,
 * MINLOC/MAXLOC, the non-commutative user op, short and long vectors, MPI_IN_PLACE.
 * Exscan's result on rank 0 is undefined and not checked. */
#include "reduction_data.h"

static void predefined(conf_t* t, int o, int ty, long n) {
    char* in = (char*)conf_alloc((size_t)n * red_size(ty));
    char* out = (char*)conf_alloc((size_t)n * red_size(ty));
    long i;
    int ex, inplace;
    for (ex = 0; ex < 2; ex++)
        for (inplace = 0; inplace < 2; inplace++) {
            const int last = ex ? t->rank - 1 : t->rank;
            red_fill(o, ty, t->rank, inplace ? out : in, n);
            if (!inplace) memset(out, 0x11, (size_t)n * red_size(ty));
            if (ex)
                CONF_CALL(t, MPI_Exscan(inplace ? MPI_IN_PLACE : in, out, (int)n, red_type(ty), red_op(o), MPI_COMM_WORLD));
            else
                CONF_CALL(t, MPI_Scan(inplace ? MPI_IN_PLACE : in, out, (int)n, red_type(ty), red_op(o), MPI_COMM_WORLD));
            if (last < 0) continue;
            for (i = 0; i < n; i++) {
                if (!red_sampled(i, n)) continue;
                if (red_load(ty, out, i) != red_fold(o, ty, 0, last, i)) {
                    conf_fail(t, "%s%s %s type %d n=%ld: element %ld is %lld, expected %lld", ex ? "Exscan" : "Scan",
                              inplace ? " in place" : "", red_op_name(o), ty, n, i, red_load(ty, out, i),
                              red_fold(o, ty, 0, last, i));
                    break;
                }
            }
        }
    free(in);
    free(out);
}

static void locations(conf_t* t, long n) {
    red_int_loc* in = (red_int_loc*)conf_alloc((size_t)n * sizeof(red_int_loc));
    red_int_loc* out = (red_int_loc*)conf_alloc((size_t)n * sizeof(red_int_loc));
    int maxloc, ex;
    long i;
    for (maxloc = 0; maxloc < 2; maxloc++)
        for (ex = 0; ex < 2; ex++) {
            for (i = 0; i < n; i++) {
                in[i].v = red_loc_value(t->rank, i);
                in[i].loc = t->rank;
            }
            if (ex) CONF_CALL(t, MPI_Exscan(in, out, (int)n, MPI_2INT, maxloc ? MPI_MAXLOC : MPI_MINLOC, MPI_COMM_WORLD));
            else CONF_CALL(t, MPI_Scan(in, out, (int)n, MPI_2INT, maxloc ? MPI_MAXLOC : MPI_MINLOC, MPI_COMM_WORLD));
            if (ex && t->rank == 0) continue;
            for (i = 0; i < n; i++) {
                int v, loc;
                red_loc_fold(maxloc, 0, ex ? t->rank - 1 : t->rank, i, &v, &loc);
                CONF_CHECK(t, out[i].v == v && out[i].loc == loc, "%s %s element %ld is (%d,%d), expected (%d,%d)",
                           ex ? "Exscan" : "Scan", maxloc ? "MAXLOC" : "MINLOC", i, out[i].v, out[i].loc, v, loc);
            }
        }
    free(in);
    free(out);
}

static void sequence(conf_t* t, long n) {
    MPI_Datatype triple;
    MPI_Op seq;
    int* in = (int*)conf_alloc((size_t)n * 3 * sizeof(int));
    int* out = (int*)conf_alloc((size_t)n * 3 * sizeof(int));
    int ex, inplace;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Op_create(red_sequence_op, 0, &seq);
    for (ex = 0; ex < 2; ex++)
        for (inplace = 0; inplace < 2; inplace++) {
            red_sequence_fill(t->rank, inplace ? out : in, n);
            if (ex) CONF_CALL(t, MPI_Exscan(inplace ? MPI_IN_PLACE : in, out, (int)n, triple, seq, MPI_COMM_WORLD));
            else CONF_CALL(t, MPI_Scan(inplace ? MPI_IN_PLACE : in, out, (int)n, triple, seq, MPI_COMM_WORLD));
            if (ex && t->rank == 0) continue;
            CONF_CHECK(t, red_sequence_is(out, n, 0, ex ? t->rank - 1 : t->rank), "%s%s non-commutative n=%ld",
                       ex ? "Exscan" : "Scan", inplace ? " in place" : "", n);
        }
    MPI_Op_free(&seq);
    MPI_Type_free(&triple);
    free(in);
    free(out);
}

int main(int argc, char** argv) {
    conf_t t;
    int o, ty;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_scan");
    for (ty = 0; ty < R_TYPES; ty++)
        for (o = 0; o < OP_COUNT; o++)
            if (red_allowed(o, ty)) predefined(&t, o, ty, 3);
    predefined(&t, OP_SUM, R_LONG_LONG, 3000);
    predefined(&t, OP_MIN, R_DOUBLE, 3000);
    locations(&t, 4);
    sequence(&t, 2);
    sequence(&t, 1000);
    return conf_finish(&t);
}
