/* launcher_environment: each rank reads its own launcher variables, as natively, where
 * mpirun tells every process who it is (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK,
 * _LOCAL_SIZE, _NODE_RANK, PMIX_RANK, OMPI_UNIVERSE_SIZE). Each rank:
 *  - before MPI_Init, reads them with getenv and from the environment array itself (where a
 *    Python interpreter builds os.environ), and remembers them;
 *  - after MPI_Init, checks them against MPI: the world rank and size, and the rank and size
 *    of its MPI_Comm_split_type(SHARED) communicator (its node);
 *  - after communicating (other ranks ran in between), reads them again with getenv: the same;
 *  - sets a variable of its own (setenv, which may move the environment array): it reads its
 *    own value back, and the launcher's still;
 *  - a launcher variable mpirun does not set (SLURM_PROCID outside Slurm) stays unset.
 * Run under mpirun, as the harness does (the variables are mpirun's); plain MPI passes too.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xsim_test.h"

extern char **environ;

typedef struct {
    long rank, size, local_rank, local_size, node_rank, pmix_rank, universe;
} launcher_t;

/* getenv's value of `name` as a number, -1 when unset or not a number. */
static long number_from_getenv(const char *name)
{
    const char *text = getenv(name);
    char *end = NULL;
    long value;
    if (!text || !*text) return -1;
    value = strtol(text, &end, 10);
    return *end ? -1 : value;
}

/* The same, read from the environment array. */
static long number_from_environ(const char *name)
{
    size_t length = strlen(name);
    char **e;
    for (e = environ; e && *e; ++e)
        if (strncmp(*e, name, length) == 0 && (*e)[length] == '=') return strtol(*e + length + 1, NULL, 10);
    return -1;
}

static void read_launcher(launcher_t *l)
{
    l->rank = number_from_getenv("OMPI_COMM_WORLD_RANK");
    l->size = number_from_getenv("OMPI_COMM_WORLD_SIZE");
    l->local_rank = number_from_getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    l->local_size = number_from_getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    l->node_rank = number_from_getenv("OMPI_COMM_WORLD_NODE_RANK");
    l->pmix_rank = number_from_getenv("PMIX_RANK");
    l->universe = number_from_getenv("OMPI_UNIVERSE_SIZE");
}

static void check_launcher(xt_t *t, const char *when, const launcher_t *l, int node_rank, int node_size)
{
    XT_CHECK(t, l->rank == t->rank, "%s: OMPI_COMM_WORLD_RANK is %ld", when, l->rank);
    XT_CHECK(t, l->size == t->size, "%s: OMPI_COMM_WORLD_SIZE is %ld, the world has %d ranks", when, l->size, t->size);
    XT_CHECK(t, l->local_rank == node_rank, "%s: OMPI_COMM_WORLD_LOCAL_RANK is %ld, the rank is %d of its node", when,
             l->local_rank, node_rank);
    XT_CHECK(t, l->local_size == node_size, "%s: OMPI_COMM_WORLD_LOCAL_SIZE is %ld, its node has %d ranks", when,
             l->local_size, node_size);
    XT_CHECK(t, l->node_rank == node_rank, "%s: OMPI_COMM_WORLD_NODE_RANK is %ld, the rank is %d of its node", when,
             l->node_rank, node_rank);
    XT_CHECK(t, l->pmix_rank == t->rank, "%s: PMIX_RANK is %ld", when, l->pmix_rank);
    XT_CHECK(t, l->universe == -1 || l->universe >= t->size, "%s: OMPI_UNIVERSE_SIZE is %ld, below the world's %d",
             when, l->universe, t->size);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    launcher_t at_start, again;
    long rank_in_environ = number_from_environ("OMPI_COMM_WORLD_RANK");
    long local_in_environ = number_from_environ("OMPI_COMM_WORLD_LOCAL_RANK");
    int node_rank, node_size, token = 0;
    MPI_Comm node;

    read_launcher(&at_start);
    xt_init(t, &argc, &argv, "launcher_environment");
    if (at_start.rank < 0) { /* not started by mpirun: nothing to compare */
        if (t->rank == 0) printf("launcher_environment: OMPI_COMM_WORLD_RANK is not set, nothing checked\n");
        return xt_finish(t, NULL);
    }
    XT_MPI(t, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    XT_MPI(t, MPI_Comm_rank(node, &node_rank));
    XT_MPI(t, MPI_Comm_size(node, &node_size));

    check_launcher(t, "before MPI_Init", &at_start, node_rank, node_size);
    XT_CHECK(t, rank_in_environ == t->rank, "environ's OMPI_COMM_WORLD_RANK is %ld when the rank starts",
             rank_in_environ);
    XT_CHECK(t, local_in_environ == node_rank, "environ's OMPI_COMM_WORLD_LOCAL_RANK is %ld when the rank starts",
             local_in_environ);

    /* Let every other rank run, then read again. */
    XT_MPI(t, MPI_Allreduce(MPI_IN_PLACE, &token, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD));
    read_launcher(&again);
    check_launcher(t, "after an allreduce", &again, node_rank, node_size);

    /* A variable of the rank's own (setenv may reallocate the array). */
    {
        char mine[32];
        const char *back;
        snprintf(mine, sizeof mine, "%d", t->rank * 3 + 1);
        XT_CHECK(t, setenv("XSIM_TEST_LAUNCHER_OWN", mine, 1) == 0, "setenv failed");
        back = getenv("XSIM_TEST_LAUNCHER_OWN");
        XT_CHECK(t, back && strcmp(back, mine) == 0, "setenv then getenv gives '%s', set '%s'", back ? back : "(null)",
                 mine);
        read_launcher(&again);
        check_launcher(t, "after setenv", &again, node_rank, node_size);
    }
    if (!getenv("SLURM_JOB_ID"))
        XT_CHECK(t, getenv("SLURM_PROCID") == NULL, "SLURM_PROCID is set (to '%s') outside Slurm",
                 getenv("SLURM_PROCID"));

    XT_MPI(t, MPI_Comm_free(&node));
    return xt_finish(t, NULL);
}
