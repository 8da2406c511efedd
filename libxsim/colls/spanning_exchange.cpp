#include "libxsim/colls/spanning_exchange.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "libxsim/colls/exchange_blocks.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/layer_state.hpp"
#include "libxsim/engine/payload.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {
namespace {

// A call: collective context, world rank of the communicator's rank 0, call number.
using SpanningCallKey = std::tuple<std::uint32_t, int, int>;

// What an event carries: this head, then `entries` entries, each a rank's contribution:
// its communicator rank, its number of blocks, and per block its size, whether its data
// is there (the sender's Context::carries) and then the data.
struct WireHead {
    std::uint32_t context;
    std::int32_t first_world;
    std::int32_t tag;
    std::int32_t size;
    std::int32_t entries;
    std::uint8_t kind;
    std::uint8_t pad[3];
};

void put(std::vector<char>& out, const void* p, std::size_t n) {
    // resize and memcpy: GCC 12 reports a false overflow in vector::insert here.
    const std::size_t at = out.size();
    out.resize(at + n);
    std::memcpy(out.data() + at, p, n);
}
template <class T>
void put(std::vector<char>& out, T v) {
    put(out, &v, sizeof v);
}
template <class T>
T get(const char*& in) {
    T v;
    std::memcpy(&v, in, sizeof v);
    in += sizeof v;
    return v;
}

// Reads the blocks of one rank's entry in order.
struct BlockReader {
    const char* at = nullptr;
    int left = 0;
    explicit BlockReader(const std::vector<char>& entry) : at(entry.data()) { left = get<std::int32_t>(at); }
    BlockReader() = default;
    // The next block: its size and its data (null when the sender carried none).
    std::pair<std::uint64_t, const char*> next() {
        if (left <= 0) return {0, nullptr};
        --left;
        const auto bytes = get<std::uint64_t>(at);
        const bool carried = get<std::uint8_t>(at) != 0;
        const char* data = carried ? at : nullptr;
        if (carried) at += bytes;
        return {bytes, data};
    }
};

// Appends block `b` of rank `owner` (packed, if this call carries it) to an entry.
void put_block(std::vector<char>& out, Context& owner, const Block& b) {
    put<std::uint64_t>(out, b.bytes);
    const bool carried = b.bytes > 0 && owner.carries(b.bytes);
    put<std::uint8_t>(out, carried ? 1 : 0);
    if (!carried) return;
    const std::size_t at = out.size();
    out.resize(at + b.bytes);
    pack_data(owned(owner, b.buf, b.count, b.type), b.count, b.type, out.data() + at, b.bytes);
}

struct OtherProcess {
    int process = 0;
    int world = 0;             // a member there, the events' destination
    std::vector<int> members;  // its members' communicator ranks, increasing
};

struct Span {
    CollKind kind{};
    int size = 0;
    int present = 0;          // ranks whose contribution is here (local or remote)
    int local_expected = -1;  // this process's members, known from the first local arrival
    int local_arrived = 0;
    std::vector<int> local_members;  // communicator ranks, increasing
    std::vector<OtherProcess> others;
    std::vector<Context*> ctx;  // local ranks that arrived, by communicator rank
    std::vector<const void*> args;
    // Entries (block count, blocks) of remote ranks, and of local ranks that may leave
    // before their data is used (Gather(v), Reduce, Scan, Exscan: staged at arrival) or
    // that receive the root's block (Scatter(v)).
    std::vector<std::vector<char>> remote;
    // Bcast: the root's data is in from_root; Scatter(v): its blocks are in; Gather(v): the
    // root arrived (on its process).
    bool root_here = false;
    std::vector<char> from_root;
    int root = -1;                          // rooted collectives, from the first local arrival
    int folded_from = -1;                   // Reduce: remote[folded_from] is x_f op (... op x_{p-1})
    int folded_to = -1;                     // scans: remote[0] is (x_0 op ...) op x_{folded_to}
    int bottom = -2;                        // scans: ranks 0..bottom are local (-1: none; -2: not known yet)
    bool bottom_sent = false;               // scans: their fold went to the other processes
    std::vector<char> bottom_fold;          // scans: entry of x_0 op ... op x_bottom (empty: none)
    int prefix = 0;                         // scans: x_0..x_{prefix-1} are folded into acc
    TypedScratch acc;                       // scans: x_0 op ... op x_{prefix-1}
    std::uint64_t scan_bytes = 0;           // scans: rank 0's input size
    bool scan_failed = false;               // scans: an input disagreed; no more results
};

struct Spans final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::SpanningMeetings;
    std::map<SpanningCallKey, Span> open;
};

Span& span_of(Engine& e, const SpanningCallKey& key, CollKind kind, int size) {
    Span& s = layer_state<Spans>(e).open[key];
    if (s.size == 0) {
        s.kind = kind;
        s.size = size;
        s.ctx.assign(static_cast<std::size_t>(size), nullptr);
        s.args.assign(static_cast<std::size_t>(size), nullptr);
        s.remote.resize(static_cast<std::size_t>(size));
    }
    return s;
}

SpanningCallKey key_of(const Context& c) { return {c.comm.collective_context(), c.comm.world_rank(0, c.me), c.tag}; }

template <class Args>
const Args& spanning_args_of(const Span& s, int rank) {
    return *static_cast<const Args*>(s.args[static_cast<std::size_t>(rank)]);
}

// Which of the communicator's ranks this process hosts, and which processes host the others.
void learn_members(Span& s, const Context& c) {
    if (s.local_expected >= 0) return;
    const Engine& e = c.engine;
    for (int i = 0; i < c.size; ++i) {
        const int world = c.comm.world_rank(i, c.me);
        if (e.is_local(world)) {
            s.local_members.push_back(i);
            continue;
        }
        const int process = e.process_of(world);
        auto it = std::find_if(s.others.begin(), s.others.end(), [&](const OtherProcess& o) { return o.process == process; });
        if (it == s.others.end()) it = s.others.insert(s.others.end(), OtherProcess{process, world, {}});
        it->members.push_back(i);
    }
    s.local_expected = static_cast<int>(s.local_members.size());
}

// An event to process `to`, as of virtual time c.now, with room for `body_bytes` of entries
// after its head (body_of), which the caller fills before emitting it.
Message* new_event(Context& c, const OtherProcess& to, int entries, std::uint64_t body_bytes) {
    Engine& e = c.engine;
    WireHead head{};
    head.context = c.comm.collective_context();
    head.first_world = c.comm.world_rank(0, c.me);
    head.tag = c.tag;
    head.size = c.size;
    head.entries = entries;
    head.kind = static_cast<std::uint8_t>(c.kind);
    Message* m = e.new_message();
    m->kind = MessageKind::CollectiveData;
    m->src = c.me.world;
    m->dst = to.world;
    m->seq = 0;
    // Before anything the skeleton sends from now can reach another process (see header).
    m->time = c.now + std::max<SimTime>(e.machine().network->min_latency(), 1) - 1;
    m->bytes = sizeof head + body_bytes;
    acquire_payload(m);
    std::memcpy(m->payload, &head, sizeof head);
    return m;
}

char* body_of(Message* m) { return m->payload + sizeof(WireHead); }

// Sends `body` (the entries after the head) to process `to`, as of virtual time c.now.
void send_entries(Context& c, const OtherProcess& to, int entries, const std::vector<char>& body) {
    Message* m = new_event(c, to, entries, body.size());
    if (!body.empty()) std::memcpy(body_of(m), body.data(), body.size());
    c.engine.emit(m);
}

// ---- What each collective contributes, and how its results are delivered.

// Reduce_scatter: the piece of a rank's input that rank d receives reduced.
Block segment(const ReduceScatterArgs& a, int d) {
    const int n = a.count_of(d);
    return Block{element(a.sendbuf, a.type, a.offset_of(d)), n, a.type,
                 static_cast<std::uint64_t>(n) * type_size(a.type)};
}

// Rank r's contribution for the members `to` of another process.
void put_entry(std::vector<char>& out, Span& s, int r, const std::vector<int>& to) {
    Context& c = *s.ctx[static_cast<std::size_t>(r)];
    put<std::int32_t>(out, r);
    switch (s.kind) {
        case CollKind::Allreduce: {
            const ReduceArgs& a = spanning_args_of<ReduceArgs>(s, r);
            put<std::int32_t>(out, 1);
            put_block(out, c, Block{const_cast<void*>(a.sendbuf), a.count, a.type, a.bytes});
            break;
        }
        case CollKind::Allgather:
        case CollKind::Allgatherv: {
            const AllgatherArgs& a = spanning_args_of<AllgatherArgs>(s, r);
            put<std::int32_t>(out, 1);
            put_block(out, c, a.in_place ? a.recv.block(r) : a.mine);
            break;
        }
        case CollKind::Alltoall:
        case CollKind::Alltoallv:
        case CollKind::Alltoallw: {
            const AlltoallArgs& a = spanning_args_of<AlltoallArgs>(s, r);
            put<std::int32_t>(out, static_cast<std::int32_t>(to.size()));
            for (int d : to) put_block(out, c, a.send.block(d));
            break;
        }
        case CollKind::ReduceScatter:
        case CollKind::ReduceScatterBlock: {  // only the pieces that process's members receive
            const ReduceScatterArgs& a = spanning_args_of<ReduceScatterArgs>(s, r);
            put<std::int32_t>(out, static_cast<std::int32_t>(to.size()));
            for (int d : to) put_block(out, c, segment(a, d));
            break;
        }
        default: break;
    }
}

// Every local member has arrived: their contributions go to every other process.
void send_local_contributions(Span& s, Context& last) {
    for (const OtherProcess& o : s.others) {
        std::vector<char> body;
        for (int r : s.local_members) put_entry(body, s, r, o.members);
        send_entries(last, o, static_cast<int>(s.local_members.size()), body);
    }
}

Context* any_local(Span& s) { return s.ctx[static_cast<std::size_t>(s.local_members.front())]; }

bool is_remote(const Span& s, int r) { return !s.ctx[static_cast<std::size_t>(r)]; }

void spanning_deliver_allgather(Span& s) {
    const int p = s.size;
    // Each rank's block: (bytes, data) where data is null for local ranks (read from their buffers).
    const auto local_block = [&](int r) {
        const AllgatherArgs& a = spanning_args_of<AllgatherArgs>(s, r);
        return a.in_place ? a.recv.block(r) : a.mine;
    };
    std::vector<std::pair<std::uint64_t, const char*>> remote_block(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r)
        if (is_remote(s, r)) remote_block[static_cast<std::size_t>(r)] = BlockReader(s.remote[static_cast<std::size_t>(r)]).next();
    const auto bytes_of = [&](int r) { return is_remote(s, r) ? remote_block[static_cast<std::size_t>(r)].first : local_block(r).bytes; };
    // Uniform blocks of one size everywhere: one packed result, unpacked once per local rank.
    const std::uint64_t block = bytes_of(0);
    bool uniform = true;
    for (int r = 0; r < p && uniform; ++r) uniform = bytes_of(r) == block;
    for (int r : s.local_members) {
        const AllgatherArgs& a = spanning_args_of<AllgatherArgs>(s, r);
        uniform = uniform && a.recv.uniform() && a.recv.bytes_of(0) == block;
    }
    Context& any = *any_local(s);
    if (uniform) {
        if (block == 0 || !any.carries(block)) return;
        std::vector<char> packed(block * static_cast<std::uint64_t>(p));
        for (int r = 0; r < p; ++r) {
            char* at = packed.data() + block * static_cast<std::uint64_t>(r);
            if (is_remote(s, r)) {
                std::memcpy(at, remote_block[static_cast<std::size_t>(r)].second, block);
                continue;
            }
            const Block b = local_block(r);
            pack_data(owned(*s.ctx[static_cast<std::size_t>(r)], b.buf, b.count, b.type), b.count, b.type, at, block);
        }
        for (int d : s.local_members) {
            const Block all = spanning_args_of<AllgatherArgs>(s, d).recv.run(0, p);
            Context& dst = *s.ctx[static_cast<std::size_t>(d)];
            unpack_data(packed.data(), packed.size(), owned(dst, all.buf, all.count, all.type), all.count, all.type);
        }
        return;
    }
    for (int d : s.local_members) {
        Context& dst = *s.ctx[static_cast<std::size_t>(d)];
        const AllgatherArgs& ad = spanning_args_of<AllgatherArgs>(s, d);
        for (int r = 0; r < p; ++r) {
            if (r == d && ad.in_place) continue;
            if (is_remote(s, r)) {
                const auto [bytes, data] = remote_block[static_cast<std::size_t>(r)];
                unpack_into(dst, data, bytes, r, ad.recv.block(r));
            } else {
                move_block(*s.ctx[static_cast<std::size_t>(r)], local_block(r), dst, ad.recv.block(r));
            }
        }
    }
}

void spanning_deliver_alltoall(Span& s) {
    const int p = s.size;
    // A remote rank's entry holds its blocks for this process's members, in their order.
    std::vector<BlockReader> readers(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r)
        if (is_remote(s, r)) readers[static_cast<std::size_t>(r)] = BlockReader(s.remote[static_cast<std::size_t>(r)]);
    for (int d : s.local_members) {
        Context& dst = *s.ctx[static_cast<std::size_t>(d)];
        const AlltoallArgs& ad = spanning_args_of<AlltoallArgs>(s, d);
        for (int r = 0; r < p; ++r) {
            if (is_remote(s, r)) {
                const auto [bytes, data] = readers[static_cast<std::size_t>(r)].next();
                unpack_into(dst, data, bytes, r, ad.recv.block(r));
            } else {
                move_block(*s.ctx[static_cast<std::size_t>(r)], spanning_args_of<AlltoallArgs>(s, r).send.block(d), dst,
                           ad.recv.block(r));
            }
        }
    }
}

// x_0 op x_1 op ... op x_{p-1} in rank order whatever the op (as in one process), into
// every local rank's receive buffer.
void spanning_deliver_allreduce(Span& s) {
    const int p = s.size;
    const ReduceArgs& a0 = spanning_args_of<ReduceArgs>(s, s.local_members.front());
    std::vector<std::pair<std::uint64_t, const char*>> remote_input(static_cast<std::size_t>(p));
    bool same = true;
    for (int r = 0; r < p && same; ++r) {
        if (is_remote(s, r)) {
            remote_input[static_cast<std::size_t>(r)] = BlockReader(s.remote[static_cast<std::size_t>(r)]).next();
            same = remote_input[static_cast<std::size_t>(r)].first == a0.bytes;
        } else {
            const ReduceArgs& a = spanning_args_of<ReduceArgs>(s, r);
            same = static_cast<std::uint64_t>(a.count) * type_size(a.type) == a0.bytes;
        }
    }
    if (!same) {
        for (int r : s.local_members)
            fail(*s.ctx[static_cast<std::size_t>(r)], MPI_ERR_OTHER, "the ranks passed different counts or datatypes");
        return;
    }
    if (a0.count == 0 || !any_local(s)->carries(a0.bytes)) return;
    TypedScratch acc(true, a0.count, a0.type);
    TypedScratch in(true, a0.count, a0.type);
    const auto input = [&](int r) -> const void* {
        if (is_remote(s, r)) {
            const auto [bytes, data] = remote_input[static_cast<std::size_t>(r)];
            unpack_data(data, bytes, in.data(), a0.count, a0.type);
            return in.data();
        }
        const ReduceArgs& a = spanning_args_of<ReduceArgs>(s, r);
        return owned(*s.ctx[static_cast<std::size_t>(r)], const_cast<void*>(a.sendbuf), a0.count, a0.type);
    };
    copy_data(input(p - 1), a0.count, a0.type, a0.bytes, acc.data(), a0.count, a0.type);
    for (int i = p - 2; i >= 0; --i) real_mpi.Reduce_local(input(i), acc.data(), a0.count, a0.type, a0.op);
    for (int d : s.local_members) {
        const ReduceArgs& ad = spanning_args_of<ReduceArgs>(s, d);
        copy_data(acc.data(), a0.count, a0.type, a0.bytes, owned(*s.ctx[static_cast<std::size_t>(d)], ad.recvbuf, ad.count, ad.type),
                  ad.count, ad.type);
    }
}

// Reduce_scatter(_block): x_0 op ... op x_{p-1} in rank order, piece by piece, for each
// local rank. Every result is computed before any is written (in place, a rank's result
// overwrites its input, which the other pieces still read).
void spanning_deliver_reduce_scatter(Span& s) {
    const int p = s.size;
    // A remote rank's entry holds its pieces for this process's members, in their order.
    std::vector<BlockReader> readers(static_cast<std::size_t>(p));
    for (int r = 0; r < p; ++r)
        if (is_remote(s, r)) readers[static_cast<std::size_t>(r)] = BlockReader(s.remote[static_cast<std::size_t>(r)]);
    std::vector<std::pair<std::uint64_t, const char*>> piece(static_cast<std::size_t>(p));
    std::vector<TypedScratch> results(s.local_members.size());
    for (std::size_t k = 0; k < s.local_members.size(); ++k) {
        const int d = s.local_members[k];
        Context& dst = *s.ctx[static_cast<std::size_t>(d)];
        const ReduceScatterArgs& ad = spanning_args_of<ReduceScatterArgs>(s, d);
        const int n = ad.count_of(d);
        const std::uint64_t bytes = static_cast<std::uint64_t>(n) * type_size(ad.type);
        bool same = true;
        for (int r = 0; r < p; ++r) {
            auto& in = piece[static_cast<std::size_t>(r)];
            if (is_remote(s, r)) {
                in = readers[static_cast<std::size_t>(r)].next();  // read in order, whatever happens
            } else {
                const ReduceScatterArgs& ar = spanning_args_of<ReduceScatterArgs>(s, r);
                in = {segment(ar, d).bytes, nullptr};
            }
            same = same && in.first == bytes;
        }
        if (!same) {
            fail(dst, MPI_ERR_OTHER, "the ranks passed different counts or datatypes");
            continue;
        }
        if (n == 0 || !dst.carries(bytes)) continue;
        TypedScratch acc(true, n, ad.type), x(true, n, ad.type);
        bool carried = true;
        const auto input = [&](int r) -> const void* {
            const auto [in_bytes, data] = piece[static_cast<std::size_t>(r)];
            if (is_remote(s, r)) {
                if (!data) carried = false;
                else unpack_data(data, in_bytes, x.data(), n, ad.type);
                return x.data();
            }
            const ReduceScatterArgs& ar = spanning_args_of<ReduceScatterArgs>(s, r);
            void* all = owned(*s.ctx[static_cast<std::size_t>(r)], const_cast<void*>(ar.sendbuf),
                              static_cast<int>(ar.total), ar.type);
            return element(all, ar.type, ar.offset_of(d));
        };
        copy_data(input(p - 1), n, ad.type, bytes, acc.data(), n, ad.type);
        for (int i = p - 2; i >= 0 && carried; --i) real_mpi.Reduce_local(input(i), acc.data(), n, ad.type, ad.op);
        if (carried) results[k] = std::move(acc);
    }
    for (std::size_t k = 0; k < s.local_members.size(); ++k) {
        if (!results[k].data()) continue;
        const int d = s.local_members[k];
        const ReduceScatterArgs& ad = spanning_args_of<ReduceScatterArgs>(s, d);
        const int n = ad.count_of(d);
        copy_data(results[k].data(), n, ad.type, static_cast<std::uint64_t>(n) * type_size(ad.type),
                  owned(*s.ctx[static_cast<std::size_t>(d)], ad.recvbuf, n, ad.type), n, ad.type);
    }
}

// ---- Rooted collectives and scans: some ranks may leave before others arrive, so a
// contribution is staged (as an entry, in `remote`) at its rank's arrival.

bool has_entry(const Span& s, int r) { return !s.remote[static_cast<std::size_t>(r)].empty(); }

void drop_entry(Span& s, int r) { std::vector<char>().swap(s.remote[static_cast<std::size_t>(r)]); }

// An entry of one block: rank `owner`'s block `b`.
std::vector<char> entry_of(Context& owner, const Block& b) {
    std::vector<char> e;
    put<std::int32_t>(e, 1);
    put_block(e, owner, b);
    return e;
}

// The process hosting communicator rank r (null: this one).
const OtherProcess* host_of(const Span& s, int r) {
    for (const OtherProcess& o : s.others)
        if (std::binary_search(o.members.begin(), o.members.end(), r)) return &o;
    return nullptr;
}

// Sends the staged entries of `ranks` to process `to`, as of `c`'s arrival, written
// straight into the event. The entry of rank `folded` (if any) holds the fold of the
// communicator's top ranks from it up (fold_top_ranks) and goes as rank -1 - folded; a
// scan's fold of its bottom ranks 0..b (send_bottom_ranks) goes as rank -1 - b instead.
void send_staged(Span& s, Context& c, const OtherProcess& to, const std::vector<int>& ranks, int folded = -1,
                 std::int32_t folded_wire = 0) {
    std::uint64_t bytes = 0;
    for (int r : ranks) bytes += sizeof(std::int32_t) + s.remote[static_cast<std::size_t>(r)].size();
    Message* m = new_event(c, to, static_cast<int>(ranks.size()), bytes);
    char* at = body_of(m);
    for (int r : ranks) {
        const std::int32_t wire = r != folded ? r : folded_wire != 0 ? folded_wire : -1 - r;
        std::memcpy(at, &wire, sizeof wire);
        at += sizeof wire;
        const std::vector<char>& e = s.remote[static_cast<std::size_t>(r)];
        if (!e.empty()) std::memcpy(at, e.data(), e.size());
        at += e.size();
    }
    c.engine.emit(m);
}

Block input_block(const ReduceArgs& a) {
    return Block{const_cast<void*>(a.in_place ? a.recvbuf : a.sendbuf), a.count, a.type, a.bytes};
}

// Gather(v): rank i's staged entry into the root's block i (the root is in the call: it
// depends on everyone).
void gather_into_root(Span& s, int i) {
    const auto [bytes, data] = BlockReader(s.remote[static_cast<std::size_t>(i)]).next();
    unpack_into(*s.ctx[static_cast<std::size_t>(s.root)], data, bytes, i,
                spanning_args_of<RootedArgs>(s, s.root).blocks.block(i));
    drop_entry(s, i);
}

void spanning_gather_arrived(Span& s, Context& c, const RootedArgs& a) {
    const int r = c.rank;
    if (r == a.root) {
        s.root_here = true;
        if (!a.in_place) move_block(c, a.mine, c, a.blocks.block(r));
        for (int i = 0; i < s.size; ++i)
            if (i != r && has_entry(s, i)) gather_into_root(s, i);
    } else if (s.root_here) {
        move_block(c, a.mine, *s.ctx[static_cast<std::size_t>(a.root)], spanning_args_of<RootedArgs>(s, a.root).blocks.block(r));
    } else {
        s.remote[static_cast<std::size_t>(r)] = entry_of(c, a.mine);  // this rank may leave first
    }
}

// Reduce, once every input is here (on the root's process): x_0 op (x_1 op (...)) into
// the root's receive buffer, folded from the top as in one process (from the remote fold
// of the top ranks, if one came: its first part, computed in the same order).
void spanning_deliver_reduce(Span& s) {
    const int p = s.size;
    const int root = s.root;
    const int top = s.folded_from >= 0 ? s.folded_from : p - 1;  // ranks above are in its entry
    const ReduceArgs& a = spanning_args_of<ReduceArgs>(s, root);
    Context& rc = *s.ctx[static_cast<std::size_t>(root)];
    std::vector<std::pair<std::uint64_t, const char*>> in(static_cast<std::size_t>(top) + 1);
    bool carried = true;
    for (int i = 0; i <= top; ++i) {
        if (i == root) continue;
        in[static_cast<std::size_t>(i)] = BlockReader(s.remote[static_cast<std::size_t>(i)]).next();
        const std::uint64_t bytes = in[static_cast<std::size_t>(i)].first;
        if (bytes != a.bytes) {
            fail(rc, MPI_ERR_OTHER, "rank " + std::to_string(i) + " contributed " + std::to_string(bytes) +
                                        " bytes, the root " + std::to_string(a.bytes) +
                                        ": the ranks passed different counts or datatypes");
            return;
        }
        carried = carried && in[static_cast<std::size_t>(i)].second;
    }
    if (a.count == 0 || !rc.carries(a.bytes) || !carried) return;
    TypedScratch acc(true, a.count, a.type), x(true, a.count, a.type);
    const void* root_input = owned(rc, input_block(a).buf, a.count, a.type);
    const auto input = [&](int i) -> const void* {
        if (i == root) return root_input;
        unpack_data(in[static_cast<std::size_t>(i)].second, a.bytes, x.data(), a.count, a.type);
        return x.data();
    };
    copy_data(input(top), a.count, a.type, a.bytes, acc.data(), a.count, a.type);
    for (int i = top - 1; i >= 0; --i) real_mpi.Reduce_local(input(i), acc.data(), a.count, a.type, a.op);
    copy_data(acc.data(), a.count, a.type, a.bytes, owned(rc, a.recvbuf, a.count, a.type), a.count, a.type);
}

// Reduce, on a process without the root that holds the communicator's top ranks f..p-1
// (as the last process of a block placement does): the root's fold starts with
// x_f op (x_{f+1} op (... op x_{p-1})), the same operations in the same order, so they are
// done here, and one folded entry crosses instead of p - f inputs. `c` is the last local
// arrival, whose arguments type the inputs. Returns f (p if nothing was folded: fewer than
// two such ranks, no data, or an input whose size disagrees, left for the root to report).
int fold_top_ranks(Span& s, Context& c, const ReduceArgs& a) {
    const int p = s.size;
    int first = p;
    for (auto it = s.local_members.rbegin(); it != s.local_members.rend() && *it == first - 1; ++it) --first;
    if (p - first < 2 || a.count == 0 || !c.carries(a.bytes)) return p;
    std::vector<const char*> data(static_cast<std::size_t>(p));
    for (int i = first; i < p; ++i) {
        const auto [bytes, at] = BlockReader(s.remote[static_cast<std::size_t>(i)]).next();
        if (bytes != a.bytes || !at) return p;
        data[static_cast<std::size_t>(i)] = at;
    }
    TypedScratch acc(true, a.count, a.type), x(true, a.count, a.type);
    unpack_data(data[static_cast<std::size_t>(p) - 1], a.bytes, acc.data(), a.count, a.type);
    for (int i = p - 2; i >= first; --i) {
        unpack_data(data[static_cast<std::size_t>(i)], a.bytes, x.data(), a.count, a.type);
        real_mpi.Reduce_local(x.data(), acc.data(), a.count, a.type, a.op);
    }
    for (int i = first; i < p; ++i) drop_entry(s, i);
    std::vector<char>& e = s.remote[static_cast<std::size_t>(first)];
    put<std::int32_t>(e, 1);
    put<std::uint64_t>(e, a.bytes);
    put<std::uint8_t>(e, 1);
    const std::size_t at = e.size();
    e.resize(at + a.bytes);
    pack_data(acc.data(), a.count, a.type, e.data() + at, a.bytes);
    return first;
}

// Scatter(v): local rank d's block, staged or received, into its buffer.
void scatter_to(Span& s, int d) {
    const RootedArgs& a = spanning_args_of<RootedArgs>(s, d);
    const auto [bytes, data] = BlockReader(s.remote[static_cast<std::size_t>(d)]).next();
    unpack_into(*s.ctx[static_cast<std::size_t>(d)], data, bytes, a.root, a.mine);
    drop_entry(s, d);
}

// Scatter(v): the root's blocks for the ranks that have arrived (they depend on the root,
// so they are still in the call); later arrivals take theirs when they come.
void scatter_root_data(Span& s) {
    s.root_here = true;
    for (int d : s.local_members)
        if (d != s.root && s.ctx[static_cast<std::size_t>(d)] && has_entry(s, d)) scatter_to(s, d);
}

void spanning_scatter_arrived(Span& s, Context& c, const RootedArgs& a) {
    const int r = c.rank;
    if (r != a.root) {
        if (s.root_here) scatter_to(s, r);
        return;
    }
    // The root: each other process gets its members' blocks now, like Bcast.
    for (const OtherProcess& o : s.others) {
        std::vector<char> body;
        for (int d : o.members) {
            put<std::int32_t>(body, d);
            put<std::int32_t>(body, 1);
            put_block(body, c, a.blocks.block(d));
        }
        send_entries(c, o, static_cast<int>(o.members.size()), body);
    }
    for (int d : s.local_members)
        if (d != r) s.remote[static_cast<std::size_t>(d)] = entry_of(c, a.blocks.block(d));
    if (!a.in_place) move_block(c, a.blocks.block(r), c, a.mine);
    scatter_root_data(s);
}

// Scan, Exscan: folds x_prefix, x_prefix+1, ... while they are here, and writes each local
// rank's result as soon as its prefix is complete (it cannot leave before). A remote input
// is read with the arguments of the next local rank above it, which is still in the call.
void advance_scan(Span& s) {
    const bool exclusive = s.kind == CollKind::Exscan;
    const int last = s.local_members.back();
    while (s.prefix <= last) {
        const int i = s.prefix;
        if (!has_entry(s, i)) return;
        const int user = *std::lower_bound(s.local_members.begin(), s.local_members.end(), i);
        Context* cu = s.ctx[static_cast<std::size_t>(user)];
        if (!cu) return;
        const bool own = user == i;
        const bool folded = i == 0 && s.folded_to >= 0;  // x_0..x_{folded_to} folded by their process
        const ReduceArgs& a = spanning_args_of<ReduceArgs>(s, user);
        const auto [bytes, data] = BlockReader(s.remote[static_cast<std::size_t>(i)]).next();
        if (i == 0) s.scan_bytes = bytes;
        if (s.scan_failed || bytes != s.scan_bytes) {
            s.scan_failed = true;
            if (own)
                fail(*cu, MPI_ERR_OTHER,
                     "its input has " + std::to_string(bytes) + " bytes, rank 0's " + std::to_string(s.scan_bytes) +
                         " (or a lower rank's differed): the ranks passed different counts or datatypes");
        } else if (a.count > 0 && cu->carries(a.bytes) && data) {
            void* out = own ? owned(*cu, a.recvbuf, a.count, a.type) : nullptr;
            TypedScratch next(true, a.count, a.type);
            unpack_data(data, bytes, next.data(), a.count, a.type);
            if (i > 0) {
                if (exclusive && own) copy_data(s.acc.data(), a.count, a.type, a.bytes, out, a.count, a.type);
                real_mpi.Reduce_local(s.acc.data(), next.data(), a.count, a.type, a.op);  // acc op x_i
            }
            if (!exclusive && own) copy_data(next.data(), a.count, a.type, a.bytes, out, a.count, a.type);
            s.acc = std::move(next);
        }
        if (i == s.bottom && !s.bottom_sent && !s.scan_failed && a.count > 0 && cu->carries(a.bytes) && data) {
            // The fold of the bottom ranks, for send_bottom_ranks (acc moves on past them).
            std::vector<char>& e = s.bottom_fold;
            put<std::int32_t>(e, 1);
            put<std::uint64_t>(e, a.bytes);
            put<std::uint8_t>(e, 1);
            const std::size_t at = e.size();
            e.resize(at + a.bytes);
            pack_data(s.acc.data(), a.count, a.type, e.data() + at, a.bytes);
        }
        if (i > s.bottom || s.bottom_sent) drop_entry(s, i);  // the bottom ranks' wait for send_bottom_ranks
        s.prefix = folded ? s.folded_to + 1 : i + 1;
    }
}

// Scans: the ranks 0..b this process holds from the bottom up (b = -1 if it lacks rank 0).
int bottom_ranks(const Span& s) {
    int b = -1;
    for (int r : s.local_members) {
        if (r != b + 1) break;
        b = r;
    }
    return b;
}

// Scans, once ranks 0..b of this process's bottom run have all arrived (`c` the last): every
// other process hosts only ranks above b, which depend on all of them, so one event sent now
// is in time for all (see header). It carries (x_0 op x_1) op ... op x_b, the fold every
// higher rank starts with, computed in the same order (kept by advance_scan as it passed
// b: by now it may have folded further); or, without data or after a disagreement, the
// inputs themselves.
void send_bottom_ranks(Span& s, Context& c) {
    const int b = s.bottom;
    s.bottom_sent = true;
    std::vector<int> ranks;
    if (!s.bottom_fold.empty()) {  // made by advance_scan as it passed b
        s.remote[0] = std::move(s.bottom_fold);
        for (const OtherProcess& o : s.others) send_staged(s, c, o, {0}, 0, -1 - b);
    } else {
        for (int r = 0; r <= b; ++r) ranks.push_back(r);
        for (const OtherProcess& o : s.others) send_staged(s, c, o, ranks);
    }
    for (int r = 0; r <= b; ++r) drop_entry(s, r);
}

void spanning_scan_arrived(Span& s, Context& c, const ReduceArgs& a) {
    const int r = c.rank;
    if (s.bottom == -2) s.bottom = bottom_ranks(s);
    s.remote[static_cast<std::size_t>(r)] = entry_of(c, input_block(a));
    // Above the bottom run, the higher ranks of another process may leave as soon as this
    // rank's input reaches them, before this process's last member arrives: sent now, to
    // each process that has a higher rank.
    if (r > s.bottom)
        for (const OtherProcess& o : s.others)
            if (o.members.back() > r) send_staged(s, c, o, {r});
    advance_scan(s);
    if (s.bottom >= 0 && !s.bottom_sent && s.prefix > s.bottom) send_bottom_ranks(s, c);
}

void deliver(Span& s) {
    switch (s.kind) {
        case CollKind::Allreduce: return spanning_deliver_allreduce(s);
        case CollKind::ReduceScatter:
        case CollKind::ReduceScatterBlock: return spanning_deliver_reduce_scatter(s);
        case CollKind::Allgather:
        case CollKind::Allgatherv: return spanning_deliver_allgather(s);
        case CollKind::Alltoall:
        case CollKind::Alltoallv:
        case CollKind::Alltoallw: return spanning_deliver_alltoall(s);
        default: return;
    }
}

// Bcast: the root's data, from its arrival or its event, into the local ranks that wait.
void bcast_root_data(Span& s, int root) {
    s.root_here = true;
    for (int r : s.local_members) {
        Context* c = s.ctx[static_cast<std::size_t>(r)];
        if (r == root || !c) continue;
        unpack_into(*c, s.from_root.data(), s.from_root.size(), root, spanning_args_of<BcastArgs>(s, r).data);
    }
}

// Whether this process is done with the call: nothing more arrives or leaves from here.
bool finished(const Span& s) {
    if (s.local_expected < 0) return false;  // only remote data so far
    const bool all_local = s.local_arrived == s.local_expected;
    switch (s.kind) {
        case CollKind::Bcast:
        case CollKind::Scatter:
        case CollKind::Scatterv: return s.root_here && all_local;
        case CollKind::Gather:
        case CollKind::Gatherv:
        case CollKind::Reduce: return all_local && (host_of(s, s.root) || s.present == s.size);
        case CollKind::Scan:
        case CollKind::Exscan: return s.prefix > s.local_members.back();
        default: return s.present == s.size;
    }
}

void close_if_done(Engine& e, const SpanningCallKey& key, Span& s) {
    if (finished(s)) layer_state<Spans>(e).open.erase(key);
}

// This rank's arrival (ctx and args noted); false if the call disagrees with the meeting.
Span* enter(Context& c, const void* args, SpanningCallKey& key) {
    key = key_of(c);
    Span& s = span_of(c.engine, key, c.kind, c.size);
    if (s.kind != c.kind) {
        // The skeleton's messages report the mismatch to the other ranks.
        fail(c, MPI_ERR_OTHER, std::string("another rank called ") + names(s.kind).mpi +
                                   ": the ranks called different collectives");
        return nullptr;
    }
    learn_members(s, c);
    s.ctx[static_cast<std::size_t>(c.rank)] = &c;
    s.args[static_cast<std::size_t>(c.rank)] = args;
    ++s.local_arrived;
    return &s;
}

// Allgather(v), Allreduce, Alltoall(v,w): everyone depends on everyone.
void arrive_all(Context& c, const void* args) {
    SpanningCallKey key;
    Span* s = enter(c, args, key);
    if (!s) return;
    ++s->present;
    if (s->local_arrived == s->local_expected) send_local_contributions(*s, c);
    if (s->present == s->size) deliver(*s);
    close_if_done(c.engine, key, *s);
}

// Gather(v), Reduce: only the root depends on everyone. Contributions are staged at
// arrival; when this process's last member arrives, they go to the root's process at once.
void arrive_fan_in(Context& c, const void* args, int root) {
    SpanningCallKey key;
    Span* s = enter(c, args, key);
    if (!s) return;
    s->root = root;
    ++s->present;
    const bool reduce = c.kind == CollKind::Reduce;
    if (!reduce) spanning_gather_arrived(*s, c, *static_cast<const RootedArgs*>(args));
    else if (c.rank != root)
        s->remote[static_cast<std::size_t>(c.rank)] = entry_of(c, input_block(*static_cast<const ReduceArgs*>(args)));
    const OtherProcess* root_host = host_of(*s, root);
    if (root_host && s->local_arrived == s->local_expected) {
        // Reduce: the top ranks' inputs are folded here if this process holds them.
        const int folded = reduce ? fold_top_ranks(*s, c, *static_cast<const ReduceArgs*>(args)) : s->size;
        std::vector<int> ranks;
        for (int r : s->local_members)
            if (r <= folded) ranks.push_back(r);
        send_staged(*s, c, *root_host, ranks, folded);
    }
    if (!root_host && c.kind == CollKind::Reduce && s->present == s->size) spanning_deliver_reduce(*s);
    close_if_done(c.engine, key, *s);
}

}  // namespace

void arrive_spanning(Context& c, const ReduceArgs& a) {
    switch (c.kind) {
        case CollKind::Reduce: return arrive_fan_in(c, &a, a.root);
        case CollKind::Scan:
        case CollKind::Exscan: {
            SpanningCallKey key;
            Span* s = enter(c, &a, key);
            if (!s) return;
            spanning_scan_arrived(*s, c, a);
            return close_if_done(c.engine, key, *s);
        }
        default: return arrive_all(c, &a);  // Allreduce
    }
}
void arrive_spanning(Context& c, const AllgatherArgs& a) { arrive_all(c, &a); }
void arrive_spanning(Context& c, const AlltoallArgs& a) { arrive_all(c, &a); }
void arrive_spanning(Context& c, const ReduceScatterArgs& a) { arrive_all(c, &a); }

void arrive_spanning(Context& c, const RootedArgs& a) {
    if (c.kind == CollKind::Gather || c.kind == CollKind::Gatherv) return arrive_fan_in(c, &a, a.root);
    SpanningCallKey key;
    Span* s = enter(c, &a, key);
    if (!s) return;
    s->root = a.root;
    spanning_scatter_arrived(*s, c, a);
    close_if_done(c.engine, key, *s);
}

void arrive_spanning(Context& c, const BcastArgs& a) {
    SpanningCallKey key;
    Span* s = enter(c, &a, key);
    if (!s) return;
    if (c.rank == a.root) {
        s->from_root = pack_of(c, a.data);
        std::vector<char> body;
        put<std::int32_t>(body, c.rank);
        put<std::int32_t>(body, 1);
        put_block(body, c, a.data);
        for (const OtherProcess& o : s->others) send_entries(c, o, 1, body);
        bcast_root_data(*s, c.rank);
    } else if (s->root_here) {
        unpack_into(c, s->from_root.data(), s->from_root.size(), a.root, a.data);
    }
    close_if_done(c.engine, key, *s);
}

void accept_collective_data(Engine& engine, Message* m) {
    const char* at = m->payload;
    const auto head = get<WireHead>(at);
    const CollKind kind = static_cast<CollKind>(head.kind);
    const SpanningCallKey key{head.context, head.first_world, head.tag};
    Span& s = span_of(engine, key, kind, head.size);
    if (s.kind == kind) {
        for (int i = 0; i < head.entries; ++i) {
            const char* start = at;
            auto rank = get<std::int32_t>(at);
            int covers = 1;
            if (rank < 0 && kind == CollKind::Reduce) {  // the fold of the top ranks from -1 - rank up
                rank = -1 - rank;
                covers = head.size - rank;
                s.folded_from = rank;
            } else if (rank < 0) {  // scans: the fold of the bottom ranks 0..-1 - rank
                s.folded_to = -1 - rank;
                rank = 0;
            }
            int blocks = get<std::int32_t>(at);
            while (blocks-- > 0) {
                const auto bytes = get<std::uint64_t>(at);
                if (get<std::uint8_t>(at) != 0) at += bytes;
            }
            std::vector<char>& entry = s.remote[static_cast<std::size_t>(rank)];
            entry.assign(start + sizeof(std::int32_t), at);
            s.present += covers;
            if (kind == CollKind::Bcast) {
                BlockReader r(entry);
                const auto [bytes, data] = r.next();
                if (data) s.from_root.assign(data, data + bytes);
                else s.from_root.assign(bytes, 0);  // not carried: its size is still checked
                bcast_root_data(s, rank);
            }
            if ((kind == CollKind::Gather || kind == CollKind::Gatherv) && s.root_here) gather_into_root(s, rank);
        }
        // The local ranks that need this data are still in the call (they depend on the senders).
        switch (kind) {
            case CollKind::Bcast:
            case CollKind::Gather:
            case CollKind::Gatherv: break;
            case CollKind::Scatter:
            case CollKind::Scatterv:
                if (s.local_expected >= 0) scatter_root_data(s);
                else s.root_here = true;  // the members take their blocks when they arrive
                break;
            case CollKind::Reduce:
                if (s.present == s.size) spanning_deliver_reduce(s);
                break;
            case CollKind::Scan:
            case CollKind::Exscan:
                if (s.local_expected >= 0) advance_scan(s);
                break;
            default:
                if (s.present == s.size) deliver(s);
        }
    }
    // (A disagreeing kind is reported by the skeleton's messages; its data is dropped.)
    engine.free_message(m);
    close_if_done(engine, key, s);
}

}  // namespace xsim::colls
