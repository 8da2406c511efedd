#include "libxsim/mpi/comm.hpp"

#include <string>

#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/context_ids.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/mpi/process_objects.hpp"

namespace xsim {

int Comm::world_rank_of(int comm_rank, int caller_world) const {
    switch (kind) {
        case CommKind::World: return comm_rank;
        case CommKind::Self: return caller_world;
        case CommKind::Derived: return (remote_group ? remote_group : group)->world_of(comm_rank);
    }
    return comm_rank;
}

int Comm::peer_size() const { return remote_group ? remote_group->size : size; }

void destroy_unreferenced(const Comm* c) {
    // Its owner can derive nothing more from it (the handle went first).
    forget_repeats(c->context, c->group->world_of(c->my_rank));
    release_context(c->context);
    unref(c->group);
    unref(c->remote_group);
    unref(c->local);
    delete c->attributes;  // their delete callbacks ran at MPI_Comm_free
    const_cast<Comm*>(c)->magic = 0;
    delete c;
}

const char* intern(const char* text) { return process_objects().names.insert(text).first->c_str(); }

}  // namespace xsim
