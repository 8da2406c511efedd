// Analytic collectives: instead of the messages of an algorithm, a skeleton of zero-byte
// messages (ceil(log2 p) rounds) carries the synchronization every collective implies --
// nobody leaves before the ranks it depends on have arrived -- and each rank then adds
// the closed-form cost of the algorithm the selector would have run at message level,
// minus the skeleton's own latency. No data moves: payload-free mode only.
#pragma once
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {

enum class Skeleton {
    All,     // everyone depends on everyone: dissemination pattern
    Prefix,  // rank r depends on ranks 0..r (and its recursive-doubling partners): scans
    FanOut,  // everyone depends on the root: binomial broadcast pattern
    FanIn,   // the root depends on everyone: binomial gather pattern
};

Steps run_skeleton(Context& c, Skeleton shape, int root);

// Latency the skeleton itself accounts for (so it is not charged twice).
SimTime skeleton_latency(const CostModel& m);

// Usable only without payload: analytic algorithms move no data.
template <class Args>
bool payload_free(const Context& c, const Args&) {
    return !c.payload;
}

// The skeleton, then the modeled algorithm's remaining time (on every rank, or only at
// the root for fan-in collectives, whose other ranks leave once their part is sent).
template <class Args>
Steps analytic_steps(Context& c, const Args& a, const Collective<Args>& table, Skeleton shape, int root) {
    XSIM_CO_RUN(c, run_skeleton(c, shape, root));
    if (shape == Skeleton::FanIn && c.rank != root) co_return;
    const CostModel model(c);
    const SimTime full = table.choose(c, a)->cost(model, a);
    const SimTime already = skeleton_latency(model);
    if (full > already) c.delay(full - already);
}

}  // namespace xsim::colls
