// Reduce-scatter as a binomial reduce of the whole vector to rank 0 followed by a scatter
// of the pieces (binomial for equal pieces, linear otherwise). Keeps rank order, so it
// serves non-commutative ops.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {
namespace {

Steps run_reduce_scatter_reduce_scatterv(Context& c, const ReduceScatterArgs& a) {
    const int total = static_cast<int>(a.total);
    TypedScratch result(c.payload && c.rank == 0, total, a.type);
    ReduceArgs reduce;
    reduce.sendbuf = a.sendbuf;
    reduce.recvbuf = result.data();
    reduce.count = total;
    reduce.type = a.type;
    reduce.op = a.op;
    reduce.root = 0;
    reduce.commutative = a.commutative;
    XSIM_CO_RUN(c, reduce_binomial.run(c, reduce));

    // Scatter the pieces from rank 0; piece i starts at element offset_of(i).
    std::vector<int> displs;
    RootedArgs scatter;
    scatter.mine = make_block(a.recvbuf, a.count_of(c.rank), a.type);
    scatter.root = 0;
    if (c.rank == 0) {
        if (a.counts) {
            displs.resize(static_cast<std::size_t>(c.size));
            for (int i = 0; i < c.size; ++i) displs[static_cast<std::size_t>(i)] = static_cast<int>(a.offset_of(i));
            scatter.blocks = varying_blocks(result.data(), a.counts, displs.data(), a.type);
        } else {
            scatter.blocks = uniform_blocks(result.data(), a.block, a.type);
        }
    }
    XSIM_CO_RUN(c, (a.counts ? scatter_linear : scatter_binomial).run(c, scatter));
}

SimTime cost_reduce_scatter_reduce_scatterv(const CostModel& m, const ReduceScatterArgs& a) {
    std::uint64_t size = 0;
    {
        int s = 0;
        real_mpi.Type_size(a.type, &s);
        size = static_cast<std::uint64_t>(s);
    }
    const std::uint64_t bytes = size * static_cast<std::uint64_t>(a.total);
    const std::uint64_t piece = bytes / static_cast<std::uint64_t>(m.size());
    const SimTime scatter = a.counts ? m.message(m.typical_peer(), piece) + m.transfer(m.typical_peer(), bytes - piece)
                                     : m.rounds([&](int d) { return piece * static_cast<std::uint64_t>(d); });
    return m.rounds([&](int) { return bytes; }) + scatter;
}

}  // namespace

const Algorithm<ReduceScatterArgs> reduce_scatter_reduce_scatterv{
    {"reduce_scatterv", "binomial reduce of the whole vector to rank 0, then scatter of the pieces (any op)"},
    run_reduce_scatter_reduce_scatterv, nullptr, cost_reduce_scatter_reduce_scatterv};
XSIM_REGISTER_ALGORITHM(reduce_scatter_reduce_scatterv, CollKind::ReduceScatter, CollKind::ReduceScatterBlock);

}  // namespace xsim::colls
