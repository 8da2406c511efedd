// The synchronization calls of one-sided communication (MPI-4.0 section 12.5), on the calling
// rank's fiber: what each waits for, in virtual time. Arguments are checked by the bindings.
//  - fence: every operation this rank started is complete, then a barrier over the window;
//  - lock / unlock: the lock travels to the target and back (operations.hpp); unlock first
//    completes this rank's operations there. MPI_MODE_NOCHECK skips the lock's traffic;
//  - flush*: this rank's operations (to one target or all) are complete at the target;
//  - post / start / complete / wait / test (general active target): zero-byte messages on
//    the window's communicator: post -> start, complete -> wait.
#pragma once
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "libxsim/rma/window.hpp"

namespace xsim::rma {

// Waits until this rank's operations to `target` (a rank of the window's group; -1: all)
// are complete, and forgets them.
void complete_operations(Engine& engine, Rank& me, Window& w, int target);

// What a trace sees of a window's collectives (creation, MPI_Win_fence, MPI_Win_free): their
// start and end on `me` at its clock (nothing unless -xsim-trace).
void observe_collective_begin(Engine& engine, const Rank& me);
void observe_collective_end(Engine& engine, const Rank& me, const Window& w, EventObserver::RmaCollective kind);

// A barrier over the window's group (MPI_Win_fence, creation and MPI_Win_free). Returns an
// MPI error class; *why says what the ranks disagreed about.
int window_barrier(Engine& engine, Rank& me, Window& w, std::string* why);

void lock(Engine& engine, Rank& me, Window& w, int target, bool exclusive, bool announce);
void unlock(Engine& engine, Rank& me, Window& w, int target);
void lock_all(Engine& engine, Rank& me, Window& w, bool announce);
void unlock_all(Engine& engine, Rank& me, Window& w);

// General active target; groups as world ranks.
void post(Engine& engine, Rank& me, Window& w, std::vector<int> origins, bool notify_origins);
void start(Engine& engine, Rank& me, Window& w, std::vector<int> targets, bool wait_for_posts);
void complete(Engine& engine, Rank& me, Window& w);
void wait(Engine& engine, Rank& me, Window& w);
bool test(Engine& engine, Rank& me, Window& w);  // true: as wait, done; false: not yet

}  // namespace xsim::rma
