#include "libxsim/mpi/group.hpp"

#include <algorithm>
#include <unordered_map>

#include "libxsim/mpi/process_objects.hpp"

namespace xsim {

int Group::rank_of_world(int world) const {
    if (regular()) {
        const std::int64_t offset = static_cast<std::int64_t>(world) - first;
        if (size == 0 || offset % stride != 0) return MPI_UNDEFINED;
        const std::int64_t r = offset / stride;
        return r >= 0 && r < size ? static_cast<int>(r) : MPI_UNDEFINED;
    }
    if (by_world_.empty()) {
        by_world_.reserve(members.size());
        for (int i = 0; i < size; ++i) by_world_.emplace_back(members[static_cast<std::size_t>(i)], i);
        std::sort(by_world_.begin(), by_world_.end());
    }
    auto it = std::lower_bound(by_world_.begin(), by_world_.end(), std::make_pair(world, -1));
    return it != by_world_.end() && it->first == world ? it->second : MPI_UNDEFINED;
}

std::uint64_t Group::fingerprint() const {
    // FNV-1a over the members in order.
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&h](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xff;
            h *= 1099511628211ull;
        }
    };
    mix(static_cast<std::uint64_t>(size));
    if (regular()) {
        mix(static_cast<std::uint64_t>(first));
        mix(static_cast<std::uint64_t>(size > 1 ? stride : 1));
    } else if (size > 0) {
        // An explicit group that happens to be regular was stored regular by make_group.
        for (int w : members) mix(static_cast<std::uint64_t>(w));
    }
    return h;
}

Group* make_range_group(int first, int stride, int size) {
    auto* g = new Group;
    g->size = size;
    g->first = first;
    g->stride = size > 1 ? stride : 1;
    return g;
}

Group* make_group(std::vector<int> worlds) {
    const int n = static_cast<int>(worlds.size());
    if (n == 0) return ref(empty_group());
    const std::int64_t stride = n > 1 ? static_cast<std::int64_t>(worlds[1]) - worlds[0] : 1;
    bool regular = stride != 0 && stride >= INT32_MIN && stride <= INT32_MAX;
    for (int i = 1; regular && i < n; ++i)
        regular = static_cast<std::int64_t>(worlds[static_cast<std::size_t>(i)]) ==
                  worlds[0] + stride * i;
    if (regular) return make_range_group(worlds[0], static_cast<int>(stride), n);
    auto* g = new Group;
    g->size = n;
    g->members = std::move(worlds);
    return g;
}

Group* empty_group() { return &process_objects().empty_group; }

namespace {
std::unordered_map<std::uint64_t, Group*>& shared_groups() { return process_objects().shared_groups; }
}  // namespace

Group* find_shared_group(std::uint64_t key) {
    auto it = shared_groups().find(key);
    return it == shared_groups().end() ? nullptr : ref(it->second);
}

void share_group(std::uint64_t key, Group* g) {
    if (g->shared_key) return;
    g->shared_key = key;
    shared_groups()[key] = g;
}

void unref(Group* g) {
    if (g && --g->refs == 0) {
        if (g->shared_key) shared_groups().erase(g->shared_key);
        g->magic = 0;
        delete g;
    }
}

Group* resolve_group(MPI_Group handle) {
    if (handle == MPI_GROUP_EMPTY) return empty_group();
    if (handle == MPI_GROUP_NULL || reinterpret_cast<std::uintptr_t>(handle) % alignof(Group) != 0) return nullptr;
    auto* g = reinterpret_cast<Group*>(handle);
    return g->magic == Group::kMagic ? g : nullptr;
}

int compare_groups(const Group& a, const Group& b) {
    if (a.size != b.size) return MPI_UNEQUAL;
    bool same_order = true;
    for (int i = 0; same_order && i < a.size; ++i) same_order = a.world_of(i) == b.world_of(i);
    if (same_order) return MPI_IDENT;
    for (int i = 0; i < a.size; ++i)
        if (b.rank_of_world(a.world_of(i)) == MPI_UNDEFINED) return MPI_UNEQUAL;
    return MPI_SIMILAR;
}

}  // namespace xsim
