// What a request's completion reaches without knowing what it belongs to. A collective call
// (colls/collective_call.hpp) owns a RequestKind::Collective request and is driven by the
// requests of its messages; the engine and completion, which sit below colls/, reach it only
// through this interface: they call down, never up.
#pragma once
#include <cstddef>
#include <string>

namespace xsim {

class Engine;
struct Request;

// The bytes of a target, from its start, that the engine prefetches before a message
// decides one of its children: all of a collective call of the common kinds (its fields,
// its arena's start and its arguments; colls/collective_call.hpp checks the size). A call
// larger than this missed on its own fields at every round (640 bytes here cost about 5%
// of a 65,536-rank ring_allreduce run: child_decided and the steps' arguments lay beyond).
// A blocking call sits 16 bytes into its rank's slot (colls/frame_pool.cpp): 688 bytes end
// on the slot's 11th line, where 832 asked for 14 lines, two of them past the call.
constexpr std::size_t kCompletionTargetPrefetchBytes = 688;

class CompletionTarget {
public:
    // Released with the request that owns it (Engine::free_request).
    virtual ~CompletionTarget() = default;
    // `child`, one of the requests whose `parent` is this target, got its completion time.
    virtual void child_decided(Engine& engine, Request* child) = 0;
    // A buffer the target is likely to touch when it next runs, for the engine to prefetch
    // before the deciding event is processed; null if none.
    virtual const void* resume_hint() const = 0;
    // Why the operation failed (the owning request's status_error is set), or empty.
    virtual const std::string& error() const = 0;
};

}  // namespace xsim
