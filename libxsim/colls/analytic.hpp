// Analytic collectives: instead of the messages of an algorithm, a skeleton of zero-byte
// messages (ceil(log2 p) rounds) carries the synchronization every collective implies --
// nobody leaves before the ranks it depends on have arrived -- and each rank then adds
// the closed-form cost of the algorithm the selector would have run at message level,
// minus the skeleton's own latency. Data moves directly between the ranks' buffers
// (direct_exchange.hpp within one real process, spanning_exchange.hpp across several), so
// every collective runs analytic with its data on any placement of the ranks.
#pragma once
#include "libxsim/colls/algorithms.hpp"
#include "libxsim/colls/direct_exchange.hpp"

namespace xsim::colls {

enum class Skeleton {
    All,     // everyone depends on everyone: dissemination pattern
    Prefix,  // rank r depends on ranks 0..r (and its recursive-doubling partners): scans
    FanOut,  // everyone depends on the root: binomial broadcast pattern
    FanIn,   // the root depends on everyone: binomial gather pattern
    // One round straight from / to the root, when the modeled algorithm is linear: a
    // tree's ceil(log2 p) latencies would exceed the algorithm's single one.
    DirectOut,
    DirectIn,
};

Steps run_skeleton(Context& c, Skeleton shape, int root);

// Latency the skeleton itself accounts for (so it is not charged twice).
SimTime skeleton_latency(const CostModel& m, Skeleton shape);

// The skeleton for a collective of `shape` that models `algorithm`.
Skeleton skeleton_for(Skeleton shape, const AlgorithmInfo& algorithm);

// The skeleton, then the modeled algorithm's remaining time (on every rank, or only at
// the root for fan-in collectives, whose other ranks leave once their part is sent).
template <class Args>
Steps analytic_steps(Context& c, const Args& a, const Collective<Args>& table, Skeleton shape, int root) {
    const Algorithm<Args>* modeled = table.choose(c, a);
    shape = skeleton_for(shape, *modeled);
    // Before the skeleton, which lets nobody leave until all have arrived.
    if (c.payload) arrive(c, a);
    XSIM_CO_RUN(c, run_skeleton(c, shape, root));
    if ((shape == Skeleton::FanIn || shape == Skeleton::DirectIn) && c.rank != root) co_return;
    const CostModel model(c);
    const SimTime full = modeled->cost(model, a);
    const SimTime already = skeleton_latency(model, shape);
    if (full > already) c.delay(full - already);
}

}  // namespace xsim::colls
