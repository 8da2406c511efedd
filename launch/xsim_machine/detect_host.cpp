// Host topology from hwloc: cores, packages (sockets), NUMA nodes, hardware threads.
#include <hwloc.h>

#include <algorithm>
#include <stdexcept>

#include "host_machine.hpp"

namespace xsim::machine {

HostCounts detect_host() {
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo) != 0) throw std::runtime_error("hwloc_topology_init failed");
    if (hwloc_topology_load(topo) != 0) {
        hwloc_topology_destroy(topo);
        throw std::runtime_error("hwloc_topology_load failed");
    }
    auto count = [&](hwloc_obj_type_t t) { return std::max(1, hwloc_get_nbobjs_by_type(topo, t)); };
    HostCounts h;
    h.pus = count(HWLOC_OBJ_PU);
    // A machine that reports no cores (some VMs) gets one core per hardware thread.
    h.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE) > 0 ? count(HWLOC_OBJ_CORE) : h.pus;
    h.packages = count(HWLOC_OBJ_PACKAGE);
    h.numa_nodes = count(HWLOC_OBJ_NUMANODE);
    hwloc_topology_destroy(topo);
    return h;
}

}  // namespace xsim::machine
