// The blocking form of every collective: one rank's part in one call, driven like a
// nonblocking call (collective_call.hpp) that the rank waits for once.
#include "libxsim/colls/collective_call.hpp"
#include "libxsim/colls/entry.hpp"
#include "libxsim/colls/frame_pool.hpp"
#include "libxsim/engine/rank_slots.hpp"
#include "libxsim/p2p/completion.hpp"

namespace xsim::colls {

template <class Args>
int run(const Collective<Args>& table, Engine& engine, Rank& me, const Comm& comm, int root, const Args& args,
        std::string* error) {
    // Driven like a nonblocking call (rounds advance from the scheduler as their messages
    // are decided) while the rank waits once for the whole call: one fiber switch per call
    // instead of one per round, and the same virtual times as run_blocking would give.
    // The call's state is not on the rank's stack: stacks are a page apart, and touching one
    // per round cost a TLB miss each (2^20 ranks on two processes: 182 s with the state on
    // the stack, 149 s from the frame pool). It is in the rank's slot when it fits
    // (engine/rank_slots.hpp: 896-byte slots whose addresses rise with the rank, the order
    // the scheduler visits ranks in; the pool's release order scattered them, 65,536 ranks:
    // 15.2 s against 17.6), else from the pool; released alike.
    using Call = CollectiveCallOf<Args, NothingKept>;
    Call* call;
    if (void* place = frame_in_slot(engine.blocking_slot(me), RankSlots::kSlotBytes, sizeof(Call)))
        call = ::new (place) Call(table, engine, me, comm, root, args, NothingKept{}, CallForm::Blocking);
    else
        call = new Call(table, engine, me, comm, root, args, NothingKept{}, CallForm::Blocking);
    Request* r = call->begin();
    completion::wait_all(engine, me, &r, 1);
    const int rc = r->status_error;
    if (rc != MPI_SUCCESS) *error = call->error();
    engine.free_request(r);
    return rc;
}

template int run(const Collective<BarrierArgs>&, Engine&, Rank&, const Comm&, int, const BarrierArgs&, std::string*);
template int run(const Collective<BcastArgs>&, Engine&, Rank&, const Comm&, int, const BcastArgs&, std::string*);
template int run(const Collective<ReduceArgs>&, Engine&, Rank&, const Comm&, int, const ReduceArgs&, std::string*);
template int run(const Collective<RootedArgs>&, Engine&, Rank&, const Comm&, int, const RootedArgs&, std::string*);
template int run(const Collective<AllgatherArgs>&, Engine&, Rank&, const Comm&, int, const AllgatherArgs&,
                 std::string*);
template int run(const Collective<AlltoallArgs>&, Engine&, Rank&, const Comm&, int, const AlltoallArgs&,
                 std::string*);
template int run(const Collective<NeighborArgs>&, Engine&, Rank&, const Comm&, int, const NeighborArgs&,
                 std::string*);
template int run(const Collective<ReduceScatterArgs>&, Engine&, Rank&, const Comm&, int, const ReduceScatterArgs&,
                 std::string*);

}  // namespace xsim::colls
