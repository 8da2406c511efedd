// MPI completion bindings: wait, test and their all/any/some forms, request freeing and
// cancellation. Tests that find nothing cost the rank a modeled poll, so polling loops
// advance virtual time and make progress.
#include <mpi.h>

#include <string>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/generalized_requests.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/requests.hpp"
#include "libxsim/p2p/completion.hpp"
#include "libxsim/p2p/p2p.hpp"

using namespace xsim;

namespace {

// Request pointers for a call over n handles, on the stack for the usual small n.
class RequestList {
public:
    explicit RequestList(int n) {
        if (n > kInline) heap_.resize(static_cast<std::size_t>(n));
        data_ = n > kInline ? heap_.data() : inline_;
    }
    Request** data() { return data_; }
    Request*& operator[](int i) { return data_[i]; }

private:
    static constexpr int kInline = 32;
    Request* inline_[kInline];
    std::vector<Request*> heap_;
    Request** data_;
};

MPI_Status* status_at(MPI_Status* statuses, int i) {
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// Retires every listed complete request; MPI_ERR_IN_STATUS when one failed.
int retire_listed(CallScope& s, int n, MPI_Request* handles, RequestList& reqs, MPI_Status* statuses) {
    int failures = 0;
    std::string first;
    for (int i = 0; i < n; ++i) {
        if (!reqs[i]) {
            requests::empty_status(status_at(statuses, i));  // null or inactive persistent request
            continue;
        }
        std::string why;
        const int error = requests::retire(s, &handles[i], status_at(statuses, i), &why);
        requests::set_error(status_at(statuses, i), error);  // a call of several statuses: each says
        if (error != MPI_SUCCESS && failures++ == 0) first = "request " + std::to_string(i) + ": " + why;
    }
    return failures ? s.fail(nullptr, MPI_ERR_IN_STATUS, "a completed request failed (see its status); " + first)
                    : MPI_SUCCESS;
}

int wait_one(CallScope& s, MPI_Request* handle, MPI_Status* status) {
    if (int e = checks::pointer(s, nullptr, handle, "request")) return e;
    RequestList reqs(1);
    if (int e = requests::resolve_all(s, 1, handle, reqs.data())) return e;
    if (!reqs[0]) {
        requests::empty_status(status);
        return MPI_SUCCESS;
    }
    completion::wait_all(s.engine, s.rank, reqs.data(), 1);
    const Comm* c = reqs[0]->comm;
    std::string why;
    const int error = requests::retire(s, handle, status, &why);
    return error == MPI_SUCCESS ? MPI_SUCCESS : s.fail(c, error, why);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Wait)
int PMPI_Wait(MPI_Request* request, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Wait");
    return wait_one(scope, request, status);
}

XSIM_MPI_ALIAS(Waitall)
int PMPI_Waitall(int n, MPI_Request handles[], MPI_Status statuses[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Waitall");
    RequestList reqs(n);
    if (int e = requests::resolve_all(scope, n, handles, reqs.data())) return e;
    completion::wait_all(scope.engine, scope.rank, reqs.data(), n);
    return retire_listed(scope, n, handles, reqs, statuses);
}

XSIM_MPI_ALIAS(Waitany)
int PMPI_Waitany(int n, MPI_Request handles[], int* index, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Waitany");
    if (int e = checks::pointer(scope, nullptr, index, "index")) return e;
    RequestList reqs(n);
    if (int e = requests::resolve_all(scope, n, handles, reqs.data())) return e;
    const int i = completion::wait_any(scope.engine, scope.rank, reqs.data(), n);
    *index = i < 0 ? MPI_UNDEFINED : i;
    if (i < 0) {
        requests::empty_status(status);
        return MPI_SUCCESS;
    }
    const Comm* c = reqs[i]->comm;
    std::string why;
    const int error = requests::retire(scope, &handles[i], status, &why);
    return error == MPI_SUCCESS ? MPI_SUCCESS : scope.fail(c, error, why);
}

XSIM_MPI_ALIAS(Waitsome)
int PMPI_Waitsome(int n, MPI_Request handles[], int* outcount, int indices[], MPI_Status statuses[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Waitsome");
    if (int e = checks::pointer(scope, nullptr, outcount, "outcount")) return e;
    RequestList reqs(n);
    if (int e = requests::resolve_all(scope, n, handles, reqs.data())) return e;
    if (completion::wait_any(scope.engine, scope.rank, reqs.data(), n) < 0) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    int done = 0, failures = 0;
    for (int i = 0; i < n; ++i) {
        if (!reqs[i] || !completion::complete(scope.rank, reqs[i])) continue;
        indices[done] = i;
        const int error = requests::retire(scope, &handles[i], status_at(statuses, done));
        requests::set_error(status_at(statuses, done), error);
        if (error != MPI_SUCCESS) ++failures;
        ++done;
    }
    *outcount = done;
    return failures ? scope.fail(nullptr, MPI_ERR_IN_STATUS, "a completed request failed (see its status)") : MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Test)
int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Test");
    if (int e = checks::pointer(scope, nullptr, flag, "flag")) return e;
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    RequestList reqs(1);
    if (int e = requests::resolve_all(scope, 1, request, reqs.data())) return e;
    if (!reqs[0]) {
        *flag = 1;
        requests::empty_status(status);
        return MPI_SUCCESS;
    }
    scope.engine.catch_up(scope.rank);
    *flag = completion::complete(scope.rank, reqs[0]) ? 1 : 0;
    if (!*flag) {
        charge_poll(scope);
        return MPI_SUCCESS;
    }
    const Comm* c = reqs[0]->comm;
    std::string why;
    const int error = requests::retire(scope, request, status, &why);
    return error == MPI_SUCCESS ? MPI_SUCCESS : scope.fail(c, error, why);
}

XSIM_MPI_ALIAS(Testall)
int PMPI_Testall(int n, MPI_Request handles[], int* flag, MPI_Status statuses[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Testall");
    if (int e = checks::pointer(scope, nullptr, flag, "flag")) return e;
    RequestList reqs(n);
    if (int e = requests::resolve_all(scope, n, handles, reqs.data())) return e;
    scope.engine.catch_up(scope.rank);
    for (int i = 0; i < n; ++i) {
        if (reqs[i] && !completion::complete(scope.rank, reqs[i])) {
            *flag = 0;
            charge_poll(scope);
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return retire_listed(scope, n, handles, reqs, statuses);
}

XSIM_MPI_ALIAS(Testany)
int PMPI_Testany(int n, MPI_Request handles[], int* index, int* flag, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Testany");
    if (int e = checks::pointer(scope, nullptr, flag, "flag")) return e;
    if (int e = checks::pointer(scope, nullptr, index, "index")) return e;
    RequestList reqs(n);
    if (int e = requests::resolve_all(scope, n, handles, reqs.data())) return e;
    scope.engine.catch_up(scope.rank);
    bool any_active = false;
    for (int i = 0; i < n; ++i) {
        if (!reqs[i]) continue;
        any_active = true;
        if (!completion::complete(scope.rank, reqs[i])) continue;
        *flag = 1;
        *index = i;
        const Comm* c = reqs[i]->comm;
        std::string why;
        const int error = requests::retire(scope, &handles[i], status, &why);
        return error == MPI_SUCCESS ? MPI_SUCCESS : scope.fail(c, error, why);
    }
    *index = MPI_UNDEFINED;
    *flag = any_active ? 0 : 1;
    if (any_active) charge_poll(scope);
    else requests::empty_status(status);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Testsome)
int PMPI_Testsome(int n, MPI_Request handles[], int* outcount, int indices[], MPI_Status statuses[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Testsome");
    if (int e = checks::pointer(scope, nullptr, outcount, "outcount")) return e;
    RequestList reqs(n);
    if (int e = requests::resolve_all(scope, n, handles, reqs.data())) return e;
    scope.engine.catch_up(scope.rank);
    bool any_active = false;
    int done = 0, failures = 0;
    for (int i = 0; i < n; ++i) {
        if (!reqs[i]) continue;
        any_active = true;
        if (!completion::complete(scope.rank, reqs[i])) continue;
        indices[done] = i;
        const int error = requests::retire(scope, &handles[i], status_at(statuses, done));
        requests::set_error(status_at(statuses, done), error);
        if (error != MPI_SUCCESS) ++failures;
        ++done;
    }
    if (!any_active) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    *outcount = done;
    if (done == 0) charge_poll(scope);
    return failures ? scope.fail(nullptr, MPI_ERR_IN_STATUS, "a completed request failed (see its status)") : MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Request_get_status)
int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
    XSIM_BEGIN_INITIALIZED("MPI_Request_get_status");
    if (int e = checks::pointer(scope, nullptr, flag, "flag")) return e;
    RequestList reqs(1);
    if (int e = requests::resolve_all(scope, 1, &request, reqs.data())) return e;
    if (!reqs[0]) {
        *flag = 1;
        requests::empty_status(status);
        return MPI_SUCCESS;
    }
    scope.engine.catch_up(scope.rank);
    *flag = completion::complete(scope.rank, reqs[0]) ? 1 : 0;
    if (!*flag) {
        charge_poll(scope);
        return MPI_SUCCESS;
    }
    if (grequest::is_generalized(reqs[0])) {  // the status is query_fn's; nothing is freed
        const int rc = grequest::query(reqs[0], status);
        return rc == MPI_SUCCESS ? MPI_SUCCESS : scope.fail(nullptr, rc, "generalized request: " + requests::failure(reqs[0]));
    }
    requests::fill_status(status, reqs[0]);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Request_free)
int PMPI_Request_free(MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Request_free");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    Request* r = resolve_request(*request);
    if (!r || r->owner != &scope.rank) return scope.fail(nullptr, MPI_ERR_REQUEST, "invalid request handle");
    // Freeing the request of a collective in progress is erroneous (MPI-4.0 section 6.12);
    // an active persistent collective's is refused, as Open MPI does, and stays usable.
    if (r->kind == RequestKind::Collective && r->persistent && r->active)
        return scope.fail(r->comm, MPI_ERR_REQUEST,
                          "the persistent collective request is active: complete it (MPI_Wait, MPI_Test) before "
                          "MPI_Request_free");
    *request = MPI_REQUEST_NULL;
    // A complete generalized request's free_fn runs now (else at MPI_Grequest_complete).
    if (grequest::is_generalized(r) && r->known) {
        const int rc = grequest::release(r);
        const std::string why = rc == MPI_SUCCESS ? std::string() : requests::failure(r);
        scope.engine.free_request(r);
        return rc == MPI_SUCCESS ? MPI_SUCCESS : scope.fail(nullptr, rc, "generalized request: " + why);
    }
    // Nothing refers to a decided or an inactive persistent request any more; an
    // undecided one is released when its completion is decided.
    if (r->known || (r->persistent && !r->active)) scope.engine.free_request(r);
    else r->freed = true;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Cancel)
int PMPI_Cancel(MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Cancel");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    Request* r = resolve_request(*request);
    if (!r || r->owner != &scope.rank) return scope.fail(nullptr, MPI_ERR_REQUEST, "invalid request handle");
    if (grequest::is_generalized(r)) {  // cancel_fn decides; its error is the call's
        const int rc = grequest::cancel(r);
        return rc == MPI_SUCCESS ? MPI_SUCCESS
                                 : scope.fail(nullptr, rc, "the generalized request's cancel_fn returned error " +
                                                               std::to_string(rc));
    }
    if (r->kind == RequestKind::Collective)  // MPI-3.1 5.12: erroneous for nonblocking collectives
        return scope.fail(r->comm, MPI_ERR_REQUEST, "a nonblocking collective's request cannot be cancelled");
    scope.engine.catch_up(scope.rank);  // messages that arrived by now may match it first
    // A receive that has not matched is withdrawn; sends are never cancelled (the standard
    // allows a cancel to fail: the send then completes normally).
    if (r->kind == RequestKind::Recv && p2p::cancel_recv(scope.rank, r)) {
        r->cancelled = true;
        r->known = true;
        r->done_time = scope.rank.clock;
        r->status_bytes = 0;
    }
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Test_cancelled)
int PMPI_Test_cancelled(const MPI_Status* status, int* flag) {
    XSIM_BEGIN_INITIALIZED("MPI_Test_cancelled");
    if (int e = checks::pointer(scope, nullptr, status, "status")) return e;
    if (int e = checks::pointer(scope, nullptr, flag, "flag")) return e;
    *flag = status->_cancelled ? 1 : 0;
    return MPI_SUCCESS;
}

}  // extern "C"
