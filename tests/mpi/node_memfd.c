/* node_memfd: node-shared memory made the way Gadget-4 makes it (src/data/mymalloc.cc). On
 * each node (MPI_Comm_split_type SHARED) the first rank creates a memfd, writes a pattern of
 * its own into it and broadcasts "/proc/<its getpid()>/fd/<fd>"; every other rank of the node
 * opens that path, maps it and reads the pattern, then writes its own word into its slot, and
 * after a barrier the first rank reads every slot. Natively the ranks are processes of one
 * host and open each other's /proc entries; under xsim a node's ranks may live in different
 * real processes (at -np 2 -xsim-np 4 the default machine's one node spans both).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xsim_test.h"

#define SLOTS 4096

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    MPI_Comm node;
    int node_rank, node_size, fd = -1, i, wrong = 0;
    char path[64] = {0};
    long *shared = MAP_FAILED;
    const size_t bytes = SLOTS * sizeof(long);

    xt_init(t, &argc, &argv, "node_memfd");
    XT_MPI(t, MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node));
    XT_MPI(t, MPI_Comm_rank(node, &node_rank));
    XT_MPI(t, MPI_Comm_size(node, &node_size));
    if (node_rank == 0) {
        fd = memfd_create("node_memfd", 0);
        XT_CHECK(t, fd >= 0 && ftruncate(fd, (off_t)bytes) == 0, "memfd_create/ftruncate failed");
        snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)getpid(), fd);
    }
    XT_MPI(t, MPI_Bcast(path, sizeof path, MPI_CHAR, 0, node));
    if (node_rank != 0) {
        fd = open(path, O_RDWR);
        XT_CHECK(t, fd >= 0, "open of the node leader's %s failed", path);
    }
    if (fd >= 0) shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    XT_CHECK(t, shared != MAP_FAILED, "mmap of the node's memfd failed");
    if (shared != MAP_FAILED && node_rank == 0)
        for (i = 0; i < SLOTS; ++i) shared[i] = -(long)t->rank * 100000 - i;
    XT_MPI(t, MPI_Barrier(node));
    if (shared != MAP_FAILED && node_rank != 0) {
        const int leader = t->rank - node_rank; /* the default block mapping: consecutive ranks */
        for (i = node_size; i < SLOTS; ++i) wrong += shared[i] != -(long)leader * 100000 - i;
        XT_CHECK(t, wrong == 0, "%d words of the leader's pattern differ in %s", wrong, path);
        shared[node_rank] = 1000 + t->rank;
    }
    XT_MPI(t, MPI_Barrier(node));
    if (shared != MAP_FAILED && node_rank == 0)
        for (i = 1; i < node_size; ++i)
            XT_CHECK(t, shared[i] == 1000 + t->rank + i, "slot %d holds %ld, node rank %d wrote %d", i, shared[i], i,
                     1000 + t->rank + i);
    if (shared != MAP_FAILED) munmap(shared, bytes);
    if (fd >= 0) close(fd);
    XT_MPI(t, MPI_Comm_free(&node));
    return xt_finish(t, NULL);
}
