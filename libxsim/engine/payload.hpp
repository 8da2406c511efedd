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
// Takes m->payload away from `m` (left without one; m->bytes > Message::kInlinePayload, so
// the buffer is not inside the message): the caller releases it with
// release_payload_buffer(buffer, m->bytes) when done.
char* take_payload(Message* m);
// Returns a buffer of `bytes` bytes that take_payload took.
void release_payload_buffer(char* buffer, std::uint64_t bytes);

}  // namespace xsim
