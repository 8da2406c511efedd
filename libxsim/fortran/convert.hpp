// What a Fortran entry point needs to call the C binding: INTEGER handles to C handles and
// back, the sentinels of mpif.h / `use mpi` (recognised by address), statuses as INTEGER
// arrays of MPI_STATUS_SIZE, CHARACTER arguments with their hidden lengths, LOGICALs.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::fortran {

// INTEGER handles. Communicators, groups, requests, windows and error handlers are xsim's objects,
// numbered by xsim's own tables (MPI_COMM_WORLD = 0, ... as in Open MPI's mpif.h; a new
// object gets a free number and keeps it for as long as it lives).
// Datatypes, operations and info objects are the real library's and use its numbering.
// An INTEGER that names nothing becomes a handle the C binding rejects as invalid.
MPI_Comm comm_f2c(MPI_Fint f);
MPI_Fint comm_c2f(MPI_Comm c);
MPI_Group group_f2c(MPI_Fint f);
MPI_Fint group_c2f(MPI_Group c);
MPI_Request request_f2c(MPI_Fint f);
MPI_Fint request_c2f(MPI_Request c);
MPI_Message message_f2c(MPI_Fint f);
MPI_Fint message_c2f(MPI_Message c);
MPI_File file_f2c(MPI_Fint f);
MPI_Fint file_c2f(MPI_File c);
MPI_Fint file_update(MPI_Fint before, MPI_File now);
MPI_Fint message_update(MPI_Fint before, MPI_Message now);
MPI_Errhandler errhandler_f2c(MPI_Fint f);
MPI_Fint errhandler_c2f(MPI_Errhandler c);
MPI_Win win_f2c(MPI_Fint f);
MPI_Fint win_c2f(MPI_Win c);
inline MPI_Datatype type_f2c(MPI_Fint f) { return real_mpi.Type_f2c(f); }
inline MPI_Fint type_c2f(MPI_Datatype c) { return real_mpi.Type_c2f(c); }
inline MPI_Op op_f2c(MPI_Fint f) { return real_mpi.Op_f2c(f); }
inline MPI_Fint op_c2f(MPI_Op c) { return real_mpi.Op_c2f(c); }
inline MPI_Info info_f2c(MPI_Fint f) { return real_mpi.Info_f2c(f); }
inline MPI_Fint info_c2f(MPI_Info c) { return real_mpi.Info_c2f(c); }

// After a call that may free or complete the object behind INTEGER `before` and left C
// handle `now`: the INTEGER to give back (the old number is released if the object went).
MPI_Fint comm_update(MPI_Fint before, MPI_Comm now);
MPI_Fint group_update(MPI_Fint before, MPI_Group now);
MPI_Fint request_update(MPI_Fint before, MPI_Request now);
MPI_Fint errhandler_update(MPI_Fint before, MPI_Errhandler now);
MPI_Fint win_update(MPI_Fint before, MPI_Win now);
inline MPI_Fint type_update(MPI_Fint, MPI_Datatype now) { return type_c2f(now); }
inline MPI_Fint op_update(MPI_Fint, MPI_Op now) { return op_c2f(now); }
inline MPI_Fint info_update(MPI_Fint, MPI_Info now) { return info_c2f(now); }

std::vector<MPI_Datatype> types_f2c(const MPI_Fint* handles, MPI_Fint count);
std::vector<MPI_Request> requests_f2c(const MPI_Fint* handles, MPI_Fint count);

// Sentinels: the addresses of Open MPI's common blocks (mpi_fortran_bottom_, ...).
void* buffer(void* f);              // MPI_BOTTOM -> C MPI_BOTTOM, MPI_IN_PLACE -> C MPI_IN_PLACE
int* weights(MPI_Fint* f);          // MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY
bool is_status_ignore(const MPI_Fint* f);
bool is_statuses_ignore(const MPI_Fint* f);

// Statuses: Open MPI's Fortran status is its C MPI_Status as MPI_STATUS_SIZE INTEGERs.
constexpr int kStatusSize = sizeof(MPI_Status) / sizeof(MPI_Fint);
MPI_Status load_status(const MPI_Fint* f);
void store_status(MPI_Fint* f, const MPI_Status& c);  // nothing for MPI_STATUS_IGNORE
inline MPI_Status* status_arg(MPI_Fint* f, MPI_Status* c) { return is_status_ignore(f) ? MPI_STATUS_IGNORE : c; }
// What an output status holds before the call: the caller's, so that the fields the call does
// not set keep their values (MPI_ERROR, which only calls completing several requests set).
inline MPI_Status initial_status(const MPI_Fint* f) { return is_status_ignore(f) ? MPI_Status{} : load_status(f); }

// The default INTEGERs of the MPI-1 calls where C has MPI_Aint (calls.def: int>aint*,
// int>aints[N]). An output that does not fit is not stored: the result is MPI_ERR_ARG,
// raised for `call` with the value and the MPI-2 call to use instead.
int store_narrowed(MPI_Fint* f, MPI_Aint value, const char* call);
std::vector<MPI_Aint> widened(const MPI_Fint* f, MPI_Fint count);

// LOGICAL results: gfortran's .TRUE. is 1.
inline MPI_Fint logical(int c) { return c ? 1 : 0; }

// CHARACTER arguments: input without its leading and trailing blanks (as Open MPI strips
// them); output written into a C buffer large enough for any MPI string, then copied back
// blank padded (and cut at the length).
std::string from_fortran(const char* s, std::size_t length);
class OutString {
public:
    OutString(char* f, std::size_t length);
    char* data() { return buffer_.data(); }
    void store() const;
    // A length the caller gave for this output (MPI_INFO_GET's VALUELEN), cut to what the C
    // buffer holds besides its terminating null: more could not reach the Fortran string anyway.
    int clamp(MPI_Fint length) const {
        const auto room = static_cast<MPI_Fint>(buffer_.size() - 1);
        return length < room ? length : room;
    }

private:
    char* f_;
    std::size_t length_;
    std::vector<char> buffer_;
};

// A Fortran entry point xsim does not implement: stops the run naming it.
[[noreturn]] void unsupported(const char* name);

}  // namespace xsim::fortran
