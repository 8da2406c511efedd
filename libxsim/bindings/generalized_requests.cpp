#include "libxsim/bindings/generalized_requests.hpp"

#include <string>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/p2p/completion.hpp"

using namespace xsim;

namespace xsim::grequest {
namespace {

// The callbacks of one generalized request, owned by it (Request::collective).
class Callbacks final : public CompletionTarget {
public:
    Callbacks(Rank& owner, MPI_Grequest_query_function* query, MPI_Grequest_free_function* free,
              MPI_Grequest_cancel_function* cancel, void* extra)
        : owner_(owner), query_(query), free_(free), cancel_(cancel), extra_(extra) {}
    void child_decided(Engine&, Request*) override {}  // it has no messages
    const void* resume_hint() const override { return nullptr; }
    const std::string& error() const override { return error_; }

    int query(MPI_Status* status) {
        MPI_Status scratch{};
        if (status == MPI_STATUS_IGNORE) status = &scratch;
        const int rc = call([&] { return query_ ? query_(extra_, status) : MPI_SUCCESS; });
        if (rc != MPI_SUCCESS) error_ = "its query_fn returned error " + std::to_string(rc);
        return rc;
    }
    int release() {
        if (released_) return MPI_SUCCESS;
        released_ = true;
        const int rc = call([&] { return free_ ? free_(extra_) : MPI_SUCCESS; });
        if (rc != MPI_SUCCESS && error_.empty()) error_ = "its free_fn returned error " + std::to_string(rc);
        return rc;
    }
    int cancel(bool complete) {
        return call([&] { return cancel_ ? cancel_(extra_, complete ? 1 : 0) : MPI_SUCCESS; });
    }

private:
    // The callbacks are application code: they run on their rank's globals (as error
    // handlers do, errors.cpp).
    template <class F>
    int call(F&& f) {
        Engine& engine = *g_engine;
        runtime::Privatization::ForRank owner(engine.privatization(), engine.local_index(owner_),
                                              engine.current() != nullptr);
        engine.privatization().load_for_callback();
        return f();
    }

    Rank& owner_;
    MPI_Grequest_query_function* query_;
    MPI_Grequest_free_function* free_;
    MPI_Grequest_cancel_function* cancel_;
    void* extra_;
    bool released_ = false;
    std::string error_;
};

Callbacks& callbacks_of(Request* r) { return *static_cast<Callbacks*>(r->collective); }

}  // namespace

Request* start_pending(Engine& engine, Rank& owner, MPI_Grequest_query_function* query,
                       MPI_Grequest_free_function* free, void* extra) {
    Request* r = engine.new_request();
    r->kind = RequestKind::Generalized;
    r->owner = &owner;
    r->posted_at = owner.clock;
    r->peer = MPI_PROC_NULL;
    r->collective = new Callbacks(owner, query, free, nullptr, extra);
    return r;
}

Request* start_completed(Engine& engine, Rank& owner, SimTime done, MPI_Grequest_query_function* query,
                         MPI_Grequest_free_function* free, void* extra) {
    Request* r = start_pending(engine, owner, query, free, extra);
    complete_at(engine, r, done);
    return r;
}

int query(Request* r, MPI_Status* status) { return callbacks_of(r).query(status); }
int release(Request* r) { return callbacks_of(r).release(); }
int cancel(Request* r) { return callbacks_of(r).cancel(r->known); }

void complete_at(Engine& engine, Request* r, SimTime done) {
    r->known = true;
    r->done_time = done;
    if (r->freed) {  // MPI_Request_free'd meanwhile: nobody will ask for its status
        release(r);
        engine.free_request(r);
        return;
    }
    completion::decided(engine, r);
}

}  // namespace xsim::grequest

extern "C" {

XSIM_MPI_ALIAS(Grequest_start)
int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                        MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Grequest_start");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    Request* r = scope.engine.new_request();
    r->kind = RequestKind::Generalized;
    r->owner = &scope.rank;
    r->posted_at = scope.rank.clock;
    r->peer = MPI_PROC_NULL;  // no peer: a deadlock report names the request instead
    r->collective = new grequest::Callbacks(scope.rank, query_fn, free_fn, cancel_fn, extra_state);
    *request = request_handle(r);
    return MPI_SUCCESS;
}

// Complete at the completing rank's clock. After MPI_Request_free, the request goes now,
// and free_fn's error is this call's.
XSIM_MPI_ALIAS(Grequest_complete)
int PMPI_Grequest_complete(MPI_Request request) {
    XSIM_BEGIN_INITIALIZED("MPI_Grequest_complete");
    Request* r = resolve_request(request);
    if (!r || r->owner != &scope.rank || !grequest::is_generalized(r))
        return scope.fail(nullptr, MPI_ERR_REQUEST, "not a generalized request of this rank (MPI_Grequest_start)");
    if (r->known) return scope.fail(nullptr, MPI_ERR_REQUEST, "the generalized request was already completed");
    r->known = true;
    r->done_time = scope.rank.clock;
    if (r->freed) {
        const int rc = grequest::release(r);
        const std::string why = r->collective->error();
        scope.engine.free_request(r);
        return rc == MPI_SUCCESS ? MPI_SUCCESS : scope.fail(nullptr, rc, "the freed generalized request's free_fn failed: " + why);
    }
    completion::decided(scope.engine, r);
    return MPI_SUCCESS;
}

}  // extern "C"
