// How one real process talks to the others during a simulation (implemented over PMPI
// in libxsim; a single-process run uses SoloLink). Both calls are collective.
#pragma once
#include <cstdint>

#include "pdes/sim_time.hpp"

namespace xsim {

class ProcessLink {
public:
    virtual ~ProcessLink() = default;
    virtual int process_count() const = 0;
    // Sends every event buffered for other processes and enqueues every one received.
    virtual void exchange() = 0;
    struct Agreement {
        SimTime next_time;      // smallest pending event time over all processes
        std::int64_t live;      // simulated ranks not finished, over all processes
    };
    virtual Agreement agree(SimTime local_next_time, std::int64_t local_live) = 0;
};

class SoloLink final : public ProcessLink {
public:
    int process_count() const override { return 1; }
    void exchange() override {}
    Agreement agree(SimTime t, std::int64_t live) override { return {t, live}; }
};

}  // namespace xsim
