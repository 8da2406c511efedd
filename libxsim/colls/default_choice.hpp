// The default algorithm of a call: the collective's selector, unless the communicator has
// at least -xsim-analytic-ranks ranks and the selected algorithm sends more messages than
// the analytic skeleton would (Algorithm::simulated_messages: O(p^2) rings, pairwise and
// linear all-to-all), where the analytic algorithm runs instead if it can run this call
// (payload off, or data it moves directly). Its time is the closed form of the algorithm
// the selector chose; what it saves is the simulation of p(p-1) messages.
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
