#include "libxsim/bindings/window_checks.hpp"

#include <cstdio>

#include "libxsim/mpi/datatype.hpp"

namespace xsim::window_checks {

int fail(CallScope& s, rma::Window* w, int error_class, const std::string& detail) {
    if (!w) return s.fail(nullptr, error_class, detail);
    return apply_errhandler(s.rank, s.call, w->errhandler, rma::window_handle(w), error_class, error_class, detail,
                            " [window " + (w->name.empty() ? std::string("without a name") : w->name) + "]");
}

int window(CallScope& s, MPI_Win handle, rma::Window** out) {
    *out = rma::resolve_window(handle);
    if (*out && (*out)->owner == &s.rank) return MPI_SUCCESS;
    *out = nullptr;
    return s.fail(nullptr, MPI_ERR_WIN, handle == MPI_WIN_NULL ? "MPI_WIN_NULL is not a window" : "invalid window handle");
}

int target(CallScope& s, rma::Window* w, int rank, bool proc_null_ok) {
    if ((proc_null_ok && rank == MPI_PROC_NULL) || (rank >= 0 && rank < w->comm->size)) return MPI_SUCCESS;
    return fail(s, w, MPI_ERR_RANK,
                "invalid target rank " + std::to_string(rank) + " (window group size " + std::to_string(w->comm->size) + ")");
}

int data(CallScope& s, rma::Window* w, int count, MPI_Datatype type, const char* what) {
    if (count < 0) return fail(s, w, MPI_ERR_COUNT, std::string("negative ") + what + " count " + std::to_string(count));
    if (count == 0 && type == MPI_DATATYPE_NULL) return MPI_SUCCESS;
    TypeLayout layout;
    switch (check_type(type, &layout)) {
        case TypeCheck::Ok: return MPI_SUCCESS;
        case TypeCheck::Null: return fail(s, w, MPI_ERR_TYPE, std::string("invalid ") + what + " datatype");
        case TypeCheck::Uncommitted:
            return fail(s, w, MPI_ERR_TYPE, std::string("the ") + what + " datatype is not committed (MPI_Type_commit)");
    }
    return MPI_SUCCESS;
}

}  // namespace xsim::window_checks
