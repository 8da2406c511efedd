// The fit behind a calibrated network level: from one-way times measured per message size,
// the latency, eager limit, eager bandwidth, rendezvous bandwidth and rendezvous overhead of
// xsim's message model (netmodels/machine.hpp transfer_on plus the rendezvous handshake):
//   eager (bytes <= eager limit):  one_way = L + bytes / eager_bandwidth
//   rendezvous:                    one_way = 3 L + overhead + bytes / bandwidth
// (request-to-send, clear-to-send, data).
#pragma once
#include <cstddef>
#include <vector>

namespace xsim::machine {

struct LinkFit {
    double latency = 0;         // seconds: the empty message's one-way time
    double eager_per_byte = 0;  // seconds per byte of eager messages (1 / eager_bandwidth)
    double per_byte = 0;        // seconds per byte of rendezvous messages (1 / bandwidth)
    double overhead = 0;        // seconds added to a rendezvous message (>= 0)
    long eager_limit = 0;       // largest eager size (the largest size measured: no step found)
    std::size_t last_eager = 0; // index of that size among the sizes fitted
    double cost = -1;           // sum of squared relative errors; < 0: no fit (times did not grow)
    double one_way(long bytes) const {
        const double b = static_cast<double>(bytes);
        return bytes <= eager_limit ? latency + b * eager_per_byte : 3 * latency + overhead + b * per_byte;
    }
};

// `sizes` ascending with sizes[0] == 0, `one_way` the measured time of each. The latency is
// one_way[0]; for each split of the other sizes into eager and rendezvous (the rendezvous side
// holds two sizes or none), the rest is fitted by least squares of the relative error (every
// size counts alike, 8 bytes as much as a megabyte); the split with the smallest total error
// wins. A negative overhead is refitted as 0.
LinkFit fit_link_model(const std::vector<long>& sizes, const std::vector<double>& one_way);

}  // namespace xsim::machine
