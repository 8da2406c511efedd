// Simulated communicators. MPI_Comm handles are Open MPI's predefined MPI_COMM_WORLD /
// MPI_COMM_SELF (translated to the engine's two shared objects) or pointers to Comm.
// Representation (it must scale to millions of ranks):
//  - WORLD and SELF are one object per real process; what is per rank about them
//    (error handler, creation counter, attributes, name) lives in Rank or in sparse tables
//    (engine/comm_rank_state.hpp).
//  - Every other communicator is a small object per member rank (its rank, error
//    handler, attributes, counters) pointing to a Group shared by all members in this
//    process: O(1) per rank, O(number of distinct groups) per process.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>

namespace xsim {

struct Group;
struct Attributes;
struct Topology;

enum class CommKind : std::uint8_t { World, Self, Derived };

struct Comm {
    static constexpr std::uint32_t kMagic = 0x78636f6d;  // "xcom"
    std::uint32_t magic = kMagic;
    CommKind kind = CommKind::World;
    // Point-to-point traffic uses `context` (even); collectives use context + 1 so they
    // never match user messages. Derived contexts: see context_ids.hpp.
    std::uint32_t context = 0;
    int size = 0;
    mutable const char* name = "";     // interned (never freed); WORLD/SELF: see comm_name()

    // Derived communicators only (the owner's view).
    int my_rank = 0;
    Group* group = nullptr;            // shared, reference counted
    // Per-rank state, changed through const handles (hence mutable).
    mutable MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    mutable Attributes* attributes = nullptr;  // null until the first attribute is set
    mutable std::uint32_t children = 0;        // communicators created from this one
    mutable std::uint32_t collective_calls = 0;  // see collective_sequence()
    // The handle and every request on this communicator hold a reference: MPI_Comm_free
    // may come before pending operations complete.
    mutable int refs = 1;
    mutable bool freed = false;                // MPI_Comm_free was called: the handle is gone
    std::shared_ptr<const Topology> topology;  // cartesian/graph information, or null
    // Intercommunicators: point-to-point ranks name members of `remote_group`; `local`
    // is an internal intracommunicator over `group` (for MPI_Intercomm_merge).
    Group* remote_group = nullptr;
    const Comm* local = nullptr;

    bool is_inter() const { return remote_group != nullptr; }
    // How many ranks a point-to-point call may name (the remote group's size on intercomms).
    int peer_size() const;

    // The caller's rank in this comm, and the world rank of `comm_rank` as the caller sees
    // it. `caller` is the calling rank: anything with its world rank (the engine's Rank).
    template <class Caller>
    int rank_of(const Caller& caller) const { return rank_of_world(caller.world); }
    template <class Caller>
    int world_rank(int comm_rank, const Caller& caller) const { return world_rank_of(comm_rank, caller.world); }
    // Inline: every send asks it.
    int rank_of_world(int caller_world) const {
        return kind == CommKind::World ? caller_world : kind == CommKind::Self ? 0 : my_rank;
    }
    int world_rank_of(int comm_rank, int caller_world) const;
    std::uint32_t collective_context() const { return context + 1; }
};

// Context ids of the predefined communicators.
constexpr std::uint32_t kWorldContext = 0;
constexpr std::uint32_t kSelfContext = 2;

// Requests (and the handle) keep a derived communicator alive. ref/unref as SimGrid's
// smpi names them for its Comm and Group (Comm::ref, Comm::unref): one verb pair for
// reference counts only, where `release` also meant handing back a pool slot, a datatype
// use or a generalized request. unref frees the communicator (and its context id and
// groups) when the last reference goes; null and the predefined communicators are ignored.
inline void ref(const Comm& c) { ++c.refs; }
void destroy_unreferenced(const Comm* c);  // unref's end: out of line, rare
inline void unref(const Comm* c) {
    if (c && c->kind == CommKind::Derived && --c->refs <= 0) destroy_unreferenced(c);
}

// The interned copy of `text` (names live as long as the process's objects).
const char* intern(const char* text);

}  // namespace xsim
