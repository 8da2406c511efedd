// What the MPI_File_* bindings share (file_open_close.cpp, file_data.cpp, file_shared_pointer.cpp,
// file_local.cpp): the file argument, real-library results, storage time, and completed
// requests for nonblocking I/O.
#pragma once
#include <mpi.h>

#include <string>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/io/file.hpp"
#include "libxsim/io/file_errors.hpp"

namespace xsim::file_support {

// Resolves `handle`; a handle that names no open file is MPI_ERR_FILE (raised on
// MPI_FILE_NULL's handler, as no file is known).
int file_arg(CallScope& s, MPI_File handle, io::File** out);

// `code` of a real MPI_File_* call on `f`'s handle: success, or its class raised on `f`.
int real_result(CallScope& s, io::File* f, int code);

// A status for the real call: the caller's, or `scratch` for MPI_STATUS_IGNORE.
inline MPI_Status* status_or(MPI_Status* status, MPI_Status* scratch) {
    return status == MPI_STATUS_IGNORE ? scratch : status;
}

// Bytes a real data access moved (its status).
std::uint64_t bytes_moved(const MPI_Status& status);

// The storage model's time for a call that moved `bytes` (netmodels/storage_model.hpp).
SimTime storage_time(CallScope& s, std::uint64_t bytes);

// A request that completes at `done` with `status` (nonblocking I/O is carried out at the
// call; the request carries its time and its status to MPI_Wait/MPI_Test).
MPI_Request completed_request(CallScope& s, SimTime done, const MPI_Status& status);

// A request that xsim completes later (complete_request), when the access it stands for is
// done: nonblocking shared-pointer access, which waits for the pointer's answer. *status is
// what its completion call will report, and its MPI_ERROR the error class that call returns;
// fill it before complete_request.
MPI_Request pending_request(CallScope& s, MPI_Status** status);
void complete_request(Engine& engine, MPI_Request request, SimTime done);

// Split collectives (MPI_File_*_begin / _end), one outstanding per file: whether another is
// (MPI_ERR_OTHER raised on `f`), and the whole `call` (an _end) of the one `begin` started
// with `buf` on `fh`: its status and its storage time.
int no_split_outstanding(CallScope& s, io::File* f);
int split_end(const char* call, const char* begin, MPI_File fh, const void* buf, MPI_Status* status);

// Whether the file's access mode allows the access (MPI-4.0 section 14.2.1), before the real
// library sees it: MPI_ERR_READ_ONLY for a write on an MPI_MODE_RDONLY file, MPI_ERR_ACCESS
// for a read on an MPI_MODE_WRONLY one, MPI_ERR_UNSUPPORTED_OPERATION for explicit offsets
// on an MPI_MODE_SEQUENTIAL one; raised on `f`.
int access_allowed(CallScope& s, io::File* f, bool write, bool explicit_offset);

// The count x datatype of a data access: MPI_ERR_COUNT, MPI_ERR_TYPE (null, uncommitted).
int data_args(CallScope& s, io::File* f, const void* buf, int count, MPI_Datatype type);

}  // namespace xsim::file_support
