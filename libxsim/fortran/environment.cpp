// Hand-written Fortran calls whose arguments or results do not fit calls.def: the clock
// functions (DOUBLE PRECISION results), address arithmetic (MPI_AINT_ADD and MPI_AINT_DIFF,
// INTEGER(KIND=MPI_ADDRESS_KIND) results), MPI_F_SYNC_REG (does nothing, by definition), MPI_BUFFER_DETACH (no address comes back to
// Fortran), attribute values (INTEGERs in Fortran, pointers in C) and
// MPI_TYPE_GET_CONTENTS (an array of datatype handles out).
#include <mpi.h>

#include <vector>

#include "libxsim/fortran/aliases.hpp"
#include "libxsim/fortran/convert.hpp"

using namespace xsim::fortran;

namespace {

// The predefined attributes are C pointers to an int; Fortran sees the int. Any other
// attribute was set from C (Fortran cannot create keyvals under xsim): its value is the
// pointer itself, as in Open MPI.
MPI_Aint attribute_value(int keyval, void* c) {
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_HOST:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_APPNUM:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
        return *static_cast<int*>(c);
    default:
        return reinterpret_cast<MPI_Aint>(c);
    }
}

}  // namespace

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

void mpi_comm_get_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                        MPI_Fint* ierror) {
    void* c = nullptr;
    int found = 0;
    *ierror = PMPI_Comm_get_attr(comm_f2c(*comm), *keyval, &c, &found);
    *flag = logical(found);
    if (*ierror == MPI_SUCCESS && found) *value = attribute_value(*keyval, c);
}

void mpi_attr_get_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* flag, MPI_Fint* ierror) {
    void* c = nullptr;
    int found = 0;
    *ierror = PMPI_Comm_get_attr(comm_f2c(*comm), *keyval, &c, &found);
    *flag = logical(found);
    if (*ierror == MPI_SUCCESS && found) *value = static_cast<MPI_Fint>(attribute_value(*keyval, c));
}

// A window's predefined attributes: in C, MPI_WIN_BASE is the address and the others point
// to their value; in Fortran each is its value. Any other attribute's value is the C
// pointer itself (as set by MPI_WIN_SET_ATTR, keyvals.cpp).
void mpi_win_get_attr_(const MPI_Fint* win, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                       MPI_Fint* ierror) {
    void* c = nullptr;
    int found = 0;
    *ierror = PMPI_Win_get_attr(win_f2c(*win), *keyval, &c, &found);
    *flag = logical(found);
    if (*ierror != MPI_SUCCESS || !found) return;
    if (*keyval == MPI_WIN_SIZE) *value = *static_cast<MPI_Aint*>(c);
    else if (*keyval == MPI_WIN_DISP_UNIT || *keyval == MPI_WIN_CREATE_FLAVOR || *keyval == MPI_WIN_MODEL)
        *value = *static_cast<int*>(c);
    else *value = reinterpret_cast<MPI_Aint>(c);  // MPI_WIN_BASE, and the program's own
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
XSIM_FORTRAN_ALIASES(comm_get_attr, COMM_GET_ATTR)
XSIM_FORTRAN_ALIASES(attr_get, ATTR_GET)
XSIM_FORTRAN_ALIASES(type_get_contents, TYPE_GET_CONTENTS)
XSIM_FORTRAN_ALIASES(win_get_attr, WIN_GET_ATTR)
