// The network interface of a rank: what a message costs on its way out and in.
// A message's path is asked of the network model once, when it is sent; its Transfer (the
// latency and serialization time of that path for its size) then travels with it, so the
// receiving side and the rest of a rendezvous never ask again.
#pragma once
#include <algorithm>
#include <cstdint>

#include "netmodels/machine.hpp"
#include "pdes/sim_time.hpp"

namespace xsim::net {

// One rank's NIC: it serializes the rank's sends, one after the other, and separately its
// receives. Per rank, so kept to two times.
struct NicState {
    SimTime send_free = 0;  // the send side is busy until then
    SimTime recv_free = 0;  // the receive side is busy until then
};

// The NIC model, asked by the protocol. Stateless: the state is the rank's NicState.
class NicModel {
public:
    // A message of `bytes` on `path`: what it costs, computed once per message.
    static Transfer transfer(const Path& path, std::uint64_t bytes) { return transfer_on(path, bytes); }
    // When a message ready at `ready` can start leaving: after the messages sent before it.
    static SimTime send_start(const NicState& nic, SimTime ready) { return std::max(ready, nic.send_free); }
    // Puts a message ready at `ready` on the wire: it starts at send_start and keeps the send
    // side busy for its serialization time. Returns the start.
    static SimTime inject(NicState& nic, SimTime ready, const Transfer& t) {
        const SimTime start = send_start(nic, ready);
        nic.send_free = start + t.serialization;
        return start;
    }
    // The receive side takes messages in arrival order: one is in when its last byte has
    // crossed the network (`data_done`, from NetworkModel::arrival, contention included) and
    // the NIC has finished the messages before it. Returns that time.
    static SimTime receive(NicState& nic, SimTime data_done, const Transfer& t) {
        nic.recv_free = std::max(data_done, nic.recv_free + t.serialization);
        return nic.recv_free;
    }
};

}  // namespace xsim::net
