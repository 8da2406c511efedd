// MPI collective bindings.
#include <mpi.h>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/colls/collectives.hpp"

using namespace xsim;

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
    XSIM_BEGIN_INITIALIZED("MPI_Barrier");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    colls::barrier_dissemination(scope.engine, scope.rank, *c);
    return MPI_SUCCESS;
}

}  // extern "C"
