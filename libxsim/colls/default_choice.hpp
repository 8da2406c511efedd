// The default algorithm of a call: the collective's selector, unless the communicator has
// at least -xsim-analytic-ranks ranks (default 4096) and the selected algorithm costs more
// to simulate than the analytic one: it sends more messages (Algorithm::simulated_messages:
// O(p^2) for rings, pairwise and linear all-to-all, scatter+allgather broadcast) than the
// analytic skeleton's p ceil(log2 p). Then the analytic algorithm runs instead, with the
// closed-form time of the algorithm the selector chose. Only where analytic can run the call
// on any placement of the ranks -- payload off, or a collective whose data it moves between
// real processes (spanning_exchange.hpp) -- so the choice, and the virtual time, never
// depend on the number of real processes.
#pragma once
#include <string_view>

#include "libxsim/colls/algorithm.hpp"
#include "libxsim/colls/spanning_exchange.hpp"

namespace xsim::colls {

template <class Args>
const Algorithm<Args>* default_choice(const Collective<Args>& table, const Context& c, const Args& a) {
    const Algorithm<Args>* chosen = table.choose(c, a);
    const long long from = c.engine.options().analytic_ranks;
    if (from <= 0 || c.size < from || !chosen->simulated_messages) return chosen;
    if (c.payload && !spans_processes(c.kind) && c.kind != CollKind::Barrier) return chosen;
    const std::uint64_t skeleton = static_cast<std::uint64_t>(c.size) * static_cast<std::uint64_t>(ceil_log2(c.size));
    if (chosen->simulated_messages(c.size) <= skeleton) return chosen;
    for (const Algorithm<Args>* alg : table.algorithms)
        if (std::string_view(alg->name) == "analytic" && (!alg->usable || alg->usable(c, a))) return alg;
    return chosen;
}

}  // namespace xsim::colls
