// The shared file pointer of an open file (MPI-4.0 section 14.4.4): one counter, in etypes
// of the current view, at the file's home, rank 0 of its communicator. The home's real
// process keeps it (not the home rank: it moves whatever that rank is doing, as a
// passive-target window does, rma/operations.hpp). A rank moves it by a
// MessageKind::FilePointer event to the home, applied when the home's process processes it
// (an atomic fetch-and-add, or a set) and answered with the value it had; both cross the
// network as small messages do. Requests are applied in the order the home's process
// processes their events: virtual time, then the engine's deterministic tie-break, so the
// order (and every offset handed out) is the same for any number of real processes.
#pragma once
#include <cstdint>

#include "libxsim/engine/engine.hpp"
#include "libxsim/io/file.hpp"

namespace xsim::io {

// The home of the file whose communicator is `file_comm`: the world rank of its rank 0.
int pointer_home(const Comm& file_comm);

// Made by the home rank while it opens the file (before the agreement that ends the open,
// so no other rank can reach it first), at `initial` (0, or the end of file for
// MPI_MODE_APPEND); forgotten by the home rank in MPI_File_close once every rank has
// entered the close (so no access of theirs is still on its way).
void create_pointer(Engine& engine, const Comm& file_comm, std::int64_t initial);
void forget_pointer(Engine& engine, const Comm& file_comm);

enum class PointerMove : std::int32_t { Add, Set };

// Starts moving `f`'s pointer from `me` at its clock: adds `value` to it or sets it to
// `value`. The request is decided when the home's answer arrives, which writes the value
// the pointer had before into *before (which must live until then). The caller waits for
// the request and frees it, or gives it a CompletionTarget (parent_call) that does.
Request* start_move(Engine& engine, Rank& me, const File& f, PointerMove move, std::int64_t value,
                    std::int64_t* before);

// start_move, waited for: the rank's clock moves to the answer's arrival. Returns the value
// the pointer had before.
std::int64_t move(Engine& engine, Rank& me, const File& f, PointerMove move, std::int64_t value);

// The engine's handler of MessageKind::FilePointer events (Engine::set_layer_handler).
void handle_pointer_event(Engine& engine, Message* message);

}  // namespace xsim::io
