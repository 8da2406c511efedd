// MPI calls that involve no communication (datatypes, ops, info objects, packing,
// user error classes): the real library does them well, so they go straight to PMPI. The
// real library's own error handlers are set to return, and its errors are reported
// through the simulated rank's handler like any other.
#include <mpi.h>

#include <string>

#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/type_attributes.hpp"
#include "libxsim/engine/call_scope.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"

using namespace xsim;

// Charges compute like any binding; also works outside a simulated rank (call_scope.hpp).
using LocalCall = AnytimeCall;

#define XSIM_LOCAL(name, params, args)            \
    XSIM_MPI_ALIAS(name)                          \
    int PMPI_##name params {                      \
        LocalCall local("MPI_" #name);            \
        return local.result(real_mpi.name args);  \
    }

// Packing takes a communicator only to pick a data representation; all simulated
// ranks share this host's, which MPI_COMM_SELF names.
#define XSIM_LOCAL_WITH_COMM(name, params, args)                                    \
    XSIM_MPI_ALIAS(name)                                                           \
    int PMPI_##name params {                                                       \
        LocalCall local("MPI_" #name);                                             \
        if (!resolve_comm(comm)) return local.result(MPI_ERR_COMM);                \
        MPI_Comm real_comm = MPI_COMM_SELF;                                        \
        return local.result(real_mpi.name args);                                   \
    }

extern "C" {

XSIM_LOCAL(Type_size, (MPI_Datatype t, int* s), (t, s))
XSIM_LOCAL(Type_size_x, (MPI_Datatype t, MPI_Count* s), (t, s))
XSIM_LOCAL(Type_get_extent, (MPI_Datatype t, MPI_Aint* lb, MPI_Aint* e), (t, lb, e))
XSIM_LOCAL(Type_get_extent_x, (MPI_Datatype t, MPI_Count* lb, MPI_Count* e), (t, lb, e))
XSIM_LOCAL(Type_get_true_extent, (MPI_Datatype t, MPI_Aint* lb, MPI_Aint* e), (t, lb, e))
XSIM_LOCAL(Type_get_true_extent_x, (MPI_Datatype t, MPI_Count* lb, MPI_Count* e), (t, lb, e))
XSIM_LOCAL(Type_contiguous, (int n, MPI_Datatype old, MPI_Datatype* out), (n, old, out))
XSIM_LOCAL(Type_vector, (int n, int bl, int stride, MPI_Datatype old, MPI_Datatype* out), (n, bl, stride, old, out))
XSIM_LOCAL(Type_create_hvector, (int n, int bl, MPI_Aint stride, MPI_Datatype old, MPI_Datatype* out),
           (n, bl, stride, old, out))
XSIM_LOCAL(Type_indexed, (int n, const int bl[], const int d[], MPI_Datatype old, MPI_Datatype* out),
           (n, bl, d, old, out))
XSIM_LOCAL(Type_create_hindexed, (int n, const int bl[], const MPI_Aint d[], MPI_Datatype old, MPI_Datatype* out),
           (n, bl, d, old, out))
XSIM_LOCAL(Type_create_indexed_block, (int n, int bl, const int d[], MPI_Datatype old, MPI_Datatype* out),
           (n, bl, d, old, out))
XSIM_LOCAL(Type_create_hindexed_block, (int n, int bl, const MPI_Aint d[], MPI_Datatype old, MPI_Datatype* out),
           (n, bl, d, old, out))
XSIM_LOCAL(Type_create_struct,
           (int n, const int bl[], const MPI_Aint d[], const MPI_Datatype types[], MPI_Datatype* out),
           (n, bl, d, types, out))
XSIM_LOCAL(Type_create_subarray,
           (int nd, const int sizes[], const int sub[], const int starts[], int order, MPI_Datatype old,
            MPI_Datatype* out),
           (nd, sizes, sub, starts, order, old, out))
XSIM_LOCAL(Type_create_darray,
           (int size, int rank, int nd, const int gs[], const int distrib[], const int dargs[], const int ps[],
            int order, MPI_Datatype old, MPI_Datatype* out),
           (size, rank, nd, gs, distrib, dargs, ps, order, old, out))
XSIM_LOCAL(Type_create_resized, (MPI_Datatype old, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* out),
           (old, lb, extent, out))
XSIM_LOCAL(Type_commit, (MPI_Datatype * t), (t))
XSIM_LOCAL(Type_get_name, (MPI_Datatype t, char* name, int* len), (t, name, len))
XSIM_LOCAL(Type_set_name, (MPI_Datatype t, const char* name), (t, name))
XSIM_LOCAL(Type_get_envelope, (MPI_Datatype t, int* ni, int* na, int* nd, int* combiner), (t, ni, na, nd, combiner))
XSIM_LOCAL(Type_get_contents,
           (MPI_Datatype t, int mi, int ma, int md, int ints[], MPI_Aint addrs[], MPI_Datatype types[]),
           (t, mi, ma, md, ints, addrs, types))
XSIM_LOCAL(Type_match_size, (int typeclass, int size, MPI_Datatype* out), (typeclass, size, out))
// Fortran's SELECTED_INT_KIND / SELECTED_REAL_KIND types: predefined-like types of the real library.
XSIM_LOCAL(Type_create_f90_integer, (int r, MPI_Datatype* out), (r, out))
XSIM_LOCAL(Type_create_f90_real, (int p, int r, MPI_Datatype* out), (p, r, out))
XSIM_LOCAL(Type_create_f90_complex, (int p, int r, MPI_Datatype* out), (p, r, out))
XSIM_LOCAL(Get_address, (const void* location, MPI_Aint* address), (location, address))
XSIM_LOCAL(Get_elements, (const MPI_Status* s, MPI_Datatype t, int* n), (s, t, n))
XSIM_LOCAL(Get_elements_x, (const MPI_Status* s, MPI_Datatype t, MPI_Count* n), (s, t, n))
XSIM_LOCAL(Status_set_elements, (MPI_Status * s, MPI_Datatype t, int n), (s, t, n))
XSIM_LOCAL(Status_set_elements_x, (MPI_Status * s, MPI_Datatype t, MPI_Count n), (s, t, n))
XSIM_LOCAL(Status_set_cancelled, (MPI_Status * s, int flag), (s, flag))
XSIM_LOCAL(Op_create, (MPI_User_function * f, int commute, MPI_Op* op), (f, commute, op))
XSIM_LOCAL(Op_commutative, (MPI_Op op, int* commute), (op, commute))
XSIM_LOCAL(Reduce_local, (const void* in, void* inout, int n, MPI_Datatype t, MPI_Op op), (in, inout, n, t, op))
// User error classes and codes live in the real library's per-process table, shared by
// the simulated ranks of the process; MPI makes no promise that they agree across
// processes anyway.
XSIM_LOCAL(Add_error_class, (int* cls), (cls))
XSIM_LOCAL(Add_error_code, (int cls, int* code), (cls, code))
XSIM_LOCAL(Add_error_string, (int code, const char* text), (code, text))
XSIM_LOCAL(Info_create, (MPI_Info * info), (info))
XSIM_LOCAL(Info_set, (MPI_Info info, const char* key, const char* value), (info, key, value))
XSIM_LOCAL(Info_get, (MPI_Info info, const char* key, int len, char* value, int* flag), (info, key, len, value, flag))
XSIM_LOCAL(Info_get_valuelen, (MPI_Info info, const char* key, int* len, int* flag), (info, key, len, flag))
XSIM_LOCAL(Info_get_nkeys, (MPI_Info info, int* n), (info, n))
XSIM_LOCAL(Info_get_nthkey, (MPI_Info info, int n, char* key), (info, n, key))
XSIM_LOCAL(Info_delete, (MPI_Info info, const char* key), (info, key))
XSIM_LOCAL(Info_dup, (MPI_Info info, MPI_Info* out), (info, out))
XSIM_LOCAL(Info_free, (MPI_Info * info), (info))
// MPI_Alloc_mem and MPI_Free_mem: windows.cpp (one-sided operations use their blocks).
XSIM_LOCAL(Pack_external, (const char rep[], const void* in, int n, MPI_Datatype t, void* out, MPI_Aint size,
                           MPI_Aint* pos), (rep, in, n, t, out, size, pos))
XSIM_LOCAL(Unpack_external, (const char rep[], const void* in, MPI_Aint size, MPI_Aint* pos, void* out, int n,
                             MPI_Datatype t), (rep, in, size, pos, out, n, t))
XSIM_LOCAL(Pack_external_size, (const char rep[], int n, MPI_Datatype t, MPI_Aint* size), (rep, n, t, size))
XSIM_LOCAL_WITH_COMM(Pack, (const void* in, int n, MPI_Datatype t, void* out, int size, int* pos, MPI_Comm comm),
                     (in, n, t, out, size, pos, real_comm))
XSIM_LOCAL_WITH_COMM(Unpack, (const void* in, int size, int* pos, void* out, int n, MPI_Datatype t, MPI_Comm comm),
                     (in, size, pos, out, n, t, real_comm))
XSIM_LOCAL_WITH_COMM(Pack_size, (int n, MPI_Datatype t, MPI_Comm comm, int* size), (n, t, real_comm, size))

// MPI_Type_dup copies the attributes its keyvals' copy callbacks allow (type_attributes.cpp).
XSIM_MPI_ALIAS(Type_dup)
int PMPI_Type_dup(MPI_Datatype type, MPI_Datatype* out) {
    LocalCall local("MPI_Type_dup");
    if (int e = real_mpi.Type_dup(type, out)) return local.result(e);
    if (!local.rank()) return MPI_SUCCESS;
    std::string why;
    if (int e = copy_type_attributes(*local.rank(), type, *out, &why)) {
        delete_type_attributes(*local.rank(), *out);
        real_mpi.Type_free(out);
        *out = MPI_DATATYPE_NULL;
        return local.fail(e, why);
    }
    return MPI_SUCCESS;
}

// A type still used by a pending operation is released in the real library only when
// that operation ends (the standard lets such communication complete normally).
// Its attributes' delete callbacks run first (MPI-4.0 section 7.7.5); they are xsim's
// (type_attributes.cpp), so a predefined type is refused before they run.
XSIM_MPI_ALIAS(Type_free)
int PMPI_Type_free(MPI_Datatype* type) {
    LocalCall local("MPI_Type_free");
    if (!type) return local.result(MPI_ERR_ARG);
    if (*type == MPI_DATATYPE_NULL) return local.result(MPI_ERR_TYPE);
    if (local.rank()) {
        int ni = 0, na = 0, nd = 0, combiner = MPI_COMBINER_NAMED;
        if (int e = real_mpi.Type_get_envelope(*type, &ni, &na, &nd, &combiner)) return local.result(e);
        if (combiner == MPI_COMBINER_NAMED) return local.fail(MPI_ERR_TYPE, "a predefined datatype cannot be freed");
        if (int e = delete_type_attributes(*local.rank(), *type))
            return local.fail(e, "an attribute delete callback failed with error " + std::to_string(e));
    }
    const int rc = free_type(*type);
    if (rc == MPI_SUCCESS) *type = MPI_DATATYPE_NULL;
    return local.result(rc);
}

// Likewise a user op that a pending nonblocking reduction uses (MPI-4.0 section 6.9.5).
XSIM_MPI_ALIAS(Op_free)
int PMPI_Op_free(MPI_Op* op) {
    LocalCall local("MPI_Op_free");
    if (!op) return local.fail(MPI_ERR_ARG, "null op pointer");
    if (*op == MPI_OP_NULL) return local.fail(MPI_ERR_OP, "MPI_OP_NULL cannot be freed");
    if (predefined_op(*op)) return local.fail(MPI_ERR_OP, "a predefined operation cannot be freed");
    const int rc = free_op(*op);
    if (rc == MPI_SUCCESS) *op = MPI_OP_NULL;
    return local.result(rc);
}

XSIM_MPI_ALIAS(Pcontrol)
int PMPI_Pcontrol(const int, ...) { return MPI_SUCCESS; }  // no profiling levels to switch

}  // extern "C"
