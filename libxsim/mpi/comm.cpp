#include "libxsim/mpi/comm.hpp"

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/context_ids.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/engine/rank.hpp"

namespace xsim {
namespace {

// What is per rank about WORLD and SELF but rarely used: names and attributes.
struct PredefinedExtras {
    const char* name = nullptr;
    Attributes* attributes = nullptr;
};

std::unordered_map<std::uint64_t, PredefinedExtras>& predefined_extras() {
    static std::unordered_map<std::uint64_t, PredefinedExtras> table;
    return table;
}

std::uint64_t extras_key(const Comm& comm, const Rank& rank) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(rank.world)) << 1 |
           (comm.kind == CommKind::Self ? 1u : 0u);
}

}  // namespace

int Comm::rank_of(const Rank& rank) const {
    switch (kind) {
        case CommKind::World: return rank.world;
        case CommKind::Self: return 0;
        case CommKind::Derived: return my_rank;
    }
    return 0;
}

int Comm::world_rank(int comm_rank, const Rank& caller) const {
    switch (kind) {
        case CommKind::World: return comm_rank;
        case CommKind::Self: return caller.world;
        case CommKind::Derived: return (remote_group ? remote_group : group)->world_of(comm_rank);
    }
    return comm_rank;
}

int Comm::peer_size() const { return remote_group ? remote_group->size : size; }

void release(const Comm* c) {
    if (!c || c->kind != CommKind::Derived || --c->refs > 0) return;
    release_context(c->context);
    release(c->group);
    release(c->remote_group);
    release(c->local);
    delete c->attributes;  // their delete callbacks ran at MPI_Comm_free
    const_cast<Comm*>(c)->magic = 0;
    delete c;
}

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
            static Group* world = nullptr;
            if (!world || world->size != comm.size) world = make_range_group(0, 1, comm.size);
            return retain(world);
        }
        case CommKind::Self: return make_range_group(caller.world, 1, 1);
        case CommKind::Derived: return retain(comm.group);
    }
    return nullptr;
}

const char* comm_name(const Comm& comm, const Rank& caller) {
    if (comm.kind == CommKind::Derived) return comm.name;
    auto it = predefined_extras().find(extras_key(comm, caller));
    return it != predefined_extras().end() && it->second.name ? it->second.name : comm.name;
}

void set_comm_name(const Comm& comm, const Rank& caller, const char* name) {
    if (comm.kind == CommKind::Derived) comm.name = intern(name);
    else predefined_extras()[extras_key(comm, caller)].name = intern(name);
}

Attributes*& attributes_slot(const Comm& comm, const Rank& caller) {
    if (comm.kind == CommKind::Derived) return comm.attributes;
    return predefined_extras()[extras_key(comm, caller)].attributes;
}

const char* intern(const char* text) {
    static std::unordered_set<std::string> names;
    return names.insert(text).first->c_str();
}

}  // namespace xsim
