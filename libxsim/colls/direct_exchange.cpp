#include "libxsim/colls/direct_exchange.hpp"
#include "libxsim/colls/exchange_blocks.hpp"
#include "libxsim/colls/spanning_exchange.hpp"

#include <cstring>
#include <map>
#include <tuple>
#include <vector>

#include "libxsim/engine/layer_state.hpp"
#include "libxsim/engine/rank_buffer.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::colls {
namespace {

// One call's ranks that have arrived: their contexts and arguments, by communicator rank.
// Rooted collectives and scans let ranks leave before everyone has arrived (the root of a
// Bcast or Scatter, the others of a Gather or Reduce, a scan's lower ranks): what they
// contribute is staged here, packed, when they arrive, and ctx/args of a rank that may
// have left are not used again.
struct Meeting {
    CollKind kind{};
    int arrived = 0;
    std::vector<Context*> ctx;
    std::vector<const void*> args;
    std::vector<std::vector<char>> staged;  // per rank (Gather, Reduce, scans)
    std::vector<char> from_root;            // Bcast, Scatter: the root's data, packed
    std::vector<std::uint64_t> offsets;     // Scatter: block i of from_root starts at offsets[i]
    bool root_arrived = false;
    int root = -1;                          // Reduce
    int prefix = 0;                         // scans: ranks 0..prefix-1 have their result
    std::vector<char> acc;                  // scans: x_0 op ... op x_{prefix-1}, typed
    std::uint64_t scan_bytes = 0;           // scans: rank 0's input size
    bool scan_failed = false;               // scans: an input disagreed; no more results
};

// A call is its communicator (collective context, and the world rank of its rank 0, which
// tells apart disjoint communicators that share a context) and its number there.
using CallKey = std::tuple<std::uint32_t, int, int>;

struct Meetings final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::CollectiveMeetings;
    std::map<CallKey, Meeting> open;
};

template <class Args>
const Args& args_of(const Meeting& m, int rank) {
    return *static_cast<const Args*>(m.args[static_cast<std::size_t>(rank)]);
}

// Allgather (uniform blocks of one size on every rank): every rank's block is packed once
// and each rank unpacks the whole result with one call, instead of p^2 block copies.
bool deliver_uniform_allgather(Meeting& m) {
    const int p = static_cast<int>(m.ctx.size());
    const auto from = [&](int s) {
        const AllgatherArgs& a = args_of<AllgatherArgs>(m, s);
        return a.in_place ? a.recv.block(s) : a.mine;
    };
    const std::uint64_t block = from(0).bytes;
    for (int r = 0; r < p; ++r) {
        const AllgatherArgs& a = args_of<AllgatherArgs>(m, r);
        if (!a.recv.uniform() || a.recv.bytes_of(0) != block || from(r).bytes != block) return false;
    }
    if (block == 0 || !m.ctx[0]->carries(block)) return true;
    std::vector<char> packed(block * static_cast<std::uint64_t>(p));
    for (int s = 0; s < p; ++s) {
        const Block b = from(s);
        pack_data(owned(*m.ctx[s], b.buf, b.count, b.type), b.count, b.type, packed.data() + block * s, block);
    }
    for (int d = 0; d < p; ++d) {
        const Block all = args_of<AllgatherArgs>(m, d).recv.run(0, p);
        unpack_data(packed.data(), packed.size(), owned(*m.ctx[d], all.buf, all.count, all.type), all.count,
                    all.type);
    }
    return true;
}

void deliver_allgather(Meeting& m) {
    if (deliver_uniform_allgather(m)) return;
    // Varying blocks, or sizes that disagree (reported block by block).
    const int p = static_cast<int>(m.ctx.size());
    for (int s = 0; s < p; ++s) {
        Context& src = *m.ctx[s];
        const AllgatherArgs& as = args_of<AllgatherArgs>(m, s);
        const Block from = as.in_place ? as.recv.block(s) : as.mine;
        for (int d = 0; d < p; ++d) {
            const AllgatherArgs& ad = args_of<AllgatherArgs>(m, d);
            if (d == s && ad.in_place) continue;
            move_block(src, from, *m.ctx[d], ad.recv.block(s));
        }
    }
}

void deliver_alltoall(Meeting& m) {
    const int p = static_cast<int>(m.ctx.size());
    for (int d = 0; d < p; ++d) {
        const AlltoallArgs& ad = args_of<AlltoallArgs>(m, d);
        for (int s = 0; s < p; ++s) move_block(*m.ctx[s], args_of<AlltoallArgs>(m, s).send.block(d), *m.ctx[d],
                                               ad.recv.block(s));
    }
}

// x_0 op x_1 op ... op x_{p-1}, in rank order whatever the op (as the linear reduce):
// into `acc`, laid out as `count` elements of `type`.
void reduce_in_rank_order(Meeting& m, const void* (*input)(const Meeting&, int), int count, MPI_Datatype type,
                          MPI_Op op, void* acc) {
    const int p = static_cast<int>(m.ctx.size());
    copy_data(owned(*m.ctx[p - 1], const_cast<void*>(input(m, p - 1)), count, type), count, type,
              static_cast<std::uint64_t>(count) * type_size(type), acc, count, type);
    for (int i = p - 2; i >= 0; --i)
        real_mpi.Reduce_local(owned(*m.ctx[i], const_cast<void*>(input(m, i)), count, type), acc, count, type, op);
}

// Every rank must pass the same count and datatype (size); otherwise the reduction would
// read past a buffer. (The op cannot be compared: each rank creates its own user ops.)
bool same_reduction(Meeting& m, std::int64_t (*count)(const Meeting&, int), MPI_Datatype (*type)(const Meeting&, int)) {
    const int p = static_cast<int>(m.ctx.size());
    const std::uint64_t bytes = static_cast<std::uint64_t>(count(m, 0)) * type_size(type(m, 0));
    bool same = true;
    for (int i = 1; i < p && same; ++i)
        same = static_cast<std::uint64_t>(count(m, i)) * type_size(type(m, i)) == bytes;
    if (!same)
        for (int i = 0; i < p; ++i)
            fail(*m.ctx[i], MPI_ERR_OTHER, "the ranks passed different counts or datatypes");
    return same;
}

void deliver_allreduce(Meeting& m) {
    const ReduceArgs& a0 = args_of<ReduceArgs>(m, 0);
    const bool same = same_reduction(
        m, [](const Meeting& mm, int i) { return std::int64_t{args_of<ReduceArgs>(mm, i).count}; },
        [](const Meeting& mm, int i) { return args_of<ReduceArgs>(mm, i).type; });
    if (!same || a0.count == 0 || !m.ctx[0]->carries(a0.bytes)) return;
    TypedScratch acc(true, a0.count, a0.type);
    reduce_in_rank_order(
        m, [](const Meeting& mm, int i) { return args_of<ReduceArgs>(mm, i).sendbuf; }, a0.count, a0.type, a0.op,
        acc.data());
    for (std::size_t d = 0; d < m.ctx.size(); ++d) {
        const ReduceArgs& ad = args_of<ReduceArgs>(m, static_cast<int>(d));
        copy_data(acc.data(), a0.count, a0.type, a0.bytes, owned(*m.ctx[d], ad.recvbuf, ad.count, ad.type), ad.count,
                  ad.type);
    }
}

void deliver_reduce_scatter(Meeting& m) {
    const ReduceScatterArgs& a0 = args_of<ReduceScatterArgs>(m, 0);
    const bool same = same_reduction(
        m, [](const Meeting& mm, int i) { return args_of<ReduceScatterArgs>(mm, i).total; },
        [](const Meeting& mm, int i) { return args_of<ReduceScatterArgs>(mm, i).type; });
    if (!same || a0.total == 0 || !m.ctx[0]->carries(a0.bytes)) return;
    const int total = static_cast<int>(a0.total);
    TypedScratch acc(true, total, a0.type);
    reduce_in_rank_order(
        m, [](const Meeting& mm, int i) { return args_of<ReduceScatterArgs>(mm, i).sendbuf; }, total, a0.type, a0.op,
        acc.data());
    for (std::size_t d = 0; d < m.ctx.size(); ++d) {
        const int rank = static_cast<int>(d);
        const ReduceScatterArgs& ad = args_of<ReduceScatterArgs>(m, rank);
        const int n = ad.count_of(rank);
        if (n == 0) continue;
        copy_data(acc.element(ad.offset_of(rank)), n, ad.type, static_cast<std::uint64_t>(n) * type_size(ad.type),
                  owned(*m.ctx[d], ad.recvbuf, n, ad.type), n, ad.type);
    }
}

// `arrived` runs at each arrival (rank c.rank), `deliver` once all have arrived; either may be null.
// ---- Rooted collectives and scans: staged contributions, delivered as soon as possible.

void bcast_arrived(Meeting& m, int r) {
    const BcastArgs& a = args_of<BcastArgs>(m, r);
    const int p = static_cast<int>(m.ctx.size());
    if (r == a.root) {
        m.from_root = pack_of(*m.ctx[r], a.data);
        m.root_arrived = true;
        for (int i = 0; i < p; ++i)
            if (i != r && m.ctx[i])
                unpack_into(*m.ctx[i], m.from_root.data(), m.from_root.size(), r, args_of<BcastArgs>(m, i).data);
    } else if (m.root_arrived) {
        unpack_into(*m.ctx[r], m.from_root.data(), m.from_root.size(), a.root, a.data);
    }
}

void scatter_arrived(Meeting& m, int r) {
    const RootedArgs& a = args_of<RootedArgs>(m, r);
    const int p = static_cast<int>(m.ctx.size());
    const auto deliver = [&m](int i, int root) {
        const std::uint64_t at = m.offsets[static_cast<std::size_t>(i)];
        unpack_into(*m.ctx[i], m.from_root.data() + at, m.offsets[static_cast<std::size_t>(i) + 1] - at, root,
                    args_of<RootedArgs>(m, i).mine);
    };
    if (r != a.root) {
        if (m.root_arrived) deliver(r, a.root);
        return;
    }
    Context& root = *m.ctx[r];
    m.offsets.assign(static_cast<std::size_t>(p) + 1, 0);
    for (int i = 0; i < p; ++i)
        m.offsets[static_cast<std::size_t>(i) + 1] = m.offsets[static_cast<std::size_t>(i)] + a.blocks.bytes_of(i);
    m.from_root.resize(m.offsets.back());
    for (int i = 0; i < p; ++i) {
        const Block b = a.blocks.block(i);
        if (i == r || b.bytes == 0 || !root.carries(b.bytes)) continue;
        pack_data(owned(root, b.buf, b.count, b.type), b.count, b.type, m.from_root.data() + m.offsets[i], b.bytes);
    }
    if (!a.in_place) move_block(root, a.blocks.block(r), root, a.mine);
    m.root_arrived = true;
    for (int i = 0; i < p; ++i)
        if (i != r && m.ctx[i]) deliver(i, r);
}

void gather_arrived(Meeting& m, int r) {
    const RootedArgs& a = args_of<RootedArgs>(m, r);
    const int p = static_cast<int>(m.ctx.size());
    if (r != a.root) {
        // Straight into the root's buffer if it is there; else staged (this rank may leave).
        const int root = a.root;
        if (m.root_arrived) move_block(*m.ctx[r], a.mine, *m.ctx[root], args_of<RootedArgs>(m, root).blocks.block(r));
        else m.staged[static_cast<std::size_t>(r)] = pack_of(*m.ctx[r], a.mine);
        return;
    }
    Context& root = *m.ctx[r];
    m.root_arrived = true;
    if (!a.in_place) move_block(root, a.mine, root, a.blocks.block(r));
    for (int i = 0; i < p; ++i) {
        if (i == r || !m.ctx[i]) continue;
        std::vector<char>& in = m.staged[static_cast<std::size_t>(i)];
        unpack_into(root, in.data(), in.size(), i, a.blocks.block(i));
        std::vector<char>().swap(in);
    }
}

// A typed copy of `count` elements of `type` (laid out as the type lays them out).
struct TypedCopy {
    std::vector<char> storage;
    MPI_Aint true_lb = 0;
    void* base() { return storage.data() - true_lb; }
};
TypedCopy typed_copy(int count, MPI_Datatype type) {
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    real_mpi.Type_get_extent(type, &lb, &extent);
    real_mpi.Type_get_true_extent(type, &true_lb, &true_extent);
    const MPI_Aint span = count > 0 ? true_extent + static_cast<MPI_Aint>(count - 1) * extent : 0;
    return TypedCopy{std::vector<char>(static_cast<std::size_t>(span > 0 ? span : 1)), true_lb};
}

// Input of rank `i` of a reduction or scan, packed (staged at its arrival).
void stage_input(Meeting& m, int i) {
    const ReduceArgs& a = args_of<ReduceArgs>(m, i);
    m.staged[static_cast<std::size_t>(i)] =
        pack_of(*m.ctx[i], Block{const_cast<void*>(a.in_place ? a.recvbuf : a.sendbuf), a.count, a.type, a.bytes});
}

void reduce_arrived(Meeting& m, int r) {
    m.root = args_of<ReduceArgs>(m, r).root;
    if (r != m.root) stage_input(m, r);
}

// Reduce, at the last arrival: the root is still in the call (it depends on everyone).
void deliver_reduce(Meeting& m) {
    const int p = static_cast<int>(m.ctx.size());
    const int root = m.root;
    const ReduceArgs& a = args_of<ReduceArgs>(m, root);
    Context& rc = *m.ctx[root];
    for (int i = 0; i < p; ++i)
        if (i != root && m.staged[static_cast<std::size_t>(i)].size() != a.bytes) {
            fail(rc, MPI_ERR_OTHER, "rank " + std::to_string(i) + " contributed " +
                                        std::to_string(m.staged[static_cast<std::size_t>(i)].size()) +
                                        " bytes, the root " + std::to_string(a.bytes) +
                                        ": the ranks passed different counts or datatypes");
            return;
        }
    if (a.count == 0 || !rc.carries(a.bytes)) return;
    TypedCopy acc = typed_copy(a.count, a.type), in = typed_copy(a.count, a.type);
    const void* root_input = owned(rc, const_cast<void*>(a.in_place ? a.recvbuf : a.sendbuf), a.count, a.type);
    const auto input = [&](int i) -> const void* {
        if (i == root) return root_input;
        const std::vector<char>& s = m.staged[static_cast<std::size_t>(i)];
        unpack_data(s.data(), s.size(), in.base(), a.count, a.type);
        return in.base();
    };
    // x_0 op ... op x_{p-1}, whatever the op: from the top, each x_i on the left.
    copy_data(input(p - 1), a.count, a.type, a.bytes, acc.base(), a.count, a.type);
    for (int i = p - 2; i >= 0; --i) real_mpi.Reduce_local(input(i), acc.base(), a.count, a.type, a.op);
    copy_data(acc.base(), a.count, a.type, a.bytes, owned(rc, a.recvbuf, a.count, a.type), a.count, a.type);
}

// Scan and Exscan: rank r's result needs x_0..x_r (x_0..x_{r-1}); r cannot leave before
// all of those ranks have arrived, so each result is delivered as soon as its prefix is.
void scan_arrived(Meeting& m, int r) {
    stage_input(m, r);
    const int p = static_cast<int>(m.ctx.size());
    const bool exclusive = m.kind == CollKind::Exscan;
    while (m.prefix < p && m.ctx[m.prefix]) {
        const int i = m.prefix;
        const ReduceArgs& a = args_of<ReduceArgs>(m, i);
        Context& ci = *m.ctx[i];
        const std::vector<char>& x = m.staged[static_cast<std::size_t>(i)];
        if (i == 0) m.scan_bytes = x.size();
        if (m.scan_failed || x.size() != m.scan_bytes) {
            m.scan_failed = true;
            fail(ci, MPI_ERR_OTHER,
                 "its input has " + std::to_string(x.size()) + " bytes, rank 0's " + std::to_string(m.scan_bytes) +
                     " (or a lower rank's differed): the ranks passed different counts or datatypes");
        } else if (a.count > 0 && ci.carries(a.bytes)) {
            void* out = owned(ci, a.recvbuf, a.count, a.type);
            TypedCopy next = typed_copy(a.count, a.type);
            unpack_data(x.data(), x.size(), next.base(), a.count, a.type);
            if (i > 0) {
                TypedCopy acc{std::move(m.acc), typed_copy(a.count, a.type).true_lb};
                if (exclusive) copy_data(acc.base(), a.count, a.type, a.bytes, out, a.count, a.type);
                real_mpi.Reduce_local(acc.base(), next.base(), a.count, a.type, a.op);  // acc op x_i
            }
            if (!exclusive) copy_data(next.base(), a.count, a.type, a.bytes, out, a.count, a.type);
            m.acc = std::move(next.storage);
        }
        std::vector<char>().swap(m.staged[static_cast<std::size_t>(i)]);
        ++m.prefix;
    }
}

void meet(Context& c, const void* args, void (*arrived)(Meeting&, int), void (*deliver)(Meeting&)) {
    if (c.size == 1) {  // nobody else: the call's own copy (MPI_COMM_SELF and the like)
        Meeting alone;
        alone.kind = c.kind;
        alone.arrived = 1;
        alone.ctx = {&c};
        alone.args = {args};
        alone.staged.resize(1);
        if (arrived) arrived(alone, 0);
        if (deliver) deliver(alone);
        return;
    }
    auto& open = layer_state<Meetings>(c.engine).open;
    const CallKey key{c.comm.collective_context(), c.tag, c.comm.world_rank(0, c.me)};
    Meeting& m = open[key];
    if (m.arrived == 0) {
        m.kind = c.kind;
        m.ctx.assign(static_cast<std::size_t>(c.size), nullptr);
        m.args.assign(static_cast<std::size_t>(c.size), nullptr);
        m.staged.resize(static_cast<std::size_t>(c.size));
    }
    if (m.kind != c.kind) {
        // The skeleton's messages report the mismatch to the other ranks.
        fail(c, MPI_ERR_OTHER, std::string("another rank called ") + names(m.kind).mpi +
                                   ": the ranks called different collectives");
        return;
    }
    m.ctx[static_cast<std::size_t>(c.rank)] = &c;
    m.args[static_cast<std::size_t>(c.rank)] = args;
    ++m.arrived;
    if (arrived) arrived(m, c.rank);
    if (m.arrived < c.size) return;
    if (deliver) deliver(m);
    open.erase(key);
}

}  // namespace

bool all_ranks_local(const Context& c) {
    const Engine& e = c.engine;
    if (e.placement().processes == 1 || c.size == 1) return true;
    if (c.size > e.local_count()) return false;
    for (int i = 0; i < c.size; ++i)
        if (!e.is_local(c.comm.world_rank(i, c.me))) return false;
    return true;
}

void arrive(Context& c, const ReduceArgs& a) {
    if (!all_ranks_local(c)) return arrive_spanning(c, a);
    switch (c.kind) {
        case CollKind::Reduce: return meet(c, &a, reduce_arrived, deliver_reduce);
        case CollKind::Scan:
        case CollKind::Exscan: return meet(c, &a, scan_arrived, nullptr);
        default: return meet(c, &a, nullptr, deliver_allreduce);
    }
}
void arrive(Context& c, const BcastArgs& a) {
    if (!all_ranks_local(c)) return arrive_spanning(c, a);
    meet(c, &a, bcast_arrived, nullptr);
}
void arrive(Context& c, const RootedArgs& a) {
    if (!all_ranks_local(c)) return arrive_spanning(c, a);
    meet(c, &a, c.kind == CollKind::Gather || c.kind == CollKind::Gatherv ? gather_arrived : scatter_arrived, nullptr);
}
void arrive(Context& c, const AllgatherArgs& a) {
    if (!all_ranks_local(c)) return arrive_spanning(c, a);
    meet(c, &a, nullptr, deliver_allgather);
}
void arrive(Context& c, const AlltoallArgs& a) {
    if (!all_ranks_local(c)) return arrive_spanning(c, a);
    meet(c, &a, nullptr, deliver_alltoall);
}
void arrive(Context& c, const ReduceScatterArgs& a) {
    if (!all_ranks_local(c)) return arrive_spanning(c, a);
    meet(c, &a, nullptr, deliver_reduce_scatter);
}

}  // namespace xsim::colls
