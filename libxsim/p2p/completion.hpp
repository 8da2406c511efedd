// Completing requests in virtual time: a request is complete for its owner once its
// completion time is decided and the owner's clock has reached it. Blocking waits
// suspend the rank until the deciding events have been processed.
#pragma once
#include "libxsim/engine/engine.hpp"

namespace xsim::completion {

// Called when a request's done_time became known: wakes its owner if it waits for it,
// and releases requests the application already freed.
void decided(Engine& engine, Request* request);

inline bool complete(const Rank& owner, const Request* r) { return r->known && r->done_time <= owner.clock; }

// Blocks `me` until every request in reqs[0..n) (nulls skipped) is complete.
void wait_all(Engine& engine, Rank& me, Request* const* reqs, int n);
// Blocks `me` until at least one is complete; returns the lowest complete index, or -1
// when every entry is null.
int wait_any(Engine& engine, Rank& me, Request* const* reqs, int n);
// Blocks `me` until a message matching the filter has arrived; returns it (still queued).
const Message* wait_probe(Engine& engine, Rank& me, int source, int tag, std::uint32_t context);

}  // namespace xsim::completion
