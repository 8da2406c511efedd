// An event of the simulation: its key (virtual time, then a tie-breaking order) and what it
// is about. `order` breaks ties so that the processing order never depends on the host: it is
// built from simulated quantities only (event class, rank, per-rank sequence number), which
// makes virtual times identical for any number of real processes.
#pragma once
#include <cstdint>

#include "pdes/sim_time.hpp"

namespace xsim {

struct EventKey {
    SimTime time = 0;
    std::uint64_t order = 0;
    friend bool operator<(const EventKey& a, const EventKey& b) {
        return a.time != b.time ? a.time < b.time : a.order < b.order;
    }
};

// Event classes, in processing order at equal times: a message arriving at t is visible
// to a rank that runs at t.
enum class EventClass : std::uint64_t { Message = 0, RankRun = 1 };

inline std::uint64_t event_order(EventClass cls, std::uint32_t rank, std::uint32_t seq) {
    return (static_cast<std::uint64_t>(cls) << 63) |
           (static_cast<std::uint64_t>(rank & 0x7fffffffu) << 32) | seq;
}
inline EventClass event_class(std::uint64_t order) { return static_cast<EventClass>(order >> 63); }

struct Event {
    EventKey key;
    void* object;  // what the event is about; its class says which type
    // The simulated rank whose state the event's handler changes (a message's receiver, the
    // rank that runs): the order inside a cell (processing_order.hpp).
    std::uint32_t owner = 0;
};

}  // namespace xsim
