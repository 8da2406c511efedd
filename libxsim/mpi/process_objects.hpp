// The MPI objects' state of one real process: what the simulated ranks of a process share
// (keyvals, context ids, shared groups, datatype layouts, the per-rank extras of WORLD and
// SELF, interned names, shared graphs). The engine owns one (Engine::objects()) and makes
// it current while it exists and while it runs; the functions of libxsim/mpi/ reach it
// through process_objects(), so they need no engine and two engines in one process (unit
// tests) never see each other's objects. Only the simulation thread touches it.
#pragma once
#include <mpi.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "libxsim/mpi/attributes.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/group.hpp"
#include "libxsim/mpi/topology.hpp"

namespace xsim {

// A context id in use in this process and how many communicators use it (context_ids.hpp).
struct LiveContext {
    std::uint64_t derivation = 0;
    std::int64_t users = 0;
};

// How many communicators one rank derived from one parent with one (tag, what) before:
// the repeat count of MPI_Comm_create_group and MPI_Intercomm_create (context_ids.hpp).
struct CreationRepeat {
    int tag = 0;
    std::uint64_t what = 0;
    std::uint32_t count = 0;
};

// Operations still using a derived datatype (or user op), and MPI_Type_free (MPI_Op_free)
// calls waiting for them.
struct PendingTypeUses {
    int operations = 0;
    int deferred_frees = 0;
};

// A committed derived datatype this process has used: its layout, worked out at its first use
// (several calls into the real library, and for a dense type a walk of its constructors), and
// the operations still using it. Forgotten when the real library frees the type: its handle
// may name another type next.
struct DerivedType {
    TypeLayout layout;
    PendingTypeUses uses;
};

// What is per rank about WORLD and SELF but rarely used: names and attributes.
struct PredefinedCommExtras {
    const char* name = nullptr;
    Attributes* attributes = nullptr;
};

struct ProcessObjects {
    ProcessObjects();
    ~ProcessObjects();
    ProcessObjects(const ProcessObjects&) = delete;
    ProcessObjects& operator=(const ProcessObjects&) = delete;

    // context_ids.cpp: live ids; repeat counts keyed by (parent context, world rank).
    std::unordered_map<std::uint32_t, LiveContext> live_contexts;
    std::unordered_map<std::uint64_t, std::vector<CreationRepeat>> creation_repeats;
    // attributes.cpp: every keyval made (deque: pointers stay valid as it grows).
    std::deque<Keyval> keyvals;
    // bindings/type_attributes.cpp: datatypes' attributes, keyed by (world rank, handle):
    // the ranks of a process share the predefined types' handles, not their attributes.
    std::map<std::pair<int, MPI_Datatype>, Attributes*> type_attributes;
    // group.cpp: MPI_GROUP_EMPTY, groups many members build alike (MPI_Comm_split), and
    // WORLD's group (comm_rank_state.cpp; one reference held here).
    Group empty_group;
    std::unordered_map<std::uint64_t, Group*> shared_groups;
    Group* world_group = nullptr;
    // datatype.cpp: layouts of the predefined types (never freed, so a handle keeps its
    // layout), the last few used in slots indexed by the handle in front of the map: every
    // message asks several times, and a hash map lookup was 6% of the time per message.
    std::unordered_map<MPI_Datatype, TypeLayout> predefined_layouts;
    struct RecentLayout {
        MPI_Datatype type = MPI_DATATYPE_NULL;
        const TypeLayout* layout = nullptr;  // in predefined_layouts (its nodes never move)
    };
    std::array<RecentLayout, 8> recent_layouts{};
    // The one found last, asked before the slots: a collective's rounds and a halo
    // exchange's messages ask for one type again and again.
    RecentLayout last_layout{};
    // datatype.cpp: the derived types in use (their nodes never move), and the one found last
    // (a halo exchange's messages ask for one type again and again, twice per message).
    std::unordered_map<MPI_Datatype, DerivedType> derived_types;
    struct RecentDerived {
        MPI_Datatype type = MPI_DATATYPE_NULL;
        DerivedType* entry = nullptr;
    } last_derived{};
    // ... and user ops in use by pending nonblocking reductions (MPI_Op_free waits for them).
    std::unordered_map<MPI_Op, PendingTypeUses> pending_op_uses;
    // comm.cpp: WORLD's and SELF's extras per rank (key: world rank << 1 | is SELF), and
    // communicator names (interned: they live as long as these objects).
    std::unordered_map<std::uint64_t, PredefinedCommExtras> predefined_extras;
    std::unordered_set<std::string> names;
    // topology.cpp: ranks that create the same graph share one copy.
    std::unordered_multimap<std::size_t, std::weak_ptr<const GraphAdjacency>> graphs;
};

namespace detail {
[[gnu::visibility("hidden")]] extern ProcessObjects* g_current_objects;
[[noreturn, gnu::cold]] void no_current_objects();
}  // namespace detail

// The current process objects (the running engine's).
inline ProcessObjects& process_objects() {
    if (__builtin_expect(detail::g_current_objects == nullptr, 0)) detail::no_current_objects();
    return *detail::g_current_objects;
}

// Makes `objects` current for its lifetime, then restores the previous ones (scopes nest).
class CurrentObjects {
public:
    explicit CurrentObjects(ProcessObjects& objects);
    ~CurrentObjects();
    CurrentObjects(const CurrentObjects&) = delete;
    CurrentObjects& operator=(const CurrentObjects&) = delete;

private:
    ProcessObjects* mine_;
    ProcessObjects* previous_;
};

}  // namespace xsim
