#include "libxsim/colls/buffers.hpp"

#include "libxsim/engine/engine.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {
namespace {

std::uint64_t size_of(MPI_Datatype type) {
    if (const TypeLayout* known = predefined_layout(type)) return known->size;
    int size = 0;
    real_mpi.Type_size(type, &size);
    return static_cast<std::uint64_t>(size);
}

MPI_Aint extent_of(MPI_Datatype type) {
    if (const TypeLayout* known = predefined_layout(type)) return known->extent;
    MPI_Aint lb = 0, extent = 0;
    real_mpi.Type_get_extent(type, &lb, &extent);
    return extent;
}

}  // namespace

Block make_block(const void* buf, int count, MPI_Datatype type) {
    return Block{const_cast<void*>(buf), count, type, size_of(type) * static_cast<std::uint64_t>(count)};
}

std::uint64_t Blocks::bytes_of(int i) const {
    const std::uint64_t n = static_cast<std::uint64_t>(count_of(i));
    return types ? n * size_of(types[i]) : n * type_size;
}

std::int64_t Blocks::offset_of(int i) const {
    if (byte_displs) return byte_displs[i];
    if (types) return displs[i];
    if (counts) return static_cast<std::int64_t>(displs[i]) * extent;
    return static_cast<std::int64_t>(i) * count * extent;
}

void* Blocks::at(int i) const {
    if (!buf && !bottom) return nullptr;
    return address_at(buf, offset_of(i));
}

void* address_at(const void* buf, std::int64_t offset) {
    // Integer arithmetic: from MPI_BOTTOM (null) the offset alone is the address.
    return reinterpret_cast<void*>(reinterpret_cast<std::uintptr_t>(buf) + static_cast<std::uintptr_t>(offset));
}

bool absolute_type(MPI_Datatype type) {
    TypeLayout layout;
    return type_layout(type, &layout) && !layout.predefined && layout.true_lb != 0;
}

void mark_bottom(Blocks& b, const void* buf, int n) {
    if (buf) return;
    if (!b.types) {
        b.bottom = absolute_type(b.type);
        return;
    }
    // The w forms' displacements are in bytes: from MPI_BOTTOM they may be addresses
    // (MPI_Get_address), with any type.
    for (int i = 0; i < n && !b.bottom; ++i)
        b.bottom = b.count_of(i) > 0 && (absolute_type(b.types[i]) || b.offset_of(i) != 0);
}

Block Blocks::run(int first, int n) const {
    return Block{at(first), n * count, type, static_cast<std::uint64_t>(n) * count * type_size};
}

Blocks uniform_blocks(const void* buf, int count, MPI_Datatype type) {
    Blocks b;
    b.buf = static_cast<char*>(const_cast<void*>(buf));
    b.count = count;
    b.type = type;
    b.extent = extent_of(type);
    b.type_size = size_of(type);
    return b;
}

Blocks varying_blocks(const void* buf, const int* counts, const int* displs, MPI_Datatype type) {
    Blocks b = uniform_blocks(buf, 0, type);
    b.counts = counts;
    b.displs = displs;
    return b;
}

Blocks typed_blocks(const void* buf, const int* counts, const int* displs, const MPI_Datatype* types) {
    Blocks b;
    b.buf = static_cast<char*>(const_cast<void*>(buf));
    b.counts = counts;
    b.displs = displs;
    b.types = types;
    return b;
}

Blocks typed_blocks(const void* buf, const int* counts, const MPI_Aint* byte_displs, const MPI_Datatype* types) {
    Blocks b = typed_blocks(buf, counts, static_cast<const int*>(nullptr), types);
    b.byte_displs = byte_displs;
    return b;
}

TypedScratch::TypedScratch(bool payload, int count, MPI_Datatype type) : extent_(extent_of(type)) {
    if (!payload || count <= 0) return;
    MPI_Aint true_lb = 0, true_extent = 0;
    if (const TypeLayout* known = predefined_layout(type); known && known->contiguous) {
        true_lb = known->true_lb;
        true_extent = static_cast<MPI_Aint>(known->size);
    } else {
        real_mpi.Type_get_true_extent(type, &true_lb, &true_extent);
    }
    // Element 0 starts true_lb before the first byte the type touches (MPI's usual recipe).
    const MPI_Aint span = true_extent + static_cast<MPI_Aint>(count - 1) * extent_;
    storage_ = allocate_frame_bytes(static_cast<std::size_t>(span > 0 ? span : 1));
    base_ = storage_.get() - true_lb;
}

void* TypedScratch::element(std::int64_t index) const { return base_ ? base_ + index * extent_ : nullptr; }

void* element(const void* buf, MPI_Datatype type, std::int64_t index) {
    if (!buf) return nullptr;
    return static_cast<char*>(const_cast<void*>(buf)) + index * extent_of(type);
}

// A collective's step may run outside its rank's fiber (CollectiveCall::advance): a buffer
// that is a privatized global is the rank's own copy only with its image loaded.
void load_owner_image(const void* buf) {
    if (g_engine && g_engine->privatization().may_hold(buf)) g_engine->privatization().load_for_callback();
}

void copy_block(bool payload, const Block& from, const Block& to) {
    // The same buffer and type is an in-place block; MPI_BOTTOM (null) with two types of
    // absolute addresses is two places.
    if (!payload || from.bytes == 0 || (from.buf == to.buf && from.type == to.type)) return;
    load_owner_image(from.buf);
    load_owner_image(to.buf);
    copy_data(from.buf, from.count, from.type, from.bytes, to.buf, to.count, to.type);
}

void pack_block(bool payload, const Block& from, char* out) {
    if (!payload) return;
    load_owner_image(from.buf);
    pack_data(from.buf, from.count, from.type, out, from.bytes);
}

void unpack_block(bool payload, const char* in, const Block& to) {
    if (!payload) return;
    load_owner_image(to.buf);
    unpack_data(in, to.bytes, to.buf, to.count, to.type);
}

void combine(bool payload, const void* in, void* inout, int count, MPI_Datatype type, MPI_Op op) {
    if (!payload || count == 0) return;
    // A user-defined operation is application code: it sees its rank's globals, also when
    // it runs as a message arrives, outside the rank's fiber (see CollectiveCall::advance).
    if (g_engine && (!predefined_op(op) || g_engine->privatization().may_hold(in) ||
                     g_engine->privatization().may_hold(inout)))
        g_engine->privatization().load_for_callback();
    real_mpi.Reduce_local(in, inout, count, type, op);
}

}  // namespace xsim::colls
