// The default algorithm of a call: the collective's selector, unless the communicator has
// at least -xsim-analytic-ranks ranks (default 4096) and the selected algorithm costs more
// to simulate than the analytic one: it sends more messages (Algorithm::simulated_messages:
// O(p^2) for rings, pairwise and linear all-to-all, scatter+allgather broadcast) than the
// analytic skeleton's p ceil(log2 p). Then the analytic algorithm runs instead, with the
// closed-form time of the algorithm the selector chose. Analytic runs every collective, with
// its data or without, on any placement of the ranks (direct_exchange.hpp,
// spanning_exchange.hpp), so the choice, and the virtual time, never depend on the number
// of real processes or on -xsim-payload.
#pragma once
#include <string_view>

#include "libxsim/colls/algorithm.hpp"

namespace xsim::colls {

template <class Args>
const Algorithm<Args>* default_choice(const Collective<Args>& table, const Context& c, const Args& a) {
    const Algorithm<Args>* chosen = table.choose(c, a);
    const long long from = c.engine.options().analytic_ranks;
    if (from <= 0 || c.size < from || !chosen->simulated_messages) return chosen;
    const std::uint64_t skeleton = static_cast<std::uint64_t>(c.size) * static_cast<std::uint64_t>(ceil_log2(c.size));
    if (chosen->simulated_messages(c.size) <= skeleton) return chosen;
    for (const Algorithm<Args>* alg : table.algorithms)
        if (std::string_view(alg->name) == "analytic" && (!alg->usable || alg->usable(c, a))) return alg;
    return chosen;
}

}  // namespace xsim::colls
