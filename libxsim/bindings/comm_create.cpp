// Communicator construction and destruction: MPI_Comm_dup, _split, _split_type, _create,
// _create_group, _free, plus comparisons and the intercommunicator queries.
#include <mpi.h>

#include <string>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/colls/make_comm.hpp"
#include "libxsim/colls/make_comm_split.hpp"
#include "libxsim/colls/make_intercomm.hpp"
#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/mpi/real_mpi.hpp"

using namespace xsim;

namespace {

int give_comm(MPI_Comm* out, Comm* c) {
    *out = c ? comm_handle(c) : MPI_COMM_NULL;
    return MPI_SUCCESS;
}

int comm_group_arg(CallScope& s, const Comm* c, MPI_Group handle, Group** out) {
    *out = resolve_group(handle);
    if (*out) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_GROUP, "invalid group handle");
}

// MPI_Comm_split_type and _create_group are for intracommunicators: say so of an intercommunicator.
int creating_intracomm(CallScope& s, MPI_Comm handle, const Comm** out) {
    if (int e = checks::comm(s, handle, out)) return e;
    if (!(*out)->is_inter()) return MPI_SUCCESS;
    return s.fail(*out, MPI_ERR_COMM, std::string(s.call) + " of an intercommunicator is not supported by xsim");
}

// MPI_Comm_dup and MPI_Comm_dup_with_info, of an intra- or an intercommunicator.
int dup(CallScope& scope, const Comm& c, MPI_Comm* newcomm) {
    Comm* out = nullptr;
    if (int e = c.is_inter() ? dup_intercomm(scope, c, &out) : dup_comm(scope, c, &out)) {
        *newcomm = MPI_COMM_NULL;  // as Open MPI leaves it
        return e;
    }
    return give_comm(newcomm, out);
}

// MPI_Comm_split (of either kind of communicator; `intra_only`: MPI_Comm_split_type).
int split(CallScope& scope, MPI_Comm comm, int color, int key, MPI_Comm* newcomm, bool intra_only) {
    const Comm* c = nullptr;
    if (int e = intra_only ? creating_intracomm(scope, comm, &c) : checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, newcomm, "newcomm")) return e;
    if (color < 0 && color != MPI_UNDEFINED)
        return scope.fail(c, MPI_ERR_ARG, "color " + std::to_string(color) + " is negative and not MPI_UNDEFINED");
    Comm* out = nullptr;
    if (int e = c->is_inter() ? split_intercomm(scope, *c, color, key, &out) : split_comm(scope, *c, color, key, &out))
        return e;
    return give_comm(newcomm, out);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Comm_dup)
int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_dup");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, newcomm, "newcomm")) return e;
    return dup(scope, *c, newcomm);
}

XSIM_MPI_ALIAS(Comm_idup)
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm* newcomm, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_idup");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, newcomm, "newcomm")) return e;
    if (int e = checks::pointer(scope, c, request, "request")) return e;
    Comm* out = nullptr;
    Request* r = nullptr;
    if (int e = c->is_inter() ? idup_intercomm(scope, *c, &out, &r) : idup_comm(scope, *c, &out, &r)) {
        *newcomm = MPI_COMM_NULL;
        *request = MPI_REQUEST_NULL;
        return e;
    }
    *request = request_handle(r);
    return give_comm(newcomm, out);
}

// Info hints may be ignored (MPI-4 section 9.3.3).
XSIM_MPI_ALIAS(Comm_dup_with_info)
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm* newcomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_dup_with_info");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    // MPI_INFO_NULL: no hints (Open MPI accepts it too); anything else must be a live info.
    int keys = 0;
    if (info != MPI_INFO_NULL && real_mpi.Info_get_nkeys(info, &keys) != MPI_SUCCESS)
        return scope.fail(c, MPI_ERR_INFO, "invalid info object");
    if (int e = checks::pointer(scope, c, newcomm, "newcomm")) return e;
    return dup(scope, *c, newcomm);
}

XSIM_MPI_ALIAS(Comm_split)
int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_split");
    return split(scope, comm, color, key, newcomm, false);
}

// Shared memory is a simulated node of the machine model (its rank mapping).
XSIM_MPI_ALIAS(Comm_split_type)
int PMPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info, MPI_Comm* newcomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_split_type");
    int color = MPI_UNDEFINED;
    if (split_type == MPI_COMM_TYPE_SHARED) color = scope.engine.machine().node_of(scope.rank.world);
    else if (split_type != MPI_UNDEFINED)
        return scope.fail(resolve_comm(comm), MPI_ERR_ARG,
                          "split type " + std::to_string(split_type) +
                              " is not supported (MPI_COMM_TYPE_SHARED and MPI_UNDEFINED are)");
    return split(scope, comm, color, key, newcomm, true);
}

XSIM_MPI_ALIAS(Comm_create)
int PMPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm* newcomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_create");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    Group* g = nullptr;
    if (int e = comm_group_arg(scope, c, group, &g)) return e;
    if (int e = checks::pointer(scope, c, newcomm, "newcomm")) return e;
    Comm* out = nullptr;
    if (int e = c->is_inter() ? create_intercomm_from(scope, *c, *g, &out) : create_comm(scope, *c, *g, &out)) return e;
    return give_comm(newcomm, out);
}

XSIM_MPI_ALIAS(Comm_create_group)
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm* newcomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_create_group");
    const Comm* c = nullptr;
    if (int e = creating_intracomm(scope, comm, &c)) return e;
    Group* g = nullptr;
    if (int e = comm_group_arg(scope, c, group, &g)) return e;
    if (int e = checks::tag(scope, c, tag, false)) return e;
    if (int e = checks::pointer(scope, c, newcomm, "newcomm")) return e;
    Comm* out = nullptr;
    if (int e = create_comm_from_group(scope, *c, *g, tag, &out)) return e;
    return give_comm(newcomm, out);
}

XSIM_MPI_ALIAS(Comm_free)
int PMPI_Comm_free(MPI_Comm* comm) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_free");
    if (int e = checks::pointer(scope, nullptr, comm, "comm")) return e;
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, *comm, &c)) return e;
    if (c->kind != CommKind::Derived)
        return scope.fail(c, MPI_ERR_COMM, std::string("cannot free the predefined ") + c->name);
    // Attribute delete callbacks run now (MPI-4 section 7.7.4); pending operations keep
    // the object itself alive until they complete.
    if (int e = delete_all_attributes(c->attributes, *comm))
        return scope.fail(c, e, "an attribute delete callback failed with error " + std::to_string(e));
    c->freed = true;
    unref(c);
    *comm = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

// Pending operations on the communicator complete on their own (they hold a reference),
// so disconnecting is freeing.
XSIM_MPI_ALIAS(Comm_disconnect)
int PMPI_Comm_disconnect(MPI_Comm* comm) { return PMPI_Comm_free(comm); }

XSIM_MPI_ALIAS(Comm_compare)
int PMPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int* result) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_compare");
    const Comm *a = nullptr, *b = nullptr;
    if (int e = checks::comm(scope, comm1, &a)) return e;
    if (int e = checks::comm(scope, comm2, &b)) return e;
    if (int e = checks::pointer(scope, a, result, "result")) return e;
    if (a == b) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    Group* ga = comm_group(*a, scope.rank);
    Group* gb = comm_group(*b, scope.rank);
    const int groups = compare_groups(*ga, *gb);
    unref(ga);
    unref(gb);
    *result = groups == MPI_IDENT ? MPI_CONGRUENT : groups;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_test_inter)
int PMPI_Comm_test_inter(MPI_Comm comm, int* flag) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_test_inter");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, flag, "flag")) return e;
    *flag = c->is_inter();
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_remote_size)
int PMPI_Comm_remote_size(MPI_Comm comm, int* size) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_remote_size");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, size, "size")) return e;
    if (!c->is_inter()) return scope.fail(c, MPI_ERR_COMM, "not an intercommunicator");
    *size = c->remote_group->size;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_remote_group)
int PMPI_Comm_remote_group(MPI_Comm comm, MPI_Group* group) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_remote_group");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, group, "group")) return e;
    if (!c->is_inter()) return scope.fail(c, MPI_ERR_COMM, "not an intercommunicator");
    *group = group_handle(ref(c->remote_group));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Intercomm_create)
int PMPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
                          MPI_Comm* newintercomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Intercomm_create");
    const Comm* local = nullptr;
    if (int e = creating_intracomm(scope, local_comm, &local)) return e;
    if (int e = checks::pointer(scope, local, newintercomm, "newintercomm")) return e;
    if (local_leader < 0 || local_leader >= local->size)
        return scope.fail(local, MPI_ERR_RANK, "invalid local leader " + std::to_string(local_leader) +
                                                   " (communicator size " + std::to_string(local->size) + ")");
    if (int e = checks::tag(scope, local, tag, false)) return e;
    // peer_comm and remote_leader are significant at the local leader only.
    const Comm* peer = nullptr;
    if (local->rank_of(scope.rank) == local_leader) {
        if (int e = creating_intracomm(scope, peer_comm, &peer)) return e;
        if (remote_leader < 0 || remote_leader >= peer->size)
            return scope.fail(peer, MPI_ERR_RANK, "invalid remote leader " + std::to_string(remote_leader) +
                                                      " (peer communicator size " + std::to_string(peer->size) + ")");
        if (peer->world_rank(remote_leader, scope.rank) == scope.rank.world)
            return scope.fail(peer, MPI_ERR_RANK, "the remote leader is the local leader itself");
    }
    Comm* out = nullptr;
    if (int e = create_intercomm(scope, *local, local_leader, peer, remote_leader, tag, &out)) return e;
    return give_comm(newintercomm, out);
}

XSIM_MPI_ALIAS(Intercomm_merge)
int PMPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm* newintracomm) {
    XSIM_BEGIN_INITIALIZED("MPI_Intercomm_merge");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, intercomm, &c)) return e;
    if (int e = checks::pointer(scope, c, newintracomm, "newintracomm")) return e;
    if (!c->is_inter()) return scope.fail(c, MPI_ERR_COMM, "not an intercommunicator");
    Comm* out = nullptr;
    if (int e = merge_intercomm(scope, *c, high != 0, &out)) return e;
    return give_comm(newintracomm, out);
}

}  // extern "C"
