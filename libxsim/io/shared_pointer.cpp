#include "libxsim/io/shared_pointer.hpp"

#include <cstring>
#include <string>
#include <unordered_map>

#include "libxsim/engine/payload.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/p2p/completion.hpp"
#include "netmodels/nic_model.hpp"

namespace xsim::io {
namespace {

using net::NicModel;

// What a FilePointer event is (Message::tag).
enum class PointerEvent : std::int32_t { Add, Set, Answer };

// The pointers whose home is a rank of this process, by file context and home world rank
// (disjoint groups may derive the same context, as windows' do: the home tells them apart).
struct PointerRegistry final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::SharedFilePointers;
    std::unordered_map<std::uint64_t, std::int64_t> pointers;
};

std::uint64_t pointer_key(std::uint32_t context, int home) {
    return static_cast<std::uint64_t>(context) << 32 | static_cast<std::uint32_t>(home);
}

constexpr std::uint64_t kValueBytes = sizeof(std::int64_t);

// A FilePointer event of `bytes` = one int64 `value` from `from` to `dst`, leaving at
// `ready` through `from`'s NIC as a message of that size does.
Message* send_value(Engine& engine, Rank& from, PointerEvent kind, int dst, std::uint32_t context, SimTime ready,
                    std::int64_t value) {
    const net::Path path = engine.machine().network->path(from.world, dst);
    const net::Transfer transfer = NicModel::transfer(path, kValueBytes);
    const SimTime start = NicModel::inject(from.nic, ready, transfer);
    Message* m = engine.new_event(MessageKind::FilePointer, from, dst, start + transfer.latency);
    m->tag = static_cast<std::int32_t>(kind);
    m->context = context;
    m->transfer = transfer;
    m->data_done = engine.machine().network->arrival(from.world, dst, transfer, start);
    m->bytes = kValueBytes;
    acquire_payload(m);
    std::memcpy(m->payload, &value, kValueBytes);
    return m;
}

std::int64_t value_of(const Message* m) {
    std::int64_t v = 0;
    std::memcpy(&v, m->payload, kValueBytes);
    return v;
}

// At the home's process: applies the move, answers with the value before.
void arrive_move(Engine& engine, Message* m) {
    Rank& home = engine.local(m->dst);
    auto& pointers = layer_state<PointerRegistry>(engine).pointers;
    const auto it = pointers.find(pointer_key(m->context, m->dst));
    if (it == pointers.end())
        engine.abort_run(MPI_ERR_FILE, "error in a shared file pointer access of simulated rank " +
                                           std::to_string(m->src) + ": the file was closed before it arrived "
                                           "(a nonblocking shared-pointer access must complete before MPI_File_close)");
    const std::int64_t before = it->second;
    const std::int64_t value = value_of(m);
    it->second = static_cast<PointerEvent>(m->tag) == PointerEvent::Add ? before + value : value;
    const SimTime done = NicModel::receive(home.nic, m->data_done, m->transfer);
    Message* answer = send_value(engine, home, PointerEvent::Answer, m->src, m->context, done, before);
    answer->send_request = m->send_request;
    answer->path = m->path;
    extend_path(answer->path, m->transfer.latency, m->transfer.serialization, kValueBytes, done);
    engine.free_message(m);
    engine.emit(answer);
}

// At the origin: the value before is known, the request decided.
void arrive_pointer_answer(Engine& engine, Message* m) {
    auto* r = reinterpret_cast<Request*>(m->send_request);
    const SimTime when = NicModel::receive(r->owner->nic, m->data_done, m->transfer);
    *static_cast<std::int64_t*>(r->buf) = value_of(m);
    r->path = m->path;
    extend_path(r->path, m->transfer.latency, m->transfer.serialization, kValueBytes, when);
    engine.free_message(m);
    r->known = true;
    r->done_time = when;
    completion::decided(engine, r);
}

}  // namespace

int pointer_home(const Comm& file_comm) { return file_comm.group->world_of(0); }

void create_pointer(Engine& engine, const Comm& file_comm, std::int64_t initial) {
    layer_state<PointerRegistry>(engine).pointers[pointer_key(file_comm.context, pointer_home(file_comm))] = initial;
}

void forget_pointer(Engine& engine, const Comm& file_comm) {
    layer_state<PointerRegistry>(engine).pointers.erase(pointer_key(file_comm.context, pointer_home(file_comm)));
}

Request* start_move(Engine& engine, Rank& me, const File& f, PointerMove move, std::int64_t value,
                    std::int64_t* before) {
    const SimTime now = me.clock;
    Request* r = engine.new_request();
    r->kind = RequestKind::Send;
    r->owner = &me;
    engine.attach_comm(r, *f.comm);
    r->peer = 0;
    r->context = f.comm->context;
    r->posted_at = now;
    r->buf = before;
    r->path = me.path;
    r->path.settle(now);
    const PointerEvent kind = move == PointerMove::Add ? PointerEvent::Add : PointerEvent::Set;
    Message* m = send_value(engine, me, kind, pointer_home(*f.comm), f.comm->context, now, value);
    m->src_comm_rank = f.comm->rank_of(me);
    m->send_request = reinterpret_cast<std::uint64_t>(r);
    m->path = me.path;
    m->path.settle(now);
    engine.emit(m);
    return r;
}

std::int64_t move(Engine& engine, Rank& me, const File& f, PointerMove move, std::int64_t value) {
    std::int64_t before = 0;
    Request* r = start_move(engine, me, f, move, value, &before);
    completion::wait_all(engine, me, &r, 1);
    engine.free_request(r);
    return before;
}

void handle_pointer_event(Engine& engine, Message* m) {
    if (static_cast<PointerEvent>(m->tag) == PointerEvent::Answer) arrive_pointer_answer(engine, m);
    else arrive_move(engine, m);
}

}  // namespace xsim::io
