// The shared file pointer (MPI-4.0 section 14.4.4). Collective ordered access is built
// from xsim's own collectives: a prefix sum of the ranks' etype counts gives each rank its
// explicit offset from the shared pointer, and the total moves the pointer alike on every
// rank (so it needs no process-wide counter, also across real processes). MPI_File_seek_shared
// is collective too. The independent calls (MPI_File_read_shared, _write_shared and their
// nonblocking forms) would need one counter all ranks update in any order: they stop the
// run with a message naming the call rather than doing something else, unless they move no
// data (a count of 0, or a datatype of size 0): such an access neither reads nor moves the
// shared pointer, so it is checked as any access and completes with an empty status.
#include <string>
#include <vector>

#include "libxsim/bindings/file_support.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/requests.hpp"
#include "libxsim/io/agreement.hpp"

using namespace xsim;
using namespace xsim::file_support;

namespace {

[[noreturn]] void refuse_independent_shared(CallScope& s) {
    s.engine.abort_run(1, std::string(s.call) + " (called by simulated rank " + std::to_string(s.rank.world) +
                              "): independent access through shared file pointers is not simulated by xsim; "
                              "use the collective MPI_File_read_ordered / MPI_File_write_ordered, or explicit offsets");
}

// An independent shared-pointer access: its arguments checked as any access's; one that
// moves no data completes with an empty status in *st (its MPI_ERROR field left alone, as
// calls returning one status do), any other stops the run.
int independent_shared(CallScope& s, MPI_File fh, const void* buf, int count, MPI_Datatype type, bool write,
                       MPI_Status* st) {
    io::File* f = nullptr;
    if (int e = file_arg(s, fh, &f)) return e;
    if (int e = access_allowed(s, f, write, false)) return e;
    if (int e = data_args(s, f, buf, count, type)) return e;
    MPI_Count type_size = 0;
    real_mpi.Type_size_x(type, &type_size);
    if (count != 0 && type_size != 0) refuse_independent_shared(s);
    if (st == MPI_STATUS_IGNORE) return MPI_SUCCESS;
    const int error = st->MPI_ERROR;
    requests::empty_status(st);
    st->MPI_ERROR = error;
    return MPI_SUCCESS;
}

int blocking_shared(const char* call, MPI_File fh, const void* buf, int count, MPI_Datatype type, bool write,
                    MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED(call);
    if (int e = independent_shared(scope, fh, buf, count, type, write, status)) return e;
    scope.rank.clock += storage_time(scope, 0);  // as any access of no data (file_data.cpp)
    return MPI_SUCCESS;
}

int nonblocking_shared(const char* call, MPI_File fh, const void* buf, int count, MPI_Datatype type, bool write,
                       MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED(call);
    if (!request) return io::raise_file(scope, io::resolve_file(fh), MPI_ERR_ARG, "null request pointer");
    MPI_Status st{};
    if (int e = independent_shared(scope, fh, buf, count, type, write, &st)) return e;
    *request = completed_request(scope, scope.rank.clock + storage_time(scope, 0), st);
    return MPI_SUCCESS;
}

// One rank's part in an ordered access: where its data goes, and the access there.
int ordered(CallScope& s, io::File* f, void* buf, int count, MPI_Datatype type, bool write, MPI_Status* st) {
    if (int e = access_allowed(s, f, write, false)) return e;
    if (int e = data_args(s, f, buf, count, type)) return e;
    int type_size = 0;
    real_mpi.Type_size(type, &type_size);
    const std::int64_t bytes = static_cast<std::int64_t>(count) * type_size;
    if (bytes % f->etype_size != 0)
        return io::raise_file(s, f, MPI_ERR_TYPE, "the data is not a whole number of etypes of the file's view");
    std::int64_t before = 0, total = 0;
    std::string why;
    if (int e = io::prefix_sum(s, *f->comm, bytes / f->etype_size, &before, &total, &why))
        return io::raise_file(s, f, e, why);
    const MPI_Offset at = f->shared_pointer + before;
    f->shared_pointer += total;
    const int code = write ? real_mpi.File_write_at(f->real, at, buf, count, type, st)
                           : real_mpi.File_read_at(f->real, at, buf, count, type, st);
    return real_result(s, f, code);
}

int blocking_ordered(const char* call, MPI_File fh, void* buf, int count, MPI_Datatype type, bool write,
                     MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED(call);
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    MPI_Status scratch{};
    MPI_Status* st = status_or(status, &scratch);
    if (int e = ordered(scope, f, buf, count, type, write, st)) return e;
    scope.rank.clock += storage_time(scope, bytes_moved(*st));
    return MPI_SUCCESS;
}

int ordered_begin(const char* call, MPI_File fh, void* buf, int count, MPI_Datatype type, bool write) {
    XSIM_BEGIN_INITIALIZED(call);
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (int e = no_split_outstanding(scope, f)) return e;
    MPI_Status st{};
    if (int e = ordered(scope, f, buf, count, type, write, &st)) return e;
    f->split_call = call;
    f->split_buf = buf;
    f->split_status = st;
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(File_write_ordered)
int PMPI_File_write_ordered(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_ordered("MPI_File_write_ordered", fh, const_cast<void*>(buf), count, type, true, status);
}
XSIM_MPI_ALIAS(File_read_ordered)
int PMPI_File_read_ordered(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_ordered("MPI_File_read_ordered", fh, buf, count, type, false, status);
}
XSIM_MPI_ALIAS(File_write_ordered_begin)
int PMPI_File_write_ordered_begin(MPI_File fh, const void* buf, int count, MPI_Datatype type) {
    return ordered_begin("MPI_File_write_ordered_begin", fh, const_cast<void*>(buf), count, type, true);
}
XSIM_MPI_ALIAS(File_write_ordered_end)
int PMPI_File_write_ordered_end(MPI_File fh, const void* buf, MPI_Status* status) {
    return split_end("MPI_File_write_ordered_end", "MPI_File_write_ordered_begin", fh, buf, status);
}
XSIM_MPI_ALIAS(File_read_ordered_begin)
int PMPI_File_read_ordered_begin(MPI_File fh, void* buf, int count, MPI_Datatype type) {
    return ordered_begin("MPI_File_read_ordered_begin", fh, buf, count, type, false);
}
XSIM_MPI_ALIAS(File_read_ordered_end)
int PMPI_File_read_ordered_end(MPI_File fh, void* buf, MPI_Status* status) {
    return split_end("MPI_File_read_ordered_end", "MPI_File_read_ordered_begin", fh, buf, status);
}

// Collective: every rank must name the same position; the pointer moves alike everywhere.
XSIM_MPI_ALIAS(File_seek_shared)
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
    XSIM_BEGIN_INITIALIZED("MPI_File_seek_shared");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    std::int64_t target = 0;
    if (whence == MPI_SEEK_SET) {
        target = offset;
    } else if (whence == MPI_SEEK_CUR) {
        target = f->shared_pointer + offset;
    } else if (whence == MPI_SEEK_END) {
        // The end of file in etypes of the view: the real library's individual pointer
        // knows it, so seek that one there and back.
        MPI_Offset individual = 0;
        if (int e = real_result(scope, f, real_mpi.File_get_position(f->real, &individual))) return e;
        if (int e = real_result(scope, f, real_mpi.File_seek(f->real, offset, MPI_SEEK_END))) return e;
        MPI_Offset end = 0;
        real_mpi.File_get_position(f->real, &end);
        real_mpi.File_seek(f->real, individual, MPI_SEEK_SET);
        target = end;
    } else {
        return io::raise_file(scope, f, MPI_ERR_ARG, "whence must be MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
    }
    std::vector<std::int64_t> agreed{target, -target};
    std::string why;
    if (int e = io::allreduce_max(scope, *f->comm, agreed, &why)) return io::raise_file(scope, f, e, why);
    if (agreed[0] != -agreed[1])
        return io::raise_file(scope, f, MPI_ERR_NOT_SAME, "the ranks named different shared file pointer positions");
    if (target < 0) return io::raise_file(scope, f, MPI_ERR_ARG, "the position would be negative");
    f->shared_pointer = target;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(File_get_position_shared)
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
    XSIM_BEGIN_INITIALIZED("MPI_File_get_position_shared");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (!offset) return io::raise_file(scope, f, MPI_ERR_ARG, "null offset pointer");
    *offset = f->shared_pointer;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(File_read_shared)
int PMPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_shared("MPI_File_read_shared", fh, buf, count, type, false, status);
}
XSIM_MPI_ALIAS(File_write_shared)
int PMPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_shared("MPI_File_write_shared", fh, buf, count, type, true, status);
}
XSIM_MPI_ALIAS(File_iread_shared)
int PMPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking_shared("MPI_File_iread_shared", fh, buf, count, type, false, request);
}
XSIM_MPI_ALIAS(File_iwrite_shared)
int PMPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking_shared("MPI_File_iwrite_shared", fh, buf, count, type, true, request);
}

}  // extern "C"
