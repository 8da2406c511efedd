// What a request's completion reaches without knowing what it belongs to. A collective call
// (colls/collective_call.hpp) owns a RequestKind::Collective request and is driven by the
// requests of its messages; the engine and completion, which sit below colls/, reach it only
// through this interface: they call down, never up.
#pragma once
#include <string>

namespace xsim {

class Engine;
struct Request;

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
