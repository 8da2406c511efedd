/* MPI_INFO_NULL where an info argument only carries hints: MPI_Comm_dup_with_info,
 * MPI_Comm_split_type, MPI_Dist_graph_create(_adjacent) and MPI_Alloc_mem accept it (as
 * Open MPI does) and give a working result; MPI_Comm_dup_with_info with a real info object
 * too. (MPI_Comm_set_info needs an info object: Open MPI refuses MPI_INFO_NULL there.) */
#include "conformance.h"

/* The communicator works: an allreduce over it sums the ranks. */
static void check_comm(conf_t* t, const char* what, MPI_Comm comm, int size) {
    int rank = -1, n = -1, sum = -1, result = MPI_UNEQUAL;
    CONF_CALL(t, MPI_Comm_size(comm, &n));
    CONF_CALL(t, MPI_Comm_rank(comm, &rank));
    CONF_CALL(t, MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm));
    CONF_CHECK(t, n == size && sum == size * (size - 1) / 2, "%s: size %d, sum of ranks %d", what, n, sum);
    if (size == t->size) {
        CONF_CALL(t, MPI_Comm_compare(comm, MPI_COMM_WORLD, &result));
        CONF_CHECK(t, result == MPI_CONGRUENT, "%s: not congruent with MPI_COMM_WORLD (%d)", what, result);
    }
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Comm dup, dup2, node, graph, adjacent;
    MPI_Info info;
    int left, right, degree = 1, node_size = 0;
    void* memory = NULL;
    MPI_Init(&argc, &argv);
    conf_init(&t, "comm_info_null");
    left = (t.rank + t.size - 1) % t.size;
    right = (t.rank + 1) % t.size;

    CONF_CALL(&t, MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup));
    check_comm(&t, "MPI_Comm_dup_with_info(MPI_INFO_NULL)", dup, t.size);
    CONF_CALL(&t, MPI_Info_create(&info));
    CONF_CALL(&t, MPI_Info_set(info, "mpi_assert_no_any_tag", "true"));
    CONF_CALL(&t, MPI_Comm_dup_with_info(dup, info, &dup2));
    check_comm(&t, "MPI_Comm_dup_with_info(info)", dup2, t.size);
    CONF_CALL(&t, MPI_Info_free(&info));

    CONF_CALL(&t, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    CONF_CALL(&t, MPI_Comm_size(node, &node_size));
    check_comm(&t, "MPI_Comm_split_type(MPI_INFO_NULL)", node, node_size);
    CONF_CALL(&t, MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &t.rank, &degree, &right, MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                        &graph));
    check_comm(&t, "MPI_Dist_graph_create(MPI_INFO_NULL)", graph, t.size);
    CONF_CALL(&t, MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, MPI_UNWEIGHTED, 1, &right, MPI_UNWEIGHTED,
                                                 MPI_INFO_NULL, 0, &adjacent));
    check_comm(&t, "MPI_Dist_graph_create_adjacent(MPI_INFO_NULL)", adjacent, t.size);
    CONF_CALL(&t, MPI_Alloc_mem(64, MPI_INFO_NULL, &memory));
    CONF_CHECK(&t, memory != NULL, "MPI_Alloc_mem(MPI_INFO_NULL) gave no memory");
    if (memory) CONF_CALL(&t, MPI_Free_mem(memory));

    CONF_CALL(&t, MPI_Comm_free(&adjacent));
    CONF_CALL(&t, MPI_Comm_free(&graph));
    CONF_CALL(&t, MPI_Comm_free(&node));
    CONF_CALL(&t, MPI_Comm_free(&dup2));
    CONF_CALL(&t, MPI_Comm_free(&dup));
    return conf_finish(&t);
}
