// Link contention: first-come-first-served reservation of the links on a message's route.
//
// Model: a transfer of `bytes` over a path with bottleneck bandwidth B occupies every link
// of its route for bytes/B, starting when all of them are free (and not before the send).
// Its last byte arrives `latency` after its transmission ends. Overlapping transfers on a
// link therefore take turns: the link never carries more than its bandwidth, and the last
// of n equal transfers that start together ends when fair sharing would end all of them.
#include <algorithm>

#include "netmodels/routed_network.hpp"

namespace xsim::net {

SimTime LinkReservations::reserve(const std::vector<std::uint64_t>& links, SimTime ready, SimTime duration) {
    min_ready_since_sweep_ = std::min(min_ready_since_sweep_, ready);
    SimTime begin = ready;
    for (std::uint64_t id : links) {
        const auto it = free_at_.find(id);
        if (it != free_at_.end()) begin = std::max(begin, it->second);
    }
    const SimTime end = begin + duration;
    for (std::uint64_t id : links) {
        SimTime& f = free_at_[id];
        f = std::max(f, end);
    }
    if (free_at_.size() > sweep_threshold_) sweep();
    return begin;
}

void LinkReservations::sweep() {
    // A reservation that ended before every send seen since the last sweep no longer delays
    // anything sent in time order; drop it to bound memory.
    const SimTime horizon = min_ready_since_sweep_;
    for (auto it = free_at_.begin(); it != free_at_.end();) {
        if (it->second <= horizon)
            it = free_at_.erase(it);
        else
            ++it;
    }
    min_ready_since_sweep_ = kNever;
    // Amortize: sweep again only when the table has doubled since.
    sweep_threshold_ = std::max<std::size_t>(1u << 16, 2 * free_at_.size());
}

SimTime RoutedNetwork::arrival(int src, int dst, const Transfer& t, SimTime start) {
    if (!contention_) return NetworkModel::arrival(src, dst, t, start);
    route(src, dst, scratch_);
    const SimTime begin = reservations_.reserve(scratch_, start, t.serialization);
    return begin + t.latency + t.serialization;
}

}  // namespace xsim::net
