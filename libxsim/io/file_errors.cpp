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
    if (handler == MPI_ERRORS_RETURN) return error_class;
    if (UserErrhandler* user = resolve_user_errhandler(handler)) {
        MPI_File handle = file ? file_handle(file) : MPI_FILE_NULL;
        int code = error_code;
        // The handler is application code: it runs on its rank's globals.
        runtime::Privatization::ForRank owner(scope.engine.privatization(), scope.engine.local_index(scope.rank),
                                              scope.engine.current() != nullptr);
        scope.engine.privatization().load_for_callback();
        reinterpret_cast<MPI_File_errhandler_function*>(user->function)(&handle, &code, scope.call);
        return error_class;
    }
    char where[160];
    std::snprintf(where, sizeof where, "%s on simulated rank %d (virtual time %.9f s): ", scope.call, scope.rank.world,
                  simtime_to_seconds(scope.rank.clock));
    scope.engine.abort_run(error_class, std::string("error in ") + where + error_class_name(error_class) + ": " + detail +
                                            (file ? " [file " + file->name + "]" : std::string()));
}

int real_error_class(int code) {
    int error_class = code;
    if (real_mpi.Error_class(code, &error_class) != MPI_SUCCESS) error_class = MPI_ERR_OTHER;
    return error_class;
}

}  // namespace xsim::io
