// The simulated machine as the engine sees it: a network model, a processor model and
// the rank-to-node mapping, loaded from TOML (or the built-in default machine).
// The engine only talks to these narrow interfaces; topologies and timing live behind them.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "netmodels/storage_model.hpp"
#include "pdes/sim_time.hpp"

namespace xsim::net {

// What a message between two ranks costs; asked once per message, so it must be cheap.
struct Path {
    SimTime latency = 0;             // first byte, end to end (all hops)
    double bandwidth = 1.0;          // bytes per second of the bottleneck link
    std::uint64_t eager_limit = 0;   // messages of at most this many bytes go eager
    int level = 0;                   // hierarchy level (star) or hop count (torus), for reports
    double eager_bandwidth = 0;      // bytes per second of eager messages; 0: bandwidth
    SimTime rendezvous_overhead = 0; // added to a rendezvous message's serialization
};

// What one message costs on its path, for its size: computed once when it is sent
// (NicModel::transfer) and carried with it.
struct Transfer {
    SimTime latency = 0;        // first byte, end to end
    SimTime serialization = 0;  // its bytes at the path's bandwidth (ceil, picoseconds)
};

// The cost of `bytes` on `p`: eager messages move at the eager bandwidth (when set),
// rendezvous ones at the bandwidth plus the rendezvous overhead. The one formula, used by
// the NIC model and by anything that prices a message in closed form.
inline Transfer transfer_on(const Path& p, std::uint64_t bytes) {
    if (bytes <= p.eager_limit) return {p.latency, transfer_time(bytes, p.eager_bandwidth > 0 ? p.eager_bandwidth : p.bandwidth)};
    const SimTime bytes_time = transfer_time(bytes, p.bandwidth);  // at most kTimeLimit
    return {p.latency, bytes_time >= kTimeLimit - p.rendezvous_overhead ? kTimeLimit : bytes_time + p.rendezvous_overhead};
}

class NetworkModel {
public:
    virtual ~NetworkModel() = default;
    virtual const char* name() const = 0;
    // src == dst is allowed (a rank sending to itself) and must have latency > 0.
    virtual Path path(int src, int dst) const = 0;
    // The latency alone: what a control message without data (a clear-to-send, a lock grant)
    // takes from src to dst.
    SimTime latency(int src, int dst) const { return path(src, dst).latency; }
    // Smallest latency between any two ranks: the lookahead of the conservative
    // synchronization between real processes. Must be > 0.
    virtual SimTime min_latency() const = 0;
    // True when arrival() changes state shared by all senders (link contention), so that its
    // answers depend on the order of the calls: the engine then handles events in time order
    // (pdes/processing_order.hpp).
    virtual bool arrival_depends_on_call_order() const { return false; }
    // When the last byte of a transfer `t` from src to dst (its path's cost, computed by the
    // caller) injected at `start` reaches `dst`. The default is the contention-free closed
    // form; a contention model overrides it.
    virtual SimTime arrival(int src, int dst, const Transfer& t, SimTime start) {
        (void)src;
        (void)dst;
        return start + t.latency + t.serialization;
    }
    // The same for `bytes`, asking path() (for callers that have no Transfer at hand).
    SimTime arrival(int src, int dst, std::uint64_t bytes, SimTime start) {
        const Path p = path(src, dst);
        return arrival(src, dst, transfer_on(p, bytes), start);
    }
    // arrival(), without the virtual call when the model's arrival() is the closed form: for
    // the protocol, which asks at every eager send.
    SimTime arrival_of(int src, int dst, const Transfer& t, SimTime start) {
        if (closed_form_arrival_) return NetworkModel::arrival(src, dst, t, start);  // not virtual: inlined
        return arrival(src, dst, t, start);
    }

protected:
    // Set by a model whose arrival() is NetworkModel's closed form (no contention); false by
    // default, so that a model overriding arrival() is always asked.
    bool closed_form_arrival_ = false;
};

class ProcessorModel {
public:
    virtual ~ProcessorModel() = default;
    // Virtual time charged to `rank` for compute that took `measured` on the host,
    // starting at virtual time `now` (scaled by speed; OS noise added).
    virtual SimTime measured_compute(int rank, SimTime measured, SimTime now) const = 0;
    // The speed `rank`'s measured compute is divided by (processor.speed or its override).
    virtual double speed(int rank) const = 0;
    // Virtual time for modeled compute (xsim_compute): not scaled by speed, noise added.
    virtual SimTime modeled_compute(int rank, SimTime duration, SimTime now) const = 0;
    // Virtual time for `flops` floating-point operations at the rank's rate, noise added.
    virtual SimTime flops_compute(int rank, double flops, SimTime now) const = 0;
};

struct Machine {
    std::unique_ptr<NetworkModel> network;
    std::unique_ptr<ProcessorModel> processor;
    int world_size = 0;
    // Node of each rank under the configured mapping; ranks on one node share memory
    // (MPI_Comm_split_type). Cheap: called per message by some models.
    virtual int node_of(int rank) const = 0;
    // Index of `rank` among the ranks of its node (in world rank order, as MPI_Comm_split_type
    // orders them), and how many ranks its node holds: what a launcher tells each process.
    virtual int local_rank_of(int rank) const = 0;
    virtual int ranks_on_node_of(int rank) const = 0;
    // Cost charged for one unsuccessful MPI_Test/Iprobe poll, so polling loops progress.
    SimTime poll_cost = 0;
    // Cost charged for one clock read with -xsim-compute none, so busy-waits on the clock end.
    SimTime clock_read_cost = 0;
    // What an MPI-IO call that moves data costs (storage.latency, storage.bandwidth).
    StorageModel storage;
    // The complete effective configuration (defaults + file + overrides) as a JSON object.
    std::string effective_config_json;
    virtual ~Machine() = default;
};

// Bad configuration: the message names the file, line and key.
class ConfigError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct MachineSpec {
    std::string config_file;              // empty: the built-in default machine
    std::vector<std::string> overrides;   // "dotted.key=value", applied after the file
};

// Builds the machine for `world_size` ranks; throws ConfigError on any bad input.
std::unique_ptr<Machine> load_machine(const MachineSpec& spec, int world_size);

// Every configuration key with its type, default and one-line meaning (for -xsim-help and README).
std::string describe_config_keys();

}  // namespace xsim::net
