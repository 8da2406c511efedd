#include "libxsim/runtime/pmpi_link.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "libxsim/engine/payload.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/p2p/p2p.hpp"

namespace xsim {

// A message on the wire between real processes; the payload (if any) follows it in the same
// box, or, when large, travels as messages of its own (WirePayload::Separate).
enum class WirePayload : std::uint8_t { None, InBox, Separate };

struct WireHeader {
    std::int64_t time;
    std::int64_t data_done;
    std::int64_t latency, serialization;  // Message::transfer
    std::int64_t stamp_time;              // Message::stamp_time, stamp_rank (wait states)
    std::int32_t stamp_rank, pad_stamp;
    std::int32_t src, dst, src_comm_rank, tag;
    std::uint32_t context, seq;
    std::uint64_t bytes, send_request, recv_request;
    std::uint8_t kind;
    WirePayload payload;
    std::uint8_t pad[2];
    std::uint32_t signature;
    // Message::path (critical_path.hpp), term by term: the header is copied with memcpy,
    // and CriticalPath's copy is its own (field by field, through registers).
    std::int64_t path_compute, path_latency, path_bandwidth, path_other;
    std::uint64_t path_bytes;
    std::uint32_t path_latencies, pad_path;
};

// What a box starts with: its size (this piece and the ones after it) and the sending
// process's part of the agreement (ProcessLink::exchange).
struct WirePrefix {
    std::int64_t box_bytes;
    std::int64_t next_time;
    std::int64_t live;
};

namespace {

constexpr int kExchangeTag = 7;
constexpr int kPayloadTag = 8;
// Payloads above this size are not copied into the box and out of the received one: each is
// sent from the sender's payload buffer and received into the receiver's, which saves two
// copies of it in time and in memory (an 8 GiB message needed 4 x 8 GiB across the two
// processes; bench/RESULTS.md, "MPICH's test suite"), or, for a rendezvous message's data,
// into the receive buffer itself when it is one block (p2p::direct_destination): one copy
// and one message's memory less again.
constexpr std::uint64_t kSeparatePayloadAbove = 256 * 1024;
// MPI counts are ints: a pair's bytes go in pieces of at most 1 GiB (a window may carry a
// message of several GiB). Pieces between two processes match in order: same source and tag.
constexpr long long kPiece = 1LL << 30;

enum class Direction { Send, Receive };

int world_rank() {
    int rank = 0;
    real_mpi.Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

// Posts the send to (or receive from) `process` of `bytes` bytes at `data` in pieces,
// appending their requests to `transfers`.
void post_in_pieces(Direction direction, int process, int tag, char* data, long long bytes,
                    std::vector<MPI_Request>& transfers) {
    for (long long at = 0; at < bytes; at += kPiece) {
        const int count = static_cast<int>(std::min(kPiece, bytes - at));
        transfers.emplace_back();
        if (direction == Direction::Send)
            real_mpi.Isend(data + at, count, MPI_BYTE, process, tag, MPI_COMM_WORLD, &transfers.back());
        else
            real_mpi.Irecv(data + at, count, MPI_BYTE, process, tag, MPI_COMM_WORLD, &transfers.back());
    }
}

// post() runs on a sending rank's stack (2 KiB with -xsim-stack 2k), where growing an outbox
// would go through malloc and the heap's growth, deeper than such a stack: the boxes start
// this large and are grown between windows, on the scheduler's stack (exchange()).
constexpr std::size_t kOutboxStart = 64 * 1024;
constexpr std::size_t kSeparateStart = 64;  // the same for the list of large payloads

}  // namespace

PmpiLink::PmpiLink(Engine& engine, int processes)
    : engine_(engine),
      processes_(processes),
      outboxes_(static_cast<std::size_t>(processes)),
      self_(world_rank()),
      inboxes_(static_cast<std::size_t>(processes)),
      scratch_(std::make_unique<WireHeader>()),
      doorbells_(self_, processes) {
    for (auto& box : outboxes_) {
        box.reserve(kOutboxStart);
        box.resize(sizeof(WirePrefix));
    }
    separate_out_.reserve(kSeparateStart);
}

PmpiLink::~PmpiLink() = default;

// Runs on the sending rank's stack, which may be 2 KiB (-xsim-stack 2k): the header is
// assembled in the link's own scratch, not in a local.
void PmpiLink::post(int process, Message& m) {
    WireHeader& h = *scratch_;
    h = WireHeader{};
    h.time = m.time;
    h.data_done = m.data_done;
    h.latency = m.transfer.latency;
    h.serialization = m.transfer.serialization;
    h.stamp_time = m.stamp_time;
    h.stamp_rank = m.stamp_rank;
    h.src = m.src;
    h.dst = m.dst;
    h.src_comm_rank = m.src_comm_rank;
    h.tag = m.tag;
    h.context = m.context;
    h.seq = m.seq;
    h.bytes = m.bytes;
    h.send_request = m.send_request;
    h.recv_request = m.recv_request;
    h.kind = static_cast<std::uint8_t>(m.kind);
    h.payload = !m.has_payload                       ? WirePayload::None
                : m.bytes > kSeparatePayloadAbove ? WirePayload::Separate
                                                   : WirePayload::InBox;
    h.signature = m.signature;
    h.path_compute = m.path.compute;
    h.path_latency = m.path.latency;
    h.path_bandwidth = m.path.bandwidth;
    h.path_other = m.path.other;
    h.path_bytes = m.path.bytes;
    h.path_latencies = m.path.latencies;
    outbound_next_ = std::min(outbound_next_, m.time);  // for the next agreement
    auto& box = outboxes_[static_cast<std::size_t>(process)];
    const char* raw = reinterpret_cast<const char*>(&h);
    box.insert(box.end(), raw, raw + sizeof h);
    if (h.payload == WirePayload::InBox && m.bytes) box.insert(box.end(), m.payload, m.payload + m.bytes);
    if (h.payload == WirePayload::Separate)  // sent by exchange(), then released
        separate_out_.push_back({process, m.bytes, take_payload(&m)});
}

ProcessLink::Agreement PmpiLink::exchange(SimTime local_next_time, std::int64_t local_live) {
    const auto n = static_cast<std::size_t>(processes_);
    // This process's part of the agreement: the earliest event it holds or sends, its live ranks.
    const SimTime next = std::min(local_next_time, outbound_next_);
    outbound_next_ = kNever;
    Agreement agreed{next, local_live};
    // Every other process gets its box, even an empty one: the box's prefix carries this
    // process's part of the agreement, so that one message each way both moves the events and
    // agrees (each process takes the minimum and the sum of the same values).
    std::vector<MPI_Request> transfers;
    for (std::size_t p = 0; p < n; ++p) {
        if (static_cast<int>(p) == self_) continue;
        std::vector<char>& box = outboxes_[p];
        const WirePrefix prefix{static_cast<std::int64_t>(box.size()), next, local_live};
        std::memcpy(box.data(), &prefix, sizeof prefix);
        post_in_pieces(Direction::Send, static_cast<int>(p), kExchangeTag, box.data(),
                       static_cast<long long>(box.size()), transfers);
    }
    // Separate payloads follow their boxes, in the order of their headers; their receives are
    // posted once the headers are read, and completed before the messages are accepted.
    std::vector<MPI_Request> payload_transfers;
    for (const SeparatePayload& s : separate_out_)
        post_in_pieces(Direction::Send, s.process, kPayloadTag, s.buffer, static_cast<long long>(s.bytes),
                       payload_transfers);
    // The others may sleep waiting for their boxes (link_doorbells.hpp): wake them.
    for (std::size_t p = 0; p < n; ++p)
        if (static_cast<int>(p) != self_) doorbells_.ring(static_cast<int>(p));
    // A box's size is known when its first piece arrives (its prefix); the rest of a box larger
    // than a piece follows in pieces of its own. The wait for a first piece is the wait for the
    // other process to end its window, which may take long: it sleeps once it has spun a while.
    for (std::size_t p = 0; p < n; ++p) {
        if (static_cast<int>(p) == self_) continue;
        MPI_Status status;
        doorbells_.wait_until([&] {
            int arrived = 0;
            real_mpi.Iprobe(static_cast<int>(p), kExchangeTag, MPI_COMM_WORLD, &arrived, &status);
            return arrived != 0;
        });
        int first = 0;
        real_mpi.Get_count(&status, MPI_BYTE, &first);
        std::vector<char>& inbox = inboxes_[p];
        inbox.resize(static_cast<std::size_t>(first));
        real_mpi.Recv(inbox.data(), first, MPI_BYTE, static_cast<int>(p), kExchangeTag, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE);
        WirePrefix prefix;
        std::memcpy(&prefix, inbox.data(), sizeof prefix);
        agreed.next_time = std::min(agreed.next_time, prefix.next_time);
        agreed.live += prefix.live;
        inbox.resize(static_cast<std::size_t>(prefix.box_bytes));
        post_in_pieces(Direction::Receive, static_cast<int>(p), kExchangeTag, inbox.data() + first,
                       prefix.box_bytes - first, transfers);
    }
    real_mpi.Waitall(static_cast<int>(transfers.size()), transfers.data(), MPI_STATUSES_IGNORE);
    for (auto& box : outboxes_) {
        // Room for twice the busiest window so far before the next one starts.
        if (box.size() * 2 > box.capacity()) box.reserve(box.size() * 4);
        box.resize(sizeof(WirePrefix));
    }
    received_.clear();
    for (std::size_t p = 0; p < n; ++p) {
        if (static_cast<int>(p) == self_) continue;
        const std::vector<char>& inbox = inboxes_[p];
        for (std::size_t at = sizeof(WirePrefix); at < inbox.size();) {
            WireHeader h;
            std::memcpy(&h, inbox.data() + at, sizeof h);
            at += sizeof h;
            Message* m = engine_.new_message();
            m->time = h.time;
            m->data_done = h.data_done;
            m->transfer = {h.latency, h.serialization};
            m->stamp_time = h.stamp_time;
            m->stamp_rank = h.stamp_rank;
            m->src = h.src;
            m->dst = h.dst;
            m->src_comm_rank = h.src_comm_rank;
            m->tag = h.tag;
            m->context = h.context;
            m->seq = h.seq;
            m->bytes = h.bytes;
            m->send_request = h.send_request;
            m->recv_request = h.recv_request;
            m->kind = static_cast<MessageKind>(h.kind);
            m->signature = h.signature;
            m->path.compute = h.path_compute;
            m->path.latency = h.path_latency;
            m->path.bandwidth = h.path_bandwidth;
            m->path.other = h.path_other;
            m->path.bytes = h.path_bytes;
            m->path.latencies = h.path_latencies;
            if (h.payload == WirePayload::InBox) {
                acquire_payload(m);
                if (h.bytes) std::memcpy(m->payload, inbox.data() + at, h.bytes);
                at += h.bytes;
            } else if (h.payload == WirePayload::Separate) {
                // Large data goes straight into the receive buffer when it can (then the
                // message carries none), else into a payload of its own.
                char* into = p2p::direct_destination(engine_, *m);
                if (!into) {
                    acquire_payload(m);
                    into = m->payload;
                }
                post_in_pieces(Direction::Receive, static_cast<int>(p), kPayloadTag, into,
                               static_cast<long long>(h.bytes), payload_transfers);
            }
            received_.push_back(m);
        }
    }
    real_mpi.Waitall(static_cast<int>(payload_transfers.size()), payload_transfers.data(), MPI_STATUSES_IGNORE);
    for (const SeparatePayload& s : separate_out_) release_payload_buffer(s.buffer, s.bytes);
    if (separate_out_.size() * 2 > separate_out_.capacity()) separate_out_.reserve(separate_out_.size() * 4);
    separate_out_.clear();
    for (Message* m : received_) engine_.accept_remote(m);
    return agreed;
}

}  // namespace xsim
