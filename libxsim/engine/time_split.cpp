#include "libxsim/engine/time_split.hpp"

#include <cstdint>
#include <cstring>

namespace xsim {
namespace {

bool call_name_starts_with(const char* s, const char* prefix) { return std::strncmp(s, prefix, std::strlen(prefix)) == 0; }

CallKind classify(const char* call) {
    if (!call_name_starts_with(call, "MPI_")) return CallKind::Compute;
    const char* name = call + 4;
    // Communicator and topology creation, init and finalize: collective over their ranks.
    static const char* const kCollective[] = {
        "Barrier", "Bcast", "Gather", "Scatter", "Allgather", "Alltoall", "Reduce", "Allreduce", "Scan",
        "Exscan", "Neighbor_", "Comm_split", "Comm_dup", "Comm_create", "Comm_idup", "Intercomm_",
        "Cart_create", "Cart_sub", "Graph_create", "Dist_graph_create", "Init", "Finalize"};
    // Nonblocking collectives: MPI_Ibarrier, MPI_Iallreduce, ...
    const char* plain = (name[0] == 'I' && name[1] >= 'a' && name[1] <= 'z') ? name + 1 : nullptr;
    for (const char* c : kCollective) {
        if (call_name_starts_with(name, c)) return CallKind::Collective;
        if (plain && name[1] == static_cast<char>(c[0] - 'A' + 'a') && call_name_starts_with(plain + 1, c + 1))
            return CallKind::Collective;
    }
    return CallKind::PointToPoint;
}

struct Slot {
    const char* call = nullptr;
    CallKind kind = CallKind::Compute;
};
// One simulation thread per process: a direct-mapped cache needs no lock.
Slot g_cache[512];

}  // namespace

CallKind call_kind(const char* call) {
    if (!call) return CallKind::Compute;
    Slot& slot = g_cache[(reinterpret_cast<std::uintptr_t>(call) >> 3) % 512];
    if (slot.call != call) slot = Slot{call, classify(call)};
    return slot.kind;
}

}  // namespace xsim
