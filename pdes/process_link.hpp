// How one real process talks to the others during a simulation (implemented over PMPI
// in libxsim; a single-process run uses SoloLink).
#pragma once
#include <cstdint>

#include "pdes/sim_time.hpp"

namespace xsim {

class ProcessLink {
public:
    virtual ~ProcessLink() = default;
    virtual int process_count() const = 0;
    struct Agreement {
        SimTime next_time;      // smallest pending event time over all processes
        std::int64_t live;      // simulated ranks not finished, over all processes
    };
    // Sends every event buffered for other processes, enqueues every one received, and agrees
    // on the smallest pending event time and the live ranks over all processes. Collective.
    // `local_next_time` is this process's before the exchange: the link adds the times of the
    // events it sends, so that one round of messages between windows both moves the events
    // and agrees (the smallest pending time is the smallest queued or in flight).
    virtual Agreement exchange(SimTime local_next_time, std::int64_t local_live) = 0;
};

class SoloLink final : public ProcessLink {
public:
    int process_count() const override { return 1; }
    Agreement exchange(SimTime t, std::int64_t live) override { return {t, live}; }
};

}  // namespace xsim
