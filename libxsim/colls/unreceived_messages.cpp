// Mismatched collectives whose stray messages nobody waits for. Receives name the call's
// tag (collective_kind.hpp), so a message of a collective that its receiver ran with
// another root or pattern is never matched by a later call: it stays unexpected. At the
// end of a run without deadlock, any message left on a collective context proves such a
// mismatch.
#include <cstdio>

#include "libxsim/colls/entry.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {

int report_unreceived_messages(Engine& engine) {
    int found = 0;
    for (int i = 0; i < engine.local_count() && !found; ++i) {
        const Rank& r = engine.local(engine.first_local() + i);
        // Collective contexts are the odd ones (Comm::collective_context() = context + 1).
        const Message* m = r.unexpected.find_first([](const Message& q) { return q.context % 2 == 1; });
        if (!m) continue;
        found = 1;
        std::fprintf(stderr,
                     "xsim: simulated rank %d never received a message of %s from rank %d (collective number %d on "
                     "its communicator): the ranks called different collectives or passed different roots\n",
                     r.world, describe_signature(m->signature).c_str(), m->src_comm_rank, m->tag);
        std::fflush(stderr);
    }
    real_mpi.Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return found;
}

}  // namespace xsim::colls
