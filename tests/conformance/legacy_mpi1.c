/* The MPI-1 names that MPI-3.0 removed or MPI-2 deprecated, as a program built against
 * older headers calls them: MPI_Address, MPI_Type_extent / lb / ub / struct / hvector /
 * hindexed with the MPI_LB and MPI_UB markers (also in MPI_Type_create_struct),
 * MPI_Keyval_create / free and MPI_Attr_put / get / delete with MPI-1 callbacks
 * (MPI_DUP_FN, MPI_NULL_COPY_FN, a delete callback that must run), MPI_Errhandler_create /
 * set / get on MPI_COMM_WORLD and a duplicate; known answers on every rank, types used in a
 * ring exchange (also from and into MPI_BOTTOM with MPI_Address's absolute addresses), and
 * the error classes of bad arguments under MPI_ERRORS_RETURN.
 * Runs unchanged on an MPI library that still provides these names (Open MPI 4.1). */

/* As with older headers: the removed prototypes, not Open MPI 4.1's compile-time errors. */
#define OMPI_OMIT_MPI1_COMPAT_DECLS 0
#include <stddef.h>

#include "conformance.h"

/* Calling deprecated names is the point here. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* Open MPI's removed marker types, which its mpi.h only names when the library was
 * configured with MPI-1 compatibility; the objects are always in the library. */
#ifndef MPI_LB
extern struct ompi_predefined_datatype_t ompi_mpi_lb, ompi_mpi_ub;
#define MPI_LB ((MPI_Datatype)(void*)&ompi_mpi_lb)
#define MPI_UB ((MPI_Datatype)(void*)&ompi_mpi_ub)
#endif

/* lb, ub, extent and size of `type` through the MPI-1 calls, against the expected values
 * and MPI_Type_get_extent. */
static void check_bounds(conf_t* t, const char* what, MPI_Datatype type, MPI_Aint lb, MPI_Aint ub, int size) {
    MPI_Aint got_lb = -1, got_ub = -1, extent = -1, lb2 = -1, extent2 = -1;
    int got_size = -1;
    CONF_CALL(t, MPI_Type_lb(type, &got_lb));
    CONF_CALL(t, MPI_Type_ub(type, &got_ub));
    CONF_CALL(t, MPI_Type_extent(type, &extent));
    CONF_CALL(t, MPI_Type_size(type, &got_size));
    CONF_CALL(t, MPI_Type_get_extent(type, &lb2, &extent2));
    CONF_CHECK(t, got_lb == lb && got_ub == ub && extent == ub - lb && got_size == size,
               "%s: lb %ld ub %ld extent %ld size %d, expected lb %ld ub %ld extent %ld size %d", what, (long)got_lb,
               (long)got_ub, (long)extent, got_size, (long)lb, (long)ub, (long)(ub - lb), size);
    CONF_CHECK(t, lb2 == got_lb && extent2 == extent, "%s: MPI_Type_get_extent gives lb %ld extent %ld", what,
               (long)lb2, (long)extent2);
}

/* Addresses: differences are the C layout's offsets, as MPI_Get_address gives them. */
struct pair_record {
    int a;
    double b[3];
};

static void addresses(conf_t* t) {
    struct pair_record s;
    MPI_Aint a = 0, b2 = 0, modern = 0;
    CONF_CALL(t, MPI_Address(&s.a, &a));
    CONF_CALL(t, MPI_Address(&s.b[2], &b2));
    CONF_CALL(t, MPI_Get_address(&s.b[2], &modern));
    CONF_CHECK(t, b2 - a == (MPI_Aint)(offsetof(struct pair_record, b) + 2 * sizeof(double)),
               "MPI_Address difference %ld, expected %ld", (long)(b2 - a),
               (long)(offsetof(struct pair_record, b) + 2 * sizeof(double)));
    CONF_CHECK(t, modern == b2, "MPI_Address %ld but MPI_Get_address %ld", (long)b2, (long)modern);
}

/* One ring step of `count` elements of `type` between buffers of `bytes` bytes (data at
 * the given byte offsets must arrive from the left neighbour; the rest keeps its fill). */
static void ring_type(conf_t* t, const char* what, MPI_Datatype type, int count, size_t bytes, const int* offsets,
                      int n_offsets) {
    const int to = (t->rank + 1) % t->size, from = (t->rank + t->size - 1) % t->size;
    unsigned char* send = (unsigned char*)conf_alloc(bytes);
    unsigned char* recv = (unsigned char*)conf_alloc(bytes);
    size_t i;
    int k, wrong = 0;
    for (i = 0; i < bytes; i++) send[i] = (unsigned char)(t->rank * 31 + i);
    memset(recv, 0xa5, bytes);
    CONF_CALL(t, MPI_Sendrecv(send, count, type, to, 21, recv, count, type, from, 21, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE));
    for (i = 0; i < bytes; i++) {
        int data = 0;
        for (k = 0; k < n_offsets; k += 2)
            if ((int)i >= offsets[k] && (int)i < offsets[k] + offsets[k + 1]) data = 1;
        if (data ? recv[i] != (unsigned char)(from * 31 + i) : recv[i] != 0xa5) wrong++;
    }
    CONF_CHECK(t, wrong == 0, "%s: %d bytes wrong after the ring exchange", what, wrong);
    free(send);
    free(recv);
}

static void datatypes(conf_t* t) {
    int blocks[4] = {1, 1, 1, 1};
    MPI_Aint displs[4] = {-4, 0, 8, 40};
    MPI_Datatype types[4] = {MPI_LB, MPI_INT, MPI_DOUBLE, MPI_UB};
    MPI_Datatype legacy, modern, hv, hi, padded;
    check_bounds(t, "MPI_INT", MPI_INT, 0, (MPI_Aint)sizeof(int), (int)sizeof(int));
    check_bounds(t, "MPI_DOUBLE", MPI_DOUBLE, 0, (MPI_Aint)sizeof(double), (int)sizeof(double));

    /* {MPI_LB at -4, int at 0, double at 8, MPI_UB at 40}: the markers set the bounds. */
    CONF_CALL(t, MPI_Type_struct(4, blocks, displs, types, &legacy));
    CONF_CALL(t, MPI_Type_commit(&legacy));
    check_bounds(t, "MPI_Type_struct with MPI_LB/MPI_UB", legacy, -4, 40, (int)(sizeof(int) + sizeof(double)));
    CONF_CALL(t, MPI_Type_create_struct(4, blocks, displs, types, &modern));
    CONF_CALL(t, MPI_Type_commit(&modern));
    check_bounds(t, "MPI_Type_create_struct with MPI_LB/MPI_UB", modern, -4, 40, (int)(sizeof(int) + sizeof(double)));
    {
        /* Two elements 44 bytes apart: the int at 0 and 44, the double at 8 and 52. */
        const int offsets[8] = {0, 4, 8, 8, 44, 4, 52, 8};
        ring_type(t, "struct with MPI_LB/MPI_UB", legacy, 2, 96, offsets, 8);
    }
    MPI_Type_free(&legacy);
    MPI_Type_free(&modern);

    /* {int at 0, MPI_UB at 32}: three elements land 32 bytes apart. */
    {
        int b[2] = {1, 1};
        MPI_Aint d[2] = {0, 32};
        MPI_Datatype ty[2] = {MPI_INT, MPI_UB};
        const int offsets[6] = {0, 4, 32, 4, 64, 4};
        CONF_CALL(t, MPI_Type_struct(2, b, d, ty, &padded));
        CONF_CALL(t, MPI_Type_commit(&padded));
        check_bounds(t, "MPI_Type_struct with MPI_UB", padded, 0, 32, (int)sizeof(int));
        ring_type(t, "struct with MPI_UB, 3 elements", padded, 3, 100, offsets, 6);
        MPI_Type_free(&padded);
    }

    /* MPI_Type_hvector(3, 1, 16 bytes, MPI_DOUBLE): doubles at 0, 16, 32. */
    {
        const int offsets[6] = {0, 8, 16, 8, 32, 8};
        CONF_CALL(t, MPI_Type_hvector(3, 1, 16, MPI_DOUBLE, &hv));
        CONF_CALL(t, MPI_Type_commit(&hv));
        check_bounds(t, "MPI_Type_hvector", hv, 0, 40, 3 * (int)sizeof(double));
        ring_type(t, "hvector", hv, 1, 48, offsets, 6);
        MPI_Type_free(&hv);
    }
    /* MPI_Type_hindexed({2, 1}, {4, 24}, MPI_INT): ints at 4, 8 and 24. */
    {
        int b[2] = {2, 1};
        MPI_Aint d[2] = {4, 24};
        const int offsets[4] = {4, 8, 24, 4};
        CONF_CALL(t, MPI_Type_hindexed(2, b, d, MPI_INT, &hi));
        CONF_CALL(t, MPI_Type_commit(&hi));
        check_bounds(t, "MPI_Type_hindexed", hi, 4, 28, 3 * (int)sizeof(int));
        ring_type(t, "hindexed", hi, 1, 32, offsets, 4);
        MPI_Type_free(&hi);
    }

    /* A struct described with MPI_Address differences, the MPI-1 idiom. */
    {
        struct {
            char tag;
            double value;
            int index[2];
        } rec[2], got[2];
        int b[3] = {1, 1, 2}, i;
        MPI_Aint base, d[3];
        MPI_Datatype ty[3] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, rt;
        const int to = (t->rank + 1) % t->size, from = (t->rank + t->size - 1) % t->size;
        MPI_Address(&rec[0], &base);
        MPI_Address(&rec[0].tag, &d[0]);
        MPI_Address(&rec[0].value, &d[1]);
        MPI_Address(&rec[0].index, &d[2]);
        for (i = 0; i < 3; i++) d[i] -= base;
        CONF_CALL(t, MPI_Type_struct(3, b, d, ty, &rt));
        CONF_CALL(t, MPI_Type_commit(&rt));
        {
            MPI_Aint extent = 0;
            MPI_Type_extent(rt, &extent);
            CONF_CHECK(t, extent == (MPI_Aint)sizeof rec[0], "record type extent %ld, sizeof %ld", (long)extent,
                       (long)sizeof rec[0]);
        }
        for (i = 0; i < 2; i++) {
            rec[i].tag = (char)('a' + t->rank % 26);
            rec[i].value = t->rank + 0.5 * i;
            rec[i].index[0] = t->rank * 10 + i;
            rec[i].index[1] = -t->rank - i;
        }
        memset(got, 0, sizeof got);
        CONF_CALL(t, MPI_Sendrecv(rec, 2, rt, to, 22, got, 2, rt, from, 22, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
        for (i = 0; i < 2; i++)
            CONF_CHECK(t, got[i].tag == (char)('a' + from % 26) && got[i].value == from + 0.5 * i &&
                              got[i].index[0] == from * 10 + i && got[i].index[1] == -from - i,
                       "record %d from rank %d arrived wrong", i, from);
        MPI_Type_free(&rt);
        /* Absolute addresses from MPI_Address, sent from and received into MPI_BOTTOM. */
        {
            MPI_Datatype out, in;
            memset(got, 0, sizeof got);
            MPI_Address(&rec[1].tag, &d[0]);
            MPI_Address(&rec[1].value, &d[1]);
            MPI_Address(&rec[1].index, &d[2]);
            CONF_CALL(t, MPI_Type_struct(3, b, d, ty, &out));
            MPI_Address(&got[1].tag, &d[0]);
            MPI_Address(&got[1].value, &d[1]);
            MPI_Address(&got[1].index, &d[2]);
            CONF_CALL(t, MPI_Type_struct(3, b, d, ty, &in));
            CONF_CALL(t, MPI_Type_commit(&out));
            CONF_CALL(t, MPI_Type_commit(&in));
            CONF_CALL(t, MPI_Sendrecv(MPI_BOTTOM, 1, out, to, 23, MPI_BOTTOM, 1, in, from, 23, MPI_COMM_WORLD,
                                      MPI_STATUS_IGNORE));
            CONF_CHECK(t, got[1].tag == (char)('a' + from % 26) && got[1].value == from + 0.5 &&
                              got[1].index[0] == from * 10 + 1 && got[1].index[1] == -from - 1 && got[0].tag == 0,
                       "record sent from and received into MPI_BOTTOM arrived wrong");
            MPI_Type_free(&out);
            MPI_Type_free(&in);
        }
    }

    /* Bad arguments. */
    {
        MPI_Aint x = 0;
        MPI_Datatype out;
        CONF_EXPECT_CLASS(t, MPI_ERR_TYPE, MPI_Type_extent(MPI_DATATYPE_NULL, &x));
        CONF_EXPECT_CLASS(t, MPI_ERR_TYPE, MPI_Type_lb(MPI_DATATYPE_NULL, &x));
        CONF_EXPECT_CLASS(t, MPI_ERR_ARG, MPI_Type_ub(MPI_INT, NULL));
        CONF_EXPECT_CLASS(t, MPI_ERR_TYPE, MPI_Type_hvector(2, 1, 8, MPI_DATATYPE_NULL, &out));
        CONF_EXPECT_CLASS(t, MPI_ERR_COUNT, MPI_Type_struct(-1, blocks, displs, types, &out));
    }
}

/* Attribute state of one rank, reached through extra_state (no globals). */
typedef struct {
    int deletes;
    void* last_deleted;
    int last_keyval;
} deletions_t;

static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
    deletions_t* d = (deletions_t*)extra;
    (void)comm;
    d->deletes++;
    d->last_deleted = value;
    d->last_keyval = keyval;
    return MPI_SUCCESS;
}

static void attributes(conf_t* t) {
    deletions_t dels = {0, NULL, 0};
    int copied = 0, kept = 0, flag = -1, first = 1, second = 2, *tag_ub = NULL;
    void* got = NULL;
    MPI_Comm dup;
    /* MPI_DUP_FN: a duplicate gets the attribute; MPI_NULL_COPY_FN: it does not. */
    CONF_CALL(t, MPI_Keyval_create(MPI_DUP_FN, count_delete, &copied, &dels));
    CONF_CALL(t, MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &kept, NULL));
    CONF_CALL(t, MPI_Attr_get(MPI_COMM_WORLD, copied, &got, &flag));
    CONF_CHECK(t, flag == 0, "MPI_Attr_get before MPI_Attr_put: flag %d", flag);
    CONF_CALL(t, MPI_Attr_put(MPI_COMM_WORLD, copied, &first));
    CONF_CALL(t, MPI_Attr_put(MPI_COMM_WORLD, kept, &second));
    CONF_CALL(t, MPI_Attr_get(MPI_COMM_WORLD, copied, &got, &flag));
    CONF_CHECK(t, flag == 1 && got == &first, "MPI_Attr_get: flag %d, value %p instead of %p", flag, got,
               (void*)&first);
    CONF_CALL(t, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CONF_CALL(t, MPI_Attr_get(dup, copied, &got, &flag));
    CONF_CHECK(t, flag == 1 && got == &first, "MPI_DUP_FN attribute on the duplicate: flag %d", flag);
    CONF_CALL(t, MPI_Attr_get(dup, kept, &got, &flag));
    CONF_CHECK(t, flag == 0, "MPI_NULL_COPY_FN attribute reached the duplicate");
    /* Replacing a value deletes the old one; deleting runs the callback with the value. */
    CONF_CALL(t, MPI_Attr_put(MPI_COMM_WORLD, copied, &second));
    CONF_CHECK(t, dels.deletes == 1 && dels.last_deleted == &first && dels.last_keyval == copied,
               "replacing an attribute: %d delete calls", dels.deletes);
    CONF_CALL(t, MPI_Attr_delete(MPI_COMM_WORLD, copied));
    CONF_CHECK(t, dels.deletes == 2 && dels.last_deleted == &second, "MPI_Attr_delete: %d delete calls",
               dels.deletes);
    CONF_CALL(t, MPI_Attr_get(MPI_COMM_WORLD, copied, &got, &flag));
    CONF_CHECK(t, flag == 0, "MPI_Attr_get after MPI_Attr_delete: flag %d", flag);
    /* Freeing the duplicate deletes its copy. */
    CONF_CALL(t, MPI_Comm_free(&dup));
    CONF_CHECK(t, dels.deletes == 3 && dels.last_deleted == &first, "MPI_Comm_free of the duplicate: %d delete calls",
               dels.deletes);
    CONF_CALL(t, MPI_Attr_delete(MPI_COMM_WORLD, kept));
    CONF_CALL(t, MPI_Keyval_free(&copied));
    CONF_CALL(t, MPI_Keyval_free(&kept));
    CONF_CHECK(t, copied == MPI_KEYVAL_INVALID && kept == MPI_KEYVAL_INVALID, "MPI_Keyval_free left the keyval");
    /* A predefined attribute. */
    CONF_CALL(t, MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
    CONF_CHECK(t, flag == 1 && tag_ub && *tag_ub >= 32767, "MPI_TAG_UB through MPI_Attr_get");
    CONF_EXPECT_CLASS(t, MPI_ERR_COMM, MPI_Attr_put(MPI_COMM_NULL, MPI_TAG_UB, &first));
}

/* The MPI-1 handler: records the error class in the communicator's name. */
static void name_the_error(MPI_Comm* comm, int* code, ...) {
    char name[64];
    int cls = *code;
    MPI_Error_class(*code, &cls);
    snprintf(name, sizeof name, "handled class %d", cls);
    MPI_Comm_set_name(*comm, name);
}

static void errhandlers(conf_t* t) {
    MPI_Errhandler h = MPI_ERRHANDLER_NULL, mine = MPI_ERRHANDLER_NULL;
    MPI_Comm dup;
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0, x = 0, rc;
    CONF_CALL(t, MPI_Errhandler_get(MPI_COMM_WORLD, &h));
    CONF_CHECK(t, h == MPI_ERRORS_RETURN, "MPI_Errhandler_get(MPI_COMM_WORLD) is not what conf_init set");
    CONF_CALL(t, MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    CONF_CALL(t, MPI_Errhandler_get(MPI_COMM_WORLD, &h));
    CONF_CHECK(t, h == MPI_ERRORS_ARE_FATAL, "MPI_Errhandler_set(MPI_ERRORS_ARE_FATAL) did not stick");
    CONF_CALL(t, MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    /* A duplicate inherits the handler; a handler set on it stays with it. */
    CONF_CALL(t, MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CONF_CALL(t, MPI_Errhandler_get(dup, &h));
    CONF_CHECK(t, h == MPI_ERRORS_RETURN, "the duplicate did not inherit MPI_ERRORS_RETURN");
    CONF_CALL(t, MPI_Errhandler_create(name_the_error, &mine));
    CONF_CALL(t, MPI_Errhandler_set(dup, mine));
    CONF_CALL(t, MPI_Errhandler_get(dup, &h));
    CONF_CHECK(t, h == mine, "MPI_Errhandler_get(dup) is not the handler set");
    CONF_CALL(t, MPI_Errhandler_get(MPI_COMM_WORLD, &h));
    CONF_CHECK(t, h == MPI_ERRORS_RETURN, "setting the duplicate's handler changed MPI_COMM_WORLD's");
    CONF_CALL(t, MPI_Comm_set_name(dup, "untouched"));
    rc = MPI_Send(&x, 1, MPI_INT, t->size + 3, 0, dup); /* invalid rank: the handler runs, then returns */
    CONF_CHECK(t, conf_error_class(rc) == MPI_ERR_RANK, "MPI_Send to an invalid rank on dup: class %d",
               conf_error_class(rc));
    CONF_CALL(t, MPI_Comm_get_name(dup, name, &len));
    {
        char expected[64];
        snprintf(expected, sizeof expected, "handled class %d", MPI_ERR_RANK);
        CONF_CHECK(t, strcmp(name, expected) == 0, "the MPI_Errhandler_create handler did not run (name \"%s\")", name);
    }
    CONF_CALL(t, MPI_Errhandler_free(&mine));
    CONF_CHECK(t, mine == MPI_ERRHANDLER_NULL, "MPI_Errhandler_free left the handle");
    CONF_CALL(t, MPI_Comm_free(&dup));
    CONF_EXPECT_CLASS(t, MPI_ERR_COMM, MPI_Errhandler_set(MPI_COMM_NULL, MPI_ERRORS_RETURN));
    CONF_EXPECT_CLASS(t, MPI_ERR_COMM, MPI_Errhandler_get(MPI_COMM_NULL, &h));
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Init(&argc, &argv);
    conf_init(&t, "legacy_mpi1");
    addresses(&t);
    datatypes(&t);
    attributes(&t);
    errhandlers(&t);
    return conf_finish(&t);
}
