// MPI-IO calls about a file rather than its data (MPI-4.0 sections 14.2.4-14.3, 14.4.3,
// 14.6, 14.7): views, the individual file pointer, sizes, info, atomicity, sync, groups,
// modes and error handlers. The rank's real handle answers what it knows; set_size ends
// with an agreement (every rank's real call happens before any rank leaves, so no rank
// writes while another still truncates) that also checks the ranks passed the same size;
// preallocate agrees on the size, then rank 0 alone preallocates; set_view resets the
// shared file pointer between two agreements.
#include <string>
#include <vector>

#include "libxsim/bindings/file_support.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/engine/comm_rank_state.hpp"
#include "libxsim/io/agreement.hpp"
#include "libxsim/io/shared_pointer.hpp"
#include "libxsim/mpi/group.hpp"

using namespace xsim;
using namespace xsim::file_support;

namespace {

// Resolves the file and runs a real call on its handle.
template <class Real>
int on_real_handle(const char* call, MPI_File fh, Real&& real) {
    XSIM_BEGIN_INITIALIZED(call);
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    return real_result(scope, f, real(f->real));
}

// set_size: the real call, then the agreement on `size`.
template <class Real>
int sized_collective(const char* call, MPI_File fh, MPI_Offset size, Real&& real) {
    XSIM_BEGIN_INITIALIZED(call);
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (size < 0) return io::raise_file(scope, f, MPI_ERR_ARG, "negative size " + std::to_string(size));
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return io::raise_file(scope, f, MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened MPI_MODE_SEQUENTIAL");
    const int code = real(f->real);
    std::vector<std::int64_t> agreed{size, -size};
    std::string why;
    if (int e = io::allreduce_max(scope, *f->comm, agreed, &why)) return io::raise_file(scope, f, e, why);
    if (agreed[0] != -agreed[1]) return io::raise_file(scope, f, MPI_ERR_NOT_SAME, "the ranks passed different sizes");
    return real_result(scope, f, code);
}

// MPI_File_set_view resets the shared file pointer (the real call does the individual one),
// collectively: once every rank has entered (their earlier accesses are applied), rank 0
// sets it to 0 at the home; a second agreement keeps every rank's later accesses after that.
// With `current` (MPI_DISPLACEMENT_CURRENT), rank 0 first reads where it was, in bytes of the
// old view, and the second agreement hands that out as the new view's displacement (*disp).
int reset_shared_pointer(CallScope& s, io::File* f, bool current, MPI_Offset* disp) {
    std::vector<std::int64_t> entered{0};
    std::string why;
    if (int e = io::allreduce_max(s, *f->comm, entered, &why)) return io::raise_file(s, f, e, why);
    std::vector<std::int64_t> where{-1};
    if (f->comm->rank_of(s.rank) == 0) {
        const std::int64_t before = io::move(s.engine, s.rank, *f, io::PointerMove::Set, 0);
        MPI_Offset bytes = 0;
        if (current && real_mpi.File_get_byte_offset(f->real, before, &bytes) == MPI_SUCCESS) where[0] = bytes;
    }
    if (int e = io::allreduce_max(s, *f->comm, where, &why)) return io::raise_file(s, f, e, why);
    if (current && where[0] < 0)
        return io::raise_file(s, f, MPI_ERR_OTHER, "rank 0 could not tell where the shared file pointer was");
    *disp = where[0];
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(File_set_view)
int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype, const char* datarep,
                       MPI_Info info) {
    XSIM_BEGIN_INITIALIZED("MPI_File_set_view");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (f->split_call)
        return io::raise_file(scope, f, MPI_ERR_OTHER, std::string("the split collective ") + f->split_call +
                                                           " is still outstanding on this file");
    if (!datarep) return io::raise_file(scope, f, MPI_ERR_ARG, "null datarep");
    const std::string rep = datarep;
    if (rep != "native" && rep != "internal" && rep != "external32")
        return io::raise_file(scope, f, MPI_ERR_UNSUPPORTED_DATAREP, "unknown data representation '" + rep + "'");
    if (int e = data_args(scope, f, nullptr, 0, etype)) return e;
    if (int e = data_args(scope, f, nullptr, 0, filetype)) return e;
    // MPI_DISPLACEMENT_CURRENT (the shared pointer's place) is for MPI_MODE_SEQUENTIAL files
    // only, and only xsim knows that place: the real call comes after the agreements then.
    const bool current = disp == MPI_DISPLACEMENT_CURRENT;
    if (current && !(f->amode & MPI_MODE_SEQUENTIAL))
        return io::raise_file(scope, f, MPI_ERR_ARG,
                              "MPI_DISPLACEMENT_CURRENT needs a file opened with MPI_MODE_SEQUENTIAL");
    if (!current)
        if (int e = real_result(scope, f, real_mpi.File_set_view(f->real, disp, etype, filetype, datarep, info)))
            return e;
    MPI_Offset shared_disp = 0;
    if (int e = reset_shared_pointer(scope, f, current, &shared_disp)) return e;
    if (current)
        if (int e = real_result(scope, f, real_mpi.File_set_view(f->real, shared_disp, etype, filetype, datarep, info)))
            return e;
    int etype_size = 1;
    real_mpi.Type_size(etype, &etype_size);
    f->etype_size = etype_size > 0 ? etype_size : 1;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(File_get_view)
int PMPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype, char* datarep) {
    return on_real_handle("MPI_File_get_view", fh,
                          [&](MPI_File h) { return real_mpi.File_get_view(h, disp, etype, filetype, datarep); });
}

XSIM_MPI_ALIAS(File_seek)
int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
    return on_real_handle("MPI_File_seek", fh, [&](MPI_File h) { return real_mpi.File_seek(h, offset, whence); });
}
XSIM_MPI_ALIAS(File_get_position)
int PMPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
    return on_real_handle("MPI_File_get_position", fh, [&](MPI_File h) { return real_mpi.File_get_position(h, offset); });
}
XSIM_MPI_ALIAS(File_get_byte_offset)
int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
    return on_real_handle("MPI_File_get_byte_offset", fh,
                          [&](MPI_File h) { return real_mpi.File_get_byte_offset(h, offset, disp); });
}
XSIM_MPI_ALIAS(File_get_type_extent)
int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype type, MPI_Aint* extent) {
    return on_real_handle("MPI_File_get_type_extent", fh,
                          [&](MPI_File h) { return real_mpi.File_get_type_extent(h, type, extent); });
}
XSIM_MPI_ALIAS(File_get_size)
int PMPI_File_get_size(MPI_File fh, MPI_Offset* size) {
    return on_real_handle("MPI_File_get_size", fh, [&](MPI_File h) { return real_mpi.File_get_size(h, size); });
}
XSIM_MPI_ALIAS(File_set_size)
int PMPI_File_set_size(MPI_File fh, MPI_Offset size) {
    return sized_collective("MPI_File_set_size", fh, size, [&](MPI_File h) { return real_mpi.File_set_size(h, size); });
}
// MPI_File_preallocate: the ranks agree on the size, the file communicator's rank 0 alone
// preallocates on its real handle, and a second agreement hands out its result once the
// space exists (no rank writes before). Not every rank on its own handle: each real
// handle's communicator is MPI_COMM_SELF, so each would be the real call's root, and Open
// MPI's root reads back and rewrites the bytes the file already holds (those the first
// rank's call allocated): MPI_ERR_ACCESS on a file opened MPI_MODE_WRONLY (IOR's
// --mpiio.preallocate), and the file rewritten once per rank otherwise.
XSIM_MPI_ALIAS(File_preallocate)
int PMPI_File_preallocate(MPI_File fh, MPI_Offset size) {
    XSIM_BEGIN_INITIALIZED("MPI_File_preallocate");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (size < 0) return io::raise_file(scope, f, MPI_ERR_ARG, "negative size " + std::to_string(size));
    if (f->amode & MPI_MODE_SEQUENTIAL)
        return io::raise_file(scope, f, MPI_ERR_UNSUPPORTED_OPERATION, "the file was opened MPI_MODE_SEQUENTIAL");
    std::vector<std::int64_t> agreed{size, -size};
    std::string why;
    if (int e = io::allreduce_max(scope, *f->comm, agreed, &why)) return io::raise_file(scope, f, e, why);
    if (agreed[0] != -agreed[1]) return io::raise_file(scope, f, MPI_ERR_NOT_SAME, "the ranks passed different sizes");
    std::vector<std::int64_t> code{MPI_SUCCESS};  // error codes are positive: the maximum is rank 0's
    if (f->comm->rank_of(scope.rank) == 0) code[0] = real_mpi.File_preallocate(f->real, size);
    if (int e = io::allreduce_max(scope, *f->comm, code, &why)) return io::raise_file(scope, f, e, why);
    return real_result(scope, f, static_cast<int>(code[0]));
}
XSIM_MPI_ALIAS(File_sync)
int PMPI_File_sync(MPI_File fh) {
    return on_real_handle("MPI_File_sync", fh, [&](MPI_File h) { return real_mpi.File_sync(h); });
}
XSIM_MPI_ALIAS(File_set_atomicity)
int PMPI_File_set_atomicity(MPI_File fh, int flag) {
    return on_real_handle("MPI_File_set_atomicity", fh, [&](MPI_File h) { return real_mpi.File_set_atomicity(h, flag); });
}
XSIM_MPI_ALIAS(File_get_atomicity)
int PMPI_File_get_atomicity(MPI_File fh, int* flag) {
    return on_real_handle("MPI_File_get_atomicity", fh, [&](MPI_File h) { return real_mpi.File_get_atomicity(h, flag); });
}
XSIM_MPI_ALIAS(File_set_info)
int PMPI_File_set_info(MPI_File fh, MPI_Info info) {
    return on_real_handle("MPI_File_set_info", fh, [&](MPI_File h) { return real_mpi.File_set_info(h, info); });
}
XSIM_MPI_ALIAS(File_get_info)
int PMPI_File_get_info(MPI_File fh, MPI_Info* info) {
    return on_real_handle("MPI_File_get_info", fh, [&](MPI_File h) { return real_mpi.File_get_info(h, info); });
}

XSIM_MPI_ALIAS(File_get_amode)
int PMPI_File_get_amode(MPI_File fh, int* amode) {
    XSIM_BEGIN_INITIALIZED("MPI_File_get_amode");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (!amode) return io::raise_file(scope, f, MPI_ERR_ARG, "null amode pointer");
    *amode = f->amode;
    return MPI_SUCCESS;
}

// The simulated group of the communicator the file was opened on.
XSIM_MPI_ALIAS(File_get_group)
int PMPI_File_get_group(MPI_File fh, MPI_Group* group) {
    XSIM_BEGIN_INITIALIZED("MPI_File_get_group");
    io::File* f = nullptr;
    if (int e = file_arg(scope, fh, &f)) return e;
    if (!group) return io::raise_file(scope, f, MPI_ERR_ARG, "null group pointer");
    *group = group_handle(comm_group(*f->comm, scope.rank));
    return MPI_SUCCESS;
}

// Error handlers: MPI_FILE_NULL's is the one new files start with.
XSIM_MPI_ALIAS(File_create_errhandler)
int PMPI_File_create_errhandler(MPI_File_errhandler_function* function, MPI_Errhandler* errhandler) {
    XSIM_BEGIN_INITIALIZED("MPI_File_create_errhandler");
    if (!function || !errhandler) return io::raise_file(scope, nullptr, MPI_ERR_ARG, "null function or errhandler pointer");
    *errhandler = create_user_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(function));
    return MPI_SUCCESS;
}
XSIM_MPI_ALIAS(File_set_errhandler)
int PMPI_File_set_errhandler(MPI_File fh, MPI_Errhandler errhandler) {
    XSIM_BEGIN_INITIALIZED("MPI_File_set_errhandler");
    io::File* f = fh == MPI_FILE_NULL ? nullptr : io::resolve_file(fh);
    if (fh != MPI_FILE_NULL && !f) return io::raise_file(scope, nullptr, MPI_ERR_FILE, "not an open file handle");
    if (errhandler != MPI_ERRORS_RETURN && errhandler != MPI_ERRORS_ARE_FATAL && !resolve_user_errhandler(errhandler))
        return io::raise_file(scope, f, MPI_ERR_ARG, "not an error handler");
    (f ? f->errhandler : io::file_null_errhandler(scope.rank)) = errhandler;
    return MPI_SUCCESS;
}
XSIM_MPI_ALIAS(File_get_errhandler)
int PMPI_File_get_errhandler(MPI_File fh, MPI_Errhandler* errhandler) {
    XSIM_BEGIN_INITIALIZED("MPI_File_get_errhandler");
    io::File* f = fh == MPI_FILE_NULL ? nullptr : io::resolve_file(fh);
    if (fh != MPI_FILE_NULL && !f) return io::raise_file(scope, nullptr, MPI_ERR_FILE, "not an open file handle");
    if (!errhandler) return io::raise_file(scope, f, MPI_ERR_ARG, "null errhandler pointer");
    *errhandler = f ? f->errhandler : io::file_null_errhandler(scope.rank);
    return MPI_SUCCESS;
}
XSIM_MPI_ALIAS(File_call_errhandler)
int PMPI_File_call_errhandler(MPI_File fh, int errorcode) {
    XSIM_BEGIN_INITIALIZED("MPI_File_call_errhandler");
    io::File* f = fh == MPI_FILE_NULL ? nullptr : io::resolve_file(fh);
    if (fh != MPI_FILE_NULL && !f) return io::raise_file(scope, nullptr, MPI_ERR_FILE, "not an open file handle");
    io::raise_file(scope, f, io::real_error_class(errorcode), "raised by the application", errorcode);
    return MPI_SUCCESS;  // the handler returned
}

}  // extern "C"
