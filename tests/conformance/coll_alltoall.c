/* MPI_Alltoall, MPI_Alltoallv, MPI_Alltoallw: every datatype (with a gappy vector type),
 * short and long blocks (Bruck, linear and pairwise paths), MPI_IN_PLACE, v-variant with
 * empty blocks and gaps, w-variant mixing MPI_INT and the vector type per peer with byte
 * displacements (sender and receiver types differ, signatures match). */
#include "conformance.h"

/* Element i of the block rank s sends to rank d. */
static long pair_value(int s, int d, long i) { return conf_value(s, i) + d * 131L; }

static void uniform(conf_t* t, int ty, MPI_Datatype type, long n) {
    const size_t ext = conf_extent(ty);
    char* in = (char*)conf_alloc((size_t)t->size * n * ext);
    char* out = (char*)conf_alloc((size_t)t->size * n * ext);
    long i;
    int r, inplace;
    for (inplace = 0; inplace < 2; inplace++) {
        char* src = inplace ? out : in;
        conf_poison(ty, out, t->size * n);
        for (r = 0; r < t->size; r++)
            for (i = 0; i < n; i++) conf_put(ty, src, r * n + i, pair_value(t->rank, r, i) + inplace);
        CONF_CALL(t, MPI_Alltoall(inplace ? MPI_IN_PLACE : in, (int)n, type, out, (int)n, type, MPI_COMM_WORLD));
        for (r = 0; r < t->size; r++)
            for (i = 0; i < n; i++)
                if (!conf_holds(ty, out, r * n + i, pair_value(r, t->rank, i) + inplace)) {
                    conf_fail(t, "Alltoall%s %s n=%ld: block from %d element %ld", inplace ? " in place" : "",
                              conf_type_name(ty), n, r, i);
                    r = t->size;
                    break;
                }
    }
    free(in);
    free(out);
}

/* Rank s sends (s + d) % 3 * unit elements to d: symmetric, so the counts a rank sends
 * are the counts it receives. One spare element between blocks. */
static void varying(conf_t* t, int ty, MPI_Datatype type, int unit) {
    const size_t ext = conf_extent(ty);
    int* counts = (int*)conf_alloc((size_t)t->size * sizeof(int));
    int* displs = (int*)conf_alloc((size_t)t->size * sizeof(int));
    long total = 0, i;
    char *in, *out;
    int r, inplace;
    for (r = 0; r < t->size; r++) {
        counts[r] = (t->rank + r) % 3 * unit;
        displs[r] = (int)total;
        total += counts[r] + 1;
    }
    in = (char*)conf_alloc((size_t)total * ext);
    out = (char*)conf_alloc((size_t)total * ext);
    for (inplace = 0; inplace < 2; inplace++) {
        char* src = inplace ? out : in;
        conf_poison(ty, out, total);
        for (r = 0; r < t->size; r++)
            for (i = 0; i < counts[r]; i++) conf_put(ty, src, displs[r] + i, pair_value(t->rank, r, i) + inplace);
        CONF_CALL(t, MPI_Alltoallv(inplace ? MPI_IN_PLACE : in, counts, displs, type, out, counts, displs, type,
                                   MPI_COMM_WORLD));
        for (r = 0; r < t->size; r++) {
            for (i = 0; i < counts[r]; i++)
                if (!conf_holds(ty, out, displs[r] + i, pair_value(r, t->rank, i) + inplace)) {
                    conf_fail(t, "Alltoallv%s %s: block from %d element %ld", inplace ? " in place" : "",
                              conf_type_name(ty), r, i);
                    break;
                }
            CONF_CHECK(t, conf_is_poison(ty, out, displs[r] + counts[r]), "Alltoallv wrote between blocks");
        }
    }
    free(counts);
    free(displs);
    free(in);
    free(out);
}

/* The k-th int of a block laid out as `gappy` elements or as plain ints. */
static int* int_at(char* block, int gappy, long k) {
    return gappy ? (int*)block + (k / 2) * CONF_GAPPY_INTS + (k % 2 ? 3 : 0) : (int*)block + k;
}

static void typed(conf_t* t, MPI_Datatype gappy, int pairs) {
    const int p = t->size;
    int* counts = (int*)conf_alloc((size_t)p * sizeof(int));
    int* displs = (int*)conf_alloc((size_t)p * sizeof(int));
    MPI_Datatype* types = (MPI_Datatype*)conf_alloc((size_t)p * sizeof(MPI_Datatype));
    int* rcounts = (int*)conf_alloc((size_t)p * sizeof(int));
    int* rdispls = (int*)conf_alloc((size_t)p * sizeof(int));
    MPI_Datatype* rtypes = (MPI_Datatype*)conf_alloc((size_t)p * sizeof(MPI_Datatype));
    long sbytes = 0, rbytes = 0, k;
    char *in, *out;
    int r, inplace;
    /* Send to odd ranks as gappy elements, to even ones as ints; receive from even
     * ranks as gappy, from odd ones as ints. Every block is 2 * pairs ints. */
    for (r = 0; r < p; r++) {
        types[r] = r % 2 ? gappy : MPI_INT;
        counts[r] = r % 2 ? pairs : 2 * pairs;
        displs[r] = (int)sbytes;
        sbytes += (r % 2 ? pairs * CONF_GAPPY_INTS : 2 * pairs) * (long)sizeof(int) + 16;
        rtypes[r] = r % 2 ? MPI_INT : gappy;
        rcounts[r] = r % 2 ? 2 * pairs : pairs;
        rdispls[r] = (int)rbytes;
        rbytes += (r % 2 ? 2 * pairs : pairs * CONF_GAPPY_INTS) * (long)sizeof(int) + 16;
    }
    in = (char*)conf_alloc((size_t)sbytes);
    out = (char*)conf_alloc((size_t)rbytes);
    for (inplace = 0; inplace < 2; inplace++) {
        memset(out, 0xee, (size_t)rbytes);
        for (r = 0; r < p; r++) {
            if (r % 2 == 0)
                for (k = 0; k < pairs * CONF_GAPPY_INTS; k++) ((int*)(out + rdispls[r]))[k] = -7;
            for (k = 0; k < 2 * pairs; k++) {
                if (inplace) *int_at(out + rdispls[r], r % 2 == 0, k) = (int)pair_value(t->rank, r, k);
                else *int_at(in + displs[r], r % 2, k) = (int)pair_value(t->rank, r, k);
            }
        }
        if (inplace) {
            /* In place, the data to send is in the receive buffer, laid out by rtypes: the
             * peers then receive it with their own types, so the signatures still match. */
            CONF_CALL(t, MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, out, rcounts, rdispls, rtypes, MPI_COMM_WORLD));
        } else {
            CONF_CALL(t, MPI_Alltoallw(in, counts, displs, types, out, rcounts, rdispls, rtypes, MPI_COMM_WORLD));
        }
        for (r = 0; r < p; r++) {
            char* block = out + rdispls[r];
            for (k = 0; k < 2 * pairs; k++)
                if (*int_at(block, r % 2 == 0, k) != (int)pair_value(r, t->rank, k)) {
                    conf_fail(t, "Alltoallw%s: block from %d int %ld is %d", inplace ? " in place" : "", r, k,
                              *int_at(block, r % 2 == 0, k));
                    break;
                }
            if (r % 2 == 0)
                for (k = 0; k < pairs; k++)
                    CONF_CHECK(t, ((int*)block)[k * CONF_GAPPY_INTS + 1] == -7, "Alltoallw wrote into a gap");
        }
    }
    free(counts);
    free(displs);
    free(types);
    free(rcounts);
    free(rdispls);
    free(rtypes);
    free(in);
    free(out);
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Datatype gappy;
    int ty, c;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_alltoall");
    gappy = conf_gappy_type();
    {
        /* Every rank holds 2p blocks and p^2 messages move per call: beyond 64 ranks the
         * long case stays near 8000 elements per rank, and only MPI_INT and the vector
         * type are tried. */
        const int large = t.size > 64;
        const long counts[] = {1, 3, large ? 8 : 8000 / t.size};
        for (ty = 0; ty < CONF_TYPES; ty++) {
            if (large && ty != CONF_INT && ty != CONF_GAPPY) continue;
            for (c = large ? 1 : 0; c < 3; c++) uniform(&t, ty, conf_type(ty, gappy), counts[c]);
            varying(&t, ty, conf_type(ty, gappy), large ? 1 : 100);
        }
        typed(&t, gappy, 1);
        if (!large) typed(&t, gappy, 200);
    }
    MPI_Type_free(&gappy);
    return conf_finish(&t);
}
