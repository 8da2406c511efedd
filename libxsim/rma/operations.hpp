// One-sided operations as events (MessageKind::Rma): the origin packs its data and the
// target's byte blocks (target_layout.hpp) into one event; the target's process applies it to
// the window's memory when the event is processed, whatever the target rank is doing
// (passive target needs no call of the target), and answers: an acknowledgement, or the data
// a get-like operation fetched. The origin's request is decided by that answer; flushes,
// unlocks, fences and MPI_Win_complete wait for those requests (synchronization.hpp).
// Locks travel the same way: a request to the target, granted by the target's process in
// arrival order, released by an unlock.
#pragma once
#include <mpi.h>

#include "libxsim/engine/engine.hpp"
#include "libxsim/rma/window.hpp"

namespace xsim::rma {

enum class OperationKind : std::int32_t { Put, Get, Accumulate, GetAccumulate, CompareAndSwap };

struct Operation {
    OperationKind kind = OperationKind::Put;
    // Put, accumulates, compare-and-swap: the data sent (its count elements of its type).
    const void* origin = nullptr;
    int origin_count = 0;
    MPI_Datatype origin_type = MPI_DATATYPE_NULL;
    const void* compare = nullptr;  // compare-and-swap: one element of origin_type
    // Get, get-accumulate, fetch-and-op, compare-and-swap: where the fetched data goes.
    void* result = nullptr;
    int result_count = 0;
    MPI_Datatype result_type = MPI_DATATYPE_NULL;
    int target = 0;  // rank in the window's group
    MPI_Aint disp = 0;
    int target_count = 0;
    MPI_Datatype target_type = MPI_DATATYPE_NULL;
    MPI_Op op = MPI_OP_NULL;  // accumulates
};

// Starts `op` from the running rank `me` at its clock. On a bad argument returns null with an
// MPI error class in *error and what is wrong in *why. The request is decided when the
// target's answer arrives; the caller keeps it in the window's pending operations.
// `user`: the request-based forms (MPI_Rput...) also get a request of their own in *user,
// which the application completes and frees as it likes, decided with the first.
Request* start(Engine& engine, Rank& me, Window& w, const Operation& op, int* error, std::string* why,
               Request** user = nullptr);

// Asks `target`'s lock (a rank of the window's group); the request is decided when granted.
Request* request_lock(Engine& engine, Rank& me, Window& w, int target, bool exclusive);
// Releases the lock this rank holds on `target` (its operations there are complete).
void release_lock(Engine& engine, Rank& me, Window& w, int target, bool exclusive);

// The engine's handler of MessageKind::Rma events (Engine::set_layer_handler).
void handle_event(Engine& engine, Message* message);

}  // namespace xsim::rma
