// The shared file pointer (MPI-4.0 section 14.4.4). It lives once per open file, at its
// home (rank 0 of the file's communicator, in that rank's real process: io/shared_pointer.hpp),
// and every call reaches it there, so independent and collective use mix:
// - independent access (MPI_File_read_shared, _write_shared, _iread_shared, _iwrite_shared):
//   an atomic fetch-and-add of the access's size in etypes at the home, then the access at
//   the old position as an explicit-offset access (the rank's real handle). The blocking
//   forms wait for the answer; the nonblocking ones return a request that the answer's
//   event completes, after doing the access there. The serialization order is the order the
//   home's process processes the requests (virtual time): the same for any number of real
//   processes. An access of no data neither reads nor moves the pointer;
// - ordered access (MPI_File_read/write_ordered, _begin/_end): a scan of the ranks' etype
//   counts gives each rank its place after the others', the last rank fetch-and-adds the
//   total at the home, and an allreduce hands everyone the base;
// - MPI_File_seek_shared (collective): an allreduce checks that every rank named the same
//   offset and whence, rank 0 sets the pointer at the home, and a second allreduce hands
//   out the outcome (and keeps later accesses after the set);
// - MPI_File_get_position_shared: a fetch-and-add of 0 (the value it had when it arrived).
// Every access is checked as any access (MPI_ERR_FILE, _COUNT, _TYPE, _READ_ONLY, _ACCESS)
// and costs the storage model's time (file_data.cpp).
#include <string>
#include <vector>

#include "libxsim/bindings/file_support.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/requests.hpp"
#include "libxsim/engine/rank_buffer.hpp"
#include "libxsim/io/agreement.hpp"
#include "libxsim/io/shared_pointer.hpp"
#include "libxsim/mpi/datatype.hpp"

using namespace xsim;
using namespace xsim::file_support;

namespace {

// The arguments of a shared-pointer access, checked as any access's; *etypes = its size in
// etypes of the file's view (a whole number of them, else MPI_ERR_TYPE).
int shared_args(CallScope& s, io::File* f, const void* buf, int count, MPI_Datatype type, bool write,
                std::int64_t* etypes) {
    if (int e = access_allowed(s, f, write, false)) return e;
    if (int e = data_args(s, f, buf, count, type)) return e;
    MPI_Count type_size = 0;
    real_mpi.Type_size_x(type, &type_size);
    const std::int64_t bytes = static_cast<std::int64_t>(count) * type_size;
    if (bytes % f->etype_size != 0)
        return io::raise_file(s, f, MPI_ERR_TYPE, "the data is not a whole number of etypes of the file's view");
    *etypes = bytes / f->etype_size;
    return MPI_SUCCESS;
}

// The access itself, at `at` etypes into the view, on the rank's real handle.
int access_at(io::File* f, MPI_Offset at, void* buf, int count, MPI_Datatype type, bool write, MPI_Status* st) {
    return write ? real_mpi.File_write_at(f->real, at, buf, count, type, st)
                 : real_mpi.File_read_at(f->real, at, buf, count, type, st);
}

// An access of no data: an empty status in *st (its MPI_ERROR field left alone, as calls
// returning one status do).
void empty(MPI_Status* st) {
    if (st == MPI_STATUS_IGNORE) return;
    const int error = st->MPI_ERROR;
    requests::empty_status(st);
    st->MPI_ERROR = error;
}

int blocking_shared(const char* call, MPI_File fh, void* buf, int count, MPI_Datatype type, bool write,
                    MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED(call);
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    std::int64_t etypes = 0;
    if (int e = shared_args(scope, f, buf, count, type, write, &etypes)) return e;
    if (etypes == 0) {
        empty(status);
        scope.rank.clock += storage_time(scope, 0);  // as any access of no data (file_data.cpp)
        return MPI_SUCCESS;
    }
    const std::int64_t at = io::move(scope.engine, scope.rank, *f, io::PointerMove::Add, etypes);
    MPI_Status scratch{};
    MPI_Status* st = status_or(status, &scratch);
    if (int e = real_result(scope, f, access_at(f, at, buf, count, type, write, st))) return e;
    scope.rank.clock += storage_time(scope, bytes_moved(*st));
    return MPI_SUCCESS;
}

// A nonblocking access waiting for the pointer's answer: the answer's event does the access
// (on the buffer as its rank sees it) and completes the application's request at the
// answer's time plus the storage time.
class SharedAccess final : public CompletionTarget {
public:
    SharedAccess(Rank& owner, io::File* f, void* buf, int count, MPI_Datatype type, bool write, MPI_Request user,
                 MPI_Status* status)
        : owner_(owner), file_(f), buf_(buf), count_(count), type_(type), write_(write), user_(user), status_(status) {
        TypeLayout layout;  // the application may free a derived type before the access is done
        holds_type_ = type_layout(type_, &layout) && !layout.predefined;
        if (holds_type_) retain_type(type_);
    }
    std::int64_t* before() { return &before_; }
    void child_decided(Engine& engine, Request* fetch) override {
        const SimTime answered = fetch->done_time;
        engine.free_request(fetch);
        --file_->shared_pending;
        void* data = runtime::rank_buffer(engine, owner_, buf_, count_, type_);
        const int code = access_at(file_, before_, data, count_, type_, write_, status_);
        status_->MPI_ERROR = code == MPI_SUCCESS ? MPI_SUCCESS : io::real_error_class(code);
        const std::uint64_t bytes = code == MPI_SUCCESS ? bytes_moved(*status_) : 0;
        if (holds_type_) release_type(type_);
        complete_request(engine, user_, answered + engine.machine().storage.call_time(bytes));
        delete this;
    }
    const void* resume_hint() const override { return nullptr; }
    const std::string& error() const override { return none_; }

private:
    Rank& owner_;
    io::File* file_;
    void* buf_;
    int count_;
    MPI_Datatype type_;
    bool write_;
    MPI_Request user_;
    MPI_Status* status_;
    bool holds_type_ = false;
    std::int64_t before_ = 0;
    std::string none_;
};

int nonblocking_shared(const char* call, MPI_File fh, void* buf, int count, MPI_Datatype type, bool write,
                       MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED(call);
    if (!request) return io::raise_file(scope, io::resolve_file(fh), MPI_ERR_ARG, "null request pointer");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    std::int64_t etypes = 0;
    if (int e = shared_args(scope, f, buf, count, type, write, &etypes)) return e;
    if (etypes == 0) {
        MPI_Status st{};
        empty(&st);
        *request = completed_request(scope, scope.rank.clock + storage_time(scope, 0), st);
        return MPI_SUCCESS;
    }
    MPI_Status* status = nullptr;
    *request = pending_request(scope, &status);
    auto* access = new SharedAccess(scope.rank, f, buf, count, type, write, *request, status);
    Request* fetch = io::start_move(scope.engine, scope.rank, *f, io::PointerMove::Add, etypes, access->before());
    fetch->parent_call = access;
    ++f->shared_pending;
    return MPI_SUCCESS;
}

// One rank's part in an ordered access: its place after the lower ranks' data, from the
// base the last rank took at the home for everyone, and the access there.
int ordered(CallScope& s, io::File* f, void* buf, int count, MPI_Datatype type, bool write, MPI_Status* st) {
    std::int64_t mine = 0;
    if (int e = shared_args(s, f, buf, count, type, write, &mine)) return e;
    std::int64_t inclusive = 0;
    std::string why;
    if (int e = io::inclusive_sum(s, *f->comm, mine, &inclusive, &why)) return io::raise_file(s, f, e, why);
    const bool last = f->comm->rank_of(s.rank) == f->comm->size - 1;
    std::vector<std::int64_t> base{-1};
    if (last) base[0] = io::move(s.engine, s.rank, *f, io::PointerMove::Add, inclusive);
    if (int e = io::allreduce_max(s, *f->comm, base, &why)) return io::raise_file(s, f, e, why);
    if (mine == 0) {
        empty(st);
        return MPI_SUCCESS;
    }
    const MPI_Offset at = base[0] + inclusive - mine;
    return real_result(s, f, access_at(f, at, buf, count, type, write, st));
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

// MPI_File_seek_shared at rank 0: the new position set at the home. Returns MPI_SUCCESS or
// an error class (with *why).
int seek_at_home(CallScope& s, io::File* f, MPI_Offset offset, int whence, std::string* why) {
    std::int64_t target = offset;
    if (whence == MPI_SEEK_CUR) {
        target += io::move(s.engine, s.rank, *f, io::PointerMove::Add, 0);
    } else if (whence == MPI_SEEK_END) {
        // The end of file in etypes of the view: the real library's individual pointer
        // knows it, so seek that one there and back.
        MPI_Offset individual = 0, end = 0;
        real_mpi.File_get_position(f->real, &individual);
        const int code = real_mpi.File_seek(f->real, offset, MPI_SEEK_END);
        if (code != MPI_SUCCESS) {
            *why = "cannot seek to the end of file";
            return io::real_error_class(code);
        }
        real_mpi.File_get_position(f->real, &end);
        real_mpi.File_seek(f->real, individual, MPI_SEEK_SET);
        target = end;
    }
    if (target < 0) {
        *why = "the position would be negative";
        return MPI_ERR_ARG;
    }
    io::move(s.engine, s.rank, *f, io::PointerMove::Set, target);
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

// Collective: every rank must pass the same offset and whence.
XSIM_MPI_ALIAS(File_seek_shared)
int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
    XSIM_BEGIN_INITIALIZED("MPI_File_seek_shared");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (whence != MPI_SEEK_SET && whence != MPI_SEEK_CUR && whence != MPI_SEEK_END)
        return io::raise_file(scope, f, MPI_ERR_ARG, "whence must be MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END");
    std::vector<std::int64_t> agreed{offset, -offset, whence, -whence};
    std::string why;
    if (int e = io::allreduce_max(scope, *f->comm, agreed, &why)) return io::raise_file(scope, f, e, why);
    if (agreed[0] != -agreed[1] || agreed[2] != -agreed[3])
        return io::raise_file(scope, f, MPI_ERR_NOT_SAME, "the ranks named different shared file pointer positions");
    // Rank 0 moves the pointer; the outcome's allreduce keeps every rank's later accesses
    // after it.
    std::vector<std::int64_t> outcome{MPI_SUCCESS};
    std::string home_why;
    if (f->comm->rank_of(scope.rank) == 0) outcome[0] = seek_at_home(scope, f, offset, whence, &home_why);
    if (int e = io::allreduce_max(scope, *f->comm, outcome, &why)) return io::raise_file(scope, f, e, why);
    if (outcome[0] != MPI_SUCCESS)
        return io::raise_file(scope, f, static_cast<int>(outcome[0]),
                              home_why.empty() ? "rank 0 could not move the shared file pointer" : home_why);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(File_get_position_shared)
int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
    XSIM_BEGIN_INITIALIZED("MPI_File_get_position_shared");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (!offset) return io::raise_file(scope, f, MPI_ERR_ARG, "null offset pointer");
    *offset = io::move(scope.engine, scope.rank, *f, io::PointerMove::Add, 0);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(File_read_shared)
int PMPI_File_read_shared(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_shared("MPI_File_read_shared", fh, buf, count, type, false, status);
}
XSIM_MPI_ALIAS(File_write_shared)
int PMPI_File_write_shared(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Status* status) {
    return blocking_shared("MPI_File_write_shared", fh, const_cast<void*>(buf), count, type, true, status);
}
XSIM_MPI_ALIAS(File_iread_shared)
int PMPI_File_iread_shared(MPI_File fh, void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking_shared("MPI_File_iread_shared", fh, buf, count, type, false, request);
}
XSIM_MPI_ALIAS(File_iwrite_shared)
int PMPI_File_iwrite_shared(MPI_File fh, const void* buf, int count, MPI_Datatype type, MPI_Request* request) {
    return nonblocking_shared("MPI_File_iwrite_shared", fh, const_cast<void*>(buf), count, type, true, request);
}

}  // extern "C"
