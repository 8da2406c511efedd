#include "libxsim/colls/make_comm.hpp"

#include <string>

#include "libxsim/mpi/attributes.hpp"
#include "libxsim/colls/algorithms.hpp"
#include "libxsim/colls/collective_call.hpp"
#include "libxsim/colls/make_intercomm.hpp"
#include "libxsim/mpi/group.hpp"

namespace xsim {
namespace {

// Derivation tags, so dup, create and split of one parent never share a context.
constexpr std::uint64_t kDup = 0x647570, kCreate = 0x637274, kCreateGroup = 0x637267;

// Whether every member of `group` belongs to `parent`: O(1) for regular groups of WORLD.
bool is_subgroup(const Group& group, const Comm& parent, const Rank& me) {
    if (group.size == 0) return true;
    if (parent.kind == CommKind::World && group.regular()) {
        const std::int64_t last = group.first + static_cast<std::int64_t>(group.size - 1) * group.stride;
        return group.first >= 0 && group.first < parent.size && last >= 0 && last < parent.size;
    }
    if (parent.kind == CommKind::Self) return group.size == 1 && group.world_of(0) == me.world;
    for (int i = 0; i < group.size; ++i) {
        const int w = group.world_of(i);
        if (parent.kind == CommKind::World ? (w < 0 || w >= parent.size)
                                           : parent.group->rank_of_world(w) == MPI_UNDEFINED)
            return false;
    }
    return true;
}

}  // namespace

Comm* new_derived_comm(Rank& me, const Comm& parent, Group* group, int my_rank, const ContextId& id) {
    if (std::string collision = acquire_context(id); !collision.empty()) g_engine->abort_run(MPI_ERR_INTERN, collision);
    auto* c = new Comm;
    c->kind = CommKind::Derived;
    c->context = id.context;
    c->size = group->size;
    c->my_rank = my_rank;
    c->group = group;
    c->errhandler = errhandler_slot(me, &parent);
    return c;
}

int agree_on_new_comm(CallScope& scope, const Comm& comm, colls::CollKind kind) {
    colls::Context ctx(scope.engine, scope.rank, comm, kind, 0);
    const int e = colls::run_blocking(ctx, colls::barrier_dissemination.run(ctx, colls::BarrierArgs{}));
    return e == MPI_SUCCESS ? e : scope.fail(&comm, e, ctx.error);
}

int copy_comm_attributes(CallScope& scope, const Comm& parent, Comm* c) {
    std::string why;
    const int e = copy_attributes(attributes_slot(parent, scope.rank), comm_handle(&parent), c->attributes, &why);
    if (e == MPI_SUCCESS) return e;
    delete_all_attributes(c->attributes, comm_handle(c));
    unref(c);
    return scope.fail(&parent, e, why);
}

namespace {

// The caller's copy of `parent` (context, group, topology, attributes), without agreement.
int copy_comm(CallScope& scope, const Comm& parent, Comm** out) {
    Comm* c = private_copy(scope.rank, parent, kDup);
    if (int e = copy_comm_attributes(scope, parent, c)) return e;
    *out = c;
    return MPI_SUCCESS;
}

}  // namespace

const colls::Collective<colls::BarrierArgs>& dup_agreement() {
    static const colls::Collective<colls::BarrierArgs> t{
        colls::CollKind::CommDup,
        {&colls::barrier_dissemination},
        [](const colls::Context&, const colls::BarrierArgs&) { return &colls::barrier_dissemination; }};
    return t;
}

int dup_comm(CallScope& scope, const Comm& parent, Comm** out) {
    *out = nullptr;
    if (int e = agree_on_new_comm(scope, parent, colls::CollKind::CommDup)) return e;
    return copy_comm(scope, parent, out);
}

int idup_comm(CallScope& scope, const Comm& parent, Comm** out, Request** request) {
    *out = nullptr;
    if (int e = copy_comm(scope, parent, out)) return e;
    *request = colls::start(dup_agreement(), scope.engine, scope.rank, parent, 0, colls::BarrierArgs{});
    return MPI_SUCCESS;
}

int create_comm(CallScope& scope, const Comm& parent, Group& group, Comm** out) {
    *out = nullptr;
    if (!is_subgroup(group, parent, scope.rank))
        return scope.fail(&parent, MPI_ERR_GROUP, "the group has members outside the communicator");
    if (int e = agree_on_new_comm(scope, parent, colls::CollKind::CommCreate)) return e;
    const ContextId id = derive_context(parent.context, creation_counter(scope.rank, parent)++, kCreate);
    const int my_rank = group.rank_of_world(scope.rank.world);
    if (my_rank == MPI_UNDEFINED) return MPI_SUCCESS;
    *out = new_derived_comm(scope.rank, parent, ref(&group), my_rank, id);
    return MPI_SUCCESS;
}

int create_comm_from_group(CallScope& scope, const Comm& parent, Group& group, int tag, Comm** out) {
    *out = nullptr;
    if (!is_subgroup(group, parent, scope.rank))
        return scope.fail(&parent, MPI_ERR_GROUP, "the group has members outside the communicator");
    const int my_rank = group.rank_of_world(scope.rank.world);
    if (my_rank == MPI_UNDEFINED) return MPI_SUCCESS;  // not a member: MPI_COMM_NULL
    // Only the group's members take part, so the parent's creation counter would not agree
    // among them: the context comes from the group, the tag, and how many communicators
    // this rank made before from the same parent, group and tag (the same on every member;
    // counted until the rank's parent is gone, context_ids.hpp).
    const std::uint64_t fingerprint = group.fingerprint();
    const std::uint32_t repeat = next_repeat(parent.context, scope.rank.world, tag, fingerprint ^ kCreateGroup);
    const ContextId id = derive_context(parent.context, fingerprint ^ kCreateGroup,
                                        (static_cast<std::uint64_t>(static_cast<std::uint32_t>(tag)) << 32) | repeat);
    Comm* c = new_derived_comm(scope.rank, parent, ref(&group), my_rank, id);
    if (int e = agree_on_new_comm(scope, *c, colls::CollKind::CommCreate)) {
        unref(c);
        return e;
    }
    *out = c;
    return MPI_SUCCESS;
}

}  // namespace xsim
