// Communicator queries and per-communicator state: rank, size, name, error handlers,
// attributes and keyvals (the predefined attributes and user ones).
#include <mpi.h>

#include <cstring>
#include <string>

#include "libxsim/bindings/attribute_calls.hpp"
#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/real_mpi.hpp"

using namespace xsim;

extern "C" {

XSIM_MPI_ALIAS(Comm_rank)
int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_rank");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, rank, "rank")) return e;
    *rank = c->rank_of(scope.rank);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_size)
int PMPI_Comm_size(MPI_Comm comm, int* size) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_size");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, size, "size")) return e;
    *size = c->size;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_get_name)
int PMPI_Comm_get_name(MPI_Comm comm, char* name, int* resultlen) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_get_name");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, name, "name")) return e;
    if (int e = checks::pointer(scope, c, resultlen, "resultlen")) return e;
    std::strncpy(name, comm_name(*c, scope.rank), MPI_MAX_OBJECT_NAME - 1);
    name[MPI_MAX_OBJECT_NAME - 1] = '\0';
    *resultlen = static_cast<int>(std::strlen(name));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_set_name)
int PMPI_Comm_set_name(MPI_Comm comm, const char* name) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_set_name");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, name, "name")) return e;
    // Names longer than MPI_MAX_OBJECT_NAME - 1 are truncated, as the standard allows.
    set_comm_name(*c, scope.rank, std::string(name, strnlen(name, MPI_MAX_OBJECT_NAME - 1)).c_str());
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_create_errhandler)
int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* function, MPI_Errhandler* handler) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_create_errhandler");
    if (int e = checks::pointer(scope, nullptr, reinterpret_cast<const void*>(function), "function")) return e;
    if (int e = checks::pointer(scope, nullptr, handler, "errhandler")) return e;
    *handler = create_user_errhandler(function);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_call_errhandler)
int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_call_errhandler");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    int error_class = errorcode;
    if (real_mpi.Error_class(errorcode, &error_class) != MPI_SUCCESS) error_class = errorcode;
    // The handler receives the code itself; the class names it in a fatal message.
    raise(scope.rank, c, scope.call, error_class, "raised by the application", errorcode);
    return MPI_SUCCESS;  // the handler returned: the call succeeded (MPI-4 section 9.3.6)
}

XSIM_MPI_ALIAS(Comm_set_errhandler)
int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler handler) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_set_errhandler");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (handler != MPI_ERRORS_RETURN && handler != MPI_ERRORS_ARE_FATAL && !resolve_user_errhandler(handler))
        return scope.fail(c, MPI_ERR_ARG,
                          "invalid error handler (MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN or one from "
                          "MPI_Comm_create_errhandler)");
    errhandler_slot(scope.rank, c) = handler;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_get_errhandler)
int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* handler) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_get_errhandler");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, handler, "errhandler")) return e;
    *handler = errhandler_slot(scope.rank, c);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Errhandler_free)
int PMPI_Errhandler_free(MPI_Errhandler* handler) {
    XSIM_BEGIN_INITIALIZED("MPI_Errhandler_free");
    if (int e = checks::pointer(scope, nullptr, handler, "errhandler")) return e;
    // As Open MPI: freeing the null handle is an error (through MPI_COMM_WORLD's handler).
    if (*handler == MPI_ERRHANDLER_NULL) return scope.fail(nullptr, MPI_ERR_ARG, "MPI_ERRHANDLER_NULL");
    // Handlers stay valid while attached to a communicator; xsim keeps them all.
    *handler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

}  // extern "C"

namespace xsim {

int comm_get_attr(const char* call, MPI_Comm comm, int keyval, Language reader, MPI_Aint* value, int* flag) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, value, "attribute value")) return e;
    if (int e = checks::pointer(scope, c, flag, "flag")) return e;
    // Predefined attributes hold pointers to integers that live as long as the program;
    // C gets the pointer, Fortran the integer (MPI-4.0 section 19.3.7).
    static int tag_ub = checks::kTagUpperBound;
    static int wtime_is_global = 0;  // every simulated rank has its own clock
    static int host = MPI_PROC_NULL;
    static int io = MPI_ANY_SOURCE;  // every rank can do I/O
    static int universe_size = 0;
    static int appnum = 0;
    universe_size = g_engine->world_size();
    int* attribute = nullptr;
    if (keyval == MPI_TAG_UB) attribute = &tag_ub;
    else if (keyval == MPI_WTIME_IS_GLOBAL) attribute = &wtime_is_global;
    else if (keyval == MPI_HOST) attribute = &host;
    else if (keyval == MPI_IO) attribute = &io;
    else if (keyval == MPI_UNIVERSE_SIZE) attribute = &universe_size;
    else if (keyval == MPI_APPNUM) attribute = &appnum;
    else if (keyval == MPI_LASTUSEDCODE) {
        // The real library makes the classes and codes of MPI_Add_error_class/code
        // (local_calls.cpp) and keeps this attribute up to date; a copy would stay frozen.
        int found = 0;
        if (real_mpi.Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &attribute, &found) != MPI_SUCCESS || !found)
            return scope.fail(c, MPI_ERR_INTERN, "the real MPI library has no MPI_LASTUSEDCODE");
    }
    if (attribute) {
        *flag = 1;
        *value = reader == Language::C ? reinterpret_cast<MPI_Aint>(attribute) : *attribute;
        return MPI_SUCCESS;
    }
    if (!find_keyval(keyval, KeyvalKind::Comm))
        return scope.fail(c, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Comm));
    *flag = get_attribute(attributes_slot(*c, scope.rank), keyval, reader, value);
    return MPI_SUCCESS;
}

int c_create_keyval(const char* call, KeyvalKind kind, MPI_Comm_copy_attr_function* copy,
                    MPI_Comm_delete_attr_function* remove, int* keyval, void* extra_state) {
    XSIM_BEGIN_INITIALIZED(call);
    if (int e = checks::pointer(scope, nullptr, keyval, "keyval")) return e;
    *keyval = create_keyval(kind, copy, remove, extra_state);
    return MPI_SUCCESS;
}

int c_free_keyval(const char* call, KeyvalKind kind, int* keyval) {
    XSIM_BEGIN_INITIALIZED(call);
    if (int e = checks::pointer(scope, nullptr, keyval, "keyval")) return e;
    if (!free_keyval(*keyval, kind)) return scope.fail(nullptr, MPI_ERR_KEYVAL, keyval_problem(*keyval, kind));
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

int comm_set_attr(const char* call, MPI_Comm comm, int keyval, Language set_in, MPI_Aint value) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (!find_keyval(keyval, KeyvalKind::Comm))
        return scope.fail(c, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Comm));
    if (int e = set_attribute(attributes_slot(*c, scope.rank), comm, keyval, set_in, value))
        return scope.fail(c, e, "the attribute delete callback failed with error " + std::to_string(e));
    return MPI_SUCCESS;
}

}  // namespace xsim

extern "C" {

XSIM_MPI_ALIAS(Comm_get_attr)
int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void* value, int* flag) {
    MPI_Aint v = 0;
    const int rc = comm_get_attr("MPI_Comm_get_attr", comm, keyval, Language::C, value ? &v : nullptr, flag);
    if (rc == MPI_SUCCESS && *flag) *static_cast<void**>(value) = reinterpret_cast<void*>(v);
    return rc;
}

XSIM_MPI_ALIAS(Comm_set_attr)
int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void* value) {
    return comm_set_attr("MPI_Comm_set_attr", comm, keyval, Language::C, reinterpret_cast<MPI_Aint>(value));
}

XSIM_MPI_ALIAS(Comm_delete_attr)
int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_delete_attr");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (!find_keyval(keyval, KeyvalKind::Comm))
        return scope.fail(c, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Comm));
    bool found = false;
    if (int e = delete_attribute(attributes_slot(*c, scope.rank), comm, keyval, &found))
        return scope.fail(c, e, "the attribute delete callback failed with error " + std::to_string(e));
    if (!found) return scope.fail(c, MPI_ERR_KEYVAL, "no attribute is set for keyval " + std::to_string(keyval));
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_create_keyval)
int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* remove, int* keyval,
                            void* extra_state) {
    return c_create_keyval("MPI_Comm_create_keyval", KeyvalKind::Comm, copy, remove, keyval, extra_state);
}

XSIM_MPI_ALIAS(Comm_free_keyval)
int PMPI_Comm_free_keyval(int* keyval) {
    return c_free_keyval("MPI_Comm_free_keyval", KeyvalKind::Comm, keyval);
}

// Hints may be ignored (MPI-4 section 7.4.4); get_info returns a new, empty info object.
XSIM_MPI_ALIAS(Comm_set_info)
int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_set_info");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (info == MPI_INFO_NULL) return scope.fail(c, MPI_ERR_INFO, "MPI_INFO_NULL is not an info object");
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Comm_get_info)
int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info* info) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_get_info");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, info, "info")) return e;
    if (real_mpi.Info_create(info) != MPI_SUCCESS) return scope.fail(c, MPI_ERR_INTERN, "the real MPI_Info_create failed");
    return MPI_SUCCESS;
}

// No simulated process was spawned by another job.
XSIM_MPI_ALIAS(Comm_get_parent)
int PMPI_Comm_get_parent(MPI_Comm* parent) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_get_parent");
    if (int e = checks::pointer(scope, nullptr, parent, "parent")) return e;
    *parent = MPI_COMM_NULL;
    return MPI_SUCCESS;
}

}  // extern "C"
