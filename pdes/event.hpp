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

// Stores `from` into `to` one field at a time through general registers. An event is built
// on the pusher's stack one 8-byte field at a time and pushed right away; the compiler's
// 16-byte copy read memory still held by two narrower stores, which the CPU cannot forward
// from, and waited for them to retire on every push.
inline void store_event(Event& to, const Event& from) {
    SimTime time = from.key.time;
    std::uint64_t order = from.key.order;
    void* object = from.object;
    std::uint32_t owner = from.owner;
    asm("" : "+r"(time), "+r"(order), "+r"(object), "+r"(owner));
    to.key.time = time;
    to.key.order = order;
    to.object = object;
    to.owner = owner;
}

}  // namespace xsim
