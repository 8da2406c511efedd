// Dissemination barrier (Hensgen, Finkel, Manber): in round k every rank signals rank
// + 2^k and waits for rank - 2^k; after ceil(log2 p) rounds everyone has heard from
// everyone. Zero-byte messages on the communicator's collective context.
#include "libxsim/colls/collectives.hpp"

#include "libxsim/completion.hpp"
#include "libxsim/p2p.hpp"

namespace xsim::colls {

void barrier_dissemination(Engine& engine, Rank& me, const Comm& comm) {
    const int size = comm.size;
    const int rank = comm.rank_of(me);
    const p2p::Buffer nothing{nullptr, 0, MPI_BYTE, 0};
    for (int distance = 1, round = 0; distance < size; distance <<= 1, ++round) {
        const int to = (rank + distance) % size;
        const int from = (rank - distance + size) % size;
        Request* reqs[2];
        reqs[0] = p2p::start_recv(engine, me, nothing, comm, from, round, comm.collective_context());
        reqs[1] = p2p::start_send(engine, me, nothing, comm, to, comm.world_rank(to, me), round,
                                  comm.collective_context(), false);
        engine.stats().internal_messages++;
        completion::wait_all(engine, me, reqs, 2);
        engine.free_request(reqs[0]);
        engine.free_request(reqs[1]);
    }
}

}  // namespace xsim::colls
