// Linear reduction (what xSim had): every rank sends its data to the root, which combines
// them one at a time from rank p-1 down to 0 (result = x0 op (x1 op (... op x_{p-1}))),
// so the order is right for any op and the root needs only one extra buffer.
#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/algorithms.hpp"

namespace xsim::colls {
namespace {

Steps run_reduce_linear(Context& c, const ReduceArgs& a) {
    if (c.rank != a.root) {
        c.send(a.root, make_block(a.sendbuf, a.count, a.type));
        co_await c.round();
        co_return;
    }
    const Block result = make_block(a.recvbuf, a.count, a.type);
    // The root's own data, kept aside when the result buffer also holds the input.
    TypedScratch own_copy(c.payload && a.in_place && c.size > 1, a.count, a.type);
    const void* own = a.sendbuf;
    if (a.in_place && c.size > 1) {
        copy_block(c.payload, result, make_block(own_copy.data(), a.count, a.type));
        own = own_copy.data();
    }
    TypedScratch incoming(c.payload && c.size > 1, a.count, a.type);
    for (int i = c.size - 1; i >= 0; --i) {
        const bool last = i == c.size - 1;
        if (i == a.root) {
            if (last) copy_block(c.payload, make_block(own, a.count, a.type), result);
            else combine(c.payload, own, a.recvbuf, a.count, a.type, a.op);
            continue;
        }
        c.recv(i, last ? result : make_block(incoming.data(), a.count, a.type));
        co_await c.round();
        if (!last) combine(c.payload, incoming.data(), a.recvbuf, a.count, a.type, a.op);
    }
}

// The root receives p-1 messages back to back on its NIC.
SimTime cost_reduce_linear(const CostModel& m, const ReduceArgs& a) {
    if (m.size() < 2) return 0;
    return m.message(m.typical_peer(), a.bytes) + (m.size() - 2) * m.transfer(m.typical_peer(), a.bytes);
}

}  // namespace

const Algorithm<ReduceArgs> reduce_linear{
    {"linear", "every rank sends to the root, which combines in rank order (any op)"},
    run_reduce_linear, nullptr, cost_reduce_linear};
XSIM_REGISTER_ALGORITHM(reduce_linear, CollKind::Reduce);

}  // namespace xsim::colls
