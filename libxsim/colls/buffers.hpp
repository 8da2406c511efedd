// Buffers of collectives: where the blocks of a user buffer are (uniform, "v" or "w"
// layouts), scratch memory, and the local data steps (copy, pack, combine). Every local
// step is skipped in payload-free mode, where user buffers may be null and scratch is
// never allocated: only message sizes matter then.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>

#include "libxsim/colls/frame_pool.hpp"

namespace xsim::colls {

// One typed buffer: `count` elements of `type` at `buf`.
struct Block {
    void* buf = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    std::uint64_t bytes = 0;  // count x type size
};
Block make_block(const void* buf, int count, MPI_Datatype type);

// Blocks of one shape (`count` elements of `type`) at any address: the type's size is asked
// once, not for every block a step's loop makes (two per round of an allreduce).
class BlocksOfShape {
public:
    BlocksOfShape(int count, MPI_Datatype type)
        : bytes_(make_block(nullptr, count, type).bytes), count_(count), type_(type) {}
    Block operator()(const void* buf) const { return Block{const_cast<void*>(buf), count_, type_, bytes_}; }

private:
    std::uint64_t bytes_;
    int count_;
    MPI_Datatype type_;
};

// The per-rank blocks of a gather/scatter/all-to-all buffer. Block i has count_of(i)
// elements of type_of(i) at at(i): uniform (i x count x extent), v (displs[i] x extent)
// or w (displs[i] bytes, types[i]; byte_displs[i] instead for the MPI_Aint displacements of
// MPI_Neighbor_alltoallw). The arrays belong to the caller.
struct Blocks {
    char* buf = nullptr;
    int count = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Aint extent = 0;
    std::uint64_t type_size = 0;
    const int* counts = nullptr;
    const int* displs = nullptr;
    const MPI_Datatype* types = nullptr;
    const MPI_Aint* byte_displs = nullptr;
    // MPI_BOTTOM: buf is null, yet the blocks hold data at their displacements from address 0
    // (types of absolute addresses). Without it a null buf means no data moves.
    bool bottom = false;

    bool uniform() const { return counts == nullptr; }
    // False for the default (a non-root's view of the root's buffer).
    bool known() const { return type != MPI_DATATYPE_NULL || types != nullptr; }
    int count_of(int i) const { return counts ? counts[i] : count; }
    MPI_Datatype type_of(int i) const { return types ? types[i] : type; }
    std::uint64_t bytes_of(int i) const;
    std::int64_t offset_of(int i) const;  // block i's offset in bytes from buf
    void* at(int i) const;
    Block block(int i) const { return Block{at(i), count_of(i), type_of(i), bytes_of(i)}; }
    // Blocks first..first+n-1 of a uniform layout as one typed buffer.
    Block run(int first, int n) const;
};
Blocks uniform_blocks(const void* buf, int count, MPI_Datatype type);
Blocks varying_blocks(const void* buf, const int* counts, const int* displs, MPI_Datatype type);
Blocks typed_blocks(const void* buf, const int* counts, const int* displs, const MPI_Datatype* types);
Blocks typed_blocks(const void* buf, const int* counts, const MPI_Aint* byte_displs, const MPI_Datatype* types);

// buf + offset bytes, also from MPI_BOTTOM (null).
void* address_at(const void* buf, std::int64_t offset);

// MPI_BOTTOM (a null buffer) with a derived type of absolute addresses, as
// bindings/checks.cpp tells it from a null buffer.
bool absolute_type(MPI_Datatype type);
// A many-block buffer of n blocks at MPI_BOTTOM: its blocks sit at their displacements
// from address 0 (sets Blocks::bottom when buf is null and a block's type is absolute, or,
// in the w forms, a block's byte displacement is not 0).
void mark_bottom(Blocks& b, const void* buf, int n);

// Scratch for `count` elements laid out as `type` lays them out (for reductions); data()
// is null in payload-free mode.
class TypedScratch {
public:
    TypedScratch() = default;
    TypedScratch(bool payload, int count, MPI_Datatype type);
    void* data() const { return base_; }
    // Element `index` of the scratch (null when there is no memory).
    void* element(std::int64_t index) const;

private:
    FrameBytes storage_;
    char* base_ = nullptr;
    MPI_Aint extent_ = 0;
};

// Scratch of `bytes` packed bytes; data() is null in payload-free mode.
class ByteScratch {
public:
    ByteScratch() = default;
    ByteScratch(bool payload, std::uint64_t bytes) {
        if (payload && bytes > 0) storage_ = allocate_frame_bytes(bytes);
    }
    char* data() const { return storage_.get(); }
    char* at(std::uint64_t offset) const { return storage_ ? storage_.get() + offset : nullptr; }

private:
    FrameBytes storage_;
};

// Address of element `index` of a typed buffer (null stays null).
void* element(const void* buf, MPI_Datatype type, std::int64_t index);

// Local data steps; all do nothing when payload is off.
void copy_block(bool payload, const Block& from, const Block& to);
void pack_block(bool payload, const Block& from, char* out);
void unpack_block(bool payload, const char* in, const Block& to);
// inout = in op inout, element-wise (MPI's order: `in` holds the lower ranks' data).
void combine(bool payload, const void* in, void* inout, int count, MPI_Datatype type, MPI_Op op);

}  // namespace xsim::colls
