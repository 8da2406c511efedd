// Datatypes are the real library's: its sizes, extents and packing are used as they are.
// xsim only needs a message's size in bytes, a way to move it between buffers, and to
// keep a derived type (or a user op) alive while an operation still uses it after
// MPI_Type_free (MPI_Op_free).
#pragma once
#include <mpi.h>

#include <cstdint>

namespace xsim {

struct TypeLayout {
    std::uint64_t size = 0;       // bytes of data in one element
    MPI_Aint extent = 0;
    MPI_Aint true_lb = 0;
    bool contiguous = false;      // `count` elements are one block starting at buf + true_lb
    bool predefined = false;      // a named type (never freed); else derived
};

enum class TypeCheck : std::uint8_t { Ok, Null, Uncommitted };

// Layout of a datatype usable in communication: MPI_ERR_TYPE unless it is Ok.
// Predefined types are looked up in a per-process cache; derived ones ask the real library.
TypeCheck check_type(MPI_Datatype type, TypeLayout* out);
inline bool type_layout(MPI_Datatype type, TypeLayout* out) { return check_type(type, out) == TypeCheck::Ok; }
// The layout of `type` when it is a predefined type already seen (cheap: no call into the real
// library, no copy), or null. It lives as long as the process objects.
const TypeLayout* predefined_layout(MPI_Datatype type);

// A pending operation uses a derived type: MPI_Type_free must not release it before
// release_type (MPI: "communication using this datatype will complete normally").
void retain_type(MPI_Datatype type);
void release_type(MPI_Datatype type);
// MPI_Type_free: frees `type` in the real library now, or once its pending uses end.
int free_type(MPI_Datatype type);

// The same for user-defined reduction ops (MPI_Op_create), which pending nonblocking
// reductions use ("any operation that uses it will complete normally"). Predefined ops
// are never retained. Inline, the common reductions first: every combining step of a
// collective asks.
inline bool predefined_op(MPI_Op op) {
    const MPI_Op predefined[] = {MPI_SUM,  MPI_MAX,  MPI_MIN,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                                 MPI_BOR,  MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    for (MPI_Op p : predefined)
        if (op == p) return true;
    return false;
}
void retain_op(MPI_Op op);
void release_op(MPI_Op op);
// MPI_Op_free: frees `op` in the real library now, or once its pending uses end.
int free_op(MPI_Op op);

// Copies count elements of `type` at `buf` into `out` (packed, `bytes` long).
void pack_data(const void* buf, int count, MPI_Datatype type, char* out, std::uint64_t bytes);
// Copies `bytes` packed bytes into count elements of `type` at `buf` (bytes may be fewer
// than the buffer holds, and need not be a whole number of elements).
void unpack_data(const char* in, std::uint64_t bytes, void* buf, int count, MPI_Datatype type);
// Moves a message straight from a sender's buffer to a receiver's (both in this process).
void copy_data(const void* send_buf, int send_count, MPI_Datatype send_type, std::uint64_t bytes,
               void* recv_buf, int recv_count, MPI_Datatype recv_type);

}  // namespace xsim
