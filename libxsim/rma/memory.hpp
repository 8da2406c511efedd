// MPI_Alloc_mem's blocks and the one-sided operations that use them. MPI forbids freeing a
// buffer of an operation before the call that completes it (MPI_Win_fence, MPI_Win_flush*,
// MPI_Win_unlock*, MPI_Win_complete, or MPI_Wait of MPI_Rget's request; MPI-4.0 section
// 12.3), but Open MPI completes a small operation at its call, so programs that do it run
// natively (mpi4py 3.1.4's test_rma frees the result buffer of MPI_Fetch_and_op before the
// fence). xsim completes operations in virtual time: their fetched data arrives later. So
// MPI_Free_mem of a block an unanswered operation of the calling rank still writes keeps the
// block (nobody else can get it) until the last such answer has been written, then frees it;
// the erroneous use is reported once per process. Data an operation sends was copied at its
// call: freeing it is reported (once per process too, apart), and harmless. A request-based
// operation whose answer has arrived may have been completed by the program's MPI_Wait, which
// frees its buffers: it is not reported. A block released with free()/delete instead is
// beyond xsim's reach.
#pragma once
#include <mpi.h>

#include "libxsim/engine/engine.hpp"
#include "libxsim/rma/operations.hpp"
#include "libxsim/rma/window.hpp"

namespace xsim::rma {

// The bytes `count` elements of `type` at `buf` occupy (from the first to the last byte of data).
Span span_of(const void* buf, int count, MPI_Datatype type);

// What the window keeps of an operation just started by `call` (its buffers, for MPI_Free_mem);
// `user_request`: a request-based form (MPI_Rget...).
Pending pending_of(const char* call, const Operation& op, Request* request, bool user_request);

// MPI_Alloc_mem returned `base`, of `size` bytes, to a rank of this process.
void note_allocation(Engine& engine, void* base, MPI_Aint size);

// MPI_Free_mem(base) by `me`: true when the caller frees the block now, false when pending
// operations of `me` still write into it (the block is freed when the last one is answered).
bool free_now(Engine& engine, Rank& me, void* base);

// The answer of operation `request` has been written into its result buffer (operations.cpp).
void operation_answered(Engine& engine, Request* request);

}  // namespace xsim::rma
