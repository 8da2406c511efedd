// Linear scatter (what xSim had; also MPI_Scatterv): the root sends every rank its block
// at once, straight from the send buffer. Empty blocks are not sent.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_scatter_linear(Context& c, const RootedArgs& a) {
    if (c.rank != a.root) {
        c.recv_unless_empty(a.root, a.mine);
        co_await c.round();
        co_return;
    }
    for (int i = 0; i < c.size; ++i)
        if (i != a.root) c.send_unless_empty(i, a.blocks.block(i));
    if (!a.in_place) copy_block(c.carries(a.mine), a.blocks.block(a.root), a.mine);
    co_await c.round();
}

}  // namespace

const Algorithm<RootedArgs> scatter_linear{
    {"linear", "the root sends each rank its block, all at once"}, run_scatter_linear, nullptr, root_serialized_cost};
XSIM_REGISTER_ALGORITHM(scatter_linear, CollKind::Scatter, CollKind::Scatterv);

}  // namespace xsim::colls
