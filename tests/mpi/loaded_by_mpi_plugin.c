/* An hwloc plugin (hwloc_xsimtest.so, found through HWLOC_PLUGINS_PATH) for
 * loaded_by_mpi.c: the real MPI library's hwloc loads it as the library starts (a
 * singleton's MPI_Init discovers the topology in the process itself), as it loads its OpenCL
 * plugin and, under that, Mesa's Rusticl and LLVM, whose constructors must run once per
 * process (LLVM aborts when its command-line options are registered twice). Its constructor
 * marks the process with a descriptor and fails loudly when it finds the mark: constructed
 * twice in one process. */
#include <fcntl.h>
#include <hwloc.h>
#include <hwloc/plugins.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define XSIMTEST_MARK_FD 917 /* loaded_by_mpi.c checks the same number */

__attribute__((constructor)) static void constructed(void) {
    if (fcntl(XSIMTEST_MARK_FD, F_GETFD) != -1) {
        fprintf(stderr, "FAIL hwloc_xsimtest.so constructed twice in one process\n");
        abort();
    }
    const int fd = open("/dev/null", O_RDONLY);
    if (fd < 0 || dup2(fd, XSIMTEST_MARK_FD) != XSIMTEST_MARK_FD) {
        fprintf(stderr, "FAIL hwloc_xsimtest.so cannot mark the process\n");
        abort();
    }
    close(fd);
}

/* Discovers nothing: enabled by default (so that hwloc keeps the plugin loaded), but it adds
 * no backend. */
static struct hwloc_backend* instantiate(struct hwloc_topology* topology, struct hwloc_disc_component* component,
                                         unsigned excluded_phases, const void* data1, const void* data2,
                                         const void* data3) {
    (void)topology, (void)component, (void)excluded_phases, (void)data1, (void)data2, (void)data3;
    return NULL;
}

static struct hwloc_disc_component xsimtest_disc = {"xsimtest", HWLOC_DISC_PHASE_MISC, 0, instantiate, 1, 1, NULL};

const struct hwloc_component hwloc_xsimtest_component = {HWLOC_COMPONENT_ABI, NULL, NULL,
                                                         HWLOC_COMPONENT_TYPE_DISC, 0, &xsimtest_disc};
