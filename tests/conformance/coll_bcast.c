/* MPI_Bcast: every datatype (with a gappy vector type), short and long messages (the
 * long ones take the scatter + allgather path), roots first, middle and last, plus
 * count 0, MPI_COMM_SELF and an invalid root (MPI_ERR_ROOT). */
#include "conformance.h"

static long value(int root, long i, int t) { return root * 131L + i * 7 + t; }

int main(int argc, char** argv) {
    conf_t t;
    const long counts[] = {1, 7, 5000};
    MPI_Datatype gappy;
    int ty, c, k;
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_bcast");
    gappy = conf_gappy_type();
    for (ty = 0; ty < CONF_TYPES; ty++) {
        for (c = 0; c < 3; c++) {
            const int roots[] = {0, t.size / 2, t.size - 1};
            for (k = 0; k < 3; k++) {
                const int root = roots[k];
                const long n = counts[c];
                char* buf = (char*)conf_alloc((size_t)n * conf_extent(ty));
                long i;
                if (k > 0 && root == roots[k - 1]) {
                    free(buf);
                    continue;
                }
                conf_poison(ty, buf, n);
                if (t.rank == root)
                    for (i = 0; i < n; i++) conf_put(ty, buf, i, value(root, i, ty));
                CONF_CALL(&t, MPI_Bcast(buf, (int)n, conf_type(ty, gappy), root, MPI_COMM_WORLD));
                for (i = 0; i < n; i++)
                    if (!conf_holds(ty, buf, i, value(root, i, ty))) {
                        conf_fail(&t, "%s count %ld root %d: element %ld wrong", conf_type_name(ty), n, root, i);
                        break;
                    }
                free(buf);
            }
        }
    }
    {
        int x = t.rank, rc, cls = 0;
        CONF_CALL(&t, MPI_Bcast(&x, 0, MPI_INT, 0, MPI_COMM_WORLD));
        CONF_CHECK(&t, x == t.rank, "count 0 changed the buffer");
        CONF_CALL(&t, MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_SELF));
        CONF_CHECK(&t, x == t.rank, "MPI_COMM_SELF broadcast changed the value");
        rc = MPI_Bcast(&x, 1, MPI_INT, t.size, MPI_COMM_WORLD);
        if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
        CONF_CHECK(&t, cls == MPI_ERR_ROOT, "root = size: expected MPI_ERR_ROOT, got %d", rc);
    }
    MPI_Type_free(&gappy);
    return conf_finish(&t);
}
