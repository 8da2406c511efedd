/* MPI_Gather, MPI_Gatherv, MPI_Scatter, MPI_Scatterv: every datatype (with a gappy vector
 * type whose gaps must survive), short and long blocks, roots first, middle and last,
 * MPI_IN_PLACE at the root, differing send and receive types of the same signature,
 * v-variants with empty blocks and gaps between blocks. */
#include "conformance.h"

/* v-layout: rank i has (i + shift) % 3 * unit elements; one spare element between blocks. */
static void layout(int size, int unit, int shift, int* counts, int* displs, long* total) {
    int i;
    long at = 0;
    for (i = 0; i < size; i++) {
        counts[i] = (i + shift) % 3 * unit;
        displs[i] = (int)at;
        at += counts[i] + 1;
    }
    *total = at;
}

static void uniform(conf_t* t, int ty, MPI_Datatype type, long n, int root) {
    const size_t ext = conf_extent(ty);
    /* Only the root holds all blocks (MPI ignores the argument elsewhere). */
    char* all = t->rank == root ? (char*)conf_alloc((size_t)t->size * n * ext) : NULL;
    char* mine = (char*)conf_alloc((size_t)n * ext);
    long i;
    int r, inplace;
    for (inplace = 0; inplace < 2; inplace++) {
        const int root_in_place = inplace && t->rank == root;
        /* Gather */
        if (all) conf_poison(ty, all, t->size * n);
        for (i = 0; i < n; i++) conf_put(ty, root_in_place ? all + (size_t)root * n * ext : mine, i, conf_value(t->rank, i));
        CONF_CALL(t, MPI_Gather(root_in_place ? MPI_IN_PLACE : mine, (int)n, type, all, (int)n, type, root,
                                MPI_COMM_WORLD));
        if (t->rank == root)
            for (r = 0; r < t->size; r++)
                for (i = 0; i < n; i++)
                    if (!conf_holds(ty, all, r * n + i, conf_value(r, i))) {
                        conf_fail(t, "Gather%s %s n=%ld root %d: block %d element %ld", inplace ? " in place" : "",
                                  conf_type_name(ty), n, root, r, i);
                        r = t->size;
                        break;
                    }
        /* Scatter */
        conf_poison(ty, mine, n);
        if (t->rank == root)
            for (r = 0; r < t->size; r++)
                for (i = 0; i < n; i++) conf_put(ty, all, r * n + i, conf_value(r, i) + 1);
        CONF_CALL(t, MPI_Scatter(all, (int)n, type, root_in_place ? MPI_IN_PLACE : mine, (int)n, type, root,
                                 MPI_COMM_WORLD));
        {
            const char* got = root_in_place ? all + (size_t)root * n * ext : mine;
            for (i = 0; i < n; i++)
                if (!conf_holds(ty, got, i, conf_value(t->rank, i) + 1)) {
                    conf_fail(t, "Scatter%s %s n=%ld root %d: element %ld", inplace ? " in place" : "",
                              conf_type_name(ty), n, root, i);
                    break;
                }
        }
    }
    free(all);
    free(mine);
}

static void varying(conf_t* t, int ty, MPI_Datatype type, int unit, int root) {
    const size_t ext = conf_extent(ty);
    int* counts = (int*)conf_alloc((size_t)t->size * sizeof(int));
    int* displs = (int*)conf_alloc((size_t)t->size * sizeof(int));
    long total, i;
    char *all, *mine;
    int r, inplace;
    layout(t->size, unit, root % 3, counts, displs, &total);
    all = t->rank == root ? (char*)conf_alloc((size_t)total * ext) : NULL;
    mine = (char*)conf_alloc((size_t)(2 * unit + 1) * ext);
    for (inplace = 0; inplace < 2; inplace++) {
        const int root_in_place = inplace && t->rank == root;
        const int n = counts[t->rank];
        if (all) conf_poison(ty, all, total);
        for (i = 0; i < n; i++)
            conf_put(ty, root_in_place ? all + (size_t)displs[root] * ext : mine, i, conf_value(t->rank, i));
        CONF_CALL(t, MPI_Gatherv(root_in_place ? MPI_IN_PLACE : mine, n, type, all, counts, displs, type, root,
                                 MPI_COMM_WORLD));
        if (t->rank == root)
            for (r = 0; r < t->size; r++) {
                for (i = 0; i < counts[r]; i++)
                    CONF_CHECK(t, conf_holds(ty, all, displs[r] + i, conf_value(r, i)),
                               "Gatherv %s root %d: block %d element %ld", conf_type_name(ty), root, r, i);
                CONF_CHECK(t, conf_is_poison(ty, all, displs[r] + counts[r]), "Gatherv wrote between blocks");
            }
        conf_poison(ty, mine, 2 * unit + 1);
        if (t->rank == root)
            for (r = 0; r < t->size; r++)
                for (i = 0; i < counts[r]; i++) conf_put(ty, all, displs[r] + i, conf_value(r, i) + 3);
        CONF_CALL(t, MPI_Scatterv(all, counts, displs, type, root_in_place ? MPI_IN_PLACE : mine, n, type, root,
                                  MPI_COMM_WORLD));
        {
            const char* got = root_in_place ? all + (size_t)displs[root] * ext : mine;
            for (i = 0; i < n; i++)
                CONF_CHECK(t, conf_holds(ty, got, i, conf_value(t->rank, i) + 3), "Scatterv %s root %d: element %ld",
                           conf_type_name(ty), root, i);
            if (!root_in_place) CONF_CHECK(t, conf_is_poison(ty, mine, n), "Scatterv wrote past the block");
        }
    }
    free(counts);
    free(displs);
    free(all);
    free(mine);
}

/* Senders use 2 MPI_INTs, the root receives 1 gappy element per rank (same signature). */
static void mixed_types(conf_t* t, MPI_Datatype gappy, int root) {
    int* all = t->rank == root ? (int*)conf_alloc((size_t)t->size * CONF_GAPPY_INTS * sizeof(int)) : NULL;
    int mine[2];
    int r;
    mine[0] = t->rank * 10;
    mine[1] = t->rank * 10 + 1;
    if (all) conf_poison(CONF_GAPPY, all, t->size);
    CONF_CALL(t, MPI_Gather(mine, 2, MPI_INT, all, 1, gappy, root, MPI_COMM_WORLD));
    if (t->rank == root)
        for (r = 0; r < t->size; r++) {
            const int* e = all + r * CONF_GAPPY_INTS;
            CONF_CHECK(t, e[0] == r * 10 && e[3] == r * 10 + 1 && e[1] == -7 && e[2] == -7,
                       "Gather MPI_INT x2 -> vector: block %d is %d %d %d %d", r, e[0], e[1], e[2], e[3]);
        }
    mine[0] = mine[1] = -1;
    CONF_CALL(t, MPI_Scatter(all, 1, gappy, mine, 2, MPI_INT, root, MPI_COMM_WORLD));
    CONF_CHECK(t, mine[0] == t->rank * 10 && mine[1] == t->rank * 10 + 1, "Scatter vector -> MPI_INT x2: %d %d",
               mine[0], mine[1]);
    free(all);
}

int main(int argc, char** argv) {
    conf_t t;
    const long counts[] = {1, 3, 700};
    MPI_Datatype gappy;
    int ty, c, k;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_gather");
    gappy = conf_gappy_type();
    for (k = 0; k < 3; k++) {
        const int roots[] = {0, t.size / 2, t.size - 1};
        if (k > 0 && roots[k] == roots[k - 1]) continue;
        for (ty = 0; ty < CONF_TYPES; ty++) {
            for (c = 0; c < 3; c++) uniform(&t, ty, conf_type(ty, gappy), counts[c], roots[k]);
            varying(&t, ty, conf_type(ty, gappy), ty == CONF_INT ? 500 : 2, roots[k]);
        }
        mixed_types(&t, gappy, roots[k]);
    }
    MPI_Type_free(&gappy);
    return conf_finish(&t);
}
