// -xsim-trace FILE.otf2: an OTF2 archive through the OTF2 library, read by otf2-print,
// Vampir and Scalasca. Locations are the traced simulated ranks (location id = world rank),
// each in a location group "rank R" under its node of the machine model, under the machine;
// timestamps are virtual picoseconds (clock resolution 1e12 ticks/s).
//
// Every real process writes its own ranks' event and local definition files; OTF2's
// collective callbacks run over the real processes (real_mpi, not the simulation). Process 0
// writes the global definitions from what the others send it: their call names, their
// communicators' members and their event counts (a few bytes per traced rank and per
// communicator; no events go through it).
#include "libxsim/report/trace/trace_recorder.hpp"

#include <cstdio>

#if XSIM_HAVE_OTF2
#include <otf2/otf2.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "libxsim/colls/collective_kind.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/rma/operations.hpp"

// OTF2 leaves this type to whoever implements the collective callbacks.
struct OTF2_CollectiveContext {
    MPI_Comm comm;
};

namespace xsim::trace {
namespace {

MPI_Datatype mpi_type(OTF2_Type type) {
    switch (type) {
        case OTF2_TYPE_UINT8: return MPI_UINT8_T;
        case OTF2_TYPE_INT8: return MPI_INT8_T;
        case OTF2_TYPE_UINT16: return MPI_UINT16_T;
        case OTF2_TYPE_INT16: return MPI_INT16_T;
        case OTF2_TYPE_UINT32: return MPI_UINT32_T;
        case OTF2_TYPE_INT32: return MPI_INT32_T;
        case OTF2_TYPE_UINT64: return MPI_UINT64_T;
        case OTF2_TYPE_INT64: return MPI_INT64_T;
        case OTF2_TYPE_FLOAT: return MPI_FLOAT;
        case OTF2_TYPE_DOUBLE: return MPI_DOUBLE;
        default: return MPI_DATATYPE_NULL;
    }
}

OTF2_CallbackCode result(int mpi_error) { return mpi_error == MPI_SUCCESS ? OTF2_CALLBACK_SUCCESS : OTF2_CALLBACK_ERROR; }

OTF2_CallbackCode get_size(void*, OTF2_CollectiveContext* c, uint32_t* size) {
    int n = 0;
    const int e = real_mpi.Comm_size(c->comm, &n);
    *size = static_cast<uint32_t>(n);
    return result(e);
}

OTF2_CallbackCode get_rank(void*, OTF2_CollectiveContext* c, uint32_t* rank) {
    int r = 0;
    const int e = real_mpi.Comm_rank(c->comm, &r);
    *rank = static_cast<uint32_t>(r);
    return result(e);
}

// Only file substrates that group processes into files (SION) ask for local
// communicators; the POSIX substrate writes a file per location.
OTF2_CallbackCode create_local_comm(void*, OTF2_CollectiveContext** local, OTF2_CollectiveContext*, uint32_t,
                                    uint32_t, uint32_t, uint32_t local_size, uint32_t, uint32_t) {
    if (local_size != 1) return OTF2_CALLBACK_ERROR;
    *local = new OTF2_CollectiveContext{MPI_COMM_SELF};
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode free_local_comm(void*, OTF2_CollectiveContext* local) {
    delete local;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode barrier(void*, OTF2_CollectiveContext* c) { return result(real_mpi.Barrier(c->comm)); }

OTF2_CallbackCode bcast(void*, OTF2_CollectiveContext* c, void* data, uint32_t n, OTF2_Type type, uint32_t root) {
    return result(real_mpi.Bcast(data, static_cast<int>(n), mpi_type(type), static_cast<int>(root), c->comm));
}

OTF2_CallbackCode gather(void*, OTF2_CollectiveContext* c, const void* in, void* out, uint32_t n, OTF2_Type type,
                         uint32_t root) {
    return result(real_mpi.Gather(in, static_cast<int>(n), mpi_type(type), out, static_cast<int>(n), mpi_type(type),
                                  static_cast<int>(root), c->comm));
}

// The count and displacement arrays of a v-collective at the root (counts from OTF2).
std::vector<int> displacements(const uint32_t* counts, int size, std::vector<int>& as_int) {
    std::vector<int> displ(static_cast<std::size_t>(size));
    as_int.resize(static_cast<std::size_t>(size));
    int at = 0;
    for (int i = 0; i < size; ++i) {
        as_int[static_cast<std::size_t>(i)] = static_cast<int>(counts[i]);
        displ[static_cast<std::size_t>(i)] = at;
        at += static_cast<int>(counts[i]);
    }
    return displ;
}

OTF2_CallbackCode gatherv(void*, OTF2_CollectiveContext* c, const void* in, uint32_t in_n, void* out,
                          const uint32_t* out_n, OTF2_Type type, uint32_t root) {
    int rank = 0, size = 0;
    real_mpi.Comm_rank(c->comm, &rank);
    real_mpi.Comm_size(c->comm, &size);
    std::vector<int> counts, displ;
    if (rank == static_cast<int>(root)) displ = displacements(out_n, size, counts);
    return result(real_mpi.Gatherv(in, static_cast<int>(in_n), mpi_type(type), out, counts.data(), displ.data(),
                                   mpi_type(type), static_cast<int>(root), c->comm));
}

OTF2_CallbackCode scatter(void*, OTF2_CollectiveContext* c, const void* in, void* out, uint32_t n, OTF2_Type type,
                          uint32_t root) {
    return result(real_mpi.Scatter(in, static_cast<int>(n), mpi_type(type), out, static_cast<int>(n), mpi_type(type),
                                   static_cast<int>(root), c->comm));
}

OTF2_CallbackCode scatterv(void*, OTF2_CollectiveContext* c, const void* in, const uint32_t* in_n, void* out,
                           uint32_t out_n, OTF2_Type type, uint32_t root) {
    int rank = 0, size = 0;
    real_mpi.Comm_rank(c->comm, &rank);
    real_mpi.Comm_size(c->comm, &size);
    std::vector<int> counts, displ;
    if (rank == static_cast<int>(root)) displ = displacements(in_n, size, counts);
    return result(real_mpi.Scatterv(in, counts.data(), displ.data(), mpi_type(type), out, static_cast<int>(out_n),
                                    mpi_type(type), static_cast<int>(root), c->comm));
}

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }

// Length-prefixed fields of what each process sends process 0.
struct Writer {
    std::string bytes;
    void u64(std::uint64_t v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); }
    void text(const std::string& s) {
        u64(s.size());
        bytes += s;
    }
};

struct Reader {
    const char* at;
    const char* end;
    std::uint64_t u64() {
        std::uint64_t v = 0;
        if (end - at >= 8) std::memcpy(&v, at, 8);
        at += 8;
        return v;
    }
    std::string text() {
        const std::uint64_t n = u64();
        std::string s(at, std::min<std::uint64_t>(n, static_cast<std::uint64_t>(std::max<std::ptrdiff_t>(end - at, 0))));
        at += n;
        return s;
    }
};

// A communicator as process 0 tells them apart: kind, context, size and members.
// A window's communicator and a general active target group are told apart from the rest.
std::string comm_key(const CommInfo& c) {
    std::uint64_t hash = 1469598103934665603ull;
    for (const int m : c.members) hash = (hash ^ static_cast<std::uint64_t>(m)) * 1099511628211ull;
    return std::to_string(static_cast<int>(c.kind)) + ":" + std::to_string(c.context) + ":" +
           std::to_string(c.members.size()) + ":" + std::to_string(hash) + (c.window ? ":w" : "") +
           (c.group_only ? ":g" : "");
}

// What a CommInfo is in the global definitions (sent to process 0 with it).
enum CommFlags : std::uint64_t { kCommWindow = 1, kCommGroupOnly = 2 };
std::uint64_t comm_flags(const CommInfo& c) {
    return (c.window ? std::uint64_t{kCommWindow} : 0) | (c.group_only ? std::uint64_t{kCommGroupOnly} : 0);
}

// The OTF2 events a record becomes: one, but none for the target side of an operation
// (OTF2 records one-sided operations at their origin only).
std::uint64_t event_count(const RankTrace& t) {
    std::uint64_t n = 0;
    for (const Record& r : t.records) n += r.type != RecordType::RmaApplied;
    return n;
}

// The RmaWin of each global communicator that is a window (by its key), numbered from 0 as
// write_global_definitions numbers them.
std::vector<OTF2_RmaWinRef> window_refs(const std::vector<std::string>& comm_keys) {
    std::vector<OTF2_RmaWinRef> refs;
    OTF2_RmaWinRef next = 0;
    for (const std::string& key : comm_keys)
        refs.push_back(key.size() >= 2 && key.compare(key.size() - 2, 2, ":w") == 0 ? next++ : OTF2_UNDEFINED_RMA_WIN);
    return refs;
}

OTF2_CollectiveOp rma_collective_op(int kind) {
    switch (static_cast<EventObserver::RmaCollective>(kind)) {
        case EventObserver::RmaCollective::Create: return OTF2_COLLECTIVE_OP_CREATE_HANDLE;
        case EventObserver::RmaCollective::CreateAllocate: return OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE;
        case EventObserver::RmaCollective::Free: return OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
        case EventObserver::RmaCollective::FreeDeallocate: return OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE;
        case EventObserver::RmaCollective::Fence: return OTF2_COLLECTIVE_OP_BARRIER;
    }
    return OTF2_COLLECTIVE_OP_BARRIER;
}

// The atomic kinds of rma::OperationKind (not Put or Get).
OTF2_RmaAtomicType rma_atomic_type(rma::OperationKind kind) {
    switch (kind) {
        case rma::OperationKind::Accumulate: return OTF2_RMA_ATOMIC_TYPE_ACCUMULATE;
        case rma::OperationKind::GetAccumulate: return OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE;
        default: return OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP;
    }
}

// Gathers every process's `mine` at process 0 (in process order there).
std::vector<std::string> gather_at_zero(const std::string& mine, int process, int processes) {
    const auto length = static_cast<long long>(mine.size());
    std::vector<long long> lengths(static_cast<std::size_t>(processes));
    real_mpi.Gather(&length, 1, MPI_LONG_LONG, lengths.data(), 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    std::vector<int> counts(static_cast<std::size_t>(processes)), displ(static_cast<std::size_t>(processes));
    std::string all;
    if (process == 0) {
        long long at = 0;
        for (int p = 0; p < processes; ++p) {
            counts[static_cast<std::size_t>(p)] = static_cast<int>(lengths[static_cast<std::size_t>(p)]);
            displ[static_cast<std::size_t>(p)] = static_cast<int>(at);
            at += lengths[static_cast<std::size_t>(p)];
        }
        all.resize(static_cast<std::size_t>(at));
    }
    real_mpi.Gatherv(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, all.data(), counts.data(), displ.data(),
                     MPI_CHAR, 0, MPI_COMM_WORLD);
    std::vector<std::string> parts;
    if (process == 0)
        for (int p = 0; p < processes; ++p)
            parts.push_back(all.substr(static_cast<std::size_t>(displ[static_cast<std::size_t>(p)]),
                                       static_cast<std::size_t>(counts[static_cast<std::size_t>(p)])));
    return parts;
}

std::string bcast_from_zero(std::string text) {
    long long length = static_cast<long long>(text.size());
    real_mpi.Bcast(&length, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    text.resize(static_cast<std::size_t>(length));
    real_mpi.Bcast(text.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
    return text;
}

OTF2_CollectiveOp collective_op(int kind) {
    using colls::CollKind;
    switch (static_cast<CollKind>(kind)) {
        case CollKind::Barrier: return OTF2_COLLECTIVE_OP_BARRIER;
        case CollKind::Bcast: return OTF2_COLLECTIVE_OP_BCAST;
        case CollKind::Reduce: return OTF2_COLLECTIVE_OP_REDUCE;
        case CollKind::Allreduce: return OTF2_COLLECTIVE_OP_ALLREDUCE;
        case CollKind::Gather: return OTF2_COLLECTIVE_OP_GATHER;
        case CollKind::Gatherv: return OTF2_COLLECTIVE_OP_GATHERV;
        case CollKind::Scatter: return OTF2_COLLECTIVE_OP_SCATTER;
        case CollKind::Scatterv: return OTF2_COLLECTIVE_OP_SCATTERV;
        case CollKind::Allgather:
        case CollKind::NeighborAllgather: return OTF2_COLLECTIVE_OP_ALLGATHER;
        case CollKind::Allgatherv:
        case CollKind::NeighborAllgatherv: return OTF2_COLLECTIVE_OP_ALLGATHERV;
        case CollKind::Alltoall:
        case CollKind::NeighborAlltoall: return OTF2_COLLECTIVE_OP_ALLTOALL;
        case CollKind::Alltoallv:
        case CollKind::NeighborAlltoallv: return OTF2_COLLECTIVE_OP_ALLTOALLV;
        case CollKind::Alltoallw:
        case CollKind::NeighborAlltoallw: return OTF2_COLLECTIVE_OP_ALLTOALLW;
        case CollKind::ReduceScatter: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER;
        case CollKind::ReduceScatterBlock: return OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK;
        case CollKind::Scan: return OTF2_COLLECTIVE_OP_SCAN;
        case CollKind::Exscan: return OTF2_COLLECTIVE_OP_EXSCAN;
        default: return OTF2_COLLECTIVE_OP_CREATE_HANDLE;  // communicator and topology creation
    }
}

OTF2_RegionRole region_role(const std::string& name) {
    const unsigned kind = trace_call_kind(name.c_str());
    if (kind == kTraceP2p) return OTF2_REGION_ROLE_POINT2POINT;
    if (kind == kTraceRma) return OTF2_REGION_ROLE_RMA;
    if (kind != kTraceColl) return OTF2_REGION_ROLE_FUNCTION;
    if (name == "MPI_Barrier" || name == "MPI_Ibarrier") return OTF2_REGION_ROLE_BARRIER;
    if (name == "MPI_Bcast" || name == "MPI_Scatter" || name == "MPI_Scatterv") return OTF2_REGION_ROLE_COLL_ONE2ALL;
    if (name == "MPI_Reduce" || name == "MPI_Gather" || name == "MPI_Gatherv") return OTF2_REGION_ROLE_COLL_ALL2ONE;
    if (name.rfind("MPI_All", 0) == 0 || name.rfind("MPI_Reduce_scatter", 0) == 0) return OTF2_REGION_ROLE_COLL_ALL2ALL;
    return OTF2_REGION_ROLE_COLL_OTHER;
}

// Process 0: the global definitions. `parts` are every process's summaries.
struct GlobalDefinitions {
    std::vector<std::string> regions;   // sorted names: id = index
    std::vector<std::string> comm_keys; // derived communicators: id = 2 + index
};

bool check(OTF2_ErrorCode code, const char* what, bool& ok) {
    if (code != OTF2_SUCCESS && ok) {
        std::fprintf(stderr, "xsim: -xsim-trace: OTF2 %s failed: %s\n", what, OTF2_Error_GetDescription(code));
        ok = false;
    }
    return ok;
}

void write_global_definitions(OTF2_Archive* archive, Engine& engine, const std::vector<std::string>& parts,
                              const GlobalDefinitions& defs, bool& ok) {
    OTF2_GlobalDefWriter* w = OTF2_Archive_GetGlobalDefWriter(archive);
    if (!w) {
        std::fprintf(stderr, "xsim: -xsim-trace: OTF2 could not open the global definitions\n");
        ok = false;
        return;
    }
    std::map<std::string, OTF2_StringRef> strings;
    auto string = [&](const std::string& s) {
        auto [it, added] = strings.try_emplace(s, static_cast<OTF2_StringRef>(strings.size()));
        if (added) check(OTF2_GlobalDefWriter_WriteString(w, it->second, s.c_str()), "WriteString", ok);
        return it->second;
    };
    // Locations, trace length and communicators from every process.
    struct Location {
        std::uint64_t world, events;
    };
    std::vector<Location> locations;
    std::uint64_t trace_length = 0;
    struct CommDef {
        std::string name;
        std::uint64_t flags;
        std::vector<std::uint64_t> members;
    };
    std::map<std::string, CommDef> comms;  // by key
    for (const std::string& part : parts) {
        Reader in{part.data(), part.data() + part.size()};
        trace_length = std::max(trace_length, in.u64());
        const std::uint64_t n_locations = in.u64();
        for (std::uint64_t i = 0; i < n_locations; ++i) {
            const std::uint64_t world = in.u64();
            locations.push_back({world, in.u64()});
        }
        const std::uint64_t n_regions = in.u64();
        for (std::uint64_t i = 0; i < n_regions; ++i) in.text();
        const std::uint64_t n_comms = in.u64();
        for (std::uint64_t i = 0; i < n_comms; ++i) {
            std::string key = in.text();
            std::string name = in.text();
            const std::uint64_t flags = in.u64();
            const std::uint64_t size = in.u64();
            std::vector<std::uint64_t> members(size);
            for (auto& m : members) m = in.u64();
            comms.try_emplace(std::move(key), CommDef{std::move(name), flags, std::move(members)});
        }
    }
    std::sort(locations.begin(), locations.end(), [](const Location& a, const Location& b) { return a.world < b.world; });
    check(OTF2_GlobalDefWriter_WriteClockProperties(w, 1'000'000'000'000ull, 0, trace_length, OTF2_UNDEFINED_TIMESTAMP),
          "WriteClockProperties", ok);
    check(OTF2_GlobalDefWriter_WriteParadigm(w, OTF2_PARADIGM_MPI, string("MPI"), OTF2_PARADIGM_CLASS_PROCESS),
          "WriteParadigm", ok);
    // System tree: the machine, its nodes that hold traced ranks, the ranks.
    check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, 0, string("xsim simulated machine"), string("machine"),
                                                   OTF2_UNDEFINED_SYSTEM_TREE_NODE),
          "WriteSystemTreeNode", ok);
    std::map<int, OTF2_SystemTreeNodeRef> nodes;
    for (const Location& l : locations) nodes.emplace(engine.machine().node_of(static_cast<int>(l.world)), 0);
    OTF2_SystemTreeNodeRef next_node = 1;
    for (auto& [node, id] : nodes) {
        id = next_node++;
        check(OTF2_GlobalDefWriter_WriteSystemTreeNode(w, id, string("node " + std::to_string(node)), string("node"), 0),
              "WriteSystemTreeNode", ok);
    }
    for (std::size_t i = 0; i < locations.size(); ++i) {
        const int world = static_cast<int>(locations[i].world);
        const OTF2_StringRef name = string("rank " + std::to_string(world));
        check(OTF2_GlobalDefWriter_WriteLocationGroup(w, static_cast<OTF2_LocationGroupRef>(i), name,
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                      nodes[engine.machine().node_of(world)],
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "WriteLocationGroup", ok);
        check(OTF2_GlobalDefWriter_WriteLocation(w, locations[i].world, name, OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 locations[i].events, static_cast<OTF2_LocationGroupRef>(i)),
              "WriteLocation", ok);
    }
    for (std::size_t i = 0; i < defs.regions.size(); ++i) {
        const std::string& name = defs.regions[i];
        const OTF2_StringRef s = string(name);
        check(OTF2_GlobalDefWriter_WriteRegion(w, static_cast<OTF2_RegionRef>(i), s, s, string(""), region_role(name),
                                               name.rfind("MPI_", 0) == 0 ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                               OTF2_REGION_FLAG_NONE, string(""), 0, 0),
              "WriteRegion", ok);
    }
    // Groups: the MPI ranks (location id = world rank), WORLD, SELF, then each communicator.
    const auto world_size = static_cast<std::uint64_t>(engine.world_size());
    OTF2_RmaWinRef next_window = 0;
    std::vector<std::uint64_t> all(world_size);
    for (std::uint64_t i = 0; i < world_size; ++i) all[i] = i;
    check(OTF2_GlobalDefWriter_WriteGroup(w, 0, string(""), OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(world_size), all.data()),
          "WriteGroup", ok);
    check(OTF2_GlobalDefWriter_WriteGroup(w, 1, string("MPI_COMM_WORLD"), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_GLOBAL_MEMBERS, static_cast<uint32_t>(world_size), all.data()),
          "WriteGroup", ok);
    check(OTF2_GlobalDefWriter_WriteGroup(w, 2, string("MPI_COMM_SELF"), OTF2_GROUP_TYPE_COMM_SELF, OTF2_PARADIGM_MPI,
                                          OTF2_GROUP_FLAG_NONE, 0, nullptr),
          "WriteGroup", ok);
    check(OTF2_GlobalDefWriter_WriteComm(w, 0, string("MPI_COMM_WORLD"), 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
          "WriteComm", ok);
    check(OTF2_GlobalDefWriter_WriteComm(w, 1, string("MPI_COMM_SELF"), 2, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
          "WriteComm", ok);
    for (std::size_t i = 0; i < defs.comm_keys.size(); ++i) {
        const auto& [name, flags, members] = comms[defs.comm_keys[i]];
        const auto group = static_cast<OTF2_GroupRef>(3 + i);
        check(OTF2_GlobalDefWriter_WriteGroup(w, group, string(name), OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                              OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(members.size()),
                                              members.data()),
              "WriteGroup", ok);
        if (flags & kCommGroupOnly) continue;  // a group of MPI_Win_post/start (RmaGroupSync)
        const auto comm = static_cast<OTF2_CommRef>(2 + i);
        check(OTF2_GlobalDefWriter_WriteComm(w, comm, string(name), group, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
              "WriteComm", ok);
        // A window: an RmaWin over its communicator, numbered from 0 in the order of the
        // communicators (window_refs).
        if (flags & kCommWindow)
            check(OTF2_GlobalDefWriter_WriteRmaWin(w, next_window++, string(name), comm,
                                                   OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS),
                  "WriteRmaWin", ok);
    }
}

// One location's events, in time order.
void write_events(OTF2_EvtWriter* w, RankTrace& t, const std::vector<OTF2_RegionRef>& region_ids,
                  const std::vector<OTF2_CommRef>& comm_ids, const std::vector<OTF2_RmaWinRef>& win_ids, bool& ok) {
    std::stable_sort(t.records.begin(), t.records.end(), [](const Record& a, const Record& b) { return a.time < b.time; });
    for (const Record& r : t.records) {
        const auto time = static_cast<OTF2_TimeStamp>(r.time);
        const auto peer = static_cast<uint32_t>(r.peer);
        const auto tag = static_cast<uint32_t>(r.tag);
        OTF2_ErrorCode e = OTF2_SUCCESS;
        switch (r.type) {
            case RecordType::Enter: e = OTF2_EvtWriter_Enter(w, nullptr, time, region_ids[r.region]); break;
            case RecordType::Leave: e = OTF2_EvtWriter_Leave(w, nullptr, time, region_ids[r.region]); break;
            case RecordType::Send: e = OTF2_EvtWriter_MpiSend(w, nullptr, time, peer, comm_ids[r.comm], tag, r.bytes); break;
            case RecordType::Isend:
                e = OTF2_EvtWriter_MpiIsend(w, nullptr, time, peer, comm_ids[r.comm], tag, r.bytes, r.request);
                break;
            case RecordType::IsendComplete: e = OTF2_EvtWriter_MpiIsendComplete(w, nullptr, time, r.request); break;
            case RecordType::IrecvRequest: e = OTF2_EvtWriter_MpiIrecvRequest(w, nullptr, time, r.request); break;
            case RecordType::Recv: e = OTF2_EvtWriter_MpiRecv(w, nullptr, time, peer, comm_ids[r.comm], tag, r.bytes); break;
            case RecordType::Irecv:
                e = OTF2_EvtWriter_MpiIrecv(w, nullptr, time, peer, comm_ids[r.comm], tag, r.bytes, r.request);
                break;
            case RecordType::CollectiveBegin: e = OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, time); break;
            case RecordType::NbcRequest: e = OTF2_EvtWriter_NonBlockingCollectiveRequest(w, nullptr, time, r.request); break;
            case RecordType::NbcComplete:
                e = OTF2_EvtWriter_NonBlockingCollectiveComplete(w, nullptr, time, collective_op(r.region), comm_ids[r.comm],
                                                                 r.peer < 0 ? OTF2_UNDEFINED_UINT32 : peer, r.bytes, r.id,
                                                                 r.request);
                break;
            case RecordType::CollectiveEnd:
                e = OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, time, collective_op(r.region), comm_ids[r.comm],
                                                    r.peer < 0 ? OTF2_UNDEFINED_UINT32 : peer, r.bytes, r.id);
                break;
            // One-sided: win_ids holds the window's RmaWin (write_global_definitions).
            case RecordType::RmaCollectiveBegin: e = OTF2_EvtWriter_RmaCollectiveBegin(w, nullptr, time); break;
            case RecordType::RmaCollectiveEnd:
                e = OTF2_EvtWriter_RmaCollectiveEnd(w, nullptr, time, rma_collective_op(r.region),
                                                    OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY,
                                                    win_ids[r.comm], OTF2_UNDEFINED_UINT32, 0, 0);
                break;
            case RecordType::RmaWinCreate: e = OTF2_EvtWriter_RmaWinCreate(w, nullptr, time, win_ids[r.comm]); break;
            case RecordType::RmaWinDestroy: e = OTF2_EvtWriter_RmaWinDestroy(w, nullptr, time, win_ids[r.comm]); break;
            case RecordType::RmaOperation: {
                const auto kind = static_cast<rma::OperationKind>(r.tag);
                if (kind == rma::OperationKind::Put)
                    e = OTF2_EvtWriter_RmaPut(w, nullptr, time, win_ids[r.comm], peer, r.bytes, r.id);
                else if (kind == rma::OperationKind::Get)
                    e = OTF2_EvtWriter_RmaGet(w, nullptr, time, win_ids[r.comm], peer, r.request, r.id);
                else
                    e = OTF2_EvtWriter_RmaAtomic(w, nullptr, time, win_ids[r.comm], peer, rma_atomic_type(kind), r.bytes,
                                                 r.request, r.id);
                break;
            }
            case RecordType::RmaApplied: break;  // the JSON trace's; OTF2 has no target-side record
            case RecordType::RmaComplete:
                e = r.tag == kRmaNonBlocking ? OTF2_EvtWriter_RmaOpCompleteNonBlocking(w, nullptr, time, win_ids[r.comm], r.id)
                    : r.tag == kRmaRemote    ? OTF2_EvtWriter_RmaOpCompleteRemote(w, nullptr, time, win_ids[r.comm], r.id)
                                             : OTF2_EvtWriter_RmaOpCompleteBlocking(w, nullptr, time, win_ids[r.comm], r.id);
                break;
            case RecordType::RmaLock: {
                // MPI_Win_lock_all: every member, remote and lock id undefined.
                const std::uint32_t remote = r.peer < 0 ? OTF2_UNDEFINED_UINT32 : peer;
                const OTF2_LockType type = r.tag ? OTF2_LOCK_EXCLUSIVE : OTF2_LOCK_SHARED;
                switch (static_cast<EventObserver::RmaLock>(r.region)) {
                    case EventObserver::RmaLock::Request:
                        e = OTF2_EvtWriter_RmaRequestLock(w, nullptr, time, win_ids[r.comm], remote, remote, type);
                        break;
                    case EventObserver::RmaLock::Acquire:
                        e = OTF2_EvtWriter_RmaAcquireLock(w, nullptr, time, win_ids[r.comm], remote, remote, type);
                        break;
                    case EventObserver::RmaLock::Release:
                        e = OTF2_EvtWriter_RmaReleaseLock(w, nullptr, time, win_ids[r.comm], remote, remote);
                        break;
                }
                break;
            }
            case RecordType::RmaGroupSync: {
                // Post and start open an epoch with their group; complete and wait close it and
                // its memory operations.
                const auto what = static_cast<EventObserver::RmaGroupSync>(r.region);
                const OTF2_RmaSyncLevel level = what == EventObserver::RmaGroupSync::Post ||
                                                        what == EventObserver::RmaGroupSync::Start
                                                    ? OTF2_RMA_SYNC_LEVEL_PROCESS
                                                    : OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY;
                e = OTF2_EvtWriter_RmaGroupSync(w, nullptr, time, level, win_ids[r.comm],
                                                static_cast<OTF2_GroupRef>(comm_ids[r.id] + 1));
                break;
            }
        }
        if (!check(e, "event writing", ok)) return;
    }
}

}  // namespace

bool otf2_available() { return true; }

bool write_otf2_trace(TraceRecorder& recorder, const std::string& path) {
    Engine& engine = recorder.engine();
    const int process = engine.placement().process;
    const int processes = engine.placement().processes;
    // What process 0 needs for the global definitions.
    Writer mine;
    std::uint64_t last = 0;
    for (const RankTrace& t : recorder.ranks())
        for (const Record& r : t.records) last = std::max<std::uint64_t>(last, static_cast<std::uint64_t>(r.time));
    mine.u64(last);
    mine.u64(recorder.ranks().size());
    for (const RankTrace& t : recorder.ranks()) {
        mine.u64(static_cast<std::uint64_t>(t.world));
        mine.u64(event_count(t));
    }
    mine.u64(recorder.regions().size());
    for (const std::string& name : recorder.regions()) mine.text(name);
    const auto& comms = recorder.comms();
    mine.u64(comms.size() - 2);  // WORLD and SELF are known
    for (std::size_t i = 2; i < comms.size(); ++i) {
        mine.text(comm_key(comms[i]));
        mine.text(comms[i].name);
        mine.u64(comm_flags(comms[i]));
        mine.u64(comms[i].members.size());
        for (const int m : comms[i].members) mine.u64(static_cast<std::uint64_t>(m));
    }
    const std::vector<std::string> parts = gather_at_zero(mine.bytes, process, processes);
    // Process 0 numbers regions (sorted names) and communicators (in process order of
    // first appearance) and tells everyone.
    GlobalDefinitions defs;
    Writer table;
    if (process == 0) {
        std::set<std::string> names;
        std::vector<std::string> keys;
        std::set<std::string> seen;
        for (const std::string& part : parts) {
            Reader in{part.data(), part.data() + part.size()};
            in.u64();
            const std::uint64_t n_locations = in.u64();
            for (std::uint64_t i = 0; i < 2 * n_locations; ++i) in.u64();
            const std::uint64_t n_regions = in.u64();
            for (std::uint64_t i = 0; i < n_regions; ++i) names.insert(in.text());
            const std::uint64_t n_comms = in.u64();
            for (std::uint64_t i = 0; i < n_comms; ++i) {
                std::string key = in.text();
                in.text();
                in.u64();  // flags
                const std::uint64_t size = in.u64();
                for (std::uint64_t m = 0; m < size; ++m) in.u64();
                if (seen.insert(key).second) keys.push_back(key);
            }
        }
        table.u64(names.size());
        for (const std::string& n : names) table.text(n);
        table.u64(keys.size());
        for (const std::string& k : keys) table.text(k);
    }
    const std::string shared = bcast_from_zero(table.bytes);
    Reader in{shared.data(), shared.data() + shared.size()};
    defs.regions.resize(in.u64());
    for (auto& n : defs.regions) n = in.text();
    defs.comm_keys.resize(in.u64());
    for (auto& k : defs.comm_keys) k = in.text();
    std::vector<OTF2_RegionRef> region_ids;
    for (const std::string& name : recorder.regions())
        region_ids.push_back(static_cast<OTF2_RegionRef>(
            std::lower_bound(defs.regions.begin(), defs.regions.end(), name) - defs.regions.begin()));
    std::vector<OTF2_CommRef> comm_ids{0, 1};
    const std::vector<OTF2_RmaWinRef> global_windows = window_refs(defs.comm_keys);
    std::vector<OTF2_RmaWinRef> win_ids{OTF2_UNDEFINED_RMA_WIN, OTF2_UNDEFINED_RMA_WIN};
    for (std::size_t i = 2; i < comms.size(); ++i) {
        const auto global = static_cast<std::size_t>(
            std::find(defs.comm_keys.begin(), defs.comm_keys.end(), comm_key(comms[i])) - defs.comm_keys.begin());
        comm_ids.push_back(static_cast<OTF2_CommRef>(2 + global));
        win_ids.push_back(global_windows[global]);
    }

    // The archive: FILE.otf2, FILE.def and FILE/ where FILE.otf2 was asked for.
    const std::string stem = path.substr(0, path.size() - 5);
    const std::size_t slash = stem.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : stem.substr(0, slash));
    const std::string name = slash == std::string::npos ? stem : stem.substr(slash + 1);
    bool ok = true;
    OTF2_Archive* archive = OTF2_Archive_Open(dir.c_str(), name.c_str(), OTF2_FILEMODE_WRITE, 1024 * 1024,
                                              4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
    if (!archive) {
        std::fprintf(stderr, "xsim: -xsim-trace %s: OTF2 could not create the archive\n", path.c_str());
        return false;  // OTF2_Archive_Open is not collective: every process fails alike or alone
    }
    static const OTF2_FlushCallbacks flush = {pre_flush, post_flush};
    static const OTF2_CollectiveCallbacks collectives = {nullptr,  get_size, get_rank, create_local_comm,
                                                         free_local_comm, barrier, bcast, gather, gatherv,
                                                         scatter, scatterv};
    OTF2_CollectiveContext world{MPI_COMM_WORLD};
    check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "SetFlushCallbacks", ok);
    check(OTF2_Archive_SetCollectiveCallbacks(archive, &collectives, nullptr, &world, nullptr),
          "SetCollectiveCallbacks", ok);
    check(OTF2_Archive_SetCreator(archive, "xsim"), "SetCreator", ok);
    check(OTF2_Archive_SetDescription(archive, "virtual times of an xsim simulated MPI run"), "SetDescription", ok);
    check(OTF2_Archive_OpenEvtFiles(archive), "OpenEvtFiles", ok);
    for (RankTrace& t : recorder.ranks()) {
        if (!ok) break;
        OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, static_cast<OTF2_LocationRef>(t.world));
        if (!w) {
            check(OTF2_ERROR_INVALID, "GetEvtWriter", ok);
            break;
        }
        write_events(w, t, region_ids, comm_ids, win_ids, ok);
        check(OTF2_Archive_CloseEvtWriter(archive, w), "CloseEvtWriter", ok);
        std::vector<Record>().swap(t.records);
    }
    check(OTF2_Archive_CloseEvtFiles(archive), "CloseEvtFiles", ok);
    check(OTF2_Archive_OpenDefFiles(archive), "OpenDefFiles", ok);
    for (const RankTrace& t : recorder.ranks()) {
        if (OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive, static_cast<OTF2_LocationRef>(t.world)))
            check(OTF2_Archive_CloseDefWriter(archive, d), "CloseDefWriter", ok);
    }
    check(OTF2_Archive_CloseDefFiles(archive), "CloseDefFiles", ok);
    if (process == 0) write_global_definitions(archive, engine, parts, defs, ok);
    check(OTF2_Archive_Close(archive), "Close", ok);
    return ok;
}

}  // namespace xsim::trace

#else  // built without OTF2: -xsim-trace FILE.otf2 is refused at start-up (check_trace_options)

namespace xsim::trace {

bool otf2_available() { return false; }

bool write_otf2_trace(TraceRecorder&, const std::string& path) {
    std::fprintf(stderr, "xsim: -xsim-trace %s: this xsim was built without OTF2\n", path.c_str());
    return false;
}

}  // namespace xsim::trace

#endif
