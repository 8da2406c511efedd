#include "libxsim/colls/edge_exchange.hpp"

#include <algorithm>
#include <tuple>

#include "libxsim/colls/schedule.hpp"

namespace xsim::colls {
namespace {

Steps route(Context& c, std::vector<EdgeNotice>& held) {
    const int p = c.size;
    std::vector<EdgeNotice> keep, out, in;
    std::uint64_t out_count = 0, in_count = 0;
    for (int step = 1; step < p; step <<= 1) {
        const int to = (c.rank + step) % p, from = (c.rank - step + p) % p;
        keep.clear();
        out.clear();
        for (const EdgeNotice& n : held) ((n.target - c.rank + p) % p & step ? out : keep).push_back(n);
        out_count = out.size();
        c.recv_bytes(from, &in_count, sizeof in_count);
        c.send_bytes(to, &out_count, sizeof out_count);
        co_await c.round();
        in.resize(in_count);
        if (in_count > 0) c.recv_bytes(from, in.data(), in_count * sizeof(EdgeNotice));
        if (out_count > 0) c.send_bytes(to, out.data(), out_count * sizeof(EdgeNotice));
        co_await c.round();
        held.swap(keep);
        held.insert(held.end(), in.begin(), in.end());
    }
}

}  // namespace

int exchange_edges(Engine& engine, Rank& me, const Comm& comm, std::vector<EdgeNotice> notices,
                   std::vector<EdgeNotice>* arrived, std::string* error) {
    Context ctx(engine, me, comm, CollKind::DistGraphCreate, 0);
    ctx.carries_data = true;  // the edges are xsim's own data: they move even without payload
    const int rc = run_blocking(ctx, route(ctx, notices));
    if (rc != MPI_SUCCESS) {
        *error = ctx.error;
        return rc;
    }
    std::sort(notices.begin(), notices.end(), [](const EdgeNotice& a, const EdgeNotice& b) {
        return std::tie(a.origin, a.position, a.incoming) < std::tie(b.origin, b.position, b.incoming);
    });
    *arrived = std::move(notices);
    return MPI_SUCCESS;
}

}  // namespace xsim::colls
