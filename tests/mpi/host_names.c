/* host_names: a rank's host name is its node's, as natively, and agrees with what MPI says
 * about nodes. Each rank:
 *  - compares gethostname() and uname()'s nodename with MPI_Get_processor_name: the same name;
 *  - gathers every rank's name and the members of its MPI_Comm_split_type(SHARED)
 *    communicator: the ranks that share its name are exactly those of its node (programs find
 *    the ranks per node by comparing host names);
 *  - under xsim (XSIM_TEST_VIRTUAL=1): the name is "xsim-node<N>", and a buffer too short for
 *    it gives -1 and ENAMETOOLONG with the name truncated, as the C library does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "xsim_test.h"

#define NAME_BYTES 256

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    char name[NAME_BYTES], processor[MPI_MAX_PROCESSOR_NAME], small[3];
    char *names;
    struct utsname u;
    int len, virt, i, node_size, *node_members, *on_my_node, wrong = 0;
    MPI_Comm node;
    xt_init(t, &argc, &argv, "host_names");
    virt = xt_env_flag("XSIM_TEST_VIRTUAL");

    memset(name, 0, sizeof name);
    XT_CHECK(t, gethostname(name, sizeof name) == 0, "gethostname failed: %s", strerror(errno));
    MPI_Get_processor_name(processor, &len);
    XT_CHECK(t, strcmp(name, processor) == 0, "gethostname() is '%s', MPI_Get_processor_name '%s'", name,
             processor);
    XT_CHECK(t, uname(&u) == 0, "uname failed: %s", strerror(errno));
    XT_CHECK(t, strcmp(u.nodename, name) == 0, "uname()'s nodename is '%s', gethostname() '%s'", u.nodename, name);
    if (virt) {
        XT_CHECK(t, strncmp(name, "xsim-node", 9) == 0, "the host name is '%s', not a simulated node's", name);
        errno = 0;
        XT_CHECK(t, gethostname(small, sizeof small) == -1 && errno == ENAMETOOLONG,
                 "gethostname into 3 bytes did not fail with ENAMETOOLONG");
        XT_CHECK(t, memcmp(small, "xsi", 3) == 0, "gethostname into 3 bytes gave '%.3s', not the name truncated",
                 small);
    }

    names = (char *)malloc((size_t)t->size * NAME_BYTES);
    MPI_Allgather(name, NAME_BYTES, MPI_CHAR, names, NAME_BYTES, MPI_CHAR, MPI_COMM_WORLD);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &node_size);
    node_members = (int *)malloc(sizeof(int) * (size_t)node_size);
    MPI_Allgather(&t->rank, 1, MPI_INT, node_members, 1, MPI_INT, node);
    on_my_node = (int *)calloc((size_t)t->size, sizeof(int));
    for (i = 0; i < node_size; i++) on_my_node[node_members[i]] = 1;
    for (i = 0; i < t->size; i++) {
        const int same_name = strcmp(names + (size_t)i * NAME_BYTES, name) == 0;
        if (same_name != on_my_node[i]) {
            if (wrong++ == 0)
                xt_fail(t, "rank %d is %s this rank's node but its host name is '%s' (this rank's '%s')", i,
                        on_my_node[i] ? "on" : "not on", names + (size_t)i * NAME_BYTES, name);
        }
    }
    XT_CHECK(t, wrong == 0, "%d ranks disagree between host names and MPI_COMM_TYPE_SHARED", wrong);
    MPI_Comm_free(&node);
    free(on_my_node);
    free(node_members);
    free(names);
    return xt_finish(t, NULL);
}
