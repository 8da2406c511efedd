// Hand-written Fortran calls whose arguments or results do not fit calls.def: the clock
// functions (DOUBLE PRECISION results), address arithmetic (MPI_AINT_ADD and MPI_AINT_DIFF,
// INTEGER(KIND=MPI_ADDRESS_KIND) results), MPI_F_SYNC_REG (does nothing, by definition), MPI_BUFFER_DETACH (no address comes back to
// Fortran) and MPI_TYPE_GET_CONTENTS (an array of datatype handles out).
#include <mpi.h>

#include <vector>

#include "libxsim/fortran/aliases.hpp"
#include "libxsim/fortran/convert.hpp"

using namespace xsim::fortran;

extern "C" {

double mpi_wtime_() { return PMPI_Wtime(); }
// Only there so that the compiler cannot keep the buffer in registers across it.
void mpi_f_sync_reg_(void*) {}
double mpi_wtick_() { return PMPI_Wtick(); }
MPI_Aint mpi_aint_add_(const MPI_Aint* base, const MPI_Aint* disp) { return PMPI_Aint_add(*base, *disp); }
MPI_Aint mpi_aint_diff_(const MPI_Aint* addr1, const MPI_Aint* addr2) { return PMPI_Aint_diff(*addr1, *addr2); }

void mpi_buffer_detach_(void* /*buffer_addr*/, MPI_Fint* size, MPI_Fint* ierror) {
    void* buffer = nullptr;
    int bytes = 0;
    *ierror = PMPI_Buffer_detach(&buffer, &bytes);
    *size = bytes;
}

void mpi_type_get_contents_(const MPI_Fint* type, const MPI_Fint* max_integers, const MPI_Fint* max_addresses,
                            const MPI_Fint* max_datatypes, MPI_Fint* integers, MPI_Aint* addresses,
                            MPI_Fint* datatypes, MPI_Fint* ierror) {
    std::vector<MPI_Datatype> c(*max_datatypes > 0 ? static_cast<std::size_t>(*max_datatypes) : 0, MPI_DATATYPE_NULL);
    *ierror = PMPI_Type_get_contents(type_f2c(*type), *max_integers, *max_addresses, *max_datatypes, integers,
                                    addresses, c.data());
    if (*ierror != MPI_SUCCESS) return;
    for (std::size_t i = 0; i < c.size(); ++i) datatypes[i] = type_c2f(c[i]);
}

}  // extern "C"

XSIM_FORTRAN_ALIASES(wtime, WTIME)
XSIM_FORTRAN_ALIASES(f_sync_reg, F_SYNC_REG)
XSIM_FORTRAN_ALIASES(wtick, WTICK)
XSIM_FORTRAN_ALIASES(aint_add, AINT_ADD)
XSIM_FORTRAN_ALIASES(aint_diff, AINT_DIFF)
XSIM_FORTRAN_ALIASES(buffer_detach, BUFFER_DETACH)
XSIM_FORTRAN_ALIASES(type_get_contents, TYPE_GET_CONTENTS)
