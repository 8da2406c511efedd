// The file system that MPI-IO calls reach, as one rank sees it: a call that moves `bytes`
// (MPI_File_read/write in all their forms) takes latency + bytes / bandwidth on the
// calling rank's clock. Independent of the other ranks and of the number of real
// processes, so I/O times are the same for any -np (machine keys storage.latency and
// storage.bandwidth).
#pragma once
#include <cstdint>

#include "pdes/sim_time.hpp"

namespace xsim::net {

class StorageModel {
public:
    StorageModel() = default;
    StorageModel(SimTime latency, double bandwidth) : latency_(latency), bandwidth_(bandwidth) {}

    // latency + bytes / bandwidth (the second term rounded to the nearest picosecond,
    // saturating rather than wrapping).
    SimTime call_time(std::uint64_t bytes) const {
        return add_time(latency_, seconds_to_simtime(static_cast<double>(bytes) / bandwidth_));
    }
    SimTime latency() const { return latency_; }
    double bandwidth() const { return bandwidth_; }

private:
    SimTime latency_ = 100'000'000;  // 1e-4 s
    double bandwidth_ = 1e9;
};

}  // namespace xsim::net
