// Payload buffers of messages in flight, from per-size-class free lists (the hot path
// never calls the system allocator for small messages once warm).
#pragma once
#include <cstdint>

#include "libxsim/engine/message.hpp"

namespace xsim {

// Gives `m` a buffer of m->bytes bytes in m->payload and sets has_payload.
void acquire_payload(Message* m);
// Returns m->payload (if any) to its free list.
void release_payload(Message* m);

}  // namespace xsim
