// The MPI_ALLTOALLW family: one INTEGER datatype per block, so the arrays to convert are
// as long as the communicator (or the rank's neighbor degrees); calls.def cannot say that.
// The persistent forms (Open MPI's MPIX_ALLTOALLW_INIT, MPIX_NEIGHBOR_ALLTOALLW_INIT) too: the
// C init copies the converted arrays, which may go when it returns.
// An invalid communicator leaves them empty, and the C binding reports the communicator.
#include <mpi.h>

#include <vector>

// Open MPI's persistent collectives (libxsim/bindings/collectives.cpp, neighbor_collectives.cpp),
// which mpi.h does not declare.
extern "C" int PMPIX_Alltoallw_init(const void*, const int[], const int[], const MPI_Datatype[], void*, const int[],
                                    const int[], const MPI_Datatype[], MPI_Comm, MPI_Info, MPI_Request*);
extern "C" int PMPIX_Neighbor_alltoallw_init(const void*, const int[], const MPI_Aint[], const MPI_Datatype[], void*,
                                             const int[], const MPI_Aint[], const MPI_Datatype[], MPI_Comm, MPI_Info,
                                             MPI_Request*);

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/fortran/aliases.hpp"
#include "libxsim/fortran/convert.hpp"
#include "libxsim/mpi/topology.hpp"

using namespace xsim;
using namespace xsim::fortran;

namespace {

struct Blocks {
    int in = 0, out = 0;
};

Blocks all_blocks(MPI_Comm comm) {
    const Comm* c = resolve_comm(comm);
    if (!c) return {};
    return {c->peer_size(), c->peer_size()};
}

Blocks neighbor_blocks(MPI_Comm comm) {
    const Comm* c = resolve_comm(comm);
    if (!c || !c->topology || !g_engine || !g_engine->current()) return {};
    const int rank = c->rank_of(*g_engine->current());
    return {topo::indegree(*c->topology, rank), topo::outdegree(*c->topology, rank)};
}

}  // namespace

extern "C" {

void mpi_alltoallw_(void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls, const MPI_Fint* sendtypes,
                    void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* rdispls, const MPI_Fint* recvtypes,
                    const MPI_Fint* comm, MPI_Fint* ierror) {
    const MPI_Comm c = comm_f2c(*comm);
    const Blocks n = all_blocks(c);
    const auto st = types_f2c(sendtypes, n.out), rt = types_f2c(recvtypes, n.in);
    *ierror = PMPI_Alltoallw(buffer(sendbuf), sendcounts, sdispls, st.data(), buffer(recvbuf), recvcounts, rdispls,
                            rt.data(), c);
}

void mpi_ialltoallw_(void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls, const MPI_Fint* sendtypes,
                     void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* rdispls, const MPI_Fint* recvtypes,
                     const MPI_Fint* comm, MPI_Fint* request, MPI_Fint* ierror) {
    const MPI_Comm c = comm_f2c(*comm);
    const Blocks n = all_blocks(c);
    const auto st = types_f2c(sendtypes, n.out), rt = types_f2c(recvtypes, n.in);
    MPI_Request r = MPI_REQUEST_NULL;
    *ierror = PMPI_Ialltoallw(buffer(sendbuf), sendcounts, sdispls, st.data(), buffer(recvbuf), recvcounts, rdispls,
                             rt.data(), c, &r);
    *request = request_c2f(r);
}

void mpi_neighbor_alltoallw_(void* sendbuf, const MPI_Fint* sendcounts, const MPI_Aint* sdispls,
                             const MPI_Fint* sendtypes, void* recvbuf, const MPI_Fint* recvcounts,
                             const MPI_Aint* rdispls, const MPI_Fint* recvtypes, const MPI_Fint* comm,
                             MPI_Fint* ierror) {
    const MPI_Comm c = comm_f2c(*comm);
    const Blocks n = neighbor_blocks(c);
    const auto st = types_f2c(sendtypes, n.out), rt = types_f2c(recvtypes, n.in);
    *ierror = PMPI_Neighbor_alltoallw(buffer(sendbuf), sendcounts, sdispls, st.data(), buffer(recvbuf), recvcounts,
                                     rdispls, rt.data(), c);
}

void mpi_ineighbor_alltoallw_(void* sendbuf, const MPI_Fint* sendcounts, const MPI_Aint* sdispls,
                              const MPI_Fint* sendtypes, void* recvbuf, const MPI_Fint* recvcounts,
                              const MPI_Aint* rdispls, const MPI_Fint* recvtypes, const MPI_Fint* comm,
                              MPI_Fint* request, MPI_Fint* ierror) {
    const MPI_Comm c = comm_f2c(*comm);
    const Blocks n = neighbor_blocks(c);
    const auto st = types_f2c(sendtypes, n.out), rt = types_f2c(recvtypes, n.in);
    MPI_Request r = MPI_REQUEST_NULL;
    *ierror = PMPI_Ineighbor_alltoallw(buffer(sendbuf), sendcounts, sdispls, st.data(), buffer(recvbuf), recvcounts,
                                      rdispls, rt.data(), c, &r);
    *request = request_c2f(r);
}

void mpix_alltoallw_init_(void* sendbuf, const MPI_Fint* sendcounts, const MPI_Fint* sdispls, const MPI_Fint* sendtypes,
                          void* recvbuf, const MPI_Fint* recvcounts, const MPI_Fint* rdispls, const MPI_Fint* recvtypes,
                          const MPI_Fint* comm, const MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierror) {
    const MPI_Comm c = comm_f2c(*comm);
    const Blocks n = all_blocks(c);
    const auto st = types_f2c(sendtypes, n.out), rt = types_f2c(recvtypes, n.in);
    MPI_Request r = MPI_REQUEST_NULL;
    *ierror = PMPIX_Alltoallw_init(buffer(sendbuf), sendcounts, sdispls, st.data(), buffer(recvbuf), recvcounts,
                                   rdispls, rt.data(), c, info_f2c(*info), &r);
    *request = request_c2f(r);
}

void mpix_neighbor_alltoallw_init_(void* sendbuf, const MPI_Fint* sendcounts, const MPI_Aint* sdispls,
                                   const MPI_Fint* sendtypes, void* recvbuf, const MPI_Fint* recvcounts,
                                   const MPI_Aint* rdispls, const MPI_Fint* recvtypes, const MPI_Fint* comm,
                                   const MPI_Fint* info, MPI_Fint* request, MPI_Fint* ierror) {
    const MPI_Comm c = comm_f2c(*comm);
    const Blocks n = neighbor_blocks(c);
    const auto st = types_f2c(sendtypes, n.out), rt = types_f2c(recvtypes, n.in);
    MPI_Request r = MPI_REQUEST_NULL;
    *ierror = PMPIX_Neighbor_alltoallw_init(buffer(sendbuf), sendcounts, sdispls, st.data(), buffer(recvbuf),
                                            recvcounts, rdispls, rt.data(), c, info_f2c(*info), &r);
    *request = request_c2f(r);
}

}  // extern "C"

XSIM_FORTRAN_ALIASES(alltoallw, ALLTOALLW)
XSIM_FORTRAN_ALIASES(ialltoallw, IALLTOALLW)
XSIM_FORTRAN_ALIASES(neighbor_alltoallw, NEIGHBOR_ALLTOALLW)
XSIM_FORTRAN_ALIASES(ineighbor_alltoallw, INEIGHBOR_ALLTOALLW)
XSIM_FORTRAN_X_ALIASES(alltoallw_init, ALLTOALLW_INIT)
XSIM_FORTRAN_X_ALIASES(neighbor_alltoallw_init, NEIGHBOR_ALLTOALLW_INIT)
