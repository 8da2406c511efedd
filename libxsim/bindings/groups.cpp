// MPI_Group_*: local operations on shared, immutable groups (libxsim/mpi/group.hpp). Regular
// groups stay regular where the result is a range (MPI_Comm_group of WORLD, one-range
// MPI_Group_range_incl), so the usual calls cost O(1) even at a million ranks.
#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/mpi/group.hpp"

using namespace xsim;

namespace {

int group_arg(CallScope& s, MPI_Group handle, Group** out) {
    *out = resolve_group(handle);
    if (*out) return MPI_SUCCESS;
    return s.fail(nullptr, MPI_ERR_GROUP,
                  handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL is not a group" : "invalid group handle");
}

// The two groups of a binary operation and its output pointer.
int two_groups(CallScope& s, MPI_Group h1, MPI_Group h2, const void* out, Group** g1, Group** g2) {
    if (int e = group_arg(s, h1, g1)) return e;
    if (int e = group_arg(s, h2, g2)) return e;
    return checks::pointer(s, nullptr, out, "result");
}

int give_group(MPI_Group* out, Group* g) {
    *out = group_handle(g);
    if (g == empty_group()) unref(g);  // the predefined empty group is not counted
    return MPI_SUCCESS;
}

// Checks that `ranks` are n distinct valid ranks of g.
int distinct_ranks(CallScope& s, const Group& g, int n, const int* ranks) {
    if (n < 0 || n > g.size) return s.fail(nullptr, MPI_ERR_ARG, "invalid number of ranks " + std::to_string(n));
    if (n > 0 && !ranks) return s.fail(nullptr, MPI_ERR_ARG, "null ranks array");
    std::vector<int> sorted(ranks, ranks + n);
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < n; ++i) {
        if (sorted[static_cast<std::size_t>(i)] < 0 || sorted[static_cast<std::size_t>(i)] >= g.size)
            return s.fail(nullptr, MPI_ERR_RANK, "rank " + std::to_string(sorted[static_cast<std::size_t>(i)]) +
                                                     " is not in the group (size " + std::to_string(g.size) + ")");
        if (i > 0 && sorted[static_cast<std::size_t>(i)] == sorted[static_cast<std::size_t>(i - 1)])
            return s.fail(nullptr, MPI_ERR_RANK, "rank " + std::to_string(sorted[static_cast<std::size_t>(i)]) +
                                                     " is listed twice");
    }
    return MPI_SUCCESS;
}

// Expands (first, last, stride) triplets into group ranks, checking them.
int expand_ranges(CallScope& s, const Group& g, int n, int ranges[][3], std::vector<int>* out) {
    if (n < 0) return s.fail(nullptr, MPI_ERR_ARG, "negative number of ranges");
    if (n > 0 && !ranges) return s.fail(nullptr, MPI_ERR_ARG, "null ranges array");
    std::vector<char> seen(static_cast<std::size_t>(g.size), 0);
    for (int i = 0; i < n; ++i) {
        const int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0) return s.fail(nullptr, MPI_ERR_ARG, "range " + std::to_string(i) + " has stride 0");
        if (first < 0 || first >= g.size || last < 0 || last >= g.size)
            return s.fail(nullptr, MPI_ERR_RANK, "range " + std::to_string(i) + " leaves the group (size " +
                                                     std::to_string(g.size) + ")");
        for (long r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            if (seen[static_cast<std::size_t>(r)]++)
                return s.fail(nullptr, MPI_ERR_RANK, "rank " + std::to_string(r) + " is in two ranges");
            out->push_back(static_cast<int>(r));
        }
    }
    return MPI_SUCCESS;
}

Group* of_ranks(const Group& g, const std::vector<int>& ranks) {
    std::vector<int> worlds;
    worlds.reserve(ranks.size());
    for (int r : ranks) worlds.push_back(g.world_of(r));
    return make_group(std::move(worlds));
}

// The members of g (in g's order) for which keep(world) holds.
template <class Keep>
std::vector<int> members_where(const Group& g, Keep keep) {
    std::vector<int> worlds;
    for (int i = 0; i < g.size; ++i)
        if (keep(g.world_of(i))) worlds.push_back(g.world_of(i));
    return worlds;
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Comm_group)
int PMPI_Comm_group(MPI_Comm comm, MPI_Group* group) {
    XSIM_BEGIN_INITIALIZED("MPI_Comm_group");
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = checks::pointer(scope, c, group, "group")) return e;
    return give_group(group, comm_group(*c, scope.rank));
}

XSIM_MPI_ALIAS(Group_size)
int PMPI_Group_size(MPI_Group group, int* size) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_size");
    Group* g = nullptr;
    if (int e = group_arg(scope, group, &g)) return e;
    if (int e = checks::pointer(scope, nullptr, size, "size")) return e;
    *size = g->size;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Group_rank)
int PMPI_Group_rank(MPI_Group group, int* rank) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_rank");
    Group* g = nullptr;
    if (int e = group_arg(scope, group, &g)) return e;
    if (int e = checks::pointer(scope, nullptr, rank, "rank")) return e;
    *rank = g->rank_of_world(scope.rank.world);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Group_free)
int PMPI_Group_free(MPI_Group* group) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_free");
    if (int e = checks::pointer(scope, nullptr, group, "group")) return e;
    Group* g = nullptr;
    if (int e = group_arg(scope, *group, &g)) return e;
    if (g != empty_group()) unref(g);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Group_translate_ranks)
int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_translate_ranks");
    Group *g1 = nullptr, *g2 = nullptr;
    if (int e = group_arg(scope, group1, &g1)) return e;
    if (int e = group_arg(scope, group2, &g2)) return e;
    if (n < 0) return scope.fail(nullptr, MPI_ERR_ARG, "negative number of ranks");
    if (n > 0 && (!ranks1 || !ranks2)) return scope.fail(nullptr, MPI_ERR_ARG, "null ranks array");
    for (int i = 0; i < n; ++i) {
        const int r = ranks1[i];
        if (r == MPI_PROC_NULL) {
            ranks2[i] = MPI_PROC_NULL;
            continue;
        }
        if (r < 0 || r >= g1->size)
            return scope.fail(nullptr, MPI_ERR_RANK, "rank " + std::to_string(r) + " is not in the first group (size " +
                                                         std::to_string(g1->size) + ")");
        ranks2[i] = g2->rank_of_world(g1->world_of(r));
    }
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Group_compare)
int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_compare");
    Group *g1 = nullptr, *g2 = nullptr;
    if (int e = two_groups(scope, group1, group2, result, &g1, &g2)) return e;
    *result = compare_groups(*g1, *g2);
    return MPI_SUCCESS;
}

XSIM_MPI_ALIAS(Group_union)
int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* out) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_union");
    Group *g1 = nullptr, *g2 = nullptr;
    if (int e = two_groups(scope, group1, group2, out, &g1, &g2)) return e;
    std::vector<int> worlds = members_where(*g1, [](int) { return true; });
    const std::vector<int> more = members_where(*g2, [&](int w) { return g1->rank_of_world(w) == MPI_UNDEFINED; });
    worlds.insert(worlds.end(), more.begin(), more.end());
    return give_group(out, make_group(std::move(worlds)));
}

XSIM_MPI_ALIAS(Group_intersection)
int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* out) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_intersection");
    Group *g1 = nullptr, *g2 = nullptr;
    if (int e = two_groups(scope, group1, group2, out, &g1, &g2)) return e;
    return give_group(out, make_group(members_where(*g1, [&](int w) { return g2->rank_of_world(w) != MPI_UNDEFINED; })));
}

XSIM_MPI_ALIAS(Group_difference)
int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* out) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_difference");
    Group *g1 = nullptr, *g2 = nullptr;
    if (int e = two_groups(scope, group1, group2, out, &g1, &g2)) return e;
    return give_group(out, make_group(members_where(*g1, [&](int w) { return g2->rank_of_world(w) == MPI_UNDEFINED; })));
}

XSIM_MPI_ALIAS(Group_incl)
int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* out) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_incl");
    Group* g = nullptr;
    if (int e = group_arg(scope, group, &g)) return e;
    if (int e = checks::pointer(scope, nullptr, out, "newgroup")) return e;
    if (int e = distinct_ranks(scope, *g, n, ranks)) return e;
    return give_group(out, of_ranks(*g, std::vector<int>(ranks, ranks + n)));
}

XSIM_MPI_ALIAS(Group_excl)
int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* out) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_excl");
    Group* g = nullptr;
    if (int e = group_arg(scope, group, &g)) return e;
    if (int e = checks::pointer(scope, nullptr, out, "newgroup")) return e;
    if (int e = distinct_ranks(scope, *g, n, ranks)) return e;
    std::vector<int> excluded(ranks, ranks + n);
    std::sort(excluded.begin(), excluded.end());
    std::vector<int> kept;
    for (int r = 0; r < g->size; ++r)
        if (!std::binary_search(excluded.begin(), excluded.end(), r)) kept.push_back(r);
    return give_group(out, of_ranks(*g, kept));
}

XSIM_MPI_ALIAS(Group_range_incl)
int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* out) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_range_incl");
    Group* g = nullptr;
    if (int e = group_arg(scope, group, &g)) return e;
    if (int e = checks::pointer(scope, nullptr, out, "newgroup")) return e;
    if (n == 1 && ranges && g->regular() && ranges[0][2] != 0) {
        // One range of a regular group is regular: no member list at any size.
        const int first = ranges[0][0], last = ranges[0][1], stride = ranges[0][2];
        if (first < 0 || first >= g->size || last < 0 || last >= g->size)
            return scope.fail(nullptr, MPI_ERR_RANK,
                              "range 0 leaves the group (size " + std::to_string(g->size) + ")");
        const int count = (stride > 0 ? last >= first : last <= first) ? (last - first) / stride + 1 : 0;
        if (count == 0) return give_group(out, ref(empty_group()));
        return give_group(out, make_range_group(g->world_of(first), g->stride * stride, count));
    }
    std::vector<int> included;
    if (int e = expand_ranges(scope, *g, n, ranges, &included)) return e;
    return give_group(out, of_ranks(*g, included));
}

XSIM_MPI_ALIAS(Group_range_excl)
int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* out) {
    XSIM_BEGIN_INITIALIZED("MPI_Group_range_excl");
    Group* g = nullptr;
    if (int e = group_arg(scope, group, &g)) return e;
    if (int e = checks::pointer(scope, nullptr, out, "newgroup")) return e;
    std::vector<int> excluded;
    if (int e = expand_ranges(scope, *g, n, ranges, &excluded)) return e;
    std::sort(excluded.begin(), excluded.end());
    std::vector<int> kept;
    for (int r = 0; r < g->size; ++r)
        if (!std::binary_search(excluded.begin(), excluded.end(), r)) kept.push_back(r);
    return give_group(out, of_ranks(*g, kept));
}

}  // extern "C"
