// Recursive-doubling allgather (power-of-two sizes, equal blocks): in round k every rank
// swaps the 2^k blocks it holds with the partner 2^k away; the blocks stay in place in
// the receive buffer, so each message is one typed run of blocks.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_allgather_recursive_doubling(Context& c, const AllgatherArgs& a) {
    if (!a.in_place) copy_block(c.payload, a.mine, a.recv.block(c.rank));
    for (int mask = 1; mask < c.size; mask <<= 1) {
        const int partner = c.rank ^ mask;
        c.recv(partner, a.recv.run(partner & ~(mask - 1), mask));
        c.send(partner, a.recv.run(c.rank & ~(mask - 1), mask));
        co_await c.round();
    }
}

bool power_of_two_size(const Context& c, const AllgatherArgs&) { return (c.size & (c.size - 1)) == 0; }

SimTime cost_allgather_recursive_doubling(const CostModel& m, const AllgatherArgs& a) {
    return m.rounds([&](int d) { return a.recv.bytes_of(0) * d; });
}

}  // namespace

const Algorithm<AllgatherArgs> allgather_recursive_doubling{
    {"recursive_doubling", "power-of-two sizes: log2 p exchanges of 1, 2, 4, ... blocks"},
    run_allgather_recursive_doubling, power_of_two_size, cost_allgather_recursive_doubling};
XSIM_REGISTER_ALGORITHM(allgather_recursive_doubling, CollKind::Allgather);

}  // namespace xsim::colls
