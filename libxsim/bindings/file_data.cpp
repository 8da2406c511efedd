// MPI-IO data access with explicit offsets and individual file pointers (MPI-4.0 section
// 14.4): blocking, nonblocking, collective and split collective. Each is carried out at
// the call on the rank's real handle (which applies the view and packs the datatype).
// The `_all` forms are collective in MPI only so that implementations may merge the
// ranks' accesses; on a rank's own handle they are the rank's access alone, which leaves
// the same bytes in the file. Virtual time: the storage model's latency + bytes /
// bandwidth (netmodels/storage_model.hpp), on the rank's clock for a blocking call, as the
// completion time of the request for a nonblocking one, and at the _end of a split one.
#include <string>

#include "libxsim/bindings/file_support.hpp"
#include "libxsim/bindings/profiling_alias.hpp"

using namespace xsim;
using namespace xsim::file_support;

namespace {

// The real call of an access: its code, and its status in *status.
template <class Real>
int access(CallScope& s, MPI_File fh, const void* buf, int count, MPI_Datatype type, bool write, bool explicit_offset,
           MPI_Offset offset, io::File** file, MPI_Status* status, Real&& real) {
    io::File* f = nullptr;
    if (int e = file_arg(s, fh, &f)) return e;
    *file = f;
    if (int e = access_allowed(s, f, write, explicit_offset)) return e;
    if (int e = data_args(s, f, buf, count, type)) return e;
    if (explicit_offset && offset < 0)
        return io::raise_file(s, f, MPI_ERR_ARG, "negative offset " + std::to_string(offset));
    return real_result(s, f, real(f->real, status));
}

// A blocking access: the rank's clock moves by the storage time.
template <class Real>
int blocking(const char* call, MPI_File fh, const void* buf, int count, MPI_Datatype type, bool write,
             bool explicit_offset, MPI_Offset offset, MPI_Status* status, Real&& real) {
    XSIM_BEGIN_INITIALIZED(call);
    MPI_Status scratch{};
    MPI_Status* st = status_or(status, &scratch);
    io::File* f = nullptr;
    if (int e = access(scope, fh, buf, count, type, write, explicit_offset, offset, &f, st, real)) return e;
    scope.rank.clock += storage_time(scope, bytes_moved(*st));
    return MPI_SUCCESS;
}

// A nonblocking access: done now, complete at the clock + the storage time.
template <class Real>
int nonblocking(const char* call, MPI_File fh, const void* buf, int count, MPI_Datatype type, bool write,
                bool explicit_offset, MPI_Offset offset, MPI_Request* request, Real&& real) {
    XSIM_BEGIN_INITIALIZED(call);
    if (!request) return io::raise_file(scope, io::resolve_file(fh), MPI_ERR_ARG, "null request pointer");
    MPI_Status st{};
    io::File* f = nullptr;
    if (int e = access(scope, fh, buf, count, type, write, explicit_offset, offset, &f, &st, real)) return e;
    *request = completed_request(scope, scope.rank.clock + storage_time(scope, bytes_moved(st)), st);
    return MPI_SUCCESS;
}

// MPI_File_*_begin: done now; the status and time wait for the _end call. One split
// collective may be outstanding per file (MPI-4.0 section 14.4.5).
template <class Real>
int split_begin(const char* call, MPI_File fh, const void* buf, int count, MPI_Datatype type, bool write,
                bool explicit_offset, MPI_Offset offset, Real&& real) {
    XSIM_BEGIN_INITIALIZED(call);
    io::File* f = io::resolve_file(fh);
    if (f)
        if (int e = no_split_outstanding(scope, f)) return e;
    MPI_Status st{};
    if (int e = access(scope, fh, buf, count, type, write, explicit_offset, offset, &f, &st, real)) return e;
    f->split_call = call;
    f->split_buf = const_cast<void*>(buf);
    f->split_status = st;
    return MPI_SUCCESS;
}

}  // namespace

// The real function of each access, as a callable on the rank's handle.
#define XSIM_REAL(fn) [&](MPI_File h, MPI_Status* st) { return real_mpi.fn(h, buf, count, type, st); }
#define XSIM_REAL_AT(fn) [&](MPI_File h, MPI_Status* st) { return real_mpi.fn(h, offset, buf, count, type, st); }
// The collective reads from the individual file pointer use the real independent read: on
// the rank's own handle it is the same access, and Open MPI 4.1's MPI_File_read_all reports
// the count asked for, not the data read, when it reaches the end of file (its read, and
// its read_at_all, are right): MPI_Get_count must give the items actually read (MPI-4.0
// section 14.4.1; conformance.file_read_eof).
#define XSIM_REAL_READ_ALL [&](MPI_File h, MPI_Status* st) { return real_mpi.File_read(h, buf, count, type, st); }

extern "C" {

// Individual file pointer.
XSIM_MPI_ALIAS(File_read)
int PMPI_File_read(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking("MPI_File_read", fh, buf, count, type, false, false, 0, status, XSIM_REAL(File_read));
}
XSIM_MPI_ALIAS(File_write)
int PMPI_File_write(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking("MPI_File_write", fh, buf, count, type, true, false, 0, status, XSIM_REAL(File_write));
}
XSIM_MPI_ALIAS(File_read_all)
int PMPI_File_read_all(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking("MPI_File_read_all", fh, buf, count, type, false, false, 0, status, XSIM_REAL_READ_ALL);
}
XSIM_MPI_ALIAS(File_write_all)
int PMPI_File_write_all(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking("MPI_File_write_all", fh, buf, count, type, true, false, 0, status, XSIM_REAL(File_write_all));
}
XSIM_MPI_ALIAS(File_iread)
int PMPI_File_iread(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking("MPI_File_iread", fh, buf, count, type, false, false, 0, request, XSIM_REAL(File_read));
}
XSIM_MPI_ALIAS(File_iwrite)
int PMPI_File_iwrite(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking("MPI_File_iwrite", fh, buf, count, type, true, false, 0, request, XSIM_REAL(File_write));
}
XSIM_MPI_ALIAS(File_iread_all)
int PMPI_File_iread_all(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking("MPI_File_iread_all", fh, buf, count, type, false, false, 0, request, XSIM_REAL_READ_ALL);
}
XSIM_MPI_ALIAS(File_iwrite_all)
int PMPI_File_iwrite_all(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking("MPI_File_iwrite_all", fh, buf, count, type, true, false, 0, request, XSIM_REAL(File_write_all));
}

// Explicit offsets.
XSIM_MPI_ALIAS(File_read_at)
int PMPI_File_read_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking("MPI_File_read_at", fh, buf, count, type, false, true, offset, status, XSIM_REAL_AT(File_read_at));
}
XSIM_MPI_ALIAS(File_write_at)
int PMPI_File_write_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                       MPI_Status* status) {
    return blocking("MPI_File_write_at", fh, buf, count, type, true, true, offset, status, XSIM_REAL_AT(File_write_at));
}
XSIM_MPI_ALIAS(File_read_at_all)
int PMPI_File_read_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking("MPI_File_read_at_all", fh, buf, count, type, false, true, offset, status,
                    XSIM_REAL_AT(File_read_at_all));
}
XSIM_MPI_ALIAS(File_write_at_all)
int PMPI_File_write_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                           MPI_Status* status) {
    return blocking("MPI_File_write_at_all", fh, buf, count, type, true, true, offset, status,
                    XSIM_REAL_AT(File_write_at_all));
}
XSIM_MPI_ALIAS(File_iread_at)
int PMPI_File_iread_at(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking("MPI_File_iread_at", fh, buf, count, type, false, true, offset, request, XSIM_REAL_AT(File_read_at));
}
XSIM_MPI_ALIAS(File_iwrite_at)
int PMPI_File_iwrite_at(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                        MPI_Request* request) {
    return nonblocking("MPI_File_iwrite_at", fh, buf, count, type, true, true, offset, request,
                       XSIM_REAL_AT(File_write_at));
}
XSIM_MPI_ALIAS(File_iread_at_all)
int PMPI_File_iread_at_all(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                           MPI_Request* request) {
    return nonblocking("MPI_File_iread_at_all", fh, buf, count, type, false, true, offset, request,
                       XSIM_REAL_AT(File_read_at_all));
}
XSIM_MPI_ALIAS(File_iwrite_at_all)
int PMPI_File_iwrite_at_all(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                            MPI_Request* request) {
    return nonblocking("MPI_File_iwrite_at_all", fh, buf, count, type, true, true, offset, request,
                       XSIM_REAL_AT(File_write_at_all));
}

// Split collectives.
XSIM_MPI_ALIAS(File_read_all_begin)
int PMPI_File_read_all_begin(MPI_File fh, void* buf, int count, MPI_Datatype type) {
    return split_begin("MPI_File_read_all_begin", fh, buf, count, type, false, false, 0, XSIM_REAL_READ_ALL);
}
XSIM_MPI_ALIAS(File_read_all_end)
int PMPI_File_read_all_end(MPI_File fh, void* buf, MPI_Status* status) {
    return split_end("MPI_File_read_all_end", "MPI_File_read_all_begin", fh, buf, status);
}
XSIM_MPI_ALIAS(File_write_all_begin)
int PMPI_File_write_all_begin(MPI_File fh, const void* buf, int count, MPI_Datatype type) {
    return split_begin("MPI_File_write_all_begin", fh, buf, count, type, true, false, 0, XSIM_REAL(File_write_all));
}
XSIM_MPI_ALIAS(File_write_all_end)
int PMPI_File_write_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
    return split_end("MPI_File_write_all_end", "MPI_File_write_all_begin", fh, buf, status);
}
XSIM_MPI_ALIAS(File_read_at_all_begin)
int PMPI_File_read_at_all_begin(MPI_File fh, MPI_Offset offset, void* buf, int count, MPI_Datatype type) {
    return split_begin("MPI_File_read_at_all_begin", fh, buf, count, type, false, true, offset,
                       XSIM_REAL_AT(File_read_at_all));
}
XSIM_MPI_ALIAS(File_read_at_all_end)
int PMPI_File_read_at_all_end(MPI_File fh, void* buf, MPI_Status* status) {
    return split_end("MPI_File_read_at_all_end", "MPI_File_read_at_all_begin", fh, buf, status);
}
XSIM_MPI_ALIAS(File_write_at_all_begin)
int PMPI_File_write_at_all_begin(MPI_File fh, MPI_Offset offset, const void* buf, int count, MPI_Datatype type) {
    return split_begin("MPI_File_write_at_all_begin", fh, buf, count, type, true, true, offset,
                       XSIM_REAL_AT(File_write_at_all));
}
XSIM_MPI_ALIAS(File_write_at_all_end)
int PMPI_File_write_at_all_end(MPI_File fh, const void* buf, MPI_Status* status) {
    return split_end("MPI_File_write_at_all_end", "MPI_File_write_at_all_begin", fh, buf, status);
}

}  // extern "C"
