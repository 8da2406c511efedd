/* Cartesian topologies: MPI_Dims_create, Cart_create (1-D, 2-D, 3-D, periodic and not,
 * grids smaller than the communicator, ndims 0), Topo_test, Cartdim_get, Cart_get,
 * Cart_coords <-> Cart_rank round trips, Cart_shift (checked against coordinates and by
 * exchanging messages along the shift), Cart_sub (sizes, ranks, a reduction per sub-grid),
 * Cart_map, and the error classes of bad arguments. Expected values are computed here from
 * the row-major rule of the standard, independently of the library. */
#include "conformance.h"

#define MAXD 4

/* Row-major rank of coords in dims (all in range). */
static long rank_of(int ndims, const int* dims, const int* coords) {
    long r = 0;
    int i;
    for (i = 0; i < ndims; i++) r = r * dims[i] + coords[i];
    return r;
}

static void coords_of(int ndims, const int* dims, long r, int* coords) {
    int i;
    for (i = ndims - 1; i >= 0; i--) {
        coords[i] = (int)(r % dims[i]);
        r /= dims[i];
    }
}

/* The rank `disp` steps along `dim` from `coords`, or MPI_PROC_NULL. */
static int expected_shift(int ndims, const int* dims, const int* periods, const int* coords, int dim, int disp) {
    int c[MAXD], i;
    for (i = 0; i < ndims; i++) c[i] = coords[i];
    c[dim] += disp;
    if (periods[dim]) c[dim] = ((c[dim] % dims[dim]) + dims[dim]) % dims[dim];
    else if (c[dim] < 0 || c[dim] >= dims[dim]) return MPI_PROC_NULL;
    return (int)rank_of(ndims, dims, c);
}

static void check_grid(conf_t* t, int ndims, const int* periods) {
    int dims[MAXD] = {0, 0, 0, 0}, got_dims[MAXD], got_periods[MAXD], coords[MAXD], c2[MAXD];
    int i, rank, size, status, nd, r, other;
    MPI_Comm cart;
    CONF_CALL(t, MPI_Dims_create(t->size, ndims, dims));
    CONF_CALL(t, MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart));
    if (cart == MPI_COMM_NULL) {
        conf_fail(t, "Cart_create over all ranks gave MPI_COMM_NULL");
        return;
    }
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    CONF_CALL(t, MPI_Comm_rank(cart, &rank));
    CONF_CALL(t, MPI_Comm_size(cart, &size));
    CONF_CHECK(t, rank == t->rank && size == t->size, "cart rank/size %d/%d", rank, size);
    CONF_CALL(t, MPI_Topo_test(cart, &status));
    CONF_CHECK(t, status == MPI_CART, "Topo_test %d", status);
    CONF_CALL(t, MPI_Cartdim_get(cart, &nd));
    CONF_CHECK(t, nd == ndims, "Cartdim_get %d", nd);
    CONF_CALL(t, MPI_Cart_get(cart, MAXD, got_dims, got_periods, coords));
    for (i = 0; i < ndims; i++)
        CONF_CHECK(t, got_dims[i] == dims[i] && !got_periods[i] == !periods[i], "Cart_get dim %d", i);
    coords_of(ndims, dims, rank, c2);
    for (i = 0; i < ndims; i++) CONF_CHECK(t, coords[i] == c2[i], "Cart_get coords[%d] %d", i, coords[i]);
    /* Round trips for this rank and a few others. */
    for (other = 0; other < 3; other++) {
        const long probe = (rank + other * 7919L) % size;
        CONF_CALL(t, MPI_Cart_coords(cart, (int)probe, MAXD, coords));
        coords_of(ndims, dims, probe, c2);
        for (i = 0; i < ndims; i++) CONF_CHECK(t, coords[i] == c2[i], "Cart_coords(%ld)[%d]", probe, i);
        CONF_CALL(t, MPI_Cart_rank(cart, coords, &r));
        CONF_CHECK(t, r == probe, "Cart_rank(Cart_coords(%ld)) = %d", probe, r);
    }
    /* Periodic coordinates wrap in Cart_rank. */
    coords_of(ndims, dims, rank, coords);
    for (i = 0; i < ndims; i++)
        if (periods[i]) coords[i] += 3 * dims[i];
    CONF_CALL(t, MPI_Cart_rank(cart, coords, &r));
    CONF_CHECK(t, r == rank, "Cart_rank of wrapped coordinates %d", r);
    /* Shifts, and a message along each: everyone sends its rank to dest, receives from source. */
    coords_of(ndims, dims, rank, coords);
    for (i = 0; i < ndims; i++) {
        int disp;
        for (disp = -2; disp <= 2; disp++) {
            int source, dest, got = -1;
            CONF_CALL(t, MPI_Cart_shift(cart, i, disp, &source, &dest));
            CONF_CHECK(t, dest == expected_shift(ndims, dims, periods, coords, i, disp), "shift dim %d disp %d dest %d",
                       i, disp, dest);
            CONF_CHECK(t, source == expected_shift(ndims, dims, periods, coords, i, -disp),
                       "shift dim %d disp %d source %d", i, disp, source);
            CONF_CALL(t, MPI_Sendrecv(&rank, 1, MPI_INT, dest, 5, &got, 1, MPI_INT, source, 5, cart,
                                      MPI_STATUS_IGNORE));
            CONF_CHECK(t, got == (source == MPI_PROC_NULL ? -1 : source), "message along dim %d from %d: %d", i,
                       source, got);
        }
    }
    /* Sub-grids: keep each dimension alone, and all but the first. */
    for (i = 0; i <= ndims; i++) {
        int remain[MAXD], sub_rank, sub_size, expect_size = 1, expect_rank = 0, sub_nd;
        long sum = 0, expect_sum = 0;
        MPI_Comm sub;
        int k;
        for (k = 0; k < ndims; k++) remain[k] = i < ndims ? k == i : k != 0;
        CONF_CALL(t, MPI_Cart_sub(cart, remain, &sub));
        if (sub == MPI_COMM_NULL) {
            conf_fail(t, "Cart_sub gave MPI_COMM_NULL");
            continue;
        }
        CONF_CALL(t, MPI_Comm_rank(sub, &sub_rank));
        CONF_CALL(t, MPI_Comm_size(sub, &sub_size));
        CONF_CALL(t, MPI_Cartdim_get(sub, &sub_nd));
        for (k = 0; k < ndims; k++)
            if (remain[k]) {
                expect_size *= dims[k];
                expect_rank = expect_rank * dims[k] + coords[k];
            }
        CONF_CHECK(t, sub_size == expect_size && sub_rank == expect_rank, "Cart_sub %d: rank %d of %d", i, sub_rank,
                   sub_size);
        CONF_CHECK(t, sub_nd == (i < ndims ? 1 : ndims - 1), "Cart_sub %d: ndims %d", i, sub_nd);
        /* The sum of the world ranks of the sub-grid. */
        {
            long member;
            long world = rank;
            CONF_CALL(t, MPI_Allreduce(&world, &sum, 1, MPI_LONG, MPI_SUM, sub));
            for (member = 0; member < size; member++) {
                int mc[MAXD], same = 1;
                coords_of(ndims, dims, member, mc);
                for (k = 0; k < ndims; k++)
                    if (!remain[k] && mc[k] != coords[k]) same = 0;
                if (same) expect_sum += member;
            }
        }
        CONF_CHECK(t, sum == expect_sum, "Cart_sub %d: sum of members %ld, expected %ld", i, sum, expect_sum);
        MPI_Comm_free(&sub);
    }
    CONF_CALL(t, MPI_Cart_map(MPI_COMM_WORLD, ndims, dims, periods, &r));
    CONF_CHECK(t, r == t->rank, "Cart_map %d", r);
    MPI_Comm_free(&cart);
}

static void check_dims_create(conf_t* t) {
    int d2[2] = {0, 0}, d3[3] = {0, 3, 0}, bad[3] = {0, 3, 0}, big[3] = {0, 0, 0};
    CONF_CALL(t, MPI_Dims_create(6, 2, d2));
    CONF_CHECK(t, d2[0] == 3 && d2[1] == 2, "Dims_create(6, 2) = %d x %d", d2[0], d2[1]);
    d2[0] = d2[1] = 0;
    CONF_CALL(t, MPI_Dims_create(7, 2, d2));
    CONF_CHECK(t, d2[0] == 7 && d2[1] == 1, "Dims_create(7, 2) = %d x %d", d2[0], d2[1]);
    CONF_CALL(t, MPI_Dims_create(6, 3, d3));
    CONF_CHECK(t, d3[0] == 2 && d3[1] == 3 && d3[2] == 1, "Dims_create(6, (0,3,0))");
    CONF_CHECK(t, MPI_Dims_create(7, 3, bad) == MPI_ERR_DIMS, "Dims_create(7, (0,3,0)) must fail");
    CONF_CALL(t, MPI_Dims_create(1000, 3, big));
    CONF_CHECK(t, big[0] == 10 && big[1] == 10 && big[2] == 10, "Dims_create(1000, 3)");
    big[0] = big[1] = big[2] = 0;
    CONF_CALL(t, MPI_Dims_create(t->size, 3, big));
    CONF_CHECK(t, (long)big[0] * big[1] * big[2] == t->size && big[0] >= big[1] && big[1] >= big[2],
               "Dims_create(%d, 3) = %d x %d x %d", t->size, big[0], big[1], big[2]);
}

/* A grid of size - 1 ranks (the last rank is left out), and a 0-dimensional one. */
static void check_partial_grids(conf_t* t) {
    int dims[1], periods[1] = {1}, r;
    MPI_Comm cart;
    if (t->size > 1) {
        dims[0] = t->size - 1;
        CONF_CALL(t, MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 1, &cart));
        if (t->rank == t->size - 1) {
            CONF_CHECK(t, cart == MPI_COMM_NULL, "the rank outside the grid got a communicator");
        } else if (cart == MPI_COMM_NULL) {
            conf_fail(t, "a rank inside the grid got MPI_COMM_NULL");
        } else {
            int source, dest;
            CONF_CALL(t, MPI_Cart_shift(cart, 0, 1, &source, &dest));
            CONF_CHECK(t, dest == (t->rank + 1) % (t->size - 1), "ring of size-1: dest %d", dest);
            MPI_Comm_free(&cart);
        }
        CONF_CALL(t, MPI_Cart_map(MPI_COMM_WORLD, 1, dims, periods, &r));
        CONF_CHECK(t, r == (t->rank < t->size - 1 ? t->rank : MPI_UNDEFINED), "Cart_map of a smaller grid %d", r);
    }
    CONF_CALL(t, MPI_Cart_create(MPI_COMM_WORLD, 0, dims, periods, 0, &cart));
    if (t->rank == 0 && cart != MPI_COMM_NULL) {
        int size, nd;
        CONF_CALL(t, MPI_Comm_size(cart, &size));
        CONF_CALL(t, MPI_Cartdim_get(cart, &nd));
        CONF_CHECK(t, size == 1 && nd == 0, "0-dimensional grid: size %d ndims %d", size, nd);
        MPI_Comm_free(&cart);
    } else {
        CONF_CHECK(t, (t->rank == 0) == (cart != MPI_COMM_NULL), "0-dimensional grid holds rank 0 only");
    }
}

static int error_class(int rc) {
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

static void check_errors(conf_t* t) {
    int dims[2] = {1, 1}, periods[2] = {0, 0}, coords[2] = {0, 0}, r, source, dest, status;
    MPI_Comm cart = MPI_COMM_NULL;
    CONF_CALL(t, MPI_Topo_test(MPI_COMM_WORLD, &status));
    CONF_CHECK(t, status == MPI_UNDEFINED, "Topo_test(MPI_COMM_WORLD) = %d", status);
    CONF_CHECK(t, error_class(MPI_Cart_coords(MPI_COMM_WORLD, 0, 2, coords)) == MPI_ERR_TOPOLOGY,
               "Cart_coords on a communicator without topology");
    CONF_CHECK(t, error_class(MPI_Cart_shift(MPI_COMM_WORLD, 0, 1, &source, &dest)) == MPI_ERR_TOPOLOGY,
               "Cart_shift on a communicator without topology");
    dims[0] = -1;
    CONF_CHECK(t, error_class(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart)) == MPI_ERR_DIMS,
               "Cart_create with a negative dimension");
    CONF_CHECK(t, error_class(MPI_Cart_create(MPI_COMM_WORLD, -1, dims, periods, 0, &cart)) == MPI_ERR_DIMS,
               "Cart_create with negative ndims");
    dims[0] = t->size + 1;
    CONF_CHECK(t, error_class(MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart)) != MPI_SUCCESS,
               "Cart_create with a grid larger than the communicator");
    dims[0] = t->size;
    CONF_CALL(t, MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart));
    if (cart == MPI_COMM_NULL) return;
    MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
    coords[0] = t->size;  /* off the non-periodic grid */
    CONF_CHECK(t, error_class(MPI_Cart_rank(cart, coords, &r)) == MPI_ERR_ARG, "Cart_rank outside the grid");
    CONF_CHECK(t, error_class(MPI_Cart_coords(cart, t->size, 2, coords)) == MPI_ERR_RANK, "Cart_coords of a bad rank");
    CONF_CHECK(t, error_class(MPI_Cart_shift(cart, 2, 1, &source, &dest)) == MPI_ERR_DIMS,
               "Cart_shift along a missing dimension");
    CONF_CHECK(t, error_class(MPI_Graphdims_get(cart, &r, &source)) == MPI_ERR_TOPOLOGY,
               "Graphdims_get on a Cartesian communicator");
    MPI_Comm_free(&cart);
    /* Topologies need an intracommunicator. */
    if (t->size >= 2) {
        MPI_Comm half, inter;
        int one[1] = {1}, zero[1] = {0};
        CONF_CALL(t, MPI_Comm_split(MPI_COMM_WORLD, t->rank % 2, t->rank, &half));
        CONF_CALL(t, MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, t->rank % 2 == 0 ? 1 : 0, 17, &inter));
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        CONF_CHECK(t, error_class(MPI_Cart_create(inter, 1, one, zero, 0, &cart)) == MPI_ERR_COMM,
                   "Cart_create on an intercommunicator");
        CONF_CALL(t, MPI_Topo_test(inter, &status));
        CONF_CHECK(t, status == MPI_UNDEFINED, "Topo_test of an intercommunicator = %d", status);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&half);
    }
}

int main(int argc, char** argv) {
    conf_t t;
    static const int p1[1] = {1}, p2[2] = {1, 0}, p2n[2] = {0, 0}, p3[3] = {1, 1, 1}, p3m[3] = {0, 1, 0};
    MPI_Init(&argc, &argv);
    conf_init(&t, "topo_cart");
    check_dims_create(&t);
    check_grid(&t, 1, p1);
    check_grid(&t, 2, p2);
    check_grid(&t, 2, p2n);
    check_grid(&t, 3, p3);
    check_grid(&t, 3, p3m);
    check_partial_grids(&t);
    check_errors(&t);
    return conf_finish(&t);
}
