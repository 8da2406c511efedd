// MPI_GREQUEST_START from Fortran: the query, free and cancel functions are Fortran
// subroutines that take EXTRA_STATE (INTEGER(MPI_ADDRESS_KIND)) by reference, a status as
// MPI_STATUS_SIZE INTEGERs and a LOGICAL COMPLETE. Each request gets a record of the three
// subroutines and where the caller's EXTRA_STATE is: as in Open MPI and MPICH, the
// subroutines get the caller's variable itself, so what free_fn writes there the program
// sees (MPICH's greqf test relies on it). The C generalized request carries the record as its
// own extra state, and three C callbacks convert the arguments and call the subroutines. The
// record goes when free_fn has run (the C side calls it once per request).
#include <mpi.h>

#include <cstring>

#include "libxsim/fortran/aliases.hpp"
#include "libxsim/fortran/convert.hpp"

using namespace xsim::fortran;

namespace {

using FortranQuery = void (*)(MPI_Aint* extra_state, MPI_Fint* status, MPI_Fint* ierror);
using FortranFree = void (*)(MPI_Aint* extra_state, MPI_Fint* ierror);
using FortranCancel = void (*)(MPI_Aint* extra_state, MPI_Fint* complete, MPI_Fint* ierror);

struct FortranGrequest {
    FortranQuery query;
    FortranFree free;
    FortranCancel cancel;
    MPI_Aint* extra_state;
};

int query(void* record, MPI_Status* status) {
    auto* r = static_cast<FortranGrequest*>(record);
    MPI_Fint f_status[kStatusSize];
    std::memcpy(f_status, status, sizeof *status);
    MPI_Fint ierror = MPI_SUCCESS;
    r->query(r->extra_state, f_status, &ierror);
    std::memcpy(status, f_status, sizeof *status);
    return ierror;
}

int release(void* record) {
    auto* r = static_cast<FortranGrequest*>(record);
    MPI_Fint ierror = MPI_SUCCESS;
    r->free(r->extra_state, &ierror);
    delete r;
    return ierror;
}

int cancel(void* record, int complete) {
    auto* r = static_cast<FortranGrequest*>(record);
    MPI_Fint f_complete = logical(complete);
    MPI_Fint ierror = MPI_SUCCESS;
    r->cancel(r->extra_state, &f_complete, &ierror);
    return ierror;
}

}  // namespace

extern "C" {

void mpi_grequest_start_(FortranQuery query_fn, FortranFree free_fn, FortranCancel cancel_fn,
                         MPI_Aint* extra_state, MPI_Fint* request, MPI_Fint* ierror) {
    auto* record = new FortranGrequest{query_fn, free_fn, cancel_fn, extra_state};
    MPI_Request c = MPI_REQUEST_NULL;
    *ierror = PMPI_Grequest_start(&query, &release, &cancel, record, &c);
    if (*ierror != MPI_SUCCESS) {
        delete record;
        return;
    }
    *request = request_c2f(c);
}

}  // extern "C"

XSIM_FORTRAN_ALIASES(grequest_start, GREQUEST_START)
