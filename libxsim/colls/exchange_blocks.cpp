#include "libxsim/colls/exchange_blocks.hpp"

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/rank_buffer.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {

void* owned(Context& owner, void* buf, int count, MPI_Datatype type) {
    return runtime::rank_buffer(owner.engine, owner.me, buf, count, type);
}

void fail(Context& c, int error_class, const std::string& what) {
    if (c.error_class != MPI_SUCCESS) return;
    c.error_class = error_class;
    c.error = std::string(call_name(c.kind, c.nonblocking)) + " on rank " + std::to_string(c.rank) + ": " + what;
}

// Moves block `from` of rank `src` into block `to` of rank `dst`, as a message between
// them would (its length checked the same way).
void move_block(Context& src, const Block& from, Context& dst, const Block& to) {
    if (from.bytes != to.bytes) {
        const std::string text = "expected " + std::to_string(to.bytes) + " bytes from rank " +
                                 std::to_string(src.rank) + " but it sent " + std::to_string(from.bytes) +
                                 ": the ranks passed mismatched counts or datatypes";
        fail(dst, from.bytes > to.bytes ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER, text);
        if (from.bytes > to.bytes) return;  // nothing is written past the receive buffer
    }
    if (from.bytes == 0 || !dst.carries(from.bytes)) return;
    copy_data(owned(src, from.buf, from.count, from.type), from.count, from.type, from.bytes,
              owned(dst, to.buf, to.count, to.type), to.count, to.type);
}

std::uint64_t type_size(MPI_Datatype type) {
    int size = 0;
    real_mpi.Type_size(type, &size);
    return static_cast<std::uint64_t>(size);
}

// `b` of rank `owner`, packed.
std::vector<char> pack_of(Context& owner, const Block& b) {
    std::vector<char> out(b.bytes);
    if (b.bytes > 0) pack_data(owned(owner, b.buf, b.count, b.type), b.count, b.type, out.data(), b.bytes);
    return out;
}

// Unpacks `bytes` packed bytes sent by rank `from` into block `to` of rank `dst`, checking
// the length as a message would.
void unpack_into(Context& dst, const char* in, std::uint64_t bytes, int from, const Block& to) {
    if (bytes != to.bytes) {
        fail(dst, bytes > to.bytes ? MPI_ERR_TRUNCATE : MPI_ERR_OTHER,
             "expected " + std::to_string(to.bytes) + " bytes from rank " + std::to_string(from) + " but it sent " +
                 std::to_string(bytes) + ": the ranks passed mismatched counts or datatypes");
        if (bytes > to.bytes) return;
    }
    if (bytes == 0 || !dst.carries(bytes)) return;
    unpack_data(in, bytes, owned(dst, to.buf, to.count, to.type), to.count, to.type);
}

}  // namespace xsim::colls
