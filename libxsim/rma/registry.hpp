// What the ranks of one process share about one-sided communication (private to
// libxsim/rma/): the targets operations from anywhere look up, the memory of shared windows,
// each rank's windows, and MPI_Alloc_mem's blocks with those freed early (memory.hpp).
#pragma once
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "libxsim/rma/window.hpp"

namespace xsim::rma {

// A block the program freed (MPI_Free_mem) while operations of its rank still had to write
// their fetched data into it: really freed once the last of them is answered.
struct DeferredBlock {
    void* base = nullptr;
    std::vector<Request*> writers;  // unanswered operations whose result lies in the block
};

struct WindowRegistry final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::Windows;
    std::unordered_map<std::uint64_t, Target*> targets;
    std::unordered_map<std::uint64_t, SharedSegment> shared;
    std::unordered_map<int, std::vector<Window*>> windows_of;  // by world rank
    std::map<const char*, MPI_Aint> allocations;  // MPI_Alloc_mem: base -> size
    std::vector<DeferredBlock> deferred;
    // An early free was reported (once per process each: of a buffer written, of one read).
    bool warned_writes = false;
    bool warned_reads = false;
};

inline WindowRegistry& registry(Engine& engine) { return layer_state<WindowRegistry>(engine); }

}  // namespace xsim::rma
