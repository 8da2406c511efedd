/* MPI_Reduce and MPI_Allreduce: every predefined op on every type it is defined for,
 * MINLOC/MAXLOC, a commutative and a non-commutative user op; short and long vectors
 * (long ones take the Rabenseifner or ring paths); roots first, middle and last;
 * MPI_IN_PLACE; MPI_OP_NULL and an op/type mismatch give MPI_ERR_OP. */
#include "reduction_data.h"

/* Checks n elements of `got` against the fold over all ranks. */
static void check_all(conf_t* t, const char* what, int o, int ty, const void* got, long n) {
    long i;
    for (i = 0; i < n; i++) {
        if (!red_sampled(i, n)) continue;
        if (red_load(ty, got, i) != red_fold(o, ty, 0, t->size - 1, i)) {
            conf_fail(t, "%s %s %s n=%ld: element %ld is %lld, expected %lld", what, red_op_name(o),
                      conf_type_name(ty == R_SCHAR ? CONF_CHAR : ty), n, i, red_load(ty, got, i),
                      red_fold(o, ty, 0, t->size - 1, i));
            return;
        }
    }
}

static void predefined(conf_t* t, long n, int o, int ty) {
    const int roots[] = {0, t->size / 2, t->size - 1};
    char* in = (char*)conf_alloc((size_t)n * red_size(ty));
    char* out = (char*)conf_alloc((size_t)n * red_size(ty));
    int k;
    red_fill(o, ty, t->rank, in, n);
    memset(out, 0x11, (size_t)n * red_size(ty));
    CONF_CALL(t, MPI_Allreduce(in, out, (int)n, red_type(ty), red_op(o), MPI_COMM_WORLD));
    check_all(t, "Allreduce", o, ty, out, n);
    memcpy(out, in, (size_t)n * red_size(ty));
    CONF_CALL(t, MPI_Allreduce(MPI_IN_PLACE, out, (int)n, red_type(ty), red_op(o), MPI_COMM_WORLD));
    check_all(t, "Allreduce in place", o, ty, out, n);
    for (k = 0; k < 3; k++) {
        const int root = roots[k];
        if (k > 0 && root == roots[k - 1]) continue;
        memset(out, 0x11, (size_t)n * red_size(ty));
        CONF_CALL(t, MPI_Reduce(in, out, (int)n, red_type(ty), red_op(o), root, MPI_COMM_WORLD));
        if (t->rank == root) check_all(t, "Reduce", o, ty, out, n);
        if (t->rank == root) memcpy(out, in, (size_t)n * red_size(ty));
        CONF_CALL(t, MPI_Reduce(t->rank == root ? MPI_IN_PLACE : in, out, (int)n, red_type(ty), red_op(o), root,
                                MPI_COMM_WORLD));
        if (t->rank == root) check_all(t, "Reduce in place", o, ty, out, n);
    }
    free(in);
    free(out);
}

static void locations(conf_t* t, long n) {
    int maxloc, i, root = t->size - 1;
    red_int_loc* ai = (red_int_loc*)conf_alloc((size_t)n * sizeof(red_int_loc));
    red_int_loc* bi = (red_int_loc*)conf_alloc((size_t)n * sizeof(red_int_loc));
    red_double_loc* ad = (red_double_loc*)conf_alloc((size_t)n * sizeof(red_double_loc));
    red_double_loc* bd = (red_double_loc*)conf_alloc((size_t)n * sizeof(red_double_loc));
    for (maxloc = 0; maxloc < 2; maxloc++) {
        const MPI_Op op = maxloc ? MPI_MAXLOC : MPI_MINLOC;
        for (i = 0; i < n; i++) {
            ai[i].v = red_loc_value(t->rank, i);
            ai[i].loc = t->rank;
            ad[i].v = red_loc_value(t->rank, i) + 0.5;
            ad[i].loc = t->rank;
        }
        CONF_CALL(t, MPI_Allreduce(ai, bi, (int)n, MPI_2INT, op, MPI_COMM_WORLD));
        CONF_CALL(t, MPI_Reduce(ad, bd, (int)n, MPI_DOUBLE_INT, op, root, MPI_COMM_WORLD));
        for (i = 0; i < n; i++) {
            int v, loc;
            if (!red_sampled(i, n)) continue;
            red_loc_fold(maxloc, 0, t->size - 1, i, &v, &loc);
            CONF_CHECK(t, bi[i].v == v && bi[i].loc == loc, "Allreduce %s MPI_2INT n=%ld: element %d is (%d,%d)",
                       maxloc ? "MAXLOC" : "MINLOC", n, i, bi[i].v, bi[i].loc);
            if (t->rank == root)
                CONF_CHECK(t, bd[i].v == v + 0.5 && bd[i].loc == loc, "Reduce %s MPI_DOUBLE_INT n=%ld: element %d",
                           maxloc ? "MAXLOC" : "MINLOC", n, i);
        }
    }
    free(ai);
    free(bi);
    free(ad);
    free(bd);
}

static void user_ops(conf_t* t, long n) {
    const int roots[] = {0, t->size / 2, t->size - 1};
    MPI_Op seq, sum;
    MPI_Datatype triple;
    int* in = (int*)conf_alloc((size_t)n * 3 * sizeof(int));
    int* out = (int*)conf_alloc((size_t)n * 3 * sizeof(int));
    long i;
    int k;
    MPI_Type_contiguous(3, MPI_INT, &triple);
    MPI_Type_commit(&triple);
    MPI_Op_create(red_sequence_op, 0, &seq);
    MPI_Op_create(red_sum_op, 1, &sum);
    red_sequence_fill(t->rank, in, n);
    CONF_CALL(t, MPI_Allreduce(in, out, (int)n, triple, seq, MPI_COMM_WORLD));
    CONF_CHECK(t, red_sequence_is(out, n, 0, t->size - 1), "Allreduce non-commutative n=%ld: out of order", n);
    memcpy(out, in, (size_t)n * 3 * sizeof(int));
    CONF_CALL(t, MPI_Allreduce(MPI_IN_PLACE, out, (int)n, triple, seq, MPI_COMM_WORLD));
    CONF_CHECK(t, red_sequence_is(out, n, 0, t->size - 1), "Allreduce in place non-commutative n=%ld", n);
    for (k = 0; k < 3; k++) {
        const int root = roots[k];
        if (k > 0 && root == roots[k - 1]) continue;
        memset(out, 0, (size_t)n * 3 * sizeof(int));
        CONF_CALL(t, MPI_Reduce(in, out, (int)n, triple, seq, root, MPI_COMM_WORLD));
        if (t->rank == root)
            CONF_CHECK(t, red_sequence_is(out, n, 0, t->size - 1), "Reduce non-commutative root %d n=%ld", root, n);
        if (t->rank == root) memcpy(out, in, (size_t)n * 3 * sizeof(int));
        CONF_CALL(t, MPI_Reduce(t->rank == root ? MPI_IN_PLACE : in, out, (int)n, triple, seq, root, MPI_COMM_WORLD));
        if (t->rank == root)
            CONF_CHECK(t, red_sequence_is(out, n, 0, t->size - 1), "Reduce in place non-commutative root %d", root);
    }
    for (i = 0; i < n; i++) in[i] = t->rank + (int)i;
    CONF_CALL(t, MPI_Allreduce(in, out, (int)n, MPI_INT, sum, MPI_COMM_WORLD));
    for (i = 0; i < n; i++)
        if (out[i] != t->size * (t->size - 1) / 2 + t->size * (int)i) {
            conf_fail(t, "Allreduce commutative user op n=%ld: element %ld is %d", n, i, out[i]);
            break;
        }
    MPI_Op_free(&seq);
    MPI_Op_free(&sum);
    MPI_Type_free(&triple);
    free(in);
    free(out);
}

static void errors(conf_t* t) {
    int x = 1, y = 0, rc, cls = 0;
    rc = MPI_Allreduce(&x, &y, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    CONF_CHECK(t, cls == MPI_ERR_OP, "MPI_OP_NULL: expected MPI_ERR_OP, got %d", rc);
    cls = 0;
    rc = MPI_Reduce(&x, &y, 1, MPI_INT, MPI_MINLOC, 0, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    CONF_CHECK(t, cls == MPI_ERR_OP, "MPI_MINLOC on MPI_INT: expected MPI_ERR_OP, got %d", rc);
    cls = 0;
    rc = MPI_Reduce(&x, &y, 1, MPI_INT, MPI_SUM, -1, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    CONF_CHECK(t, cls == MPI_ERR_ROOT, "root -1: expected MPI_ERR_ROOT, got %d", rc);
    y = 5;
    CONF_CALL(t, MPI_Allreduce(&x, &y, 0, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    CONF_CHECK(t, y == 5, "count 0 changed the receive buffer");
}

int main(int argc, char** argv) {
    conf_t t;
    const long counts[] = {3, 3000};
    int c, o, ty;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_reduce");
    for (c = 0; c < 2; c++) {
        for (ty = 0; ty < R_TYPES; ty++)
            for (o = 0; o < OP_COUNT; o++) {
                /* Long vectors: a few ops suffice to exercise the data paths. */
                if (!red_allowed(o, ty) || (c == 1 && o != OP_SUM && o != OP_MAX && o != OP_BXOR)) continue;
                predefined(&t, counts[c], o, ty);
            }
        locations(&t, counts[c]);
        user_ops(&t, counts[c]);
    }
    errors(&t);
    return conf_finish(&t);
}
