// The zero-byte synchronization skeletons of the analytic algorithms, and the closed-form
// message cost they share with the algorithms' cost functions.
#include "libxsim/colls/analytic.hpp"

#include <string_view>

namespace xsim::colls {

SimTime CostModel::message(int distance, std::uint64_t bytes) const {
    const int a = ctx_.comm.world_rank(0, ctx_.me);
    const int b = ctx_.comm.world_rank(distance % ctx_.size, ctx_.me);
    const net::Path path = ctx_.engine.machine().network->path(a, b);
    const SimTime latency = bytes > path.eager_limit ? 3 * path.latency : path.latency;
    return latency + net::transfer_on(path, bytes).serialization;  // as the NIC model prices it
}

SimTime CostModel::transfer(int distance, std::uint64_t bytes) const {
    const int a = ctx_.comm.world_rank(0, ctx_.me);
    const int b = ctx_.comm.world_rank(distance % ctx_.size, ctx_.me);
    return net::transfer_on(ctx_.engine.machine().network->path(a, b), bytes).serialization;
}

SimTime skeleton_latency(const CostModel& m, Skeleton shape) {
    if (shape == Skeleton::DirectIn || shape == Skeleton::DirectOut) return m.size() > 1 ? m.latency(m.typical_peer()) : 0;
    return m.rounds([](int) { return std::uint64_t{0}; });
}

Skeleton skeleton_for(Skeleton shape, const AlgorithmInfo& algorithm) {
    if (std::string_view(algorithm.name) != "linear") return shape;
    if (shape == Skeleton::FanIn) return Skeleton::DirectIn;
    if (shape == Skeleton::FanOut) return Skeleton::DirectOut;
    return shape;
}

namespace {
// The rank whose position is `v` in the order that starts at `root`. A function, not a
// lambda: a lambda would be a field of the coroutine's frame, of a type without linkage.
int unrotate(int v, int root, int p) { return (v + root) % p; }
}  // namespace

Steps run_skeleton(Context& c, Skeleton shape, int root) {
    const int p = c.size;
    const int vrank = (c.rank - root + p) % p;
    switch (shape) {
        case Skeleton::All:
            for (int d = 1; d < p; d <<= 1) {
                c.recv_bytes((c.rank - d + p) % p, nullptr, 0);
                c.send_bytes((c.rank + d) % p, nullptr, 0);
                co_await c.round();
            }
            break;
        case Skeleton::Prefix:  // the exchanges of the recursive-doubling scan
            for (int mask = 1; mask < p; mask <<= 1) {
                const int partner = c.rank ^ mask;
                if (partner >= p) continue;
                c.recv_bytes(partner, nullptr, 0);
                c.send_bytes(partner, nullptr, 0);
                co_await c.round();
            }
            break;
        case Skeleton::FanOut: {
            int mask = 1;
            for (; mask < p; mask <<= 1) {
                if (vrank & mask) {
                    c.recv_bytes(unrotate(vrank - mask, root, p), nullptr, 0);
                    co_await c.round();
                    break;
                }
            }
            for (mask >>= 1; mask > 0; mask >>= 1)
                if (vrank + mask < p) c.send_bytes(unrotate(vrank + mask, root, p), nullptr, 0);
            co_await c.round();
            break;
        }
        case Skeleton::DirectIn:
        case Skeleton::DirectOut: {
            const bool to_root = shape == Skeleton::DirectIn;
            if (c.rank != root) {
                if (to_root) c.send_bytes(root, nullptr, 0);
                else c.recv_bytes(root, nullptr, 0);
            } else {
                for (int i = 0; i < p; ++i) {
                    if (i == root) continue;
                    if (to_root) c.recv_bytes(i, nullptr, 0);
                    else c.send_bytes(i, nullptr, 0);
                }
            }
            co_await c.round();
            break;
        }
        case Skeleton::FanIn:
            for (int mask = 1; mask < p; mask <<= 1) {
                if (vrank & mask) {
                    c.send_bytes(unrotate(vrank - mask, root, p), nullptr, 0);
                    co_await c.round();
                    break;
                }
                if (vrank + mask < p) {
                    c.recv_bytes(unrotate(vrank + mask, root, p), nullptr, 0);
                    co_await c.round();
                }
            }
            break;
    }
}

}  // namespace xsim::colls
