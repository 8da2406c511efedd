// Memory for collective coroutine frames and nonblocking-collective state: free lists per
// 64-byte size class, so the steady state of a run that keeps calling collectives reuses
// blocks instead of going to the heap. Used from the simulation thread only (no locks).
#pragma once
#include <cstddef>

namespace xsim::colls {

void* frame_allocate(std::size_t bytes);
void frame_release(void* block, std::size_t bytes);

}  // namespace xsim::colls
