// The entry points of the collectives for the bindings, and the algorithm choice.
//  run():  one rank's part in one collective call (blocking; driven like a nonblocking
//          call that the rank waits for, see collective_call.hpp), with the algorithm that is
//          forced for the collective (set_forced_algorithm or XSIM_COLL_<NAME>) or else
//          the default for this message and communicator size.
//  start() in collective_call.hpp: the same as a nonblocking call.
#pragma once
#include <string>
#include <vector>

#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {

// Returns MPI_SUCCESS, or an error class with *error saying what the ranks disagreed about.
template <class Args>
int run(const Collective<Args>& table, Engine& engine, Rank& me, const Comm& comm, int root, const Args& args,
        std::string* error);

// The algorithm for one call: the forced one if it can run the call, else the default.
// Reads the environment's forced choices on first use.
template <class Args>
const Algorithm<Args>* choose_algorithm(const Collective<Args>& table, Engine& engine, const Context& ctx,
                                        const Args& args);

// At the end of a run without deadlock (collective over the real processes): reports a
// collective message left unreceived on a local rank, which only mismatched collectives
// leave behind (see unreceived_messages.cpp). Returns 1 if any process found one, else 0.
int report_unreceived_messages(Engine& engine);

// Forces `algorithm` for `collective` (both as listed by list_algorithms(), e.g.
// "allreduce", "ring"); "" or "auto" restores the default choice. Throws
// std::invalid_argument naming the valid choices for an unknown name. When a forced
// algorithm cannot run a call (ring with a non-commutative op, analytic with payload on,
// ...) the default is used for that call and a warning is printed once.
// The choices are the engine's (one set per real process); this form uses the running engine.
void set_forced_algorithm(const std::string& collective, const std::string& algorithm);
void set_forced_algorithm(Engine& engine, const std::string& collective, const std::string& algorithm);
// The algorithm forced for `collective` on `engine`, "" for the default choice.
std::string forced_algorithm(Engine& engine, const std::string& collective);

struct AlgorithmListing {
    std::string collective;   // "allreduce"
    std::string algorithm;    // "ring"
    std::string description;
};
std::vector<AlgorithmListing> list_algorithms();
// The listing as text, one "collective algorithm  description" line each.
std::string describe_algorithms();

// Reads XSIM_COLL_<COLLECTIVE> (e.g. XSIM_COLL_ALLREDUCE=ring) once; throws
// std::invalid_argument for a bad value. run() calls it on first use.
void read_forced_algorithms_from_environment();
void read_forced_algorithms_from_environment(Engine& engine);

}  // namespace xsim::colls
