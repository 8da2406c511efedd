// MPI_File_open, MPI_File_close, MPI_File_delete (MPI-4.0 section 14.2.1-14.2.3).
//
// Open is collective over the application's communicator: an agreement checks the amodes
// and lets no rank touch the file before every rank has entered the call (so a rank's
// earlier MPI_File_delete of the name cannot remove the file another rank just made), the
// lowest rank opens first (and alone creates the file: MPI_MODE_CREATE | MPI_MODE_EXCL
// fails for everyone when it exists), a second agreement tells every rank how that went,
// the others then open, and a third agreement makes the result everyone's. Each rank gets
// its own real handle on the real MPI_COMM_SELF. Close is collective: each rank closes
// its handle, and after an agreement the lowest rank deletes the file once when it was
// opened with MPI_MODE_DELETE_ON_CLOSE. The lowest rank is also the home of the file's shared
// pointer (io/shared_pointer.hpp): made before the open's last agreement, forgotten after
// close's.
#include <sys/resource.h>

#include <cerrno>
#include <string>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/file_support.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/colls/make_comm.hpp"
#include "libxsim/engine/comm_rank_state.hpp"
#include "libxsim/io/agreement.hpp"
#include "libxsim/io/shared_pointer.hpp"
#include "libxsim/mpi/context_ids.hpp"
#include "libxsim/mpi/group.hpp"

using namespace xsim;
using namespace xsim::file_support;

namespace {

constexpr std::uint64_t kFileDerivation = 0x66696c65;  // "file": a context apart from dup/split/create

// MPI-4.0 section 14.2.1: exactly one of RDONLY, RDWR, WRONLY; RDONLY with CREATE or EXCL
// and RDWR with SEQUENTIAL are erroneous. Returns why, or "" for a valid amode.
std::string amode_problem(int amode) {
    const int access = (amode & MPI_MODE_RDONLY ? 1 : 0) + (amode & MPI_MODE_RDWR ? 1 : 0) + (amode & MPI_MODE_WRONLY ? 1 : 0);
    if (access != 1) return "the amode must hold exactly one of MPI_MODE_RDONLY, MPI_MODE_RDWR and MPI_MODE_WRONLY";
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL)))
        return "MPI_MODE_RDONLY cannot be combined with MPI_MODE_CREATE or MPI_MODE_EXCL";
    if ((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL))
        return "MPI_MODE_RDWR cannot be combined with MPI_MODE_SEQUENTIAL";
    const int known = MPI_MODE_RDONLY | MPI_MODE_RDWR | MPI_MODE_WRONLY | MPI_MODE_CREATE | MPI_MODE_EXCL |
                      MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_UNIQUE_OPEN | MPI_MODE_SEQUENTIAL | MPI_MODE_APPEND;
    if (amode & ~known) return "the amode has bits that are no MPI_MODE_* flag";
    return "";
}

// Every simulated rank holds a descriptor per open file: let the process use as many as
// it may (the soft limit up to the hard one).
void allow_all_descriptors() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
}

struct RealOpen {
    int error_class = MPI_SUCCESS;
    std::string why;
    MPI_File handle = MPI_FILE_NULL;
};

// The rank's own real handle. DELETE_ON_CLOSE is xsim's to do (once, after every rank
// closed); EXCL is the first opener's alone.
RealOpen open_real(const char* name, int amode, MPI_Info info, bool first) {
    RealOpen r;
    // SEQUENTIAL is xsim's to enforce (file_support.hpp: access_allowed): the real handle
    // takes explicit offsets, which shared-pointer access and its views come down to.
    int real_amode = amode & ~(MPI_MODE_DELETE_ON_CLOSE | MPI_MODE_SEQUENTIAL);
    if (!first) real_amode &= ~MPI_MODE_EXCL;
    errno = 0;
    const int code = real_mpi.File_open(MPI_COMM_SELF, name, real_amode, info, &r.handle);
    if (code == MPI_SUCCESS) return r;
    const int saved_errno = errno;
    r.handle = MPI_FILE_NULL;
    r.error_class = io::real_error_class(code);
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (real_mpi.Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
    r.why = "cannot open '" + std::string(name) + "': " + std::string(text, static_cast<std::size_t>(length));
    if (saved_errno == EMFILE || saved_errno == ENFILE) {
        rlimit limit{};
        getrlimit(RLIMIT_NOFILE, &limit);
        r.why += " (the real process ran out of file descriptors: each simulated rank holds one per open file, and "
                 "the limit RLIMIT_NOFILE is " + std::to_string(limit.rlim_cur) +
                 "; raise it with `ulimit -n` or run fewer ranks per process)";
    }
    return r;
}

// Where the shared file pointer starts: at the end of file with MPI_MODE_APPEND (MPI-4.0
// section 14.2.1), in bytes, the etype of the view a file opens with.
std::int64_t append_start(MPI_File handle, int amode) {
    MPI_Offset size = 0;
    if (!(amode & MPI_MODE_APPEND) || real_mpi.File_get_size(handle, &size) != MPI_SUCCESS) return 0;
    return size;
}

void close_real(MPI_File& handle) {
    if (handle != MPI_FILE_NULL) real_mpi.File_close(&handle);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(File_open)
int PMPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
    XSIM_BEGIN_INITIALIZED("MPI_File_open");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (c->is_inter()) return io::raise_file(scope, nullptr, MPI_ERR_COMM, "MPI_File_open needs an intracommunicator");
    if (!fh) return io::raise_file(scope, nullptr, MPI_ERR_ARG, "null file handle pointer");
    *fh = MPI_FILE_NULL;
    if (!filename) return io::raise_file(scope, nullptr, MPI_ERR_ARG, "null file name");
    if (std::string why = amode_problem(amode); !why.empty())
        return io::raise_file(scope, nullptr, MPI_ERR_AMODE, why + " (amode " + std::to_string(amode) + ")");
    allow_all_descriptors();

    // Every rank has entered the call before any rank touches the file: what a rank did to
    // it before (MPI_File_delete of the name by every rank, say, as Athena++ does before it
    // opens its outputs) comes before the file is made, as natively (Open MPI's open
    // agrees on a communicator first). This agreement also checks the amodes.
    std::vector<std::int64_t> agreed{amode, -static_cast<std::int64_t>(amode)};
    std::string why;
    if (int e = io::allreduce_max(scope, *c, agreed, &why)) return io::raise_file(scope, nullptr, e, why);
    // The file's own communicator: every member derives the same context (the call is
    // collective over `c`, so the creation counters agree), and the agreement above
    // already made every member take part.
    const ContextId id = derive_context(c->context, creation_counter(scope.rank, *c)++, kFileDerivation);
    if (agreed[0] != -agreed[1])
        return io::raise_file(scope, nullptr, MPI_ERR_NOT_SAME,
                              "the ranks passed different amodes (MPI_File_open is collective: every rank must pass the same)");
    // Then the lowest rank alone: it alone may create the file, so CREATE|EXCL is decided
    // once; an agreement hands out how that went.
    const bool first = c->rank_of(scope.rank) == 0;
    RealOpen mine;
    if (first) mine = open_real(filename, amode, info, true);
    std::vector<std::int64_t> opened{first ? mine.error_class : 0};
    if (int e = io::allreduce_max(scope, *c, opened, &why)) {
        close_real(mine.handle);
        return io::raise_file(scope, nullptr, e, why);
    }
    if (opened[0] != MPI_SUCCESS) {
        const int e = static_cast<int>(opened[0]);
        return io::raise_file(scope, nullptr, e, first ? mine.why : "the lowest rank could not open '" + std::string(filename) +
                                                                        "' (" + error_class_name(e) + ")");
    }
    if (!first) mine = open_real(filename, amode, info, false);

    Comm* own = new_derived_comm(scope.rank, *c, comm_group(*c, scope.rank), c->rank_of(scope.rank), id);
    // The shared file pointer, at its home, before the agreement lets any rank use it.
    if (first) io::create_pointer(scope.engine, *own, mine.error_class ? 0 : append_start(mine.handle, amode));
    std::vector<std::int64_t> outcome{mine.error_class};
    if (int e = io::allreduce_max(scope, *own, outcome, &why)) {
        if (first) io::forget_pointer(scope.engine, *own);
        close_real(mine.handle);
        unref(own);
        return io::raise_file(scope, nullptr, e, why);
    }
    if (outcome[0] != MPI_SUCCESS) {
        if (first) io::forget_pointer(scope.engine, *own);
        close_real(mine.handle);
        unref(own);
        const int e = static_cast<int>(outcome[0]);
        return io::raise_file(scope, nullptr, e,
                              mine.error_class ? mine.why : "another rank could not open '" + std::string(filename) + "'");
    }
    auto* f = new io::File;
    f->real = mine.handle;
    f->comm = own;
    f->name = filename;
    f->amode = amode;
    f->errhandler = io::file_null_errhandler(scope.rank);  // new files take MPI_FILE_NULL's handler
    *fh = io::file_handle(f);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(File_close)
int PMPI_File_close(MPI_File* fh) {
    XSIM_BEGIN_INITIALIZED("MPI_File_close");
    if (!fh) return io::raise_file(scope, nullptr, MPI_ERR_ARG, "null file handle pointer");
    io::File* f = nullptr;
    if (int e = file_arg(scope, *fh, &f)) return e;
    if (f->split_call)
        return io::raise_file(scope, f, MPI_ERR_OTHER, std::string("the split collective ") + f->split_call +
                                                           " is still outstanding (its _end call must come first)");
    // A pending access would use the handle closed here (MPI-4.0 section 14.2.2 makes this
    // erroneous): stop rather than let it. Answers due by the rank's clock count as come.
    if (f->shared_pending > 0) scope.engine.catch_up(scope.rank);
    if (f->shared_pending > 0)
        scope.engine.abort_run(MPI_ERR_OTHER, "MPI_File_close (called by simulated rank " +
                                                  std::to_string(scope.rank.world) + ") of '" + f->name + "' with " +
                                                  std::to_string(f->shared_pending) +
                                                  " nonblocking shared-pointer access(es) of that rank not yet done: "
                                                  "complete them (MPI_Wait...) before closing the file");
    const int code = real_mpi.File_close(&f->real);
    std::vector<std::int64_t> outcome{code == MPI_SUCCESS ? 0 : io::real_error_class(code)};
    std::string why;
    const int agreement = io::allreduce_max(scope, *f->comm, outcome, &why);
    // Every rank has closed its handle once the agreement completed: delete once.
    int deleted = MPI_SUCCESS;
    const bool home = f->comm->rank_of(scope.rank) == 0;
    if (agreement == MPI_SUCCESS && (f->amode & MPI_MODE_DELETE_ON_CLOSE) && home)
        deleted = real_mpi.File_delete(f->name.c_str(), MPI_INFO_NULL);
    if (home) io::forget_pointer(scope.engine, *f->comm);
    const std::string name = f->name;
    const MPI_Errhandler handler = f->errhandler;
    unref(f->comm);
    f->magic = 0;
    delete f;
    *fh = MPI_FILE_NULL;
    // Errors of a closed file still go to its handler: a temporary file stands in.
    io::File gone;
    gone.name = name;
    gone.errhandler = handler;
    if (agreement != MPI_SUCCESS) return io::raise_file(scope, &gone, agreement, why);
    if (code != MPI_SUCCESS) return real_result(scope, &gone, code);
    if (deleted != MPI_SUCCESS) return real_result(scope, &gone, deleted);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(File_delete)
int PMPI_File_delete(const char* filename, MPI_Info info) {
    XSIM_BEGIN_INITIALIZED("MPI_File_delete");
    if (!filename) return io::raise_file(scope, nullptr, MPI_ERR_ARG, "null file name");
    const int code = real_mpi.File_delete(filename, info);
    if (code == MPI_SUCCESS) return MPI_SUCCESS;
    return io::raise_file(scope, nullptr, io::real_error_class(code), "cannot delete '" + std::string(filename) + "'");
}

}  // extern "C"
