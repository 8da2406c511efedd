// The MPI-1 names that MPI-2 deprecated and MPI-3.0 removed, which Open MPI 4.1's library
// still exports: programs built against older headers, or with OMPI_ENABLE_MPI1_COMPAT,
// call them. Each is the modern binding under its old name (MPI-2.2 section 2.6.1 gives the
// correspondence), so it validates, reports errors and behaves exactly as that binding does.
// The MPI_LB / MPI_UB markers need nothing here: datatypes are the real library's
// (datatype.hpp), which still knows ompi_mpi_lb and ompi_mpi_ub.
#include <mpi.h>

#include "libxsim/bindings/profiling_alias.hpp"

// Open MPI 4.1's mpi.h hides these prototypes and, in C++11, turns the names into
// static_assert macros unless the library was built with MPI-1 compatibility. The
// definitions below need the plain names; their signatures are MPI-1's.
#undef MPI_Address
#undef MPI_Errhandler_create
#undef MPI_Errhandler_get
#undef MPI_Errhandler_set
#undef MPI_Type_extent
#undef MPI_Type_hindexed
#undef MPI_Type_hvector
#undef MPI_Type_lb
#undef MPI_Type_struct
#undef MPI_Type_ub

namespace {
// MPI-1's MPI_Handler_function: the same call as MPI_Comm_errhandler_function.
using HandlerFunction = void(MPI_Comm*, int*, ...);
}  // namespace

extern "C" {

// Attribute caching (MPI-1 section 5.7): the MPI-1 copy and delete callbacks
// (MPI_Copy_function, MPI_Delete_function, and MPI_NULL_COPY_FN, MPI_DUP_FN,
// MPI_NULL_DELETE_FN) take the same arguments as the communicator ones.
XSIM_MPI_ALIAS(Keyval_create)
int PMPI_Keyval_create(MPI_Copy_function* copy, MPI_Delete_function* remove, int* keyval, void* extra_state) {
    return PMPI_Comm_create_keyval(copy, remove, keyval, extra_state);
}
XSIM_MPI_ALIAS(Keyval_free)
int PMPI_Keyval_free(int* keyval) { return PMPI_Comm_free_keyval(keyval); }
XSIM_MPI_ALIAS(Attr_put)
int PMPI_Attr_put(MPI_Comm comm, int keyval, void* value) { return PMPI_Comm_set_attr(comm, keyval, value); }
XSIM_MPI_ALIAS(Attr_get)
int PMPI_Attr_get(MPI_Comm comm, int keyval, void* value, int* flag) {
    return PMPI_Comm_get_attr(comm, keyval, value, flag);
}
XSIM_MPI_ALIAS(Attr_delete)
int PMPI_Attr_delete(MPI_Comm comm, int keyval) { return PMPI_Comm_delete_attr(comm, keyval); }

// Error handlers (MPI-1 section 7.2): on xsim's communicators, like the MPI-2 names.
XSIM_MPI_ALIAS(Errhandler_create)
int PMPI_Errhandler_create(HandlerFunction* function, MPI_Errhandler* errhandler) {
    return PMPI_Comm_create_errhandler(function, errhandler);
}
XSIM_MPI_ALIAS(Errhandler_set)
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) { return PMPI_Comm_set_errhandler(comm, errhandler); }
XSIM_MPI_ALIAS(Errhandler_get)
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
    return PMPI_Comm_get_errhandler(comm, errhandler);
}

// Addresses and datatypes (MPI-1 section 3.12).
XSIM_MPI_ALIAS(Address)
int PMPI_Address(void* location, MPI_Aint* address) { return PMPI_Get_address(location, address); }

XSIM_MPI_ALIAS(Type_hvector)
int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}
XSIM_MPI_ALIAS(Type_hindexed)
int PMPI_Type_hindexed(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype oldtype,
                       MPI_Datatype* newtype) {
    return PMPI_Type_create_hindexed(count, blocklengths, displacements, oldtype, newtype);
}
// MPI_LB and MPI_UB in `types` set the bounds explicitly (MPI-1 section 3.12.3).
XSIM_MPI_ALIAS(Type_struct)
int PMPI_Type_struct(int count, int blocklengths[], MPI_Aint displacements[], MPI_Datatype types[],
                     MPI_Datatype* newtype) {
    return PMPI_Type_create_struct(count, blocklengths, displacements, types, newtype);
}

// The bounds: MPI_Type_get_extent gives lb and extent, and ub = lb + extent. A null
// output pointer is passed on, so the modern call reports it (MPI_ERR_ARG).
XSIM_MPI_ALIAS(Type_extent)
int PMPI_Type_extent(MPI_Datatype type, MPI_Aint* extent) {
    MPI_Aint lb = 0;
    return PMPI_Type_get_extent(type, &lb, extent);
}
XSIM_MPI_ALIAS(Type_lb)
int PMPI_Type_lb(MPI_Datatype type, MPI_Aint* lb) {
    MPI_Aint extent = 0;
    return PMPI_Type_get_extent(type, lb, &extent);
}
XSIM_MPI_ALIAS(Type_ub)
int PMPI_Type_ub(MPI_Datatype type, MPI_Aint* ub) {
    MPI_Aint lb = 0, extent = 0;
    const int rc = PMPI_Type_get_extent(type, &lb, ub ? &extent : nullptr);
    if (rc == MPI_SUCCESS) *ub = lb + extent;
    return rc;
}

}  // extern "C"
