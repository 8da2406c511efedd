// Neighbor collectives: MPI_(I)neighbor_allgather(v) and MPI_(I)neighbor_alltoall(v, w), and
// their persistent forms MPIX_Neighbor_..._init, on a
// communicator with a topology (MPI_ERR_TOPOLOGY otherwise). Validate the buffers over the
// rank's in- and out-degree, then run the schedule of colls/neighbor_linear.cpp with the
// rank's neighbor plan (topo::neighbor_plan). There is no early return for empty calls:
// counts need only agree between neighbors, so no rank knows that nothing moves anywhere,
// and every rank takes part in every call (empty blocks are skipped).
#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI: the MPIX_*_init declarations these definitions must match
#endif
#endif

#include <memory>
#include <string>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/copied_arrays.hpp"
#include "libxsim/bindings/held_handles.hpp"
#include "libxsim/bindings/persistent_collective.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/colls/collective_call.hpp"
#include "libxsim/colls/entry.hpp"
#include "libxsim/mpi/topology.hpp"

using namespace xsim;
using namespace xsim::colls;

namespace {

int any_topology(CallScope& s, const Comm* c, const Topology** out) {
    *out = c->topology.get();
    if (*out) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_TOPOLOGY, "neighbor collectives need a communicator with a process topology");
}

int neighbor_not_in_place(CallScope& s, const Comm* c, const void* buf) {
    if (buf != MPI_IN_PLACE) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed in neighbor collectives");
}

// Which buffer description a call passes: one count, counts and int displacements (v), or
// counts, byte displacements and datatypes (w).
enum class Form { Uniform, V, W };

// The buffer of n blocks (n = in- or out-degree) of `count` x `type` each (uniform), or
// counts[i] x type at displs[i] (v), or counts[i] x types[i] at byte displs[i] (w).
int blocks(CallScope& s, const Comm* c, Form form, const void* buf, int n, int count, const int* counts,
           const void* displs, MPI_Datatype type, const MPI_Datatype* types, Blocks* out) {
    p2p::Buffer b;
    if (form == Form::Uniform) {
        if (count < 0) return s.fail(c, MPI_ERR_COUNT, "negative count " + std::to_string(count));
        // With no neighbor on this side the buffer is never used and may be null.
        if (int e = checks::buffer(s, c, buf, n > 0 ? count : 0, type, &b)) return e;
        *out = uniform_blocks(buf, count, type);
        mark_bottom(*out, buf, n);
        return MPI_SUCCESS;
    }
    if (n > 0) {
        if (int e = checks::pointer(s, c, counts, "counts")) return e;
        if (int e = checks::pointer(s, c, displs, "displacements")) return e;
        if (form == Form::W)
            if (int e = checks::pointer(s, c, types, "datatypes")) return e;
    }
    for (int i = 0; i < n; ++i)
        if (form == Form::W) {  // byte displacements: from MPI_BOTTOM, addresses (mark_bottom)
            const void* at = address_at(buf, static_cast<const MPI_Aint*>(displs)[i]);
            if (int e = checks::buffer(s, c, at, counts[i], types[i], &b)) return e;
        } else if (int e = checks::buffer(s, c, buf, counts[i], type, &b)) {
            return e;
        }
    if (form == Form::W)
        *out = typed_blocks(buf, counts, static_cast<const MPI_Aint*>(displs), types);
    else
        *out = varying_blocks(buf, counts, static_cast<const int*>(displs), type);
    mark_bottom(*out, buf, n);
    return MPI_SUCCESS;
}

// Blocking: runs the collective. Nonblocking: starts it and returns its request; the
// arguments' copy keeps the plan, the caller keeps its buffers until completion, as MPI
// requires, the request owns copies of its arrays (copied_arrays.hpp) and holds the derived
// datatypes they use (held_handles.hpp: MPI_Type_free may come first). Persistent init: the
// same copies and holds in the definition each MPI_Start runs (persistent_collective.hpp).
int dispatch_neighbor(CallScope& s, const Comm* c, const Collective<NeighborArgs>& table, const NeighborArgs& a,
             const pcoll::Call& how) {
    if (how.form != pcoll::Form::Blocking) {
        auto keep = [&](NeighborArgs& own, CopiedArrays& arrays, HeldHandles& handles) {
            if (!own.allgather) arrays.copy(own.send, own.plan->outdegree);
            arrays.copy(own.recv, own.plan->indegree);
            if (own.allgather) handles.type(own.mine.type);
            else handles.blocks(own.send, own.plan->outdegree);
            handles.blocks(own.recv, own.plan->indegree);
        };
        if (how.form == pcoll::Form::PersistentInit) {
            auto* d = new pcoll::DefinitionOf<NeighborArgs, NothingKept>(pcoll::own_comm(s.rank, *c), table, 0, a,
                                                                         NothingKept{}, nullptr);
            keep(d->args(), d->arrays(), d->handles());
            *how.request = pcoll::persistent_request(s, *c, table.kind, 0, d);
            return MPI_SUCCESS;
        }
        NeighborArgs own = a;
        KeptWithHandles<CopiedArrays> kept;
        keep(own, kept.keep, kept.handles);
        *how.request = request_handle(colls::start(table, s.engine, s.rank, *c, 0, own, std::move(kept)));
        return MPI_SUCCESS;
    }
    std::string why;
    const int rc = colls::run(table, s.engine, s.rank, *c, 0, a, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : s.fail(c, rc, why);
}

// What every neighbor collective checks first: the communicator, its topology, the
// request (nonblocking and persistent forms) and info (persistent), no MPI_IN_PLACE; then the rank's neighbor plan.
int prologue(CallScope& scope, MPI_Comm comm, const pcoll::Call& how, const void* sendbuf, const void* recvbuf,
             const Comm** c, NeighborArgs* a) {
    const Topology* t = nullptr;
    if (int e = checks::comm(scope, comm, c)) return e;
    if (int e = any_topology(scope, *c, &t)) return e;
    if (int e = pcoll::check_request(scope, *c, how)) return e;
    if (int e = neighbor_not_in_place(scope, *c, sendbuf)) return e;
    if (int e = neighbor_not_in_place(scope, *c, recvbuf)) return e;
    a->plan = std::make_shared<const topo::NeighborPlan>(topo::neighbor_plan(*t, (*c)->rank_of(scope.rank)));
    return MPI_SUCCESS;
}

int neighbor_allgather(const char* call, const Collective<NeighborArgs>& table, Form form, const void* sendbuf,
                       int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, const int* recvcounts,
                       const int* displs, MPI_Datatype recvtype, MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    NeighborArgs a;
    if (int e = prologue(scope, comm, how, sendbuf, recvbuf, &c, &a)) return e;
    const topo::NeighborPlan& plan = *a.plan;
    a.allgather = true;
    Blocks mine;
    if (int e = blocks(scope, c, Form::Uniform, sendbuf, plan.outdegree, sendcount, nullptr, nullptr, sendtype, nullptr,
                       &mine))
        return e;
    a.mine = mine.block(0);
    if (int e =
            blocks(scope, c, form, recvbuf, plan.indegree, recvcount, recvcounts, displs, recvtype, nullptr, &a.recv))
        return e;
    return dispatch_neighbor(scope, c, table, a, how);
}

int neighbor_alltoall(const char* call, const Collective<NeighborArgs>& table, Form form, const void* sendbuf,
                      int sendcount, const int* sendcounts, const void* sdispls, MPI_Datatype sendtype,
                      const MPI_Datatype* sendtypes, void* recvbuf, int recvcount, const int* recvcounts,
                      const void* rdispls, MPI_Datatype recvtype, const MPI_Datatype* recvtypes, MPI_Comm comm,
                      const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    NeighborArgs a;
    if (int e = prologue(scope, comm, how, sendbuf, recvbuf, &c, &a)) return e;
    const topo::NeighborPlan& plan = *a.plan;
    if (int e = blocks(scope, c, form, sendbuf, plan.outdegree, sendcount, sendcounts, sdispls, sendtype, sendtypes,
                       &a.send))
        return e;
    if (int e = blocks(scope, c, form, recvbuf, plan.indegree, recvcount, recvcounts, rdispls, recvtype, recvtypes,
                       &a.recv))
        return e;
    return dispatch_neighbor(scope, c, table, a, how);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Neighbor_allgather)
int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm) {
    return neighbor_allgather("MPI_Neighbor_allgather", neighbor_allgather_table(), Form::Uniform, sendbuf, sendcount,
                              sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, comm, pcoll::Call{});
}

XSIM_MPI_ALIAS(Neighbor_allgatherv)
int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
    return neighbor_allgather("MPI_Neighbor_allgatherv", neighbor_allgatherv_table(), Form::V, sendbuf, sendcount,
                              sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm, pcoll::Call{});
}

XSIM_MPI_ALIAS(Neighbor_alltoall)
int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm) {
    return neighbor_alltoall("MPI_Neighbor_alltoall", neighbor_alltoall_table(), Form::Uniform, sendbuf, sendcount,
                             nullptr, nullptr, sendtype, nullptr, recvbuf, recvcount, nullptr, nullptr, recvtype,
                             nullptr, comm, pcoll::Call{});
}

XSIM_MPI_ALIAS(Neighbor_alltoallv)
int PMPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm) {
    return neighbor_alltoall("MPI_Neighbor_alltoallv", neighbor_alltoallv_table(), Form::V, sendbuf, 0, sendcounts,
                             sdispls, sendtype, nullptr, recvbuf, 0, recvcounts, rdispls, recvtype, nullptr, comm,
                             pcoll::Call{});
}

XSIM_MPI_ALIAS(Neighbor_alltoallw)
int PMPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
    return neighbor_alltoall("MPI_Neighbor_alltoallw", neighbor_alltoallw_table(), Form::W, sendbuf, 0, sendcounts,
                             sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL,
                             recvtypes, comm, pcoll::Call{});
}

// Nonblocking forms: the same schedule, driven by its messages' completions.
XSIM_MPI_ALIAS(Ineighbor_allgather)
int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return neighbor_allgather("MPI_Ineighbor_allgather", neighbor_allgather_table(), Form::Uniform, sendbuf, sendcount,
                              sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, comm,
                              pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Ineighbor_allgatherv)
int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request) {
    return neighbor_allgather("MPI_Ineighbor_allgatherv", neighbor_allgatherv_table(), Form::V, sendbuf, sendcount,
                              sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Ineighbor_alltoall)
int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return neighbor_alltoall("MPI_Ineighbor_alltoall", neighbor_alltoall_table(), Form::Uniform, sendbuf, sendcount,
                             nullptr, nullptr, sendtype, nullptr, recvbuf, recvcount, nullptr, nullptr, recvtype,
                             nullptr, comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Ineighbor_alltoallv)
int PMPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request* request) {
    return neighbor_alltoall("MPI_Ineighbor_alltoallv", neighbor_alltoallv_table(), Form::V, sendbuf, 0, sendcounts,
                             sdispls, sendtype, nullptr, recvbuf, 0, recvcounts, rdispls, recvtype, nullptr, comm,
                             pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Ineighbor_alltoallw)
int PMPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request* request) {
    return neighbor_alltoall("MPI_Ineighbor_alltoallw", neighbor_alltoallw_table(), Form::W, sendbuf, 0, sendcounts,
                             sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL,
                             recvtypes, comm, pcoll::nonblocking(request));
}

// Persistent forms (persistent_collective.hpp): the nonblocking call's checks at the init,
// its schedule at every MPI_Start.
XSIM_MPIX_ALIAS(Neighbor_allgather_init)
int PMPIX_Neighbor_allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
    return neighbor_allgather("MPIX_Neighbor_allgather_init", neighbor_allgather_table(), Form::Uniform, sendbuf,
                              sendcount, sendtype, recvbuf, recvcount, nullptr, nullptr, recvtype, comm,
                              pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Neighbor_allgatherv_init)
int PMPIX_Neighbor_allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                                   MPI_Info info, MPI_Request* request) {
    return neighbor_allgather("MPIX_Neighbor_allgatherv_init", neighbor_allgatherv_table(), Form::V, sendbuf, sendcount,
                              sendtype, recvbuf, 0, recvcounts, displs, recvtype, comm,
                              pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Neighbor_alltoall_init)
int PMPIX_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) {
    return neighbor_alltoall("MPIX_Neighbor_alltoall_init", neighbor_alltoall_table(), Form::Uniform, sendbuf,
                             sendcount, nullptr, nullptr, sendtype, nullptr, recvbuf, recvcount, nullptr, nullptr,
                             recvtype, nullptr, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Neighbor_alltoallv_init)
int PMPIX_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                  MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return neighbor_alltoall("MPIX_Neighbor_alltoallv_init", neighbor_alltoallv_table(), Form::V, sendbuf, 0,
                             sendcounts, sdispls, sendtype, nullptr, recvbuf, 0, recvcounts, rdispls, recvtype, nullptr,
                             comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Neighbor_alltoallw_init)
int PMPIX_Neighbor_alltoallw_init(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                                  const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                                  MPI_Info info, MPI_Request* request) {
    return neighbor_alltoall("MPIX_Neighbor_alltoallw_init", neighbor_alltoallw_table(), Form::W, sendbuf, 0,
                             sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes, recvbuf, 0, recvcounts, rdispls,
                             MPI_DATATYPE_NULL, recvtypes, comm, pcoll::persistent(request, info));
}

}  // extern "C"
