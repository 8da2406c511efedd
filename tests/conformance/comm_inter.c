/* Intercommunicators: WORLD split into evens and odds joined by MPI_Intercomm_create
 * (leaders: world ranks 0 and 1), point-to-point across (ranks name the remote group,
 * statuses report the sender's local rank), remote size and group, MPI_Intercomm_merge
 * in both orders, MPI_Comm_dup of the intercommunicator (same groups, its own messages),
 * MPI_Barrier and MPI_Bcast across the groups, MPI_Comm_idup with an MPI_Ibarrier, and
 * MPI_ERR_COMM for MPI_Scan (not defined on intercommunicators).
 * Needs at least 2 ranks (CTest runs it from N=2): with fewer it fails. */
#include "conformance.h"

int main(int argc, char** argv) {
    conf_t t;
    MPI_Comm side, inter, merged;
    MPI_Group remote;
    int rank, size, even, local_rank, local_size, remote_size, flag, r, cmp;
    MPI_Init(&argc, &argv);
    conf_init(&t, "comm_inter");
    rank = t.rank;
    size = t.size;
    if (!conf_evens_and_odds(&t, &side, &inter)) return conf_finish(&t);
    even = rank % 2 == 0;
    MPI_Comm_rank(side, &local_rank);
    MPI_Comm_size(side, &local_size);
    CONF_CALL(&t, MPI_Comm_test_inter(inter, &flag));
    CONF_CHECK(&t, flag, "test_inter is false");
    CONF_CALL(&t, MPI_Comm_remote_size(inter, &remote_size));
    CONF_CHECK(&t, remote_size == (even ? size / 2 : (size + 1) / 2), "remote size %d", remote_size);
    MPI_Comm_rank(inter, &r);
    CONF_CHECK(&t, r == local_rank, "intercomm rank %d, local %d", r, local_rank);
    CONF_CALL(&t, MPI_Comm_remote_group(inter, &remote));
    {
        /* Remote rank i is world rank 2i (+1 on the odd side's view... of the evens). */
        int in = remote_size - 1, out = -1;
        MPI_Group world_group;
        MPI_Comm_group(MPI_COMM_WORLD, &world_group);
        MPI_Group_translate_ranks(remote, 1, &in, world_group, &out);
        CONF_CHECK(&t, out == 2 * in + (even ? 1 : 0), "remote rank %d is world %d", in, out);
        MPI_Group_free(&world_group);
        MPI_Group_free(&remote);
    }
    /* Each even local rank i exchanges with odd local rank i, when it exists. */
    if (local_rank < size / 2) {
        int mine = rank, theirs = -1;
        MPI_Status st;
        CONF_CALL(&t, MPI_Sendrecv(&mine, 1, MPI_INT, local_rank, 3, &theirs, 1, MPI_INT, MPI_ANY_SOURCE, 3, inter, &st));
        CONF_CHECK(&t, theirs == (even ? rank + 1 : rank - 1) && st.MPI_SOURCE == local_rank,
                   "got %d from %d", theirs, st.MPI_SOURCE);
    }
    /* A duplicate has the same groups, and its messages never match on the original: the
     * message sent first on `inter` is received last, after the one sent on the copy. */
    {
        MPI_Comm dup, dup2;
        int dup_remote = -1, dup_rank = -1, first = -1, second = -1;
        CONF_CALL(&t, MPI_Comm_dup(inter, &dup));
        CONF_CALL(&t, MPI_Comm_test_inter(dup, &flag));
        CONF_CHECK(&t, flag, "the duplicate of an intercommunicator is not one");
        CONF_CALL(&t, MPI_Comm_remote_size(dup, &dup_remote));
        MPI_Comm_rank(dup, &dup_rank);
        CONF_CHECK(&t, dup_remote == remote_size && dup_rank == local_rank, "duplicate: rank %d, remote size %d",
                   dup_rank, dup_remote);
        CONF_CALL(&t, MPI_Comm_compare(dup, inter, &cmp));
        CONF_CHECK(&t, cmp == MPI_CONGRUENT, "duplicate compares %d with the original", cmp);
        if (local_rank < size / 2) {
            MPI_Request sends[2];
            int a = rank, b = rank + 1000;
            CONF_CALL(&t, MPI_Isend(&a, 1, MPI_INT, local_rank, 5, inter, &sends[0]));
            CONF_CALL(&t, MPI_Isend(&b, 1, MPI_INT, local_rank, 5, dup, &sends[1]));
            CONF_CALL(&t, MPI_Recv(&second, 1, MPI_INT, local_rank, 5, dup, MPI_STATUS_IGNORE));
            CONF_CALL(&t, MPI_Recv(&first, 1, MPI_INT, local_rank, 5, inter, MPI_STATUS_IGNORE));
            MPI_Waitall(2, sends, MPI_STATUSES_IGNORE);
            CONF_CHECK(&t, first == (even ? rank + 1 : rank - 1) && second == first + 1000,
                       "messages crossed between an intercommunicator and its duplicate: %d, %d", first, second);
        }
        CONF_CALL(&t, MPI_Comm_dup_with_info(dup, MPI_INFO_NULL, &dup2));
        CONF_CALL(&t, MPI_Comm_remote_size(dup2, &dup_remote));
        CONF_CHECK(&t, dup_remote == remote_size, "MPI_Comm_dup_with_info: remote size %d", dup_remote);
        CONF_CALL(&t, MPI_Comm_free(&dup2));
        CONF_CALL(&t, MPI_Comm_free(&dup));
    }
    /* MPI_Barrier and MPI_Bcast across the groups: from local rank 0 of the evens to every
     * odd rank (the root passes MPI_ROOT, the other evens MPI_PROC_NULL, the odds the root's
     * rank in their remote group), then from the last odd rank to the evens. */
    CONF_CALL(&t, MPI_Barrier(inter));
    {
        long data[3] = {-1, -1, -1};
        int root_side, root_local;
        for (root_side = 1; root_side >= 0; root_side--) {
            /* The evens' first rank, or the odds' last (the odds have size / 2 ranks). */
            root_local = root_side ? 0 : size / 2 - 1;
            data[0] = data[1] = data[2] = -1;
            if (even == root_side) {
                const int is_root = local_rank == root_local;
                if (is_root) data[0] = 7, data[1] = rank, data[2] = 9;
                CONF_CALL(&t, MPI_Bcast(data, 3, MPI_LONG, is_root ? MPI_ROOT : MPI_PROC_NULL, inter));
                CONF_CHECK(&t, is_root ? data[1] == rank : data[0] == -1, "MPI_Bcast changed a buffer of the root's group");
            } else {
                const int root_world = root_side ? 0 : 2 * root_local + 1;
                CONF_CALL(&t, MPI_Bcast(data, 3, MPI_LONG, root_local, inter));
                CONF_CHECK(&t, data[0] == 7 && data[1] == root_world && data[2] == 9,
                           "MPI_Bcast across: got %ld %ld %ld, expected 7 %d 9", data[0], data[1], data[2], root_world);
            }
        }
    }
    /* MPI_Comm_idup across the groups, completed together with an MPI_Ibarrier on it. */
    {
        MPI_Comm copy;
        MPI_Request reqs[2];
        int copy_remote = -1;
        CONF_CALL(&t, MPI_Comm_idup(inter, &copy, &reqs[0]));
        CONF_CALL(&t, MPI_Ibarrier(inter, &reqs[1]));
        CONF_CALL(&t, MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE));
        CONF_CALL(&t, MPI_Comm_remote_size(copy, &copy_remote));
        CONF_CHECK(&t, copy_remote == remote_size, "MPI_Comm_idup: remote size %d", copy_remote);
        CONF_CALL(&t, MPI_Comm_free(&copy));
    }
    /* MPI defines no scan on an intercommunicator. (Open MPI's own error handling of this
     * erroneous call differs: xsim only.) */
    if (conf_under_xsim()) {
        long v = rank, out = 0;
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
        CONF_CHECK(&t, conf_error_class(MPI_Scan(&v, &out, 1, MPI_LONG, MPI_SUM, inter)) == MPI_ERR_COMM,
                   "MPI_Scan on an intercommunicator did not fail with MPI_ERR_COMM");
    }
    /* Merge, odds first (evens pass high = 1): odd world ranks come first. */
    CONF_CALL(&t, MPI_Intercomm_merge(inter, even, &merged));
    MPI_Comm_rank(merged, &r);
    CONF_CHECK(&t, r == (even ? size / 2 + rank / 2 : rank / 2), "merged rank %d", r);
    {
        long sum = 0, value = rank;
        CONF_CALL(&t, MPI_Allreduce(&value, &sum, 1, MPI_LONG, MPI_SUM, merged));
        CONF_CHECK(&t, sum == (long)size * (size - 1) / 2, "merged sum %ld", sum);
    }
    CONF_CALL(&t, MPI_Comm_free(&merged));
    /* Same high on both sides: the side of the lower leader (the evens) first. */
    CONF_CALL(&t, MPI_Intercomm_merge(inter, 0, &merged));
    MPI_Comm_rank(merged, &r);
    CONF_CHECK(&t, r == (even ? rank / 2 : (size + 1) / 2 + rank / 2), "tie merged rank %d", r);
    CONF_CALL(&t, MPI_Comm_compare(merged, MPI_COMM_WORLD, &cmp));
    CONF_CHECK(&t, cmp == (size == 2 ? MPI_CONGRUENT : MPI_SIMILAR), "merged compare %d", cmp);
    CONF_CALL(&t, MPI_Comm_free(&merged));
    CONF_CALL(&t, MPI_Comm_free(&inter));
    CONF_CALL(&t, MPI_Comm_free(&side));
    return conf_finish(&t);
}
