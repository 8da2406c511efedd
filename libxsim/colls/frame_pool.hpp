// Memory for collective calls: coroutine frames, scratch buffers, the transfer lists of
// rounds, and nonblocking-collective state.
//  - Pool: free lists per 64-byte size class, so the steady state of a run that keeps
//    calling collectives reuses blocks instead of going to the heap.
//  - Arena: a buffer inside one call's state (CallArena). While an ArenaScope names it,
//    allocations come from it first, so that everything a call touches between rounds sits
//    in a few adjacent cache lines (at 10^5+ ranks each call's state is cold whenever its
//    next message arrives, and one cluster of lines costs far less than many scattered
//    blocks). Arena blocks are never reused: releasing one does nothing, and the arena's
//    memory goes with the call.
// Each block carries a small header saying where it came from, so releases need no scope.
// Used from the simulation thread only (no locks).
#pragma once
#include <cstddef>
#include <memory>

namespace xsim::colls {

// `arena_ok` false: never from the current arena (state that outlives the current call).
void* frame_allocate(std::size_t bytes, bool arena_ok = true);
void frame_release(void* block, std::size_t bytes);
// Where a call of `bytes` can be built in a slot of `slot_bytes` (a rank's blocking-call
// slot, engine/rank_slots.hpp), or null when it does not fit or the slot is in use (a
// blocking collective started inside another's). frame_release() of the block frees the
// slot; it must not outlive the slot.
void* frame_in_slot(char* slot, std::size_t slot_bytes, std::size_t bytes);

class CallArena {
public:
    CallArena(char* begin, std::size_t bytes) : next_(begin), end_(begin + bytes) {}
    CallArena(const CallArena&) = delete;
    CallArena& operator=(const CallArena&) = delete;
    // Null when `bytes` (header included) no longer fits.
    char* take(std::size_t bytes);

private:
    char* next_;
    char* end_;
};

// Makes `arena` the one frame_allocate() tries first, until the scope ends.
class ArenaScope {
public:
    explicit ArenaScope(CallArena& arena);
    ~ArenaScope();
    ArenaScope(const ArenaScope&) = delete;
    ArenaScope& operator=(const ArenaScope&) = delete;

private:
    CallArena* previous_;
};

// std::allocator replacement for containers that belong to a call (e.g. its transfer list).
template <class T>
struct FrameAllocator {
    using value_type = T;
    FrameAllocator() = default;
    template <class U>
    FrameAllocator(const FrameAllocator<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(frame_allocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) { frame_release(p, n * sizeof(T)); }
    friend bool operator==(const FrameAllocator&, const FrameAllocator&) { return true; }
};

// An owned byte buffer from frame_allocate (scratch of collective algorithms).
struct FrameBytesDeleter {
    std::size_t bytes = 0;
    void operator()(char* p) const { frame_release(p, bytes); }
};
using FrameBytes = std::unique_ptr<char[], FrameBytesDeleter>;
inline FrameBytes allocate_frame_bytes(std::size_t bytes) {
    return FrameBytes(static_cast<char*>(frame_allocate(bytes)), FrameBytesDeleter{bytes});
}

}  // namespace xsim::colls
