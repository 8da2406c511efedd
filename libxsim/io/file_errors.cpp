#include "libxsim/io/file_errors.hpp"

#include <cstdio>
#include <unordered_map>

#include "libxsim/engine/layer_state.hpp"
#include "libxsim/io/file.hpp"

namespace xsim::io {
namespace {

// MPI_FILE_NULL's handler per simulated rank that changed it (others: MPI_ERRORS_RETURN).
struct FileErrhandlers final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::FileErrhandlers;
    std::unordered_map<int, MPI_Errhandler> of_file_null;
};

}  // namespace

MPI_Errhandler& file_null_errhandler(Rank& rank) {
    auto& table = layer_state<FileErrhandlers>(*g_engine).of_file_null;
    return table.try_emplace(rank.world, MPI_ERRORS_RETURN).first->second;
}

int raise_file(CallScope& scope, File* file, int error_class, const std::string& detail) {
    return raise_file(scope, file, error_class, detail, error_class);
}

int raise_file(CallScope& scope, File* file, int error_class, const std::string& detail, int error_code) {
    const MPI_Errhandler handler = file ? file->errhandler : file_null_errhandler(scope.rank);
    return apply_errhandler(scope.rank, scope.call, handler, file ? file_handle(file) : MPI_FILE_NULL, error_class,
                            error_code, detail, file ? " [file " + file->name + "]" : std::string());
}

int real_error_class(int code) {
    int error_class = code;
    if (real_mpi.Error_class(code, &error_class) != MPI_SUCCESS) error_class = MPI_ERR_OTHER;
    return error_class;
}

}  // namespace xsim::io
