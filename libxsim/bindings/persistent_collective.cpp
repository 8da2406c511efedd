#include "libxsim/bindings/persistent_collective.hpp"

#include "libxsim/bindings/checks.hpp"
#include "libxsim/colls/make_intercomm.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::pcoll {
namespace {

// A context apart from dup/split/create and files (context_ids.hpp): "pcol".
constexpr std::uint64_t kPersistentDerivation = 0x70636f6c;

}  // namespace

int check_request(CallScope& s, const Comm* c, const Call& call) {
    if (call.form == Form::Blocking) return MPI_SUCCESS;
    if (int e = checks::pointer(s, c, call.request, "request")) return e;
    if (call.form != Form::PersistentInit || call.info == MPI_INFO_NULL) return MPI_SUCCESS;
    // Info objects are the real library's (as for MPI_Comm_dup_with_info).
    int keys = 0;
    if (real_mpi.Info_get_nkeys(call.info, &keys) != MPI_SUCCESS)
        return s.fail(c, MPI_ERR_INFO, "invalid info object");
    return MPI_SUCCESS;
}

Definition::~Definition() {
    delete running_;
    unref(own_);
}

const std::string& Definition::error() const { return running_ ? running_->error() : no_error_; }

void Definition::start(Engine& engine, Rank& me, Request* request) {
    // The previous start's call completed (the request is inactive): its frames are gone.
    delete running_;
    running_ = nullptr;
    running_ = begin(engine, me, request);
}

colls::CollectiveCall* EmptyDefinition::begin(Engine&, Rank& me, Request* request) {
    colls::start_empty_again(me, request);
    return nullptr;
}

Comm* own_comm(Rank& me, const Comm& comm) { return private_copy(me, comm, kPersistentDerivation); }

MPI_Request persistent_request(CallScope& s, const Comm& comm, colls::CollKind kind, int root,
                               Definition* definition) {
    Request* r = s.engine.new_request();
    r->kind = RequestKind::Collective;
    r->owner = &s.rank;
    s.engine.attach_comm(r, comm);  // MPI_Comm_free may come before MPI_Request_free
    r->persistent = true;
    r->active = false;
    r->posted_at = s.rank.clock;
    // As a nonblocking collective's: what a deadlock report shows for a rank waiting on it.
    r->peer = MPI_PROC_NULL;
    r->tag = static_cast<int>(colls::collective_signature(kind, root, true));
    r->nonblocking_collective = true;
    r->context = comm.collective_context();
    r->collective = definition;
    return request_handle(r);
}

}  // namespace xsim::pcoll
