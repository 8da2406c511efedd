// Simulated communicators. MPI_Comm handles are either Open MPI's predefined
// MPI_COMM_WORLD / MPI_COMM_SELF (translated here) or pointers to xsim Comm objects.
// A communicator is stored once per real process, shared by the ranks that belong to it
// (never an N-entry table per rank): WORLD maps ranks by identity, SELF by the caller.
#pragma once
#include <mpi.h>

#include <cstdint>

namespace xsim {

struct Rank;

enum class CommKind : std::uint8_t { World, Self };

struct Comm {
    static constexpr std::uint32_t kMagic = 0x78636f6d;  // "xcom"
    std::uint32_t magic = kMagic;
    CommKind kind = CommKind::World;
    // Point-to-point traffic uses `context`; collectives use context + 1 so they never
    // match user messages.
    std::uint32_t context = 0;
    int size = 0;
    const char* name = "";

    int rank_of(const Rank& rank) const;              // the caller's rank in this comm
    int world_rank(int comm_rank, const Rank& caller) const;
    std::uint32_t collective_context() const { return context + 1; }
};

// Context ids of the predefined communicators.
constexpr std::uint32_t kWorldContext = 0;
constexpr std::uint32_t kSelfContext = 2;

}  // namespace xsim
