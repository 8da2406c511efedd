// Attribute keyvals created from Fortran (MPI_COMM_CREATE_KEYVAL, MPI_TYPE_CREATE_KEYVAL,
// MPI_WIN_CREATE_KEYVAL, MPI-1 MPI_KEYVAL_CREATE) and attribute values set and read from
// Fortran. An attribute records the language it was set in (MPI-4.0 section 19.3.7,
// mpi/attributes.hpp): a value set here reads back as itself in Fortran and as a pointer
// to it in C; a pointer set in C reads here as its address. The predefined callbacks
// (MPI_COMM_DUP_FN, ...) are Fortran procedures of Open MPI's libmpi.so that touch no MPI
// state, called like the user's. The C side passes each keyval's extra_state to its
// callbacks: xsim gives it a record naming the Fortran functions and the user's extra_state,
// and one C trampoline per callback kind calls them with INTEGER handles and values by
// reference. The keyval is marked Fortran, so the attribute store hands the trampolines the
// Fortran view of a value (the integer, in the void*) and takes theirs back the same way.
#include <mpi.h>

#include <deque>
#include <tuple>

#include "libxsim/bindings/attribute_calls.hpp"
#include "libxsim/fortran/aliases.hpp"
#include "libxsim/fortran/convert.hpp"

using namespace xsim::fortran;

namespace {

// MPI-2 callbacks take INTEGER(MPI_ADDRESS_KIND) values; MPI-1 ones (MPI_KEYVAL_CREATE) INTEGERs.
using CopyAint = void (*)(MPI_Fint* handle, MPI_Fint* keyval, MPI_Aint* extra, MPI_Aint* in, MPI_Aint* out,
                          MPI_Fint* flag, MPI_Fint* ierror);
using DeleteAint = void (*)(MPI_Fint* handle, MPI_Fint* keyval, MPI_Aint* value, MPI_Aint* extra, MPI_Fint* ierror);
using CopyInt = void (*)(MPI_Fint* handle, MPI_Fint* keyval, MPI_Fint* extra, MPI_Fint* in, MPI_Fint* out,
                         MPI_Fint* flag, MPI_Fint* ierror);
using DeleteInt = void (*)(MPI_Fint* handle, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* extra, MPI_Fint* ierror);

struct FortranKeyval {
    void* copy;    // CopyAint or CopyInt
    void* remove;  // DeleteAint or DeleteInt
    MPI_Aint extra;
    bool mpi1;
    bool operator==(const FortranKeyval& o) const {
        return std::tie(copy, remove, extra, mpi1) == std::tie(o.copy, o.remove, o.extra, o.mpi1);
    }
};

// Every simulated rank creates its keyvals alike: one record per distinct set, kept for the
// run (callbacks may still run after MPI_*_FREE_KEYVAL, until the attributes go).
std::deque<FortranKeyval> g_keyvals;

FortranKeyval* record(const FortranKeyval& k) {
    for (FortranKeyval& r : g_keyvals)
        if (r == k) return &r;
    g_keyvals.push_back(k);
    return &g_keyvals.back();
}

int copy_value(MPI_Fint handle, int keyval, const FortranKeyval& k, void* in, void* out, int* flag) {
    MPI_Fint f_keyval = keyval, f_flag = 0, ierror = MPI_SUCCESS;
    if (k.mpi1) {
        MPI_Fint extra = static_cast<MPI_Fint>(k.extra), value_in = static_cast<MPI_Fint>(reinterpret_cast<MPI_Aint>(in));
        MPI_Fint value_out = 0;
        reinterpret_cast<CopyInt>(k.copy)(&handle, &f_keyval, &extra, &value_in, &value_out, &f_flag, &ierror);
        *static_cast<void**>(out) = reinterpret_cast<void*>(static_cast<MPI_Aint>(value_out));
    } else {
        MPI_Aint extra = k.extra, value_in = reinterpret_cast<MPI_Aint>(in), value_out = 0;
        reinterpret_cast<CopyAint>(k.copy)(&handle, &f_keyval, &extra, &value_in, &value_out, &f_flag, &ierror);
        *static_cast<void**>(out) = reinterpret_cast<void*>(value_out);
    }
    *flag = f_flag != 0;
    return ierror;
}

int delete_value(MPI_Fint handle, int keyval, const FortranKeyval& k, void* value) {
    MPI_Fint f_keyval = keyval, ierror = MPI_SUCCESS;
    if (k.mpi1) {
        MPI_Fint extra = static_cast<MPI_Fint>(k.extra), v = static_cast<MPI_Fint>(reinterpret_cast<MPI_Aint>(value));
        reinterpret_cast<DeleteInt>(k.remove)(&handle, &f_keyval, &v, &extra, &ierror);
    } else {
        MPI_Aint extra = k.extra, v = reinterpret_cast<MPI_Aint>(value);
        reinterpret_cast<DeleteAint>(k.remove)(&handle, &f_keyval, &v, &extra, &ierror);
    }
    return ierror;
}

int comm_copy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
    return copy_value(comm_c2f(comm), keyval, *static_cast<FortranKeyval*>(extra), in, out, flag);
}
int comm_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
    return delete_value(comm_c2f(comm), keyval, *static_cast<FortranKeyval*>(extra), value);
}
int type_copy(MPI_Datatype type, int keyval, void* extra, void* in, void* out, int* flag) {
    return copy_value(type_c2f(type), keyval, *static_cast<FortranKeyval*>(extra), in, out, flag);
}
int type_delete(MPI_Datatype type, int keyval, void* value, void* extra) {
    return delete_value(type_c2f(type), keyval, *static_cast<FortranKeyval*>(extra), value);
}

// Windows are never duplicated: the copy trampoline is there because MPI_Win_create_keyval
// takes one.
int win_copy(MPI_Win win, int keyval, void* extra, void* in, void* out, int* flag) {
    return copy_value(win_c2f(win), keyval, *static_cast<FortranKeyval*>(extra), in, out, flag);
}
int win_delete(MPI_Win win, int keyval, void* value, void* extra) {
    return delete_value(win_c2f(win), keyval, *static_cast<FortranKeyval*>(extra), value);
}

// After a successful MPI_*_CREATE_KEYVAL: its callbacks take Fortran values.
void fortran_callbacks(MPI_Fint ierror, MPI_Fint keyval) {
    if (ierror == MPI_SUCCESS) xsim::set_keyval_language(keyval, xsim::Language::Fortran);
}

constexpr xsim::Language kFortran = xsim::Language::Fortran;

}  // namespace

extern "C" {

void mpi_comm_create_keyval_(CopyAint copy, DeleteAint remove, MPI_Fint* keyval, const MPI_Aint* extra,
                             MPI_Fint* ierror) {
    FortranKeyval* k = record({reinterpret_cast<void*>(copy), reinterpret_cast<void*>(remove), *extra, false});
    *ierror = PMPI_Comm_create_keyval(comm_copy, comm_delete, keyval, k);
    fortran_callbacks(*ierror, *keyval);
}

void mpi_keyval_create_(CopyInt copy, DeleteInt remove, MPI_Fint* keyval, const MPI_Fint* extra, MPI_Fint* ierror) {
    FortranKeyval* k = record({reinterpret_cast<void*>(copy), reinterpret_cast<void*>(remove), *extra, true});
    *ierror = PMPI_Comm_create_keyval(comm_copy, comm_delete, keyval, k);
    fortran_callbacks(*ierror, *keyval);
}

void mpi_type_create_keyval_(CopyAint copy, DeleteAint remove, MPI_Fint* keyval, const MPI_Aint* extra,
                             MPI_Fint* ierror) {
    FortranKeyval* k = record({reinterpret_cast<void*>(copy), reinterpret_cast<void*>(remove), *extra, false});
    *ierror = PMPI_Type_create_keyval(type_copy, type_delete, keyval, k);
    fortran_callbacks(*ierror, *keyval);
}

void mpi_win_create_keyval_(CopyAint copy, DeleteAint remove, MPI_Fint* keyval, const MPI_Aint* extra,
                            MPI_Fint* ierror) {
    FortranKeyval* k = record({reinterpret_cast<void*>(copy), reinterpret_cast<void*>(remove), *extra, false});
    *ierror = PMPI_Win_create_keyval(win_copy, win_delete, keyval, k);
    fortran_callbacks(*ierror, *keyval);
}

void mpi_win_set_attr_(const MPI_Fint* win, const MPI_Fint* keyval, const MPI_Aint* value, MPI_Fint* ierror) {
    *ierror = xsim::win_set_attr("MPI_WIN_SET_ATTR", win_f2c(*win), *keyval, kFortran, *value);
}

void mpi_comm_set_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Aint* value, MPI_Fint* ierror) {
    *ierror = xsim::comm_set_attr("MPI_COMM_SET_ATTR", comm_f2c(*comm), *keyval, kFortran, *value);
}

// MPI-1: a default INTEGER, sign-extended to the address-sized value every Fortran
// attribute holds.
void mpi_attr_put_(const MPI_Fint* comm, const MPI_Fint* keyval, const MPI_Fint* value, MPI_Fint* ierror) {
    *ierror = xsim::comm_set_attr("MPI_ATTR_PUT", comm_f2c(*comm), *keyval, kFortran, static_cast<MPI_Aint>(*value));
}

void mpi_type_set_attr_(const MPI_Fint* type, const MPI_Fint* keyval, const MPI_Aint* value, MPI_Fint* ierror) {
    *ierror = xsim::type_set_attr("MPI_TYPE_SET_ATTR", type_f2c(*type), *keyval, kFortran, *value);
}

void mpi_comm_get_attr_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                        MPI_Fint* ierror) {
    MPI_Aint v = 0;
    int found = 0;
    *ierror = xsim::comm_get_attr("MPI_COMM_GET_ATTR", comm_f2c(*comm), *keyval, kFortran, &v, &found);
    *flag = logical(found);
    if (*ierror == MPI_SUCCESS && found) *value = v;
}

// MPI-1: the value truncated to a default INTEGER.
void mpi_attr_get_(const MPI_Fint* comm, const MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* flag, MPI_Fint* ierror) {
    MPI_Aint v = 0;
    int found = 0;
    *ierror = xsim::comm_get_attr("MPI_ATTR_GET", comm_f2c(*comm), *keyval, kFortran, &v, &found);
    *flag = logical(found);
    if (*ierror == MPI_SUCCESS && found) *value = static_cast<MPI_Fint>(v);
}

void mpi_win_get_attr_(const MPI_Fint* win, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                       MPI_Fint* ierror) {
    MPI_Aint v = 0;
    int found = 0;
    *ierror = xsim::win_get_attr("MPI_WIN_GET_ATTR", win_f2c(*win), *keyval, kFortran, &v, &found);
    *flag = logical(found);
    if (*ierror == MPI_SUCCESS && found) *value = v;
}

void mpi_type_get_attr_(const MPI_Fint* type, const MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                        MPI_Fint* ierror) {
    MPI_Aint v = 0;
    int found = 0;
    *ierror = xsim::type_get_attr("MPI_TYPE_GET_ATTR", type_f2c(*type), *keyval, kFortran, &v, &found);
    *flag = logical(found);
    if (*ierror == MPI_SUCCESS && found) *value = v;
}

}  // extern "C"

XSIM_FORTRAN_ALIASES(comm_create_keyval, COMM_CREATE_KEYVAL)
XSIM_FORTRAN_ALIASES(keyval_create, KEYVAL_CREATE)
XSIM_FORTRAN_ALIASES(type_create_keyval, TYPE_CREATE_KEYVAL)
XSIM_FORTRAN_ALIASES(win_create_keyval, WIN_CREATE_KEYVAL)
XSIM_FORTRAN_ALIASES(win_set_attr, WIN_SET_ATTR)
XSIM_FORTRAN_ALIASES(comm_set_attr, COMM_SET_ATTR)
XSIM_FORTRAN_ALIASES(attr_put, ATTR_PUT)
XSIM_FORTRAN_ALIASES(type_set_attr, TYPE_SET_ATTR)
XSIM_FORTRAN_ALIASES(type_get_attr, TYPE_GET_ATTR)
XSIM_FORTRAN_ALIASES(comm_get_attr, COMM_GET_ATTR)
XSIM_FORTRAN_ALIASES(attr_get, ATTR_GET)
XSIM_FORTRAN_ALIASES(win_get_attr, WIN_GET_ATTR)
