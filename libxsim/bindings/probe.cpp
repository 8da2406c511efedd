// MPI probe bindings and status queries. A probe sees the messages that have arrived
// by the caller's virtual time, in arrival order.
#include <mpi.h>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/p2p/completion.hpp"
#include "libxsim/p2p/p2p.hpp"

using namespace xsim;

namespace {

void status_of_message(MPI_Status* status, const Message& m) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = m.src_comm_rank;
    status->MPI_TAG = m.tag;
    status->MPI_ERROR = MPI_SUCCESS;
    status->_cancelled = 0;
    status->_ucount = m.bytes;
}

void proc_null_status(MPI_Status* status) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = MPI_PROC_NULL;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    status->_cancelled = 0;
    status->_ucount = 0;
}

int check_probe(CallScope& s, int source, int tag, MPI_Comm comm, const Comm** c) {
    if (int e = checks::comm(s, comm, c)) return e;
    if (int e = checks::peer(s, *c, source, true)) return e;
    return checks::tag(s, *c, tag, true);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Probe)
int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Probe");
    const Comm* c = nullptr;
    if (int e = check_probe(scope, source, tag, comm, &c)) return e;
    if (source == MPI_PROC_NULL) {
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    const Message* m = completion::wait_probe(scope.engine, scope.rank, source, tag, c->context);
    status_of_message(status, *m);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Iprobe)
int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Iprobe");
    const Comm* c = nullptr;
    if (int e = check_probe(scope, source, tag, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, flag, "flag")) return e;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        proc_null_status(status);
        return MPI_SUCCESS;
    }
    scope.engine.catch_up(scope.rank);
    const Message* m = scope.rank.unexpected.find_first(
        [&](const Message& q) { return envelope_matches(q, source, tag, c->context); });
    *flag = m ? 1 : 0;
    if (m) status_of_message(status, *m);
    else scope.rank.clock += scope.engine.machine().poll_cost;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Get_count)
int PMPI_Get_count(const MPI_Status* status, MPI_Datatype type, int* count) {
    XSIM_BEGIN_INITIALIZED("MPI_Get_count");
    if (int e = checks::pointer(scope, nullptr, status, "status")) return e;
    if (int e = checks::pointer(scope, nullptr, count, "count")) return e;
    int size = 0;
    if (type == MPI_DATATYPE_NULL || real_mpi.Type_size(type, &size) != MPI_SUCCESS)
        return scope.fail(nullptr, MPI_ERR_TYPE, "invalid datatype");
    const auto bytes = static_cast<long long>(status->_ucount);
    if (size == 0) *count = bytes == 0 ? 0 : MPI_UNDEFINED;
    else *count = bytes % size == 0 ? static_cast<int>(bytes / size) : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

}  // extern "C"
