// Datatype attributes (MPI-4.0 section 7.7.5): MPI_Type_create_keyval, free_keyval,
// set/get/delete_attr, and the copy and delete callbacks MPI_Type_dup and MPI_Type_free
// run (local_calls.cpp). xsim keeps them, not the real library, for two reasons: an
// attribute records the language it was set in (MPI-4.0 section 19.3.7, attribute_calls.hpp),
// and the simulated ranks of a process share the predefined types' handles but each has
// its own attributes on them (keyed by world rank, process_objects.hpp).
#include <mpi.h>

#include <string>

#include "libxsim/bindings/attribute_calls.hpp"
#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/type_attributes.hpp"
#include "libxsim/mpi/process_objects.hpp"

using namespace xsim;

namespace {

MPI_Comm as_callback_handle(MPI_Datatype type) { return reinterpret_cast<MPI_Comm>(type); }

// The slot of `type`'s attributes for `rank`, made when `make`; null when there is none.
Attributes** slot(const Rank& rank, MPI_Datatype type, bool make) {
    auto& table = process_objects().type_attributes;
    const auto key = std::make_pair(static_cast<int>(rank.world), type);
    auto it = table.find(key);
    if (it == table.end()) {
        if (!make) return nullptr;
        it = table.emplace(key, nullptr).first;
    }
    return &it->second;
}

// Forgets an empty slot (the handle may be reused by another type once freed).
void tidy(const Rank& rank, MPI_Datatype type) {
    auto& table = process_objects().type_attributes;
    auto it = table.find(std::make_pair(static_cast<int>(rank.world), type));
    if (it != table.end() && (!it->second || it->second->values.empty())) {
        delete it->second;
        table.erase(it);
    }
}

int check_attributed_type(CallScope& scope, MPI_Datatype type) {
    if (type == MPI_DATATYPE_NULL) return scope.fail(nullptr, MPI_ERR_TYPE, "MPI_DATATYPE_NULL has no attributes");
    return MPI_SUCCESS;
}

}  // namespace

namespace xsim {

int type_get_attr(const char* call, MPI_Datatype type, int keyval, Language reader, MPI_Aint* value, int* flag) {
    XSIM_BEGIN_INITIALIZED(call);
    if (int e = check_attributed_type(scope, type)) return e;
    if (int e = checks::pointer(scope, nullptr, value, "attribute value")) return e;
    if (int e = checks::pointer(scope, nullptr, flag, "flag")) return e;
    if (!find_keyval(keyval, KeyvalKind::Type))
        return scope.fail(nullptr, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Type));
    Attributes** s = slot(scope.rank, type, false);
    *flag = s && get_attribute(*s, keyval, reader, value) ? 1 : 0;
    return MPI_SUCCESS;
}

int type_set_attr(const char* call, MPI_Datatype type, int keyval, Language set_in, MPI_Aint value) {
    XSIM_BEGIN_INITIALIZED(call);
    if (int e = check_attributed_type(scope, type)) return e;
    if (!find_keyval(keyval, KeyvalKind::Type))
        return scope.fail(nullptr, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Type));
    if (int e = set_attribute(*slot(scope.rank, type, true), as_callback_handle(type), keyval, set_in, value))
        return scope.fail(nullptr, e, "the attribute delete callback failed with error " + std::to_string(e));
    return MPI_SUCCESS;
}

int copy_type_attributes(const Rank& rank, MPI_Datatype from, MPI_Datatype to, std::string* why) {
    Attributes** source = slot(rank, from, false);
    if (!source || !*source) return MPI_SUCCESS;
    Attributes* copied = nullptr;
    const int e = copy_attributes(*source, as_callback_handle(from), copied, why);
    if (copied) *slot(rank, to, true) = copied;
    return e;
}

int delete_type_attributes(const Rank& rank, MPI_Datatype type) {
    Attributes** s = slot(rank, type, false);
    if (!s) return MPI_SUCCESS;
    const int e = delete_all_attributes(*s, as_callback_handle(type));
    tidy(rank, type);
    return e;
}

}  // namespace xsim

extern "C" {

XSIM_MPI_ALIAS(Type_create_keyval)
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* copy, MPI_Type_delete_attr_function* remove, int* keyval,
                            void* extra_state) {
    return c_create_keyval("MPI_Type_create_keyval", KeyvalKind::Type,
                           reinterpret_cast<MPI_Comm_copy_attr_function*>(copy),
                           reinterpret_cast<MPI_Comm_delete_attr_function*>(remove), keyval, extra_state);
}

XSIM_MPI_ALIAS(Type_free_keyval)
int PMPI_Type_free_keyval(int* keyval) {
    return c_free_keyval("MPI_Type_free_keyval", KeyvalKind::Type, keyval);
}

XSIM_MPI_ALIAS(Type_get_attr)
int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void* value, int* flag) {
    MPI_Aint v = 0;
    const int rc = type_get_attr("MPI_Type_get_attr", type, keyval, Language::C, value ? &v : nullptr, flag);
    if (rc == MPI_SUCCESS && *flag) *static_cast<void**>(value) = reinterpret_cast<void*>(v);
    return rc;
}

XSIM_MPI_ALIAS(Type_set_attr)
int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void* value) {
    return type_set_attr("MPI_Type_set_attr", type, keyval, Language::C, reinterpret_cast<MPI_Aint>(value));
}

XSIM_MPI_ALIAS(Type_delete_attr)
int PMPI_Type_delete_attr(MPI_Datatype type, int keyval) {
    XSIM_BEGIN_INITIALIZED("MPI_Type_delete_attr");
    if (int e = check_attributed_type(scope, type)) return e;
    if (!find_keyval(keyval, KeyvalKind::Type))
        return scope.fail(nullptr, MPI_ERR_KEYVAL, keyval_problem(keyval, KeyvalKind::Type));
    Attributes** s = slot(scope.rank, type, false);
    bool found = false;
    if (s) {
        if (int e = delete_attribute(*s, as_callback_handle(type), keyval, &found))
            return scope.fail(nullptr, e, "the attribute delete callback failed with error " + std::to_string(e));
        tidy(scope.rank, type);
    }
    if (!found) return scope.fail(nullptr, MPI_ERR_KEYVAL, "no attribute is set for keyval " + std::to_string(keyval));
    return MPI_SUCCESS;
}

}  // extern "C"
