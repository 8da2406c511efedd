// MPI groups: ordered sets of world ranks. A group is immutable once made and shared by
// every simulated rank of this process that refers to it (communicators and MPI_Group
// handles hold references), so a communicator of a million ranks costs one group per
// process, not a table per rank. Regular groups (world ranks first, first + stride, ...)
// are stored in O(1); others as one explicit array.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace xsim {

struct Group {
    static constexpr std::uint32_t kMagic = 0x78677270;  // "xgrp"
    std::uint32_t magic = kMagic;
    int size = 0;
    int refs = 1;                      // handles and communicators using it (one thread: plain int)
    // Regular form: member i is world rank first + i * stride (members empty).
    int first = 0;
    int stride = 1;
    std::vector<int> members;          // explicit form: world rank of each member
    std::uint64_t shared_key = 0;      // its key in the per-process sharing table, if any

    bool regular() const { return members.empty(); }
    int world_of(int group_rank) const {
        return regular() ? first + group_rank * stride : members[static_cast<std::size_t>(group_rank)];
    }
    // The member's rank in this group, or MPI_UNDEFINED.
    int rank_of_world(int world) const;
    // Order-independent and order-dependent fingerprints (for contexts and comparisons).
    std::uint64_t fingerprint() const;

private:
    // Explicit groups: (world rank, group rank) sorted by world rank, built on first lookup.
    mutable std::vector<std::pair<int, int>> by_world_;
};

// Makes a group of the given world ranks (in order), in regular form when they are an
// arithmetic progression. The caller owns the returned reference.
Group* make_group(std::vector<int> worlds);
Group* make_range_group(int first, int stride, int size);
Group* empty_group();                 // the shared MPI_GROUP_EMPTY group (never freed)

// Per-process sharing of a group that many members build alike (MPI_Comm_split): the
// group stored under `key` (a new reference) or null; share_group stores one. Entries
// disappear when their group is freed.
Group* find_shared_group(std::uint64_t key);
void share_group(std::uint64_t key, Group* g);

// Reference counting, named as for communicators (comm.hpp says why): ref returns `g` so
// a new reference can be handed on in one expression; unref frees at zero.
inline Group* ref(Group* g) {
    ++g->refs;
    return g;
}
void unref(Group* g);

// Handle translation: MPI_Group handles are Open MPI's predefined MPI_GROUP_EMPTY or
// pointers to Group. Null for MPI_GROUP_NULL and invalid handles.
Group* resolve_group(MPI_Group handle);
inline MPI_Group group_handle(Group* g) {
    return g == empty_group() ? MPI_GROUP_EMPTY : reinterpret_cast<MPI_Group>(g);
}

// MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL.
int compare_groups(const Group& a, const Group& b);

}  // namespace xsim
