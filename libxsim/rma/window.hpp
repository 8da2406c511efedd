// One-sided communication's window (MPI-4.0 chapter 12). Every member rank of a window holds
// its own Window (the MPI_Win handle points to it); what other ranks reach through it, its
// memory and its lock, is a Target, which the process registers under the window's context and
// the rank, so that an operation arriving from any process finds it (operations.hpp).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "libxsim/mpi/attributes.hpp"

namespace xsim::rma {

enum class Flavor : int { Create = MPI_WIN_FLAVOR_CREATE, Allocate = MPI_WIN_FLAVOR_ALLOCATE,
                          Dynamic = MPI_WIN_FLAVOR_DYNAMIC, Shared = MPI_WIN_FLAVOR_SHARED };

// A lock request waiting at its target.
struct LockWaiter {
    int origin = 0;                  // world rank
    bool exclusive = false;
    std::uint64_t origin_request = 0;  // the origin's Request, decided by the grant
};

// A rank's window as the other ranks see it, in the process of that rank.
struct Target {
    int world = 0;
    char* base = nullptr;
    MPI_Aint size = 0;
    int disp_unit = 1;
    bool dynamic = false;
    std::vector<std::pair<char*, MPI_Aint>> attached;  // MPI_Win_attach regions (dynamic windows)
    // Its lock (MPI_Win_lock / MPI_Win_lock_all of other ranks): one exclusive holder or any
    // number of shared ones, and the requests that wait, granted in arrival order.
    int exclusive_holder = -1;
    int shared_holders = 0;
    std::deque<LockWaiter> waiting;
};

// The bytes [lo, hi) of the origin's memory an operation reads or writes (empty: none).
struct Span {
    const char* lo = nullptr;
    const char* hi = nullptr;
    bool overlaps(const char* begin, const char* end) const { return lo < hi && lo < end && begin < hi; }
};

// An operation this rank started and has not completed (flushed) yet.
struct Pending {
    Request* request = nullptr;  // decided (known) when the target's answer arrived
    int target = 0;  // rank in the window's group
    const char* call = nullptr;  // the MPI call that started it, for diagnostics
    // MPI_Rput and the like: the program's MPI_Wait/MPI_Test on its own request completes it
    // at the origin (its buffers free again) before the flush that forgets it here.
    bool user_request = false;
    Span origin;  // the data it sends (xsim packed it at the call)
    Span compare;  // compare-and-swap's compare value (packed at the call too)
    Span result;  // where its fetched data goes when the answer arrives
};

// A lock this rank holds on a target; `announced` unless taken with MPI_MODE_NOCHECK (then
// no traffic: the program asserts nobody else locks that target meanwhile).
struct HeldLock {
    bool exclusive = false;
    bool announced = true;
};

struct alignas(16) Window {
    static constexpr std::uint32_t kMagic = 0x7877696e;  // "xwin"
    std::uint32_t magic = kMagic;
    Comm* comm = nullptr;     // a duplicate of the creating communicator: group, context, collectives
    Rank* owner = nullptr;
    Target* target = nullptr;  // this rank's, registered in the process: its memory, size, unit
    Flavor flavor = Flavor::Create;
    int model = MPI_WIN_UNIFIED;
    bool owns_memory = false;  // MPI_Win_allocate: freed with the window
    MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
    std::string name;
    Attributes* attributes = nullptr;  // MPI_Win_set_attr (keyvals shared with communicators')
    // Epochs (section 12.5): a fence epoch, passive-target locks, general active target.
    bool fence_epoch = false;
    bool locked_all = false;
    bool lock_all_announced = false;
    std::unordered_map<int, HeldLock> locks;  // target rank -> the lock this rank holds
    std::vector<int> access_group;    // MPI_Win_start: targets (world ranks) until MPI_Win_complete
    std::vector<int> exposure_group;  // MPI_Win_post: origins (world ranks) until MPI_Win_wait
    bool access_epoch_started = false;
    bool exposure_epoch_started = false;
    std::vector<Request*> completions;  // MPI_Win_post: the origins' MPI_Win_complete notices
    std::vector<Pending> pending;
};

// The memory of MPI_Win_allocate_shared: one block for the whole group, each rank's part after
// the previous rank's (MPI: contiguous unless alloc_shared_noncontig), laid out in each real
// process by its first member that knows every member's size. When the members span real
// processes the block is POSIX shared memory each of them maps (at its own address).
struct SharedSegment {
    std::vector<MPI_Aint> sizes;  // by rank in the window's group
    std::vector<int> disp_units;
    char* memory = nullptr;
    std::size_t mapped_bytes = 0;  // nonzero: memory is a mapping of shared memory, else calloc's
    int users = 0;                 // members in this process that have not freed the window yet
};
// The segment of shared window `w` (made empty on first use), and its end. Windows over
// disjoint groups may have the same context: a segment is the context's and its first member's.
SharedSegment& shared_segment(Engine& engine, const Window& w);
void forget_shared_segment(Engine& engine, const Window& w);

// The handle the application holds, and back (null when `handle` is not a live window).
inline MPI_Win window_handle(Window* w) { return reinterpret_cast<MPI_Win>(w); }
Window* resolve_window(MPI_Win handle);

// The process's targets, by window context and world rank.
Target* find_target(Engine& engine, std::uint32_t context, int world);
void register_target(Engine& engine, std::uint32_t context, Target* target);
void unregister_target(Engine& engine, std::uint32_t context, int world);

// Each rank's windows in this process, for MPI_Free_mem to look at their pending operations
// (memory.hpp): from creation to MPI_Win_free.
void note_window(Engine& engine, Window* w);
void forget_window(Engine& engine, Window* w);

// Whether this rank may issue an operation to `target` (its rank in the window's group) now:
// an access epoch covers it (a fence epoch, a lock, MPI_Win_lock_all, MPI_Win_start's group).
bool in_access_epoch(const Window& w, int target);

}  // namespace xsim::rma
