// The critical path behind a virtual time, split into what it is made of (issue 13): compute,
// latency terms (and how many), bandwidth terms (bytes / bandwidth, and the bytes), and
// other (poll and clock-read costs, NIC queueing, link contention, collective delays).
// Each rank carries the path of its clock; each message carries its sender's path at the
// send plus its own transfer terms; a rank whose clock jumps to a completion time takes the
// path of whatever set that time. The terms always add up to the time they describe:
// whatever the model adds that is not a known term is settled into `other`.
#pragma once
#include <cstdint>
#include <utility>

#include "pdes/sim_time.hpp"

namespace xsim {

struct CriticalPath {
    SimTime compute = 0;
    SimTime latency = 0;
    SimTime bandwidth = 0;
    SimTime other = 0;
    std::uint64_t bytes = 0;
    std::uint32_t latencies = 0;

    SimTime total() const { return compute + latency + bandwidth + other; }
    // One latency term of a message (or a control message) on the path.
    void add_latency(SimTime t) {
        latency += t;
        ++latencies;
    }
    // The serialization of `n` bytes on the path.
    void add_bandwidth(SimTime t, std::uint64_t n) {
        bandwidth += t;
        bytes += n;
    }
    // Makes the path describe time `at`: what the model added beyond the known terms
    // (queueing, contention, poll costs) is `other`.
    void settle(SimTime at) { other += at - total(); }
    // Field by field, so no whole copy is kept on a (small) rank stack.
    void swap_with(CriticalPath& o) {
        std::swap(compute, o.compute);
        std::swap(latency, o.latency);
        std::swap(bandwidth, o.bandwidth);
        std::swap(other, o.other);
        std::swap(bytes, o.bytes);
        std::swap(latencies, o.latencies);
    }
};

// `path` (describing its own time) extended by one message's terms, then settled at `at`,
// the time the model computed for the message. In place: these run on simulated ranks'
// stacks, which may be 2 KiB (-xsim-stack 2k), so no copies on the stack.
inline void extend_path(CriticalPath& path, SimTime latency, SimTime serialization, std::uint64_t bytes, SimTime at) {
    path.add_latency(latency);
    path.add_bandwidth(serialization, bytes);
    path.settle(at);
}

}  // namespace xsim
