// The critical path behind a virtual time, split into what it is made of (issue 13): compute,
// latency terms (and how many), bandwidth terms (bytes / bandwidth, and the bytes), and
// other (poll and clock-read costs, NIC queueing, link contention, collective delays).
// Each rank carries the path of its clock; each message carries its sender's path at the
// send plus its own transfer terms; a rank whose clock jumps to a completion time takes the
// path of whatever set that time. The terms always add up to the time they describe:
// whatever the model adds that is not a known term is settled into `other`.
#pragma once
#include <cstdint>

#include "pdes/sim_time.hpp"

namespace xsim {

// `v`, kept out of vector registers: the compiler cannot merge the loads and stores of
// neighbouring fields around it into wider ones.
template <class T>
inline T in_register(T v) {
    asm("" : "+r"(v));
    return v;
}

struct CriticalPath {
    CriticalPath() = default;
    CriticalPath(const CriticalPath& o) { *this = o; }
    // Field by field through general registers. The terms are updated one at a time (8-byte
    // stores, 4 for `latencies`) and the path is copied right after (a message's, a
    // request's, a collective round's): a copy the compiler made of 16-byte moves read
    // memory still held by two narrower stores, which the CPU cannot forward from, and
    // waited for them to retire, several times per message.
    CriticalPath& operator=(const CriticalPath& o) {
        compute = in_register(o.compute);
        latency = in_register(o.latency);
        bandwidth = in_register(o.bandwidth);
        other = in_register(o.other);
        bytes = in_register(o.bytes);
        latencies = in_register(o.latencies);
        return *this;
    }

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
