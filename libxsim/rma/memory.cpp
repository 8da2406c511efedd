#include "libxsim/rma/memory.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/rma/registry.hpp"

namespace xsim::rma {
namespace {

void report(WindowRegistry& reg, const Rank& me, const Window& w, const Pending& p, bool writes) {
    bool& warned = writes ? reg.warned_writes : reg.warned_reads;
    if (warned) return;
    warned = true;
    const std::string window = w.name.empty() ? "a window" : "window '" + w.name + "'";
    std::fprintf(stderr,
                 "xsim: warning: simulated rank %d called MPI_Free_mem at virtual time %.9f s on memory that its "
                 "pending %s to rank %d of %s still %s; MPI forbids freeing a buffer of a one-sided operation "
                 "before the call that completes it (MPI_Win_fence, MPI_Win_flush*, MPI_Win_unlock*, "
                 "MPI_Win_complete). %s Further such frees in this process are not reported.\n",
                 me.world, simtime_to_seconds(me.clock), p.call, p.target, window.c_str(),
                 writes ? "writes (its result buffer)" : "reads (its origin buffer)",
                 writes ? "xsim completes operations in virtual time, so it keeps the memory until the fetched "
                          "data has arrived and frees it then."
                        : "xsim copied that data at the call, so the run is not affected.");
}

}  // namespace

Span span_of(const void* buf, int count, MPI_Datatype type) {
    TypeLayout layout;
    if (count <= 0 || !type_layout(type, &layout) || layout.size == 0) return {};
    const char* at = static_cast<const char*>(buf);
    if (layout.contiguous)
        return {at + layout.true_lb, at + layout.true_lb + static_cast<MPI_Aint>(layout.size) * count};
    MPI_Aint true_lb = 0, true_extent = 0;
    real_mpi.Type_get_true_extent(type, &true_lb, &true_extent);
    const MPI_Aint last = static_cast<MPI_Aint>(count - 1) * layout.extent;  // the last element's offset
    return {at + true_lb + std::min<MPI_Aint>(0, last), at + true_lb + std::max<MPI_Aint>(0, last) + true_extent};
}

Pending pending_of(const char* call, const Operation& op, Request* request, bool user_request) {
    Pending p;
    p.request = request;
    p.user_request = user_request;
    p.target = op.target;
    p.call = call;
    const bool sends = op.kind == OperationKind::Put || op.kind == OperationKind::Accumulate ||
                       op.kind == OperationKind::CompareAndSwap ||
                       (op.kind == OperationKind::GetAccumulate && op.op != MPI_NO_OP);
    if (sends) p.origin = span_of(op.origin, op.kind == OperationKind::CompareAndSwap ? 1 : op.origin_count, op.origin_type);
    if (op.kind == OperationKind::CompareAndSwap) p.compare = span_of(op.compare, 1, op.origin_type);
    if (op.kind != OperationKind::Put && op.kind != OperationKind::Accumulate)
        p.result = span_of(op.result, op.result_count, op.result_type);
    return p;
}

void note_allocation(Engine& engine, void* base, MPI_Aint size) {
    if (base && size > 0) registry(engine).allocations[static_cast<const char*>(base)] = size;
}

bool free_now(Engine& engine, Rank& me, void* base) {
    WindowRegistry& reg = registry(engine);
    const char* lo = static_cast<const char*>(base);
    const auto block = reg.allocations.find(lo);
    // A block MPI_Alloc_mem did not return here (or before the engine): its first byte.
    const char* hi = lo + (block == reg.allocations.end() ? 1 : block->second);
    if (block != reg.allocations.end()) reg.allocations.erase(block);
    const auto windows = reg.windows_of.find(me.world);
    if (windows == reg.windows_of.end()) return true;
    DeferredBlock deferred{base, {}};
    for (const Window* w : windows->second)
        for (const Pending& p : w->pending) {
            // Answered, a request-based operation may have been completed by the program's
            // MPI_Wait (its buffers free again): only an unanswered one is surely erroneous.
            if (p.user_request && p.request->known) continue;
            const bool writes = p.result.overlaps(lo, hi);
            if (!writes && !p.origin.overlaps(lo, hi) && !p.compare.overlaps(lo, hi)) continue;
            report(reg, me, *w, p, writes);
            if (writes && !p.request->known) deferred.writers.push_back(p.request);
        }
    if (deferred.writers.empty()) return true;
    reg.deferred.push_back(std::move(deferred));
    return false;
}

void operation_answered(Engine& engine, Request* request) {
    WindowRegistry& reg = registry(engine);
    for (std::size_t i = 0; i < reg.deferred.size();) {
        std::vector<Request*>& writers = reg.deferred[i].writers;
        writers.erase(std::remove(writers.begin(), writers.end(), request), writers.end());
        if (!writers.empty()) {
            ++i;
            continue;
        }
        real_mpi.Free_mem(reg.deferred[i].base);
        reg.deferred.erase(reg.deferred.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

}  // namespace xsim::rma
