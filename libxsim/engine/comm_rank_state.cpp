#include "libxsim/engine/comm_rank_state.hpp"

#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/context_ids.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/mpi/process_objects.hpp"

namespace xsim {
namespace {

std::uint64_t extras_key(const Comm& comm, const Rank& rank) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(rank.world)) << 1 |
           (comm.kind == CommKind::Self ? 1u : 0u);
}

}  // namespace

std::uint32_t& creation_counter(Rank& rank, const Comm& comm) {
    if (comm.kind == CommKind::World) return rank.world_children;
    if (comm.kind == CommKind::Self) return rank.self_children;
    return comm.children;
}

std::uint32_t& collective_sequence(Rank& rank, const Comm& comm) {
    if (comm.kind == CommKind::World) return rank.world_collectives;
    if (comm.kind == CommKind::Self) return rank.self_collectives;
    return comm.collective_calls;
}

Group* comm_group(const Comm& comm, const Rank& caller) {
    switch (comm.kind) {
        case CommKind::World: {
            // One shared group of the whole world per process.
            Group*& world = process_objects().world_group;
            if (!world || world->size != comm.size) {
                unref(world);
                world = make_range_group(0, 1, comm.size);
            }
            return ref(world);
        }
        case CommKind::Self: return make_range_group(caller.world, 1, 1);
        case CommKind::Derived: return ref(comm.group);
    }
    return nullptr;
}

const char* comm_name(const Comm& comm, const Rank& caller) {
    if (comm.kind == CommKind::Derived) return comm.name;
    const auto& extras = process_objects().predefined_extras;
    auto it = extras.find(extras_key(comm, caller));
    return it != extras.end() && it->second.name ? it->second.name : comm.name;
}

void set_comm_name(const Comm& comm, const Rank& caller, const char* name) {
    if (comm.kind == CommKind::Derived) comm.name = intern(name);
    else process_objects().predefined_extras[extras_key(comm, caller)].name = intern(name);
}

Attributes*& attributes_slot(const Comm& comm, const Rank& caller) {
    if (comm.kind == CommKind::Derived) return comm.attributes;
    return process_objects().predefined_extras[extras_key(comm, caller)].attributes;
}

void forget_predefined_comm_state(const Rank& rank) {
    forget_repeats(kWorldContext, rank.world);
    forget_repeats(kSelfContext, rank.world);
}

}  // namespace xsim
