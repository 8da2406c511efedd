// Datatypes are the real library's: its sizes, extents and packing are used as they are.
// xsim only needs a message's size in bytes and a way to move it between buffers.
#pragma once
#include <mpi.h>

#include <cstdint>

namespace xsim {

struct TypeLayout {
    std::uint64_t size = 0;       // bytes of data in one element
    MPI_Aint extent = 0;
    MPI_Aint true_lb = 0;
    bool contiguous = false;      // `count` elements are one block starting at buf + true_lb
};

// Returns false for an invalid or uncommitted datatype.
bool type_layout(MPI_Datatype type, TypeLayout* out);

// Copies count elements of `type` at `buf` into `out` (packed, `bytes` long).
void pack_data(const void* buf, int count, MPI_Datatype type, char* out, std::uint64_t bytes);
// Copies `bytes` packed bytes into count elements of `type` at `buf` (bytes may be fewer
// than the buffer holds).
void unpack_data(const char* in, std::uint64_t bytes, void* buf, int count, MPI_Datatype type);
// Moves a message straight from a sender's buffer to a receiver's (both in this process).
void copy_data(const void* send_buf, int send_count, MPI_Datatype send_type, std::uint64_t bytes,
               void* recv_buf, int recv_count, MPI_Datatype recv_type);

}  // namespace xsim
