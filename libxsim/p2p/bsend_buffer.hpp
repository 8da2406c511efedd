// The buffer a simulated rank attaches for buffered sends (MPI_Buffer_attach), with the
// standard's accounting: each pending buffered message takes its packed size plus
// MPI_BSEND_OVERHEAD until its send completes in virtual time. A send fits when the sum
// of the pending messages stays within the attached size (what MPI_Buffer_attach's
// guarantee promises). Only ranks that attach a buffer have any state here, kept by the
// engine (one buffer per simulated rank: each is an MPI process).
#pragma once
#include <cstdint>
#include <string>

#include "libxsim/engine/engine.hpp"

namespace xsim::bsend {

// MPI_SUCCESS, or MPI_ERR_BUFFER when the rank already has a buffer attached.
int attach(Engine& engine, Rank& rank, void* base, std::uint64_t size);

// Waits (in virtual time) until every buffered message of `rank` has been sent, then
// forgets the buffer. False, with *base null and *size 0, when none is attached.
bool detach(Engine& engine, Rank& rank, void** base, std::uint64_t* size);

// Takes room for one message of `bytes` packed bytes. MPI_ERR_BUFFER (with `why`) when no
// buffer is attached or it lacks the room. On success *storage is where to pack the
// message (null when -xsim-payload drops data of this size), and the caller must hand its send to track().
int reserve(Engine& engine, Rank& rank, std::uint64_t bytes, char** storage, std::string* why);
// The send of the message reserve() made room for; its room is reused once it completes.
void track(Engine& engine, Rank& rank, Request* send);

}  // namespace xsim::bsend
