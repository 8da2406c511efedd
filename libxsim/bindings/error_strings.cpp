// MPI_Error_string and MPI_Error_class, which the standard allows at any time (MPI-4.0
// section 11.4.1, Table 11.1). While the real library is initialized they are its
// answers: user classes and codes (MPI_Add_error_*) live in its table. Before it starts
// (static constructors) and after it ends (static destructors, atexit handlers) Open MPI
// 4.1 would abort the process, so the predefined classes are answered here; each
// predefined error code is its own class.
#include <mpi.h>

#include <cstdio>

#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/engine/call_scope.hpp"
#include "libxsim/mpi/real_mpi.hpp"

using namespace xsim;

namespace {

#define XSIM_ERROR_CLASS(name) {name, #name}
struct PredefinedClass {
    int code;
    const char* name;
};
constexpr PredefinedClass kPredefined[] = {
    XSIM_ERROR_CLASS(MPI_SUCCESS), XSIM_ERROR_CLASS(MPI_ERR_BUFFER), XSIM_ERROR_CLASS(MPI_ERR_COUNT),
    XSIM_ERROR_CLASS(MPI_ERR_TYPE), XSIM_ERROR_CLASS(MPI_ERR_TAG), XSIM_ERROR_CLASS(MPI_ERR_COMM),
    XSIM_ERROR_CLASS(MPI_ERR_RANK), XSIM_ERROR_CLASS(MPI_ERR_REQUEST), XSIM_ERROR_CLASS(MPI_ERR_ROOT),
    XSIM_ERROR_CLASS(MPI_ERR_GROUP), XSIM_ERROR_CLASS(MPI_ERR_OP), XSIM_ERROR_CLASS(MPI_ERR_TOPOLOGY),
    XSIM_ERROR_CLASS(MPI_ERR_DIMS), XSIM_ERROR_CLASS(MPI_ERR_ARG), XSIM_ERROR_CLASS(MPI_ERR_UNKNOWN),
    XSIM_ERROR_CLASS(MPI_ERR_TRUNCATE), XSIM_ERROR_CLASS(MPI_ERR_OTHER), XSIM_ERROR_CLASS(MPI_ERR_INTERN),
    XSIM_ERROR_CLASS(MPI_ERR_IN_STATUS), XSIM_ERROR_CLASS(MPI_ERR_PENDING), XSIM_ERROR_CLASS(MPI_ERR_ACCESS),
    XSIM_ERROR_CLASS(MPI_ERR_AMODE), XSIM_ERROR_CLASS(MPI_ERR_ASSERT), XSIM_ERROR_CLASS(MPI_ERR_BAD_FILE),
    XSIM_ERROR_CLASS(MPI_ERR_BASE), XSIM_ERROR_CLASS(MPI_ERR_CONVERSION), XSIM_ERROR_CLASS(MPI_ERR_DISP),
    XSIM_ERROR_CLASS(MPI_ERR_DUP_DATAREP), XSIM_ERROR_CLASS(MPI_ERR_FILE_EXISTS),
    XSIM_ERROR_CLASS(MPI_ERR_FILE_IN_USE), XSIM_ERROR_CLASS(MPI_ERR_FILE), XSIM_ERROR_CLASS(MPI_ERR_INFO_KEY),
    XSIM_ERROR_CLASS(MPI_ERR_INFO_NOKEY), XSIM_ERROR_CLASS(MPI_ERR_INFO_VALUE), XSIM_ERROR_CLASS(MPI_ERR_INFO),
    XSIM_ERROR_CLASS(MPI_ERR_IO), XSIM_ERROR_CLASS(MPI_ERR_KEYVAL), XSIM_ERROR_CLASS(MPI_ERR_LOCKTYPE),
    XSIM_ERROR_CLASS(MPI_ERR_NAME), XSIM_ERROR_CLASS(MPI_ERR_NO_MEM), XSIM_ERROR_CLASS(MPI_ERR_NOT_SAME),
    XSIM_ERROR_CLASS(MPI_ERR_NO_SPACE), XSIM_ERROR_CLASS(MPI_ERR_NO_SUCH_FILE), XSIM_ERROR_CLASS(MPI_ERR_PORT),
    XSIM_ERROR_CLASS(MPI_ERR_QUOTA), XSIM_ERROR_CLASS(MPI_ERR_READ_ONLY), XSIM_ERROR_CLASS(MPI_ERR_RMA_CONFLICT),
    XSIM_ERROR_CLASS(MPI_ERR_RMA_SYNC), XSIM_ERROR_CLASS(MPI_ERR_SERVICE), XSIM_ERROR_CLASS(MPI_ERR_SIZE),
    XSIM_ERROR_CLASS(MPI_ERR_SPAWN), XSIM_ERROR_CLASS(MPI_ERR_UNSUPPORTED_DATAREP),
    XSIM_ERROR_CLASS(MPI_ERR_UNSUPPORTED_OPERATION), XSIM_ERROR_CLASS(MPI_ERR_WIN),
    XSIM_ERROR_CLASS(MPI_T_ERR_MEMORY), XSIM_ERROR_CLASS(MPI_T_ERR_NOT_INITIALIZED),
    XSIM_ERROR_CLASS(MPI_T_ERR_CANNOT_INIT), XSIM_ERROR_CLASS(MPI_T_ERR_INVALID_INDEX),
    XSIM_ERROR_CLASS(MPI_T_ERR_INVALID_ITEM), XSIM_ERROR_CLASS(MPI_T_ERR_INVALID_HANDLE),
    XSIM_ERROR_CLASS(MPI_T_ERR_OUT_OF_HANDLES), XSIM_ERROR_CLASS(MPI_T_ERR_OUT_OF_SESSIONS),
    XSIM_ERROR_CLASS(MPI_T_ERR_INVALID_SESSION), XSIM_ERROR_CLASS(MPI_T_ERR_CVAR_SET_NOT_NOW),
    XSIM_ERROR_CLASS(MPI_T_ERR_CVAR_SET_NEVER), XSIM_ERROR_CLASS(MPI_T_ERR_PVAR_NO_STARTSTOP),
    XSIM_ERROR_CLASS(MPI_T_ERR_PVAR_NO_WRITE), XSIM_ERROR_CLASS(MPI_T_ERR_PVAR_NO_ATOMIC),
    XSIM_ERROR_CLASS(MPI_ERR_RMA_RANGE), XSIM_ERROR_CLASS(MPI_ERR_RMA_ATTACH), XSIM_ERROR_CLASS(MPI_ERR_RMA_FLAVOR),
    XSIM_ERROR_CLASS(MPI_ERR_RMA_SHARED), XSIM_ERROR_CLASS(MPI_T_ERR_INVALID),
    XSIM_ERROR_CLASS(MPI_T_ERR_INVALID_NAME),
};
#undef XSIM_ERROR_CLASS

const PredefinedClass* predefined(int code) {
    for (const PredefinedClass& c : kPredefined)
        if (c.code == code) return &c;
    return nullptr;
}

// Whether PMPI calls other than the always-available ones work now.
bool real_library_active() {
    int initialized = 0, finalized = 0;
    real_mpi.Initialized(&initialized);
    real_mpi.Finalized(&finalized);
    return initialized && !finalized;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Error_class)
int PMPI_Error_class(int code, int* error_class) {
    AnytimeCall call("MPI_Error_class");
    if (!error_class) return call.fail(MPI_ERR_ARG, "error_class is a null pointer");
    if (real_library_active()) return call.result(real_mpi.Error_class(code, error_class));
    const PredefinedClass* c = predefined(code);
    if (!c) return call.fail(MPI_ERR_ARG, "not a predefined error code (MPI is not initialized)");
    *error_class = c->code;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Error_string)
int PMPI_Error_string(int code, char* text, int* resultlen) {
    AnytimeCall call("MPI_Error_string");
    if (!text) return call.fail(MPI_ERR_ARG, "string is a null pointer");
    if (!resultlen) return call.fail(MPI_ERR_ARG, "resultlen is a null pointer");
    if (real_library_active()) return call.result(real_mpi.Error_string(code, text, resultlen));
    const PredefinedClass* c = predefined(code);
    if (!c) return call.fail(MPI_ERR_ARG, "not a predefined error code (MPI is not initialized)");
    *resultlen = std::snprintf(text, MPI_MAX_ERROR_STRING, "%s", c->name);
    return MPI_SUCCESS;
}

}  // extern "C"
