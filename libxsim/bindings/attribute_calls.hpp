// The attribute calls of both languages (MPI-4.0 section 19.3.7): the C bindings
// (MPI_Comm_get_attr, ...) and the Fortran ones (libxsim/fortran/keyvals.cpp) share these,
// each naming its call and its language. A value set in C is a pointer (passed as an
// MPI_Aint), one set in Fortran the integer; a read returns what the reader's language
// sees (mpi/attributes.hpp).
#pragma once
#include <mpi.h>

#include "libxsim/mpi/attributes.hpp"

namespace xsim {

// comm_basic.cpp: user attributes and the predefined ones (MPI_TAG_UB, ...: C gets a
// pointer to the int, Fortran the int).
int comm_get_attr(const char* call, MPI_Comm comm, int keyval, Language reader, MPI_Aint* value, int* flag);
int comm_set_attr(const char* call, MPI_Comm comm, int keyval, Language set_in, MPI_Aint value);
// windows.cpp: user attributes and the predefined ones (C: MPI_WIN_BASE the base address,
// the others a pointer to their value; Fortran: each its value).
int win_get_attr(const char* call, MPI_Win win, int keyval, Language reader, MPI_Aint* value, int* flag);
int win_set_attr(const char* call, MPI_Win win, int keyval, Language set_in, MPI_Aint value);
// type_attributes.cpp.
int type_get_attr(const char* call, MPI_Datatype type, int keyval, Language reader, MPI_Aint* value, int* flag);
int type_set_attr(const char* call, MPI_Datatype type, int keyval, Language set_in, MPI_Aint value);

// comm_basic.cpp: the C calls MPI_{Comm,Win,Type}_create_keyval and _free_keyval, for `kind`
// (the window's and type's callback types are the communicator's with another handle).
int c_create_keyval(const char* call, KeyvalKind kind, MPI_Comm_copy_attr_function* copy,
                    MPI_Comm_delete_attr_function* remove, int* keyval, void* extra_state);
int c_free_keyval(const char* call, KeyvalKind kind, int* keyval);

}  // namespace xsim
