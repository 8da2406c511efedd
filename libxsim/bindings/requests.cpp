#include "libxsim/bindings/requests.hpp"

#include <string>

#include "libxsim/bindings/generalized_requests.hpp"
#include "libxsim/colls/collective_call.hpp"

namespace xsim::requests {

void fill_status(MPI_Status* status, const Request* r) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = r->kind == RequestKind::Recv ? r->status_source : MPI_ANY_SOURCE;
    status->MPI_TAG = r->kind == RequestKind::Recv ? r->status_tag : MPI_ANY_TAG;
    status->_cancelled = r->cancelled ? 1 : 0;
    status->_ucount = r->kind == RequestKind::Recv ? r->status_bytes : 0;
}

void set_error(MPI_Status* status, int error) {
    if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = error;
}

void empty_status(MPI_Status* status) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    status->_cancelled = 0;
    status->_ucount = 0;
}

std::string failure(const Request* r) {
    if (r->collective) return r->collective->error();
    return "message longer than the receive buffer (truncated)";
}

int retire(CallScope& s, MPI_Request* handle, MPI_Status* status, std::string* why) {
    Request* r = resolve_request(*handle);
    if (grequest::is_generalized(r)) {
        int error = grequest::query(r, status);
        const int freed = grequest::release(r);  // after query_fn (MPI-4.0 section 13.2)
        if (error == MPI_SUCCESS) error = freed;
        if (status != MPI_STATUS_IGNORE) status->MPI_ERROR = error;
        if (why && error != MPI_SUCCESS) *why = "generalized request: " + failure(r);
        s.engine.free_request(r);
        *handle = MPI_REQUEST_NULL;
        return error;
    }
    if (EventObserver* observer = s.engine.observer()) [[unlikely]]
        observer->on_complete(s.rank, *r);
    fill_status(status, r);
    const int error = r->status_error;
    if (why && error != MPI_SUCCESS) *why = failure(r);
    if (r->persistent) {
        r->active = false;
    } else {
        s.engine.free_request(r);
        *handle = MPI_REQUEST_NULL;
    }
    return error;
}

int resolve_all(CallScope& s, int n, const MPI_Request* handles, Request** reqs) {
    if (n < 0) return s.fail(nullptr, MPI_ERR_COUNT, "negative request count " + std::to_string(n));
    if (n > 0 && !handles) return s.fail(nullptr, MPI_ERR_REQUEST, "null array of requests");
    for (int i = 0; i < n; ++i) {
        reqs[i] = nullptr;
        if (handles[i] == MPI_REQUEST_NULL) continue;
        Request* r = resolve_request(handles[i]);
        if (!r || r->owner != &s.rank)
            return s.fail(nullptr, MPI_ERR_REQUEST, "invalid request handle at index " + std::to_string(i));
        if (r->persistent && !r->active) continue;
        reqs[i] = r;
    }
    return MPI_SUCCESS;
}

}  // namespace xsim::requests
