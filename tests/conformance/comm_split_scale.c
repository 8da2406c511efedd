/* Communicator construction at scale and without payload: splits WORLD into the rows and
 * the columns of a near-square grid and into rank mod 3 classes (all regular groups), dups
 * a row, and runs an Allreduce on each. (Irregular groups are exercised by comm_groups:
 * their member lists travel with the split, O(group size) per message.) Checks only sizes and ranks (valid in payload-free
 * mode), then prints VTIME, which must not depend on payload or real processes.
 * usage: comm_split_scale [bytes [nobuf]]  (bytes per Allreduce, default 8; nobuf: NULL buffers) */
#include "conformance.h"

static void expect(conf_t* t, MPI_Comm c, int size, int rank, const char* what) {
    int s, r;
    MPI_Comm_size(c, &s);
    MPI_Comm_rank(c, &r);
    CONF_CHECK(t, s == size && r == rank, "%s: rank %d of %d, expected %d of %d", what, r, s, rank, size);
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Comm row, col, piece, copy;
    int cols = 1, rows, rank, size, bytes, count, my_cols;
    char *in = NULL, *out = NULL;
    MPI_Init(&argc, &argv);
    conf_init(&t, "comm_split_scale");
    rank = t.rank;
    size = t.size;
    bytes = argc > 1 ? atoi(argv[1]) : 8;
    count = bytes / 8;
    if (!(argc > 2 && strcmp(argv[2], "nobuf") == 0)) {
        in = conf_alloc((size_t)bytes);
        out = conf_alloc((size_t)bytes);
        memset(in, 1, (size_t)bytes);
    }
    while ((cols + 1) * (cols + 1) <= size) cols++;
    rows = (size + cols - 1) / cols;
    /* The last row may be short. */
    my_cols = rank / cols == rows - 1 ? size - (rows - 1) * cols : cols;

    CONF_CALL(&t, MPI_Comm_split(MPI_COMM_WORLD, rank / cols, rank, &row));
    expect(&t, row, my_cols, rank % cols, "row");
    CONF_CALL(&t, MPI_Comm_split(MPI_COMM_WORLD, rank % cols, rank, &col));
    expect(&t, col, (size - rank % cols + cols - 1) / cols, rank / cols, "column");
    /* Strided: rank mod 3, in reverse order. */
    {
        int members = (size - rank % 3 + 2) / 3;
        CONF_CALL(&t, MPI_Comm_split(MPI_COMM_WORLD, rank % 3, size - rank, &piece));
        expect(&t, piece, members, members - 1 - rank / 3, "mod 3 piece");
    }
    CONF_CALL(&t, MPI_Comm_dup(row, &copy));
    expect(&t, copy, my_cols, rank % cols, "dup of row");
    CONF_CALL(&t, MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, row));
    CONF_CALL(&t, MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, col));
    CONF_CALL(&t, MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, piece));
    CONF_CALL(&t, MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, copy));
    MPI_Comm_free(&copy);
    MPI_Comm_free(&piece);
    MPI_Comm_free(&col);
    MPI_Comm_free(&row);
    free(in);
    free(out);
    return conf_finish(&t);
}
