// One-sided communication's operations (MPI_Put, _Get, _Accumulate, _Get_accumulate,
// _Fetch_and_op, _Compare_and_swap) and epochs (fence, lock, flush, post/start/complete/wait):
// checked here, carried out by libxsim/rma/. Windows themselves: windows.cpp.
#include <mpi.h>

#include <string>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/window_checks.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/rma/memory.hpp"
#include "libxsim/rma/operations.hpp"
#include "libxsim/rma/synchronization.hpp"

using namespace xsim;
using rma::Window;
using rma::Operation;
using rma::OperationKind;

namespace {

constexpr int kKnownAsserts = MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE | MPI_MODE_NOSUCCEED;

// Checks an operation and starts it (nothing for MPI_PROC_NULL). `request`: the
// request-based forms (MPI_Rput...), which need a passive target epoch.
int issue(CallScope& s, MPI_Win win, Operation op, MPI_Request* request = nullptr) {
    Window* w = nullptr;
    if (int e = window_checks::window(s, win, &w)) return e;
    if (request && !w->locked_all && !w->locks.count(op.target) && op.target != MPI_PROC_NULL)
        return window_checks::fail(s, w, MPI_ERR_RMA_SYNC,
                                   std::string(s.call) + " needs a passive target epoch (MPI_Win_lock or MPI_Win_lock_all)");
    if (int e = window_checks::target(s, w, op.target)) return e;
    const bool sends = op.kind != OperationKind::Get && !(op.kind == OperationKind::GetAccumulate && op.op == MPI_NO_OP);
    if (sends)
        if (int e = window_checks::data(s, w, op.origin_count, op.origin_type, "origin")) return e;
    if (op.kind != OperationKind::Put && op.kind != OperationKind::Accumulate)
        if (int e = window_checks::data(s, w, op.result_count, op.result_type, "result")) return e;
    if (int e = window_checks::data(s, w, op.target_count, op.target_type, "target")) return e;
    if (op.target == MPI_PROC_NULL) {
        if (request) *request = request_handle(p2p::null_peer_request(s.engine, s.rank, RequestKind::Send));
        return MPI_SUCCESS;
    }
    if (op.disp < 0 && w->flavor != rma::Flavor::Dynamic)
        return window_checks::fail(s, w, MPI_ERR_DISP, "negative target displacement " + std::to_string(op.disp));
    if (!rma::in_access_epoch(*w, op.target))
        return window_checks::fail(s, w, MPI_ERR_RMA_SYNC,
                                   "no access epoch to target rank " + std::to_string(op.target) +
                                       " is open (MPI_Win_fence, MPI_Win_lock, MPI_Win_lock_all or MPI_Win_start first)");
    int error = MPI_SUCCESS;
    std::string why;
    Request* user = nullptr;
    Request* r = rma::start(s.engine, s.rank, *w, op, &error, &why, request ? &user : nullptr);
    if (!r) return window_checks::fail(s, w, error, why);
    w->pending.push_back(rma::pending_of(s.call, op, r, request != nullptr));
    if (request) *request = request_handle(user);
    return MPI_SUCCESS;
}

// A fence opens an access and exposure epoch only if RMA calls follow it (MPI-4.0 section
// 12.5.1): one with no operation issued since may be followed by a lock or by general
// active target, which end it.
void end_unused_fence_epoch(Window* w) {
    if (w->fence_epoch && w->pending.empty()) w->fence_epoch = false;
}

// The types MPI_Compare_and_swap takes (MPI-4.0 section 12.3.4): C and Fortran integers,
// logicals, the multi-language types (MPI_AINT, MPI_OFFSET, MPI_COUNT) and MPI_BYTE; also
// MPI_CHAR, which MPICH accepts too. Not floating point, complex or derived types.
bool compare_and_swap_type(MPI_Datatype type) {
    const MPI_Datatype allowed[] = {
        MPI_INT, MPI_LONG, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_LONG_LONG,
        MPI_UNSIGNED_LONG_LONG, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_CHAR, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T,
        MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2,
        MPI_INTEGER4, MPI_INTEGER8, MPI_LOGICAL, MPI_C_BOOL, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_BYTE};
    for (MPI_Datatype t : allowed)
        if (type == t && t != MPI_DATATYPE_NULL) return true;
    return false;
}

int assert_arg(CallScope& s, Window* w, int assertion) {
    if ((assertion & ~kKnownAsserts) == 0) return MPI_SUCCESS;
    return window_checks::fail(s, w, MPI_ERR_ASSERT, "unknown assertion bits " + std::to_string(assertion));
}

// The world ranks of `group`'s members, which must all belong to the window's group.
int members(CallScope& s, Window* w, MPI_Group handle, std::vector<int>* out) {
    Group* g = resolve_group(handle);
    if (!g) return window_checks::fail(s, w, MPI_ERR_GROUP, "invalid group");
    for (int i = 0; i < g->size; ++i) {
        const int world = g->world_of(i);
        if (w->comm->group->rank_of_world(world) == MPI_UNDEFINED)
            return window_checks::fail(s, w, MPI_ERR_GROUP,
                                       "simulated rank " + std::to_string(world) + " is not in the window's group");
        out->push_back(world);
    }
    return MPI_SUCCESS;
}

Operation put(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
              int target_count, MPI_Datatype target_type) {
    Operation op;
    op.kind = OperationKind::Put;
    op.origin = origin;
    op.origin_count = origin_count;
    op.origin_type = origin_type;
    op.target = target;
    op.disp = disp;
    op.target_count = target_count;
    op.target_type = target_type;
    return op;
}

Operation get(void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp, int target_count,
              MPI_Datatype target_type) {
    Operation op;
    op.kind = OperationKind::Get;
    op.result = origin;
    op.result_count = origin_count;
    op.result_type = origin_type;
    op.target = target;
    op.disp = disp;
    op.target_count = target_count;
    op.target_type = target_type;
    return op;
}

Operation accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                     int target_count, MPI_Datatype target_type, MPI_Op o) {
    Operation op = put(origin, origin_count, origin_type, target, disp, target_count, target_type);
    op.kind = OperationKind::Accumulate;
    op.op = o;
    return op;
}

Operation get_accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, void* result,
                         int result_count, MPI_Datatype result_type, int target, MPI_Aint disp, int target_count,
                         MPI_Datatype target_type, MPI_Op o) {
    Operation op = accumulate(origin, origin_count, origin_type, target, disp, target_count, target_type, o);
    op.kind = OperationKind::GetAccumulate;
    op.result = result;
    op.result_count = result_count;
    op.result_type = result_type;
    return op;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Put)
int PMPI_Put(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
             int target_count, MPI_Datatype target_type, MPI_Win win) {
    XSIM_BEGIN_INITIALIZED("MPI_Put");
    return issue(scope, win, put(origin, origin_count, origin_type, target, disp, target_count, target_type));
}

XSIM_MPI_ALIAS(Get)
int PMPI_Get(void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp, int target_count,
             MPI_Datatype target_type, MPI_Win win) {
    XSIM_BEGIN_INITIALIZED("MPI_Get");
    return issue(scope, win, get(origin, origin_count, origin_type, target, disp, target_count, target_type));
}

XSIM_MPI_ALIAS(Accumulate)
int PMPI_Accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                    int target_count, MPI_Datatype target_type, MPI_Op o, MPI_Win win) {
    XSIM_BEGIN_INITIALIZED("MPI_Accumulate");
    return issue(scope, win, accumulate(origin, origin_count, origin_type, target, disp, target_count, target_type, o));
}

XSIM_MPI_ALIAS(Get_accumulate)
int PMPI_Get_accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, void* result,
                        int result_count, MPI_Datatype result_type, int target, MPI_Aint disp, int target_count,
                        MPI_Datatype target_type, MPI_Op o, MPI_Win win) {
    XSIM_BEGIN_INITIALIZED("MPI_Get_accumulate");
    return issue(scope, win,
                 get_accumulate(origin, origin_count, origin_type, result, result_count, result_type, target, disp,
                                target_count, target_type, o));
}

XSIM_MPI_ALIAS(Rput)
int PMPI_Rput(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
              int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Rput");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    return issue(scope, win, put(origin, origin_count, origin_type, target, disp, target_count, target_type), request);
}

XSIM_MPI_ALIAS(Rget)
int PMPI_Rget(void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp, int target_count,
              MPI_Datatype target_type, MPI_Win win, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Rget");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    return issue(scope, win, get(origin, origin_count, origin_type, target, disp, target_count, target_type), request);
}

XSIM_MPI_ALIAS(Raccumulate)
int PMPI_Raccumulate(const void* origin, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                     int target_count, MPI_Datatype target_type, MPI_Op o, MPI_Win win, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Raccumulate");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    return issue(scope, win, accumulate(origin, origin_count, origin_type, target, disp, target_count, target_type, o),
                 request);
}

XSIM_MPI_ALIAS(Rget_accumulate)
int PMPI_Rget_accumulate(const void* origin, int origin_count, MPI_Datatype origin_type, void* result,
                         int result_count, MPI_Datatype result_type, int target, MPI_Aint disp, int target_count,
                         MPI_Datatype target_type, MPI_Op o, MPI_Win win, MPI_Request* request) {
    XSIM_BEGIN_INITIALIZED("MPI_Rget_accumulate");
    if (int e = checks::pointer(scope, nullptr, request, "request")) return e;
    return issue(scope, win,
                 get_accumulate(origin, origin_count, origin_type, result, result_count, result_type, target, disp,
                                target_count, target_type, o),
                 request);
}

XSIM_MPI_ALIAS(Fetch_and_op)
int PMPI_Fetch_and_op(const void* origin, void* result, MPI_Datatype type, int target, MPI_Aint disp, MPI_Op o,
                      MPI_Win win) {
    XSIM_BEGIN_INITIALIZED("MPI_Fetch_and_op");
    return issue(scope, win, get_accumulate(origin, 1, type, result, 1, type, target, disp, 1, type, o));
}

XSIM_MPI_ALIAS(Compare_and_swap)
int PMPI_Compare_and_swap(const void* origin, const void* compare, void* result, MPI_Datatype type, int target,
                          MPI_Aint disp, MPI_Win win) {
    XSIM_BEGIN_INITIALIZED("MPI_Compare_and_swap");
    if (!compare_and_swap_type(type) && type != MPI_DATATYPE_NULL) {
        Window* w = nullptr;
        if (int e = window_checks::window(scope, win, &w)) return e;
        return window_checks::fail(scope, w, MPI_ERR_TYPE,
                                   "MPI_Compare_and_swap takes an integer, logical, multi-language or byte type; "
                                   "not floating point, complex or derived types");
    }
    Operation op = get_accumulate(origin, 1, type, result, 1, type, target, disp, 1, type, MPI_REPLACE);
    op.kind = OperationKind::CompareAndSwap;
    op.compare = compare;
    return issue(scope, win, op);
}

XSIM_MPI_ALIAS(Win_fence)
int PMPI_Win_fence(int assertion, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_fence");
    if (int e = assert_arg(scope, w, assertion)) return e;
    if (!w->locks.empty() || w->locked_all || w->access_epoch_started || w->exposure_epoch_started)
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "a lock or a general active target epoch is open");
    rma::observe_collective_begin(scope.engine, scope.rank);
    rma::complete_operations(scope.engine, scope.rank, *w, -1);
    std::string why;
    if (int e = rma::window_barrier(scope.engine, scope.rank, *w, &why)) return window_checks::fail(scope, w, e, why);
    rma::observe_collective_end(scope.engine, scope.rank, *w, EventObserver::RmaCollective::Fence);
    w->fence_epoch = (assertion & MPI_MODE_NOSUCCEED) == 0;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_lock)
int PMPI_Win_lock(int lock_type, int target, int assertion, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_lock");
    if (int e = assert_arg(scope, w, assertion)) return e;
    if (int e = window_checks::target(scope, w, target)) return e;
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return window_checks::fail(scope, w, MPI_ERR_LOCKTYPE, "lock type " + std::to_string(lock_type));
    if (target == MPI_PROC_NULL) return MPI_SUCCESS;
    end_unused_fence_epoch(w);
    if (w->locks.count(target) || w->locked_all || w->fence_epoch || w->access_epoch_started)
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC,
                                   "an access epoch to target rank " + std::to_string(target) + " is already open");
    rma::lock(scope.engine, scope.rank, *w, target, lock_type == MPI_LOCK_EXCLUSIVE, (assertion & MPI_MODE_NOCHECK) == 0);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_unlock)
int PMPI_Win_unlock(int target, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_unlock");
    if (int e = window_checks::target(scope, w, target)) return e;
    if (target == MPI_PROC_NULL) return MPI_SUCCESS;
    if (!w->locks.count(target))
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "target rank " + std::to_string(target) + " is not locked");
    rma::unlock(scope.engine, scope.rank, *w, target);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_lock_all)
int PMPI_Win_lock_all(int assertion, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_lock_all");
    if (int e = assert_arg(scope, w, assertion)) return e;
    end_unused_fence_epoch(w);
    if (!w->locks.empty() || w->locked_all || w->fence_epoch || w->access_epoch_started)
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "an access epoch is already open");
    rma::lock_all(scope.engine, scope.rank, *w, (assertion & MPI_MODE_NOCHECK) == 0);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_unlock_all)
int PMPI_Win_unlock_all(MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_unlock_all");
    if (!w->locked_all) return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "MPI_Win_lock_all was not called");
    rma::unlock_all(scope.engine, scope.rank, *w);
    return MPI_SUCCESS;
}

}  // extern "C"

namespace {

// Flushes: every operation of this rank (to one target, or all) completes at the target, which
// also completes it locally (MPI_Win_flush_local*). Not in the extern "C" block: libxsim would
// export it as the C name `flush`.
int flush(CallScope& scope, Window* w, int target) {
    if (target != -1)
        if (int e = window_checks::target(scope, w, target)) return e;
    if (target == MPI_PROC_NULL) return MPI_SUCCESS;
    if (!w->locked_all && (target == -1 ? w->locks.empty() : !w->locks.count(target)))
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "flushes need a passive target epoch (a lock)");
    rma::complete_operations(scope.engine, scope.rank, *w, target);
    return MPI_SUCCESS;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Win_flush)
int PMPI_Win_flush(int target, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_flush");
    return flush(scope, w, target);
}
XSIM_MPI_ALIAS(Win_flush_local)
int PMPI_Win_flush_local(int target, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_flush_local");
    return flush(scope, w, target);
}
XSIM_MPI_ALIAS(Win_flush_all)
int PMPI_Win_flush_all(MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_flush_all");
    return flush(scope, w, -1);
}
XSIM_MPI_ALIAS(Win_flush_local_all)
int PMPI_Win_flush_local_all(MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_flush_local_all");
    return flush(scope, w, -1);
}

XSIM_MPI_ALIAS(Win_sync)
int PMPI_Win_sync(MPI_Win win) {
    // One copy of the window's memory (MPI_WIN_UNIFIED), so nothing to copy; but what other
    // ranks' operations wrote up to this rank's time must be there. It is how a rank polls its
    // window (Win_sync and a load in a loop: OpenCoarrays' EVENT WAIT), so it costs a poll
    // (processor.poll_cost, as an unsuccessful MPI_Test: the loop advances virtual time) and
    // lets earlier events be processed first; else the poller would spin with the writers
    // never run.
    XSIM_WINDOW_CALL("MPI_Win_sync");
    charge_poll(scope);
    scope.engine.catch_up(scope.rank);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_post)
int PMPI_Win_post(MPI_Group group, int assertion, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_post");
    if (int e = assert_arg(scope, w, assertion)) return e;
    end_unused_fence_epoch(w);
    if (w->exposure_epoch_started || w->fence_epoch)
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "an exposure epoch is already open");
    std::vector<int> origins;
    if (int e = members(scope, w, group, &origins)) return e;
    // MPI_MODE_NOCHECK: the matching starts do not wait for this post (the program says so).
    rma::post(scope.engine, scope.rank, *w, std::move(origins), (assertion & MPI_MODE_NOCHECK) == 0);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_start)
int PMPI_Win_start(MPI_Group group, int assertion, MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_start");
    if (int e = assert_arg(scope, w, assertion)) return e;
    end_unused_fence_epoch(w);
    if (w->access_epoch_started || w->fence_epoch || w->locked_all || !w->locks.empty())
        return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "an access epoch is already open");
    std::vector<int> targets;
    if (int e = members(scope, w, group, &targets)) return e;
    // MPI_MODE_NOCHECK: the matching posts have completed already (the program says so).
    rma::start(scope.engine, scope.rank, *w, std::move(targets), (assertion & MPI_MODE_NOCHECK) == 0);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_complete)
int PMPI_Win_complete(MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_complete");
    if (!w->access_epoch_started) return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "MPI_Win_start was not called");
    rma::complete(scope.engine, scope.rank, *w);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_wait)
int PMPI_Win_wait(MPI_Win win) {
    XSIM_WINDOW_CALL("MPI_Win_wait");
    if (!w->exposure_epoch_started) return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "MPI_Win_post was not called");
    rma::wait(scope.engine, scope.rank, *w);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Win_test)
int PMPI_Win_test(MPI_Win win, int* flag) {
    XSIM_WINDOW_CALL("MPI_Win_test");
    if (!flag) return window_checks::fail(scope, w, MPI_ERR_ARG, "null flag");
    if (!w->exposure_epoch_started) return window_checks::fail(scope, w, MPI_ERR_RMA_SYNC, "MPI_Win_post was not called");
    *flag = rma::test(scope.engine, scope.rank, *w) ? 1 : 0;
    return MPI_SUCCESS;
}

}  // extern "C"
