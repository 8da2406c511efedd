#include "libxsim/colls/intercomm_collectives.hpp"

#include <string>

#include "libxsim/colls/algorithms.hpp"
#include "libxsim/colls/call_payload.hpp"
#include "libxsim/colls/schedule.hpp"

namespace xsim::colls {
namespace {

// One message between the groups, as a round of its own.
Steps send_one(Context& c, int peer, Block data) {
    c.send(peer, data);
    co_await c.round();
}
Steps recv_one(Context& c, int peer, Block data) {
    c.recv(peer, data);
    co_await c.round();
}
// The two leaders swap empty messages.
Steps swap_empty(Context& c, int peer) {
    c.recv_bytes(peer, nullptr, 0);
    c.send_bytes(peer, nullptr, 0);
    co_await c.round();
}

// Runs `steps` of a context whose errors go to the caller as scope.fail on `comm`.
int run_steps(CallScope& scope, Context& ctx, Steps steps, const Comm& comm) {
    const int e = run_blocking(ctx, std::move(steps));
    return e == MPI_SUCCESS ? e : scope.fail(&comm, e, ctx.error);
}

// A dissemination barrier of one group.
int local_barrier(CallScope& scope, const Comm& local, CollKind kind) {
    Context ctx(scope.engine, scope.rank, local, kind, 0);
    return run_steps(scope, ctx, barrier_dissemination.run(ctx, BarrierArgs{}), local);
}

}  // namespace

int intercomm_barrier(CallScope& scope, const Comm& inter, CollKind kind) {
    if (int e = local_barrier(scope, *inter.local, kind)) return e;
    if (inter.my_rank == 0) {
        // Only the two leaders take part: not a sequence number of the whole call.
        Context ctx(scope.engine, scope.rank, inter, kind, 0, CallForm::Leaders);
        ctx.carries_data = true;
        if (int e = run_steps(scope, ctx, swap_empty(ctx, 0), inter)) return e;
    }
    return local_barrier(scope, *inter.local, kind);
}

int intercomm_bcast(CallScope& scope, const Comm& inter, const Collective<BcastArgs>& local, const BcastArgs& a) {
    if (a.root == MPI_PROC_NULL) return MPI_SUCCESS;
    const bool root = a.root == MPI_ROOT;
    if (root || inter.my_rank == 0) {
        Context ctx(scope.engine, scope.rank, inter, CollKind::Bcast, 0, CallForm::Leaders);
        const CallPayload payload = call_payload(ctx, a);
        ctx.payload = payload.any;
        ctx.carry_below = payload.carry_below;
        Steps steps = root ? send_one(ctx, 0, a.data) : recv_one(ctx, a.root, a.data);
        if (int e = run_steps(scope, ctx, std::move(steps), inter)) return e;
    }
    if (root) return MPI_SUCCESS;
    std::string why;
    BcastArgs in_group = a;
    in_group.root = 0;
    const int rc = run(local, scope.engine, scope.rank, *inter.local, 0, in_group, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : scope.fail(&inter, rc, why);
}

}  // namespace xsim::colls
