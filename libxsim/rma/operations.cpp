#include "libxsim/rma/operations.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "libxsim/engine/comm_counts.hpp"
#include "libxsim/engine/payload.hpp"
#include "libxsim/engine/rank_buffer.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/p2p/completion.hpp"
#include "libxsim/rma/memory.hpp"
#include "libxsim/rma/target_layout.hpp"
#include "netmodels/nic_model.hpp"

namespace xsim::rma {
namespace {

using net::NicModel;

// What an Rma event is (Message::tag).
enum class EventKind : std::int32_t { Operation, Answer, Lock, Grant, Unlock };

// The head of an Operation event's payload; its blocks and data follow.
struct OperationHead {
    std::int64_t disp = 0;  // in the target's displacement units (an address: dynamic windows)
    std::int32_t kind = 0;  // OperationKind
    std::int32_t op = -1;   // predefined_op_index (accumulates)
    std::int32_t element = -1;  // predefined_type_index (accumulates, compare-and-swap)
    std::int32_t origin_rank = 0;  // in the window's group, for error messages
    std::uint64_t blocks = 0;
    std::uint64_t data_bytes = 0;    // the origin's data (compare-and-swap: then the compare value)
    std::uint64_t result_bytes = 0;  // what the answer brings back
};

const char* operation_call_name(OperationKind kind) {
    switch (kind) {
        case OperationKind::Put: return "MPI_Put";
        case OperationKind::Get: return "MPI_Get";
        case OperationKind::Accumulate: return "MPI_Accumulate";
        case OperationKind::GetAccumulate: return "MPI_Get_accumulate";
        case OperationKind::CompareAndSwap: return "MPI_Compare_and_swap";
    }
    return "an RMA operation";
}

std::uint64_t bytes_of(int count, MPI_Datatype type) {
    TypeLayout layout;
    return count > 0 && type_layout(type, &layout) ? static_cast<std::uint64_t>(count) * layout.size : 0;
}

Message* new_event(Engine& engine, Rank& from, EventKind kind, int dst, std::uint32_t context, SimTime time) {
    Message* m = engine.new_event(MessageKind::Rma, from, dst, time);
    m->tag = static_cast<std::int32_t>(kind);
    m->context = context;
    m->data_done = time;
    return m;
}


// A request of `me` that an answer from `target` decides.
Request* new_request(Engine& engine, Rank& me, const Window& w, int target, SimTime now) {
    Request* r = engine.new_request();
    r->kind = RequestKind::Send;
    r->owner = &me;
    engine.attach_comm(r, *w.comm);
    r->peer = target;
    r->context = w.comm->context;
    r->posted_at = now;
    r->path = me.path;
    r->path.settle(now);
    return r;
}

void decide(Engine& engine, Request* r, SimTime when) {
    r->known = true;
    r->done_time = when;
    completion::decided(engine, r);
}

// Links an operation's request to the application's request of MPI_Rput and the like: the
// window's request waits in flushes and is freed by them, the application's is completed
// and freed by MPI_Wait/MPI_Test, in either order.
class UserRequestLink final : public CompletionTarget {
public:
    explicit UserRequestLink(Request* user) : user_(user) {}
    void child_decided(Engine& engine, Request* operation) override {
        operation->parent_call = nullptr;  // from now on a request like any other
        completion::decided(engine, operation);
        user_->path = operation->path;
        user_->status_bytes = operation->status_bytes;
        decide(engine, user_, operation->done_time);
        delete this;
    }
    const void* resume_hint() const override { return nullptr; }
    const std::string& error() const override { return none_; }

private:
    Request* user_;
    std::string none_;
};

int check_accumulate(const Operation& op, int* element, std::string* why) {
    const int op_index = predefined_op_index(op.op);
    if (op_index < 0) {
        *why = "accumulate operations take a predefined op only (MPI-4.0 section 12.3.4)";
        return MPI_ERR_OP;
    }
    const MPI_Datatype target_element = element_type(op.target_type);
    if (op.op != MPI_NO_OP && element_type(op.origin_type) != target_element) {
        *why = "the origin and target datatypes are not made of the same predefined type";
        return MPI_ERR_TYPE;
    }
    *element = predefined_type_index(target_element);
    if (*element < 0) {
        *why = "the target datatype is not made of one predefined type an accumulate can combine";
        return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}

}  // namespace

Request* start(Engine& engine, Rank& me, Window& w, const Operation& op, int* error, std::string* why,
               Request** user) {
    const int target_world = w.comm->world_rank(op.target, me);
    const std::vector<ByteBlock> blocks = blocks_of(op.target_count, op.target_type);
    std::uint64_t target_bytes = 0;
    for (const ByteBlock& b : blocks) target_bytes += b.bytes;
    OperationHead head;
    head.disp = op.disp;
    head.kind = static_cast<std::int32_t>(op.kind);
    head.origin_rank = w.comm->rank_of(me);
    head.blocks = blocks.size();
    const bool sends = op.kind == OperationKind::Put || op.kind == OperationKind::Accumulate ||
                       (op.kind == OperationKind::GetAccumulate && op.op != MPI_NO_OP);
    const bool fetches = op.kind != OperationKind::Put && op.kind != OperationKind::Accumulate;
    std::uint64_t origin_bytes = sends ? bytes_of(op.origin_count, op.origin_type) : 0;
    if (op.kind == OperationKind::CompareAndSwap) origin_bytes = 2 * target_bytes;  // new value, compare value
    head.data_bytes = origin_bytes;
    head.result_bytes = fetches ? target_bytes : 0;
    *error = MPI_SUCCESS;
    if (sends && origin_bytes != target_bytes) {
        *why = "the origin buffer holds " + std::to_string(origin_bytes) + " bytes, the target " +
               std::to_string(target_bytes) + " (their type signatures must match)";
        *error = MPI_ERR_ARG;
    } else if (fetches && bytes_of(op.result_count, op.result_type) != target_bytes) {
        *why = "the result buffer holds " + std::to_string(bytes_of(op.result_count, op.result_type)) +
               " bytes, the target " + std::to_string(target_bytes) + " (their type signatures must match)";
        *error = MPI_ERR_ARG;
    } else if (op.kind == OperationKind::Accumulate || op.kind == OperationKind::GetAccumulate) {
        *error = check_accumulate(op, &head.element, why);
        head.op = predefined_op_index(op.op);
    } else if (op.kind == OperationKind::CompareAndSwap) {
        head.element = predefined_type_index(op.target_type);
        if (head.element < 0 || op.target_count != 1) {
            *why = "compare-and-swap takes one element of a predefined integer, logical or byte type";
            *error = MPI_ERR_TYPE;
        }
    }
    if (*error != MPI_SUCCESS) return nullptr;

    const SimTime now = me.clock;
    Request* r = new_request(engine, me, w, op.target, now);
    if (user) {
        *user = new_request(engine, me, w, op.target, now);
        r->parent_call = new UserRequestLink(*user);
    }
    if (fetches) {
        r->buf = op.result;
        r->count = op.result_count;
        r->type = op.result_type;
        r->bytes = target_bytes;
        r->carries_data = true;
        TypeLayout layout;
        if (type_layout(op.result_type, &layout) && !layout.predefined) {
            retain_type(op.result_type);
            r->holds_type = true;
        }
    }
    const net::Path path = engine.machine().network->path(me.world, target_world);
    const net::Transfer transfer = NicModel::transfer(path, origin_bytes);
    const SimTime start_time = NicModel::inject(me.nic, now, transfer);
    Message* m = new_event(engine, me, EventKind::Operation, target_world, w.comm->context, start_time + transfer.latency);
    m->data_done = engine.machine().network->arrival(me.world, target_world, transfer, start_time);
    m->transfer = transfer;
    m->src_comm_rank = head.origin_rank;
    m->send_request = reinterpret_cast<std::uint64_t>(r);
    m->bytes = sizeof head + blocks.size() * sizeof(ByteBlock) + origin_bytes;
    acquire_payload(m);
    char* at = m->payload;
    std::memcpy(at, &head, sizeof head);
    at += sizeof head;
    if (!blocks.empty()) std::memcpy(at, blocks.data(), blocks.size() * sizeof(ByteBlock));
    at += blocks.size() * sizeof(ByteBlock);
    if (op.kind == OperationKind::CompareAndSwap) {
        pack_data(op.origin, 1, op.origin_type, at, target_bytes);
        pack_data(op.compare, 1, op.origin_type, at + target_bytes, target_bytes);
    } else if (origin_bytes) {
        pack_data(op.origin, op.origin_count, op.origin_type, at, origin_bytes);
    }
    m->path = me.path;
    m->path.settle(now);
    engine.stats().rma_operations++;
    engine.stats().rma_bytes += origin_bytes + head.result_bytes;
    me.split.call_bytes += origin_bytes + head.result_bytes;  // the call's bytes in -xsim-profile
    // The matrix counts where data moves: here what goes to the target (a get's data is
    // counted by the target's process when it answers).
    if (CommCounts* matrix = engine.comm_matrix(); matrix && origin_bytes) [[unlikely]]
        matrix->count(me.world, target_world, origin_bytes);
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_rma_operation(me, *w.comm, *r, user ? *user : nullptr, *m, head.kind, op.target, origin_bytes,
                                   head.result_bytes);
    engine.emit(m);
    return r;
}

Request* request_lock(Engine& engine, Rank& me, Window& w, int target, bool exclusive) {
    const int target_world = w.comm->world_rank(target, me);
    const SimTime now = me.clock;
    Request* r = new_request(engine, me, w, target, now);
    Message* m = new_event(engine, me, EventKind::Lock, target_world, w.comm->context,
                           now + engine.machine().network->latency(me.world, target_world));
    m->signature = exclusive ? 1 : 0;
    m->send_request = reinterpret_cast<std::uint64_t>(r);
    m->path = me.path;
    m->path.settle(now);
    engine.emit(m);
    return r;
}

void release_lock(Engine& engine, Rank& me, Window& w, int target, bool exclusive) {
    const int target_world = w.comm->world_rank(target, me);
    const SimTime now = me.clock;
    Message* m = new_event(engine, me, EventKind::Unlock, target_world, w.comm->context,
                           now + engine.machine().network->latency(me.world, target_world));
    m->signature = exclusive ? 1 : 0;
    m->path = me.path;
    m->path.settle(now);
    engine.emit(m);
}

namespace {

Target& target_of(Engine& engine, const Message* m, const char* what) {
    Target* t = find_target(engine, m->context, m->dst);
    if (!t)
        engine.abort_run(MPI_ERR_WIN, std::string("error in ") + what + " from simulated rank " +
                                          std::to_string(m->src) + " to simulated rank " + std::to_string(m->dst) +
                                          ": the target has no such window (freed before the operation arrived)");
    return *t;
}

// Whether the regions attached to a dynamic window cover [at, at + bytes) (adjacent regions
// may share an access between them).
bool attached_cover(const Target& t, const char* at, std::uint64_t bytes) {
    const char* end = at + bytes;
    for (bool advanced = true; at < end && advanced;) {
        advanced = false;
        for (const auto& [region, size] : t.attached)
            if (at >= region && at < region + size) {
                at = region + size;
                advanced = true;
            }
    }
    return at >= end;
}

// The target's memory of one block, as its rank sees it (a privatized global is that rank's copy).
char* block_address(Engine& engine, Rank& rank, Target& t, const OperationHead& head, const ByteBlock& b,
                    const Message* m) {
    char* at = nullptr;
    bool inside = false;
    if (t.dynamic) {
        at = reinterpret_cast<char*>(head.disp) + b.offset;
        inside = attached_cover(t, at, b.bytes);
    } else {
        const std::int64_t offset = head.disp * t.disp_unit + b.offset;
        at = t.base + offset;
        inside = offset >= 0 && offset + static_cast<std::int64_t>(b.bytes) <= t.size;
    }
    if (!inside) {
        const auto kind = static_cast<OperationKind>(head.kind);
        engine.abort_run(
            MPI_ERR_RMA_RANGE,
            std::string("error in ") + operation_call_name(kind) + " from simulated rank " + std::to_string(m->src) +
                " to simulated rank " + std::to_string(m->dst) + ": MPI_ERR_RMA_RANGE: " + std::to_string(b.bytes) +
                " bytes at " +
                (t.dynamic ? "address " + std::to_string(reinterpret_cast<std::uintptr_t>(at)) +
                                 " lie outside every region attached to the dynamic window"
                           : "displacement " + std::to_string(at - t.base) + " lie outside the window of " +
                                 std::to_string(t.size) + " bytes"));
    }
    return static_cast<char*>(engine.privatization().view(at, b.bytes, engine.local_index(rank)));
}

void gather(Engine& engine, Rank& rank, Target& t, const OperationHead& head, const ByteBlock* blocks, char* out,
            const Message* m) {
    for (std::uint64_t i = 0; i < head.blocks; ++i) {
        std::memcpy(out, block_address(engine, rank, t, head, blocks[i], m), blocks[i].bytes);
        out += blocks[i].bytes;
    }
}

void scatter(Engine& engine, Rank& rank, Target& t, const OperationHead& head, const ByteBlock* blocks,
             const char* in, const Message* m) {
    for (std::uint64_t i = 0; i < head.blocks; ++i) {
        std::memcpy(block_address(engine, rank, t, head, blocks[i], m), in, blocks[i].bytes);
        in += blocks[i].bytes;
    }
}

// Applies an operation to the target's window; `result` receives what it fetched.
void apply(Engine& engine, Rank& rank, Target& t, const OperationHead& head, const ByteBlock* blocks,
           const char* data, char* result, const Message* m) {
    const auto kind = static_cast<OperationKind>(head.kind);
    const std::uint64_t bytes = head.result_bytes ? head.result_bytes : head.data_bytes;
    switch (kind) {
        case OperationKind::Put: scatter(engine, rank, t, head, blocks, data, m); return;
        case OperationKind::Get: gather(engine, rank, t, head, blocks, result, m); return;
        case OperationKind::CompareAndSwap: {
            gather(engine, rank, t, head, blocks, result, m);
            if (std::memcmp(result, data + bytes, bytes) == 0) scatter(engine, rank, t, head, blocks, data, m);
            return;
        }
        case OperationKind::Accumulate:
        case OperationKind::GetAccumulate: {
            std::vector<char> current(bytes);
            gather(engine, rank, t, head, blocks, current.data(), m);
            if (result) std::memcpy(result, current.data(), bytes);
            const MPI_Op op = predefined_op_at(head.op);
            if (op == MPI_NO_OP) return;
            if (op == MPI_REPLACE) {
                scatter(engine, rank, t, head, blocks, data, m);
                return;
            }
            const MPI_Datatype element = predefined_type_at(head.element);
            TypeLayout layout;
            type_layout(element, &layout);
            const int count = static_cast<int>(bytes / layout.size);
            if (static_cast<std::uint64_t>(layout.extent) == layout.size) {
                real_mpi.Reduce_local(data, current.data(), count, element, op);
            } else {
                // Pair types (MPI_DOUBLE_INT...) have holes: the op works on their laid-out
                // form, the data travels packed.
                std::vector<char> in(static_cast<std::size_t>(count) * static_cast<std::size_t>(layout.extent));
                std::vector<char> inout(in.size());
                unpack_data(data, bytes, in.data(), count, element);
                unpack_data(current.data(), bytes, inout.data(), count, element);
                real_mpi.Reduce_local(in.data(), inout.data(), count, element, op);
                pack_data(inout.data(), count, element, current.data(), bytes);
            }
            scatter(engine, rank, t, head, blocks, current.data(), m);
            return;
        }
    }
}

// At the target: applies the operation and answers the origin.
void arrive_operation(Engine& engine, Message* m) {
    Rank& rank = engine.local(m->dst);
    OperationHead head;
    std::memcpy(&head, m->payload, sizeof head);
    Target& t = target_of(engine, m, operation_call_name(static_cast<OperationKind>(head.kind)));
    const auto* blocks = reinterpret_cast<const ByteBlock*>(m->payload + sizeof head);
    const char* data = m->payload + sizeof head + head.blocks * sizeof(ByteBlock);
    const SimTime done = NicModel::receive(rank.nic, m->data_done, m->transfer);
    Message* answer = new_event(engine, rank, EventKind::Answer, m->src, m->context, done);
    answer->send_request = m->send_request;
    answer->path = m->path;
    extend_path(answer->path, m->transfer.latency, m->transfer.serialization, head.data_bytes, done);
    if (head.result_bytes) {
        if (CommCounts* matrix = engine.comm_matrix()) [[unlikely]]
            matrix->count(rank.world, m->src, head.result_bytes);
        answer->bytes = head.result_bytes;
        acquire_payload(answer);
        apply(engine, rank, t, head, blocks, data, answer->payload, m);
        const net::Path back = engine.machine().network->path(rank.world, m->src);
        answer->transfer = NicModel::transfer(back, head.result_bytes);
        const SimTime start_time = NicModel::inject(rank.nic, done, answer->transfer);
        answer->time = start_time + answer->transfer.latency;
        answer->data_done = engine.machine().network->arrival(rank.world, m->src, answer->transfer, start_time);
    } else {
        apply(engine, rank, t, head, blocks, data, nullptr, m);
        answer->time = answer->data_done = done + engine.machine().network->latency(rank.world, m->src);
        answer->path.add_latency(answer->time - done);
    }
    if (EventObserver* observer = engine.observer()) [[unlikely]]
        observer->on_rma_applied(rank, *m, head.kind, done);
    engine.free_message(m);
    engine.emit(answer);
}

// At the origin: the operation is complete (and its fetched data in the result buffer).
void arrive_answer(Engine& engine, Message* m) {
    auto* r = reinterpret_cast<Request*>(m->send_request);
    Rank& origin = *r->owner;
    SimTime when = m->time;
    r->path = m->path;
    if (m->has_payload) {
        when = NicModel::receive(origin.nic, m->data_done, m->transfer);
        unpack_data(m->payload, m->bytes, runtime::rank_buffer(engine, origin, r->buf, r->count, r->type), r->count,
                    r->type);
        operation_answered(engine, r);  // a block freed early waits for no more of its data
        r->status_bytes = m->bytes;
        extend_path(r->path, m->transfer.latency, m->transfer.serialization, m->bytes, when);
    } else {
        r->path.settle(when);
    }
    engine.free_message(m);
    decide(engine, r, when);
}

void grant(Engine& engine, Rank& rank, const LockWaiter& w, std::uint32_t context, SimTime now,
           const CriticalPath& path) {
    Message* g = new_event(engine, rank, EventKind::Grant, w.origin, context,
                           now + engine.machine().network->latency(rank.world, w.origin));
    g->send_request = w.origin_request;
    g->path = path;
    g->path.settle(now);
    g->path.add_latency(g->time - now);
    engine.emit(g);
}

// Grants the waiting requests at the head of the queue that the lock's state allows.
void grant_waiting(Engine& engine, Rank& rank, Target& t, std::uint32_t context, SimTime now,
                   const CriticalPath& path) {
    while (!t.waiting.empty() && t.exclusive_holder < 0) {
        const LockWaiter w = t.waiting.front();
        if (w.exclusive && t.shared_holders > 0) return;
        t.waiting.pop_front();
        if (w.exclusive) t.exclusive_holder = w.origin;
        else ++t.shared_holders;
        grant(engine, rank, w, context, now, path);
    }
}

void arrive_lock(Engine& engine, Message* m) {
    Rank& rank = engine.local(m->dst);
    Target& t = target_of(engine, m, "MPI_Win_lock");
    t.waiting.push_back(LockWaiter{m->src, m->signature != 0, m->send_request});
    grant_waiting(engine, rank, t, m->context, m->time, m->path);
    engine.free_message(m);
}

void arrive_unlock(Engine& engine, Message* m) {
    Rank& rank = engine.local(m->dst);
    Target* found = find_target(engine, m->context, m->dst);
    if (!found) {  // the window was freed meanwhile (its free waited for this rank's operations)
        engine.free_message(m);
        return;
    }
    Target& t = *found;
    if (m->signature != 0) t.exclusive_holder = -1;
    else --t.shared_holders;
    grant_waiting(engine, rank, t, m->context, m->time, m->path);
    engine.free_message(m);
}

}  // namespace

void handle_event(Engine& engine, Message* m) {
    switch (static_cast<EventKind>(m->tag)) {
        case EventKind::Operation: arrive_operation(engine, m); break;
        case EventKind::Answer: arrive_answer(engine, m); break;
        case EventKind::Lock: arrive_lock(engine, m); break;
        case EventKind::Unlock: arrive_unlock(engine, m); break;
        case EventKind::Grant: {
            auto* r = reinterpret_cast<Request*>(m->send_request);
            r->path = m->path;
            const SimTime when = m->time;
            engine.free_message(m);
            decide(engine, r, when);
            break;
        }
    }
}

}  // namespace xsim::rma
