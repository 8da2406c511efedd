// -xsim-trace: the engine's EventObserver that keeps the MPI calls and messages of the
// traced local ranks (after the -xsim-trace-ranks/-window/-calls filters) as compact records
// in virtual time; at the end the writers (json_trace.cpp, otf2_trace.cpp) turn each
// process's records into its own part of the trace.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/event_observer.hpp"

namespace xsim::trace {

enum class RecordType : std::uint8_t {
    Enter, Leave,                 // region = the call
    Send, Isend,                  // peer, tag, comm, bytes, id = message; Isend: request
    IsendComplete,                // request
    IrecvRequest,                 // request
    Recv, Irecv,                  // peer (the sender), tag, comm, bytes, id = message (0: unknown); Irecv: request
    CollectiveBegin,
    CollectiveEnd,                // region = colls::CollKind, peer = root (-1: none), comm, bytes sent, id = bytes received
    NbcRequest,                   // a nonblocking collective started: request
    NbcComplete,                  // the owner saw it complete: as CollectiveEnd, plus request
    // One-sided communication: `comm` is the window's communicator (CommInfo::window).
    RmaCollectiveBegin,
    RmaCollectiveEnd,             // region = EventObserver::RmaCollective, comm
    RmaWinCreate, RmaWinDestroy,  // comm
    RmaOperation,                 // tag = rma::OperationKind, peer = target (window rank), bytes sent,
                                  // request = bytes fetched, id = matching id (rma_operation_id)
    RmaApplied,                   // at the target: tag = kind, peer = origin (world rank), id (JSON only)
    RmaComplete,                  // id, comm; tag = RmaCompletion, region = the operation's kind
    RmaLock,                      // region = EventObserver::RmaLock, peer = target (-1: all), tag = exclusive
    RmaGroupSync,                 // region = EventObserver::RmaGroupSync, comm, id = the group (comms() index)
};

// How the origin learned an operation completed (RmaComplete's tag).
enum RmaCompletion : std::int32_t {
    kRmaBlocking = 0,     // a flush, unlock, fence, MPI_Win_complete or MPI_Win_free waited for it
    kRmaNonBlocking = 1,  // MPI_Wait/MPI_Test returned the request of MPI_Rput...
    kRmaRemote = 2,       // a flush completed at the target an MPI_Rput... whose request completes apart
};

struct Record {
    SimTime time = 0;
    std::uint64_t bytes = 0;
    std::uint64_t id = 0;
    std::uint64_t request = 0;
    std::int32_t peer = 0;
    std::int32_t tag = 0;
    std::uint32_t comm = 0;       // index into TraceRecorder::comms()
    std::uint16_t region = 0;     // index into TraceRecorder::regions()
    RecordType type = RecordType::Enter;
};

// A message's id in both files, from the sending world rank and its event number
// (Message::seq); never 0 (a receive whose message is unknown).
inline std::uint64_t message_id(std::int32_t src, std::uint32_t seq) {
    return ((static_cast<std::uint64_t>(src) << 32) | seq) + 1;
}

// A one-sided operation's id in both files: its event's (message_id), as a JSON flow id
// across processes and as OTF2's matching id of its completion.
inline std::uint64_t rma_operation_id(std::int32_t src, std::uint32_t seq) { return message_id(src, seq); }

struct CommInfo {
    enum class Kind : std::uint8_t { World, Self, Derived } kind = Kind::Derived;
    std::uint32_t context = 0;
    std::string name;
    std::vector<int> members;     // world ranks in communicator order (Derived)
    bool window = false;          // a window's communicator: also an OTF2 RmaWin
    bool group_only = false;      // a group of general active target (MPI_Win_post/start): no communicator
};

struct RankTrace {
    int world = 0;
    std::vector<Record> records;
    static constexpr int kMaxDepth = 16;
    std::uint16_t open[kMaxDepth] = {};  // regions of the open traced calls
    int depth = 0;                // open traced calls
    int skipped = 0;              // calls nested deeper than kMaxDepth (not recorded)
    bool tracing = false;         // the current outermost call passed the filters
    bool rma_call = false;        // the current outermost call is one-sided (its messages are not user traffic)
    SimTime rma_begin = -1;       // an open window collective's start
};

// What a name is for -xsim-trace-calls (TraceCallKind).
unsigned trace_call_kind(const char* call);
// Names of the point-to-point calls that complete before returning (MpiSend/MpiRecv records).
bool blocking_point_to_point(const char* call);

class TraceRecorder final : public EventObserver {
public:
    explicit TraceRecorder(Engine& engine);

    void on_enter(const Rank& rank, const char* call) override;
    void on_leave(const Rank& rank) override;
    void on_send(const Rank& sender, const Request& send, const Message& m) override;
    void on_receive_posted(const Rank& receiver, const Request& recv) override;
    void on_match(const Rank& receiver, const Request& recv, const Message& m) override;
    void on_complete(const Rank& owner, const Request& r) override;
    void on_collective_begin(const Rank& rank, const void* call, const Request& request, const Comm& comm, int kind,
                             int root, bool nonblocking, SimTime t) override;
    void on_collective_round(const void* call, std::uint64_t sent, std::uint64_t received) override;
    void on_collective_end(const Rank& rank, const void* call, SimTime t) override;
    void on_rma_collective_begin(const Rank& rank, SimTime t) override;
    void on_rma_collective_end(const Rank& rank, const Comm& window, RmaCollective kind, SimTime t) override;
    void on_rma_operation(const Rank& origin, const Comm& window, const Request& r, const Request* user,
                          const Message& m, int kind, int target, std::uint64_t sent, std::uint64_t received) override;
    void on_rma_applied(const Rank& target, const Message& m, int kind, SimTime t) override;
    void on_rma_completed(const Rank& origin, const Request& r) override;
    void on_rma_lock(const Rank& origin, const Comm& window, RmaLock what, int target, bool exclusive,
                     SimTime t) override;
    void on_rma_group_sync(const Rank& rank, const Comm& window, RmaGroupSync what, const std::vector<int>& group,
                           SimTime t) override;
    void on_window_named(const Rank& rank, const Comm& window, const char* name) override;

    // After the run: closes calls left open (a rank that ended inside one) at its clock.
    void close_open_calls();

    Engine& engine() { return engine_; }
    std::vector<RankTrace>& ranks() { return ranks_; }
    const std::vector<std::string>& regions() const { return regions_; }
    const std::vector<CommInfo>& comms() const { return comms_; }

private:
    RankTrace* traced(const Rank& rank) {
        const int slot = slot_[static_cast<std::size_t>(rank.world - engine_.first_local())];
        return slot < 0 ? nullptr : &ranks_[static_cast<std::size_t>(slot)];
    }
    std::uint16_t region_of(const char* call);
    std::uint32_t comm_of(const Comm& comm, const Rank& rank);
    std::uint32_t window_of(const Comm& window, const Rank& rank);
    std::uint32_t group_of(const std::vector<int>& members);
    void add(RankTrace& t, const Record& r) { t.records.push_back(r); }

    struct OpenCollective {
        RankTrace* rank;
        std::uint32_t comm;
        int kind;
        int root;
        std::uint64_t sent = 0;
        std::uint64_t received = 0;
        const Request* request = nullptr;  // a nonblocking one's: its completion is the user's wait
    };

    // Whether virtual time `t` lies inside the traced span (-xsim-trace-window T0:T1).
    bool in_span(long long t) const { return t >= begin_ps_ && (end_ps_ < 0 || t < end_ps_); }

    Engine& engine_;
    long long begin_ps_;
    long long end_ps_;
    unsigned calls_;
    std::vector<int> slot_;           // per local rank: index into ranks_, or -1
    std::vector<RankTrace> ranks_;
    std::vector<std::string> regions_;
    std::unordered_map<const char*, std::uint16_t> region_by_pointer_;
    std::unordered_map<std::string, std::uint16_t> region_by_name_;
    std::vector<CommInfo> comms_;
    struct CommKey {
        const Comm* comm;
        std::uint32_t context;
        int size;
        bool operator==(const CommKey&) const = default;
    };
    struct CommKeyHash {
        std::size_t operator()(const CommKey& k) const {
            return std::hash<const void*>()(k.comm) ^ (static_cast<std::size_t>(k.context) << 20) ^
                   static_cast<std::size_t>(k.size);
        }
    };
    std::unordered_map<CommKey, std::uint32_t, CommKeyHash> comm_index_;
    std::unordered_map<const Request*, std::uint64_t> matched_;   // receive -> message id
    std::unordered_set<const Request*> open_isends_;
    std::unordered_set<const Request*> open_irecvs_;
    std::unordered_map<const void*, OpenCollective> collectives_;
    // Nonblocking collectives that ended, until their owner's wait or test returns them.
    std::unordered_map<const Request*, OpenCollective> ended_nonblocking_;
    // One-sided operations recorded at their origin, until it learns they completed: by the
    // window's request, and by the program's request of MPI_Rput and the like.
    struct OpenRma {
        std::uint64_t id;
        std::uint32_t window;
        const Request* user;
        int kind;
    };
    std::unordered_map<const Request*, OpenRma> open_rma_;
    std::unordered_map<const Request*, OpenRma> open_rma_user_;
    std::unordered_set<const Request*> internal_receives_;   // receives of MPI_Win_post/start's notices
    std::unordered_map<std::string, std::uint32_t> group_index_;  // general active target groups
};

// Start-up checks, before the run (all processes call it; process 0 decides, the others
// learn its answer): the filters fit the world size, the file can be written, OTF2 was
// built in. Returns why not, or "".
std::string check_trace_options(const Options& options, int world_size, int process);

// Writes this process's part (json_trace.cpp or otf2_trace.cpp by the file's extension);
// every process calls it (OTF2 uses collectives over the real processes). False after
// printing why on stderr.
bool write_trace(TraceRecorder& recorder);

// The writers (json_trace.cpp, otf2_trace.cpp).
bool write_json_trace(TraceRecorder& recorder, const std::string& path);
bool write_otf2_trace(TraceRecorder& recorder, const std::string& path);
bool otf2_available();

}  // namespace xsim::trace
