#include "libxsim/colls/make_comm_split.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <unordered_map>
#include <vector>

#include "libxsim/colls/schedule.hpp"
#include "libxsim/colls/make_comm.hpp"
#include "libxsim/mpi/group.hpp"

namespace xsim {
namespace {

constexpr std::uint64_t kSplit = 0x73706c;
constexpr int kUndefinedMember = -2;  // descriptor.list of a rank that passed MPI_UNDEFINED
constexpr int kRegular = -1;          // descriptor.list of a rank whose group is regular

struct Descriptor {
    std::int32_t new_rank, new_size, first, stride, list;
};

// Descriptors of a subtree [lo, hi) of the parent's ranks, with the explicit lists they
// refer to, flattened to int32s for the wire: count, nlists, descriptors, then per list
// its length and members.
struct Subtree {
    std::vector<Descriptor> members;
    std::vector<std::vector<int>> lists;

    std::vector<std::int32_t> encode() const {
        std::vector<std::int32_t> out{static_cast<std::int32_t>(members.size()), static_cast<std::int32_t>(lists.size())};
        for (const Descriptor& d : members) out.insert(out.end(), {d.new_rank, d.new_size, d.first, d.stride, d.list});
        for (const auto& l : lists) {
            out.push_back(static_cast<std::int32_t>(l.size()));
            out.insert(out.end(), l.begin(), l.end());
        }
        return out;
    }
    static Subtree decode(const std::vector<std::int32_t>& in) {
        Subtree t;
        std::size_t at = 2;
        t.members.resize(static_cast<std::size_t>(in[0]));
        for (Descriptor& d : t.members) {
            d = {in[at], in[at + 1], in[at + 2], in[at + 3], in[at + 4]};
            at += 5;
        }
        t.lists.resize(static_cast<std::size_t>(in[1]));
        for (auto& l : t.lists) {
            const auto n = static_cast<std::size_t>(in[at++]);
            l.assign(in.begin() + static_cast<long>(at), in.begin() + static_cast<long>(at + n));
            at += n;
        }
        return t;
    }
    // Members [lo, hi) (offsets into this subtree) with only the lists they use.
    Subtree slice(std::size_t lo, std::size_t hi) const {
        Subtree t;
        std::unordered_map<int, int> renumber;
        for (std::size_t i = lo; i < hi; ++i) {
            Descriptor d = members[i];
            if (d.list >= 0) {
                auto [it, fresh] = renumber.try_emplace(d.list, static_cast<int>(t.lists.size()));
                if (fresh) t.lists.push_back(lists[static_cast<std::size_t>(d.list)]);
                d.list = it->second;
            }
            t.members.push_back(d);
        }
        return t;
    }
};

// The root's work: sort by (color, key, parent rank) and describe each member's group.
Subtree describe_split(const std::vector<std::int32_t>& pairs, const Comm& parent, const Rank& me) {
    const int n = parent.size;
    Subtree all;
    all.members.assign(static_cast<std::size_t>(n), Descriptor{0, 0, 0, 1, kUndefinedMember});
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    auto color = [&](int r) { return pairs[2 * static_cast<std::size_t>(r)]; };
    auto key = [&](int r) { return pairs[2 * static_cast<std::size_t>(r) + 1]; };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return color(a) != color(b) ? color(a) < color(b) : key(a) < key(b);
    });
    for (std::size_t begin = 0; begin < order.size();) {
        std::size_t end = begin;
        while (end < order.size() && color(order[end]) == color(order[begin])) ++end;
        if (color(order[begin]) != MPI_UNDEFINED) {
            std::vector<int> worlds;
            for (std::size_t i = begin; i < end; ++i) worlds.push_back(parent.world_rank(order[i], me));
            Group* g = make_group(worlds);
            int list = kRegular;
            if (!g->regular()) {
                list = static_cast<int>(all.lists.size());
                all.lists.push_back(std::move(worlds));
            }
            for (std::size_t i = begin; i < end; ++i)
                all.members[static_cast<std::size_t>(order[i])] =
                    Descriptor{static_cast<int>(i - begin), static_cast<int>(end - begin), g->first, g->stride, list};
            unref(g);
        }
        begin = end;
    }
    return all;
}

// Groups made by one split, shared by the members in this process, under the key
// (context, first member): unique among live communicators (see context_ids.hpp).
Group* shared_group(std::uint32_t context, const Descriptor& d, const Subtree& mine) {
    const int first = d.list >= 0 ? mine.lists[static_cast<std::size_t>(d.list)][0] : d.first;
    const std::uint64_t key = static_cast<std::uint64_t>(context) << 32 | static_cast<std::uint32_t>(first);
    if (Group* g = find_shared_group(key)) {
        if (g->size == d.new_size) return g;
        unref(g);
    }
    Group* g = d.list >= 0 ? make_group(mine.lists[static_cast<std::size_t>(d.list)])
                           : make_range_group(d.first, d.stride, d.new_size);
    share_group(key, g);
    return g;
}

// Binomial tree rooted at parent rank 0: rank r's subtree is [r, r + lowbit(r)).
int subtree_span(int rank, int size) {
    int span = 1;
    while (span < size && !(rank & span)) span <<= 1;
    return std::min(span, size - rank);
}

colls::Steps gather_split_pairs(colls::Context& c, std::vector<std::int32_t>& pairs) {
    const int span = subtree_span(c.rank, c.size);
    for (int mask = 1; mask < span; mask <<= 1) {
        const int child = c.rank + mask;
        const int count = std::min(mask, c.size - child);
        c.recv_bytes(child, pairs.data() + 2 * mask, 8ull * static_cast<std::uint64_t>(count));
    }
    co_await c.round();
    if (c.rank != 0) {
        c.send_bytes(c.rank - (c.rank & -c.rank), pairs.data(), 8ull * static_cast<std::uint64_t>(span));
        co_await c.round();
    }
}

// Each message is preceded by its length, which the receiver cannot know.
colls::Steps scatter_descriptors(colls::Context& c, Subtree& mine) {
    const int span = subtree_span(c.rank, c.size);
    if (c.rank != 0) {
        const int parent = c.rank - (c.rank & -c.rank);
        std::int64_t length = 0;
        c.recv_bytes(parent, &length, sizeof length);
        co_await c.round();
        std::vector<std::int32_t> wire(static_cast<std::size_t>(length));
        c.recv_bytes(parent, wire.data(), 4ull * static_cast<std::uint64_t>(length));
        co_await c.round();
        mine = Subtree::decode(wire);
    }
    int top = 1;
    while (top < span) top <<= 1;
    std::vector<std::vector<std::int32_t>> wires;
    std::vector<std::int64_t> lengths;
    wires.reserve(32);
    lengths.reserve(32);
    for (int mask = top >> 1; mask >= 1; mask >>= 1) {
        if (mask >= span) continue;
        const int child = c.rank + mask;
        const std::size_t hi = static_cast<std::size_t>(std::min(2 * mask, span));
        wires.push_back(mine.slice(static_cast<std::size_t>(mask), hi).encode());
        lengths.push_back(static_cast<std::int64_t>(wires.back().size()));
        c.send_bytes(child, &lengths.back(), sizeof(std::int64_t));
        c.send_bytes(child, wires.back().data(), 4ull * wires.back().size());
    }
    co_await c.round();
}

}  // namespace

int split_comm(CallScope& scope, const Comm& parent, int color, int key, Comm** out) {
    *out = nullptr;
    Rank& me = scope.rank;
    colls::Context ctx(scope.engine, me, parent, colls::CollKind::CommSplit, 0);
    ctx.carries_data = true;
    std::vector<std::int32_t> pairs(2 * static_cast<std::size_t>(subtree_span(ctx.rank, ctx.size)));
    pairs[0] = color;
    pairs[1] = key;
    if (int e = colls::run_blocking(ctx, gather_split_pairs(ctx, pairs))) return scope.fail(&parent, e, ctx.error);
    Subtree mine;
    if (ctx.rank == 0) mine = describe_split(pairs, parent, me);
    std::vector<std::int32_t>().swap(pairs);
    colls::Context down(scope.engine, me, parent, colls::CollKind::CommSplit, 0);
    down.carries_data = true;
    if (int e = colls::run_blocking(down, scatter_descriptors(down, mine))) return scope.fail(&parent, e, down.error);

    const ContextId id = derive_context(parent.context, creation_counter(me, parent)++, kSplit);
    const Descriptor& d = mine.members[0];
    if (d.list == kUndefinedMember) return MPI_SUCCESS;
    *out = new_derived_comm(me, parent, shared_group(id.context, d, mine), d.new_rank, id);
    return MPI_SUCCESS;
}

}  // namespace xsim
