#include "libxsim/bindings/file_support.hpp"

#include "libxsim/bindings/generalized_requests.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "netmodels/machine.hpp"

namespace xsim::file_support {
namespace {

// The status a completed nonblocking I/O request hands to its completion call.
int copy_status(void* extra, MPI_Status* status) {
    *status = *static_cast<const MPI_Status*>(extra);
    return MPI_SUCCESS;
}
// A pending request's: its MPI_ERROR is the class of the access done at an event (where no
// error handler can run), which the completion call returns.
int copy_status_and_error(void* extra, MPI_Status* status) {
    *status = *static_cast<const MPI_Status*>(extra);
    return status->MPI_ERROR;
}
int free_status(void* extra) {
    delete static_cast<MPI_Status*>(extra);
    return MPI_SUCCESS;
}

}  // namespace

int file_arg(CallScope& s, MPI_File handle, io::File** out) {
    *out = io::resolve_file(handle);
    if (*out) return MPI_SUCCESS;
    return io::raise_file(s, nullptr, MPI_ERR_FILE,
                          handle == MPI_FILE_NULL ? "the file is MPI_FILE_NULL" : "not an open file handle");
}

int real_result(CallScope& s, io::File* f, int code) {
    if (code == MPI_SUCCESS) return MPI_SUCCESS;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (real_mpi.Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
    return io::raise_file(s, f, io::real_error_class(code), std::string(text, static_cast<std::size_t>(length)));
}

std::uint64_t bytes_moved(const MPI_Status& status) {
    MPI_Count bytes = 0;
    if (real_mpi.Get_elements_x(&status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0) return 0;
    return static_cast<std::uint64_t>(bytes);
}

SimTime storage_time(CallScope& s, std::uint64_t bytes) { return s.engine.machine().storage.call_time(bytes); }

int no_split_outstanding(CallScope& s, io::File* f) {
    if (!f->split_call) return MPI_SUCCESS;
    return io::raise_file(s, f, MPI_ERR_OTHER,
                          std::string("the split collective ") + f->split_call + " is still outstanding on this file");
}

int split_end(const char* call, const char* begin, MPI_File fh, const void* buf, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED(call);
    CallScope& s = scope;
    io::File* f = nullptr;
    if (int e = file_arg(s, fh, &f)) return e;
    if (!f->split_call || std::string(f->split_call) != begin)
        return io::raise_file(s, f, MPI_ERR_OTHER,
                              std::string("no ") + begin + " is outstanding on this file" +
                                  (f->split_call ? std::string(" (") + f->split_call + " is)" : std::string()));
    if (buf != f->split_buf)
        return io::raise_file(s, f, MPI_ERR_BUFFER, std::string("the buffer differs from the one passed to ") + begin);
    f->split_call = nullptr;
    if (status != MPI_STATUS_IGNORE) *status = f->split_status;
    s.rank.clock += storage_time(s, bytes_moved(f->split_status));
    return MPI_SUCCESS;
}

MPI_Request completed_request(CallScope& s, SimTime done, const MPI_Status& status) {
    return request_handle(
        grequest::start_completed(s.engine, s.rank, done, &copy_status, &free_status, new MPI_Status(status)));
}

MPI_Request pending_request(CallScope& s, MPI_Status** status) {
    *status = new MPI_Status{};
    return request_handle(grequest::start_pending(s.engine, s.rank, &copy_status_and_error, &free_status, *status));
}

void complete_request(Engine& engine, MPI_Request request, SimTime done) {
    grequest::complete_at(engine, resolve_request(request), done);
}

int access_allowed(CallScope& s, io::File* f, bool write, bool explicit_offset) {
    if (write && (f->amode & MPI_MODE_RDONLY))
        return io::raise_file(s, f, MPI_ERR_READ_ONLY, "the file was opened MPI_MODE_RDONLY");
    if (!write && (f->amode & MPI_MODE_WRONLY))
        return io::raise_file(s, f, MPI_ERR_ACCESS, "the file was opened MPI_MODE_WRONLY");
    if (explicit_offset && (f->amode & MPI_MODE_SEQUENTIAL))
        return io::raise_file(s, f, MPI_ERR_UNSUPPORTED_OPERATION,
                              "explicit offsets on a file opened MPI_MODE_SEQUENTIAL");
    return MPI_SUCCESS;
}

int data_args(CallScope& s, io::File* f, const void* buf, int count, MPI_Datatype type) {
    if (count < 0) return io::raise_file(s, f, MPI_ERR_COUNT, "negative count " + std::to_string(count));
    TypeLayout layout;
    switch (check_type(type, &layout)) {
        case TypeCheck::Null: return io::raise_file(s, f, MPI_ERR_TYPE, "the datatype is MPI_DATATYPE_NULL");
        case TypeCheck::Uncommitted: return io::raise_file(s, f, MPI_ERR_TYPE, "the datatype is not committed");
        case TypeCheck::Ok: break;
    }
    (void)buf;  // null is MPI_BOTTOM, valid with a datatype of absolute addresses
    return MPI_SUCCESS;
}

}  // namespace xsim::file_support
