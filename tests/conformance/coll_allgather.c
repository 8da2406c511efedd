/* MPI_Allgather and MPI_Allgatherv: every datatype (with a gappy vector type), short and
 * long blocks (long ones take the ring path), MPI_IN_PLACE, v-variant with empty blocks
 * and gaps between blocks. */
#include "conformance.h"

static void uniform(conf_t* t, int ty, MPI_Datatype type, long n) {
    const size_t ext = conf_extent(ty);
    char* all = (char*)conf_alloc((size_t)t->size * n * ext);
    char* mine = (char*)conf_alloc((size_t)n * ext);
    long i;
    int r, inplace;
    for (inplace = 0; inplace < 2; inplace++) {
        conf_poison(ty, all, t->size * n);
        for (i = 0; i < n; i++)
            conf_put(ty, inplace ? all + (size_t)t->rank * n * ext : mine, i, conf_value(t->rank, i) + inplace);
        CONF_CALL(t, MPI_Allgather(inplace ? MPI_IN_PLACE : mine, (int)n, type, all, (int)n, type, MPI_COMM_WORLD));
        for (r = 0; r < t->size; r++)
            for (i = 0; i < n; i++)
                if (!conf_holds(ty, all, r * n + i, conf_value(r, i) + inplace)) {
                    conf_fail(t, "Allgather%s %s n=%ld: block %d element %ld", inplace ? " in place" : "",
                              conf_type_name(ty), n, r, i);
                    r = t->size;
                    break;
                }
    }
    free(all);
    free(mine);
}

static void varying(conf_t* t, int ty, MPI_Datatype type, int unit) {
    const size_t ext = conf_extent(ty);
    int* counts = (int*)conf_alloc((size_t)t->size * sizeof(int));
    int* displs = (int*)conf_alloc((size_t)t->size * sizeof(int));
    long total = 0, i;
    char *all, *mine;
    int r, inplace;
    for (r = 0; r < t->size; r++) {
        counts[r] = (r + 1) % 3 * unit;
        displs[r] = (int)total;
        total += counts[r] + 1;
    }
    all = (char*)conf_alloc((size_t)total * ext);
    mine = (char*)conf_alloc((size_t)(2 * unit + 1) * ext);
    for (inplace = 0; inplace < 2; inplace++) {
        conf_poison(ty, all, total);
        for (i = 0; i < counts[t->rank]; i++)
            conf_put(ty, inplace ? all + (size_t)displs[t->rank] * ext : mine, i, conf_value(t->rank, i) + inplace);
        CONF_CALL(t, MPI_Allgatherv(inplace ? MPI_IN_PLACE : mine, counts[t->rank], type, all, counts, displs, type,
                                    MPI_COMM_WORLD));
        for (r = 0; r < t->size; r++) {
            for (i = 0; i < counts[r]; i++)
                if (!conf_holds(ty, all, displs[r] + i, conf_value(r, i) + inplace)) {
                    conf_fail(t, "Allgatherv%s %s: block %d element %ld", inplace ? " in place" : "",
                              conf_type_name(ty), r, i);
                    break;
                }
            CONF_CHECK(t, conf_is_poison(ty, all, displs[r] + counts[r]), "Allgatherv wrote between blocks");
        }
    }
    free(counts);
    free(displs);
    free(all);
    free(mine);
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Datatype gappy;
    int ty, c;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_allgather");
    gappy = conf_gappy_type();
    {
        /* Every rank holds p blocks: keep the long case near 20000 elements in all (which
         * takes the ring beyond 50000 bytes); beyond 64 ranks skip the short middle case
         * and try the v-variant with MPI_INT and the vector type only. */
        const int large = t.size > 64;
        const long counts[] = {1, 3, t.size <= 1250 ? 20000 / t.size : 16};
        for (ty = 0; ty < CONF_TYPES; ty++) {
            for (c = 0; c < 3; c++)
                if (!(large && c == 1)) uniform(&t, ty, conf_type(ty, gappy), counts[c]);
            if (!large || ty == CONF_INT || ty == CONF_GAPPY) varying(&t, ty, conf_type(ty, gappy), large ? 2 : 300);
        }
    }
    MPI_Type_free(&gappy);
    return conf_finish(&t);
}
