// Collective algorithms, each a sequence of point-to-point messages on the communicator's
// collective context, so their cost comes from the simulated network.
#pragma once
#include "libxsim/engine.hpp"

namespace xsim::colls {

void barrier_dissemination(Engine& engine, Rank& me, const Comm& comm);

}  // namespace xsim::colls
