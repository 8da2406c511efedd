// Broadcast for long messages (van de Geijn; MPICH's scatter + ring allgather): the
// message is cut into p chunks, scattered down a binomial tree, then every rank collects
// the chunks it lacks around a ring. About 2 x bytes per rank instead of log2(p) x bytes.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"
#include "libxsim/mpi/datatype.hpp"

namespace xsim::colls {
namespace {

// Bytes of chunks [first, first + n) of a message of `total` bytes cut in chunks of `chunk`.
std::uint64_t span(std::uint64_t total, std::uint64_t chunk, std::int64_t first, std::int64_t n) {
    const std::uint64_t begin = static_cast<std::uint64_t>(first) * chunk;
    const std::uint64_t end = std::min(total, static_cast<std::uint64_t>(first + n) * chunk);
    return end > begin ? end - begin : 0;
}

Steps run_bcast_scatter_allgather(Context& c, const BcastArgs& a) {
    const int p = c.size;
    const std::uint64_t n = a.data.bytes;
    const std::uint64_t chunk = (n + p - 1) / p;
    const int vrank = (c.rank - a.root + p) % p;
    auto real = [&](int v) { return (v + a.root) % p; };

    // The message as bytes: the user buffer itself when the type is contiguous.
    TypeLayout layout;
    type_layout(a.data.type, &layout);
    ByteScratch packed(c.payload && !layout.contiguous, n);
    char* bytes = layout.contiguous ? (a.data.buf ? static_cast<char*>(a.data.buf) + layout.true_lb : nullptr)
                                    : packed.data();
    if (vrank == 0 && !layout.contiguous) pack_block(c.payload, a.data, bytes);
    auto at = [&](std::uint64_t offset) { return bytes ? bytes + offset : nullptr; };

    // Binomial scatter: vrank v ends up with chunks [v, v + subtree(v)).
    int mask = 1;
    for (; mask < p; mask <<= 1) {
        if (vrank & mask) {
            const std::uint64_t got = span(n, chunk, vrank, std::min(mask, p - vrank));
            if (got > 0) {
                c.recv_bytes(real(vrank - mask), at(vrank * chunk), got);
                co_await c.round();
            }
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        const int child = vrank + mask;
        if (child >= p) continue;
        const std::uint64_t give = span(n, chunk, child, std::min(mask, p - child));
        if (give > 0) c.send_bytes(real(child), at(child * chunk), give);
    }
    co_await c.round();

    // Ring allgather of the chunks.
    const int right = real((vrank + 1) % p), left = real((vrank - 1 + p) % p);
    for (int k = 0; k < p - 1; ++k) {
        const int out = (vrank - k + p) % p, in = (vrank - k - 1 + p) % p;
        const std::uint64_t out_bytes = span(n, chunk, out, 1), in_bytes = span(n, chunk, in, 1);
        if (in_bytes > 0) c.recv_bytes(left, at(in * chunk), in_bytes);
        if (out_bytes > 0) c.send_bytes(right, at(out * chunk), out_bytes);
        co_await c.round();
    }
    if (vrank != 0 && !layout.contiguous) unpack_block(c.payload, bytes, a.data);
}

SimTime cost_bcast_scatter_allgather(const CostModel& m, const BcastArgs& a) {
    const int p = m.size();
    if (p < 2) return 0;
    const std::uint64_t chunk = (a.data.bytes + p - 1) / p;
    // Scatter: round with distance d moves d chunks; ring: p-1 chunk steps to a neighbour.
    return m.rounds([&](int d) { return chunk * d; }) + (p - 1) * m.message(1, chunk);
}

}  // namespace

const Algorithm<BcastArgs> bcast_scatter_allgather{
    {"scatter_allgather", "long messages: binomial scatter of p chunks, then ring allgather (van de Geijn)"},
    run_bcast_scatter_allgather, nullptr, cost_bcast_scatter_allgather, all_pairs_messages};
XSIM_REGISTER_ALGORITHM(bcast_scatter_allgather, CollKind::Bcast);

}  // namespace xsim::colls
