#include "libxsim/report/trace/trace_recorder.hpp"

#include <mpi.h>

#include <sys/stat.h>

#include <cstring>

#include "libxsim/engine/comm_rank_state.hpp"
#include "libxsim/engine/time_split.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/report/output_file.hpp"

namespace xsim::trace {
namespace {

bool call_starts_with(const char* s, const char* prefix) { return std::strncmp(s, prefix, std::strlen(prefix)) == 0; }

bool ends_with(const std::string& s, const char* suffix) {
    const std::size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

}  // namespace

unsigned trace_call_kind(const char* call) {
    if (!call_starts_with(call, "MPI_")) return kTraceOther;  // xsim_compute, clock reads
    if (call_kind(call) == CallKind::Collective) return kTraceColl;
    if (call_starts_with(call + 4, "Win_")) return kTraceRma;
    static const char* const kRma[] = {"Put", "Get", "Accumulate", "Get_accumulate", "Fetch_and_op",
                                       "Compare_and_swap", "Rput", "Rget", "Raccumulate", "Rget_accumulate"};
    for (const char* p : kRma)
        if (std::strcmp(call + 4, p) == 0) return kTraceRma;
    static const char* const kP2p[] = {"Send",  "Recv",   "Isend", "Irecv",   "Ssend",  "Issend", "Bsend",
                                       "Ibsend", "Rsend", "Irsend", "Sendrecv", "Isendrecv", "Probe", "Iprobe",
                                       "Mprobe", "Improbe", "Mrecv", "Imrecv", "Wait", "Test", "Start",
                                       "Request_", "Cancel"};
    for (const char* p : kP2p)
        if (call_starts_with(call + 4, p)) return kTraceP2p;
    return kTraceOther;
}

bool blocking_point_to_point(const char* call) {
    static const char* const kBlocking[] = {"MPI_Send",     "MPI_Ssend",           "MPI_Bsend", "MPI_Rsend",
                                            "MPI_Recv",     "MPI_Sendrecv",        "MPI_Sendrecv_replace",
                                            "MPI_Ibsend"};  // a buffered send is complete at once
    if (!call) return false;
    for (const char* b : kBlocking)
        if (std::strcmp(call, b) == 0) return true;
    return false;
}

TraceRecorder::TraceRecorder(Engine& engine)
    : engine_(engine),
      begin_ps_(engine.options().trace_begin_ps),
      end_ps_(engine.options().trace_end_ps),
      calls_(engine.options().trace_calls),
      slot_(static_cast<std::size_t>(engine.local_count()), -1) {
    const auto& ranges = engine.options().trace_ranks;
    const int first = engine.first_local();
    const int last = first + engine.local_count() - 1;
    for (int w = first; w <= last; ++w) {
        bool wanted = ranges.empty();
        for (const RankRange& r : ranges)
            if (w >= r.first && w <= r.last) wanted = true;
        if (!wanted) continue;
        slot_[static_cast<std::size_t>(w - first)] = static_cast<int>(ranks_.size());
        ranks_.emplace_back();
        ranks_.back().world = w;
    }
    comms_.push_back({CommInfo::Kind::World, kWorldContext, "MPI_COMM_WORLD", {}});
    comms_.push_back({CommInfo::Kind::Self, kSelfContext, "MPI_COMM_SELF", {}});
}

std::uint16_t TraceRecorder::region_of(const char* call) {
    if (auto it = region_by_pointer_.find(call); it != region_by_pointer_.end()) return it->second;
    auto [it, added] = region_by_name_.try_emplace(call, static_cast<std::uint16_t>(regions_.size()));
    if (added) regions_.emplace_back(call);
    region_by_pointer_.emplace(call, it->second);
    return it->second;
}

std::uint32_t TraceRecorder::comm_of(const Comm& comm, const Rank& rank) {
    if (comm.kind == CommKind::World) return 0;
    if (comm.kind == CommKind::Self) return 1;
    const CommKey key{&comm, comm.context, comm.size};
    if (auto it = comm_index_.find(key); it != comm_index_.end()) return it->second;
    CommInfo info;
    info.context = comm.context;
    const char* name = comm_name(comm, rank);
    info.name = name && *name ? name : "communicator " + std::to_string(comm.context);
    info.members.resize(static_cast<std::size_t>(comm.size));
    for (int i = 0; i < comm.size; ++i) info.members[static_cast<std::size_t>(i)] = comm.world_rank_of(i, rank.world);
    comms_.push_back(std::move(info));
    const auto index = static_cast<std::uint32_t>(comms_.size() - 1);
    comm_index_.emplace(key, index);
    return index;
}

void TraceRecorder::on_enter(const Rank& rank, const char* call) {
    RankTrace* t = traced(rank);
    if (!t) return;
    if (rank.split.depth == 1) {  // an outermost call: does it pass the filters?
        const long long now = rank.clock;
        const unsigned kind = trace_call_kind(call);
        t->tracing = in_span(now) && (kind & calls_);
        t->rma_call = kind == kTraceRma;
        t->depth = 0;
        t->skipped = 0;
    }
    if (!t->tracing) return;
    if (t->depth == RankTrace::kMaxDepth) {
        ++t->skipped;
        return;
    }
    const std::uint16_t region = region_of(call);
    t->open[t->depth++] = region;
    Record r;
    r.type = RecordType::Enter;
    r.time = rank.clock;
    r.region = region;
    add(*t, r);
}

void TraceRecorder::on_leave(const Rank& rank) {
    RankTrace* t = traced(rank);
    if (!t || !t->tracing) return;
    if (t->skipped > 0) {
        --t->skipped;
        return;
    }
    if (t->depth == 0) return;
    Record r;
    r.type = RecordType::Leave;
    r.time = rank.clock;
    r.region = t->open[--t->depth];
    add(*t, r);
    if (rank.split.depth <= 1) t->tracing = false;
}

void TraceRecorder::on_send(const Rank& sender, const Request& send, const Message& m) {
    if (m.signature != 0) return;  // a collective's message: part of its collective record
    RankTrace* t = traced(sender);
    if (!t || !t->tracing || t->rma_call || !send.comm) return;  // rma: general active target's notices
    Record r;
    r.type = blocking_point_to_point(sender.split.call) ? RecordType::Send : RecordType::Isend;
    r.time = send.posted_at;
    r.bytes = send.bytes;
    r.id = message_id(m.src, m.seq);
    r.request = reinterpret_cast<std::uintptr_t>(&send);
    r.peer = send.peer;
    r.tag = send.tag;
    r.comm = comm_of(*send.comm, sender);
    if (r.type == RecordType::Isend) open_isends_.insert(&send);
    // A request of MPI_Rput... that the program freed without waiting: its memory is this one now.
    if (!open_rma_user_.empty()) open_rma_user_.erase(&send);
    add(*t, r);
}

void TraceRecorder::on_receive_posted(const Rank& receiver, const Request& recv) {
    if (!recv.comm || recv.context != recv.comm->context) return;  // a collective's receive
    RankTrace* t = traced(receiver);
    if (!t) return;
    if (t->rma_call) {  // a notice of general active target, matched later
        internal_receives_.insert(&recv);
        return;
    }
    if (!t->tracing || blocking_point_to_point(receiver.split.call)) return;
    Record r;
    r.type = RecordType::IrecvRequest;
    r.time = recv.posted_at;
    r.request = reinterpret_cast<std::uintptr_t>(&recv);
    open_irecvs_.insert(&recv);
    add(*t, r);
}

void TraceRecorder::on_match(const Rank& receiver, const Request& recv, const Message& m) {
    if (m.signature != 0 || !traced(receiver)) return;
    if (!internal_receives_.empty() && internal_receives_.erase(&recv) > 0) return;
    matched_[&recv] = message_id(m.src, m.seq);
}

void TraceRecorder::on_complete(const Rank& owner, const Request& req) {
    RankTrace* t = traced(owner);
    if (!t) return;
    if (req.kind == RequestKind::Send) {
        if (!open_rma_user_.empty())
            if (auto it = open_rma_user_.find(&req); it != open_rma_user_.end()) {
                Record r;
                r.type = RecordType::RmaComplete;
                r.time = owner.clock;
                r.id = it->second.id;
                r.comm = it->second.window;
                r.tag = kRmaNonBlocking;
                r.region = static_cast<std::uint16_t>(it->second.kind);
                open_rma_user_.erase(it);
                if (t->tracing) add(*t, r);
                return;
            }
        if (open_isends_.erase(&req) == 0 || !t->tracing) return;
        Record r;
        r.type = RecordType::IsendComplete;
        r.time = owner.clock;
        r.request = reinterpret_cast<std::uintptr_t>(&req);
        add(*t, r);
        return;
    }
    if (req.kind == RequestKind::Collective) {
        auto it = ended_nonblocking_.find(&req);
        if (it == ended_nonblocking_.end()) return;
        const OpenCollective& c = it->second;
        Record r;
        r.type = RecordType::NbcComplete;
        r.time = owner.clock;
        r.comm = c.comm;
        r.region = static_cast<std::uint16_t>(c.kind);
        r.peer = c.root;
        r.bytes = c.sent;
        r.id = c.received;
        r.request = reinterpret_cast<std::uintptr_t>(&req);
        add(*c.rank, r);
        ended_nonblocking_.erase(it);
        return;
    }
    if (req.kind != RequestKind::Recv) return;
    std::uint64_t id = 0;
    if (auto it = matched_.find(&req); it != matched_.end()) {
        id = it->second;
        matched_.erase(it);
    }
    const bool nonblocking = open_irecvs_.erase(&req) > 0;
    if (!t->tracing || req.cancelled || req.status_source == MPI_PROC_NULL || !req.comm) return;
    Record r;
    r.type = nonblocking ? RecordType::Irecv : RecordType::Recv;
    r.time = owner.clock;
    r.bytes = req.status_bytes;
    r.id = id;
    r.request = reinterpret_cast<std::uintptr_t>(&req);
    r.peer = req.status_source;
    r.tag = req.status_tag;
    r.comm = comm_of(*req.comm, owner);
    add(*t, r);
}

void TraceRecorder::on_collective_begin(const Rank& rank, const void* call, const Request& request, const Comm& comm,
                                        int kind, int root, bool nonblocking, SimTime time) {
    RankTrace* t = traced(rank);
    if (!t || !t->tracing || t->rma_call) return;  // rma: a window's barrier is its RmaCollective record
    OpenCollective open{t, comm_of(comm, rank), kind, root};
    Record r;
    r.type = RecordType::CollectiveBegin;
    r.time = time;
    // A nonblocking collective completes while its owner does other things: it is a request
    // at the MPI_I* call and a completion in the wait or test that returns it (OTF2's
    // NonBlockingCollectiveRequest / Complete), not a begin/end pair of the owner's timeline.
    if (nonblocking) {
        open.request = &request;
        r.type = RecordType::NbcRequest;
        r.request = reinterpret_cast<std::uintptr_t>(&request);
    }
    collectives_[call] = open;
    add(*t, r);
}

void TraceRecorder::on_collective_round(const void* call, std::uint64_t sent, std::uint64_t received) {
    if (collectives_.empty()) return;
    if (auto it = collectives_.find(call); it != collectives_.end()) {
        it->second.sent += sent;
        it->second.received += received;
    }
}

void TraceRecorder::on_collective_end(const Rank&, const void* call, SimTime time) {
    auto it = collectives_.find(call);
    if (it == collectives_.end()) return;
    const OpenCollective& c = it->second;
    if (c.request) {  // nonblocking: recorded when the owner sees it (on_complete)
        ended_nonblocking_[c.request] = c;
        collectives_.erase(it);
        return;
    }
    Record r;
    r.type = RecordType::CollectiveEnd;
    r.time = time;
    r.comm = c.comm;
    r.region = static_cast<std::uint16_t>(c.kind);
    r.peer = c.root;
    r.bytes = c.sent;
    r.id = c.received;
    add(*c.rank, r);
    collectives_.erase(it);
}

std::uint32_t TraceRecorder::window_of(const Comm& window, const Rank& rank) {
    const std::uint32_t index = comm_of(window, rank);
    CommInfo& info = comms_[index];
    if (!info.window) {
        info.window = true;
        if (info.name == "communicator " + std::to_string(info.context)) info.name = "window " + std::to_string(info.context);
    }
    return index;
}

void TraceRecorder::on_window_named(const Rank& rank, const Comm& window, const char* name) {
    if (!traced(rank) || !*name) return;
    comms_[window_of(window, rank)].name = name;  // the last name any traced member gave it
}

std::uint32_t TraceRecorder::group_of(const std::vector<int>& members) {
    std::string key;
    for (const int m : members) key += std::to_string(m) + ",";
    if (auto it = group_index_.find(key); it != group_index_.end()) return it->second;
    CommInfo info;
    info.group_only = true;
    info.name = "window group";
    info.members = members;
    comms_.push_back(std::move(info));
    const auto index = static_cast<std::uint32_t>(comms_.size() - 1);
    group_index_.emplace(std::move(key), index);
    return index;
}

void TraceRecorder::on_rma_collective_begin(const Rank& rank, SimTime time) {
    if (RankTrace* t = traced(rank)) t->rma_begin = time;
}

// The begin is written with its end, so that a creation that failed half-way leaves no
// collective open.
void TraceRecorder::on_rma_collective_end(const Rank& rank, const Comm& window, RmaCollective kind, SimTime time) {
    RankTrace* t = traced(rank);
    if (!t) return;
    const SimTime begin = t->rma_begin < 0 ? time : t->rma_begin;
    t->rma_begin = -1;
    if (!t->tracing) return;
    const std::uint32_t w = window_of(window, rank);
    Record r;
    r.comm = w;
    r.type = RecordType::RmaCollectiveBegin;
    r.time = begin;
    add(*t, r);
    const bool created = kind == RmaCollective::Create || kind == RmaCollective::CreateAllocate;
    if (created) {  // the window exists from here on: its collective end names it
        r.type = RecordType::RmaWinCreate;
        r.time = time;
        add(*t, r);
    }
    r.type = RecordType::RmaCollectiveEnd;
    r.time = time;
    r.region = static_cast<std::uint16_t>(kind);
    add(*t, r);
    if (kind == RmaCollective::Free || kind == RmaCollective::FreeDeallocate) {
        r.type = RecordType::RmaWinDestroy;
        r.region = 0;
        add(*t, r);
    }
}

void TraceRecorder::on_rma_operation(const Rank& origin, const Comm& window, const Request& request,
                                     const Request* user, const Message& m, int kind, int target, std::uint64_t sent,
                                     std::uint64_t received) {
    RankTrace* t = traced(origin);
    if (!t || !t->tracing) return;
    Record r;
    r.type = RecordType::RmaOperation;
    r.time = origin.clock;
    r.comm = window_of(window, origin);
    r.peer = target;
    r.tag = kind;
    r.bytes = sent;
    r.request = received;
    r.id = rma_operation_id(m.src, m.seq);
    open_rma_[&request] = OpenRma{r.id, r.comm, user, kind};
    if (user) open_rma_user_[user] = OpenRma{r.id, r.comm, user, kind};
    add(*t, r);
}

void TraceRecorder::on_rma_applied(const Rank& target, const Message& m, int kind, SimTime time) {
    RankTrace* t = traced(target);
    if (!t || !in_span(time) || !(calls_ & kTraceRma)) return;
    Record r;
    r.type = RecordType::RmaApplied;
    r.time = time;
    r.peer = m.src;
    r.tag = kind;
    r.id = rma_operation_id(m.src, m.seq);
    add(*t, r);
}

void TraceRecorder::on_rma_completed(const Rank& origin, const Request& request) {
    auto it = open_rma_.find(&request);
    if (it == open_rma_.end()) return;
    const OpenRma op = it->second;
    open_rma_.erase(it);
    RankTrace* t = traced(origin);
    if (!t || !t->tracing) return;
    Record r;
    r.type = RecordType::RmaComplete;
    r.time = origin.clock;
    r.id = op.id;
    r.comm = op.window;
    // An MPI_Rput's own request completes it locally (MPI_Wait); a flush, at the target.
    r.tag = op.user ? kRmaRemote : kRmaBlocking;
    r.region = static_cast<std::uint16_t>(op.kind);
    add(*t, r);
}

void TraceRecorder::on_rma_lock(const Rank& origin, const Comm& window, RmaLock what, int target, bool exclusive,
                                SimTime time) {
    RankTrace* t = traced(origin);
    if (!t || !t->tracing) return;
    Record r;
    r.type = RecordType::RmaLock;
    r.time = time;
    r.comm = window_of(window, origin);
    r.region = static_cast<std::uint16_t>(what);
    r.peer = target;
    r.tag = exclusive ? 1 : 0;
    add(*t, r);
}

void TraceRecorder::on_rma_group_sync(const Rank& rank, const Comm& window, RmaGroupSync what,
                                      const std::vector<int>& group, SimTime time) {
    RankTrace* t = traced(rank);
    if (!t || !t->tracing) return;
    Record r;
    r.type = RecordType::RmaGroupSync;
    r.time = time;
    r.comm = window_of(window, rank);
    r.region = static_cast<std::uint16_t>(what);
    r.id = group_of(group);
    add(*t, r);
}

void TraceRecorder::close_open_calls() {
    for (RankTrace& t : ranks_) {
        const SimTime clock = engine_.local(t.world).clock;
        while (t.depth > 0) {
            Record r;
            r.type = RecordType::Leave;
            r.time = clock;
            r.region = t.open[--t.depth];
            t.records.push_back(r);
        }
        t.tracing = false;
    }
}

std::string check_trace_options(const Options& options, int world_size, int process) {
    std::string why;
    if (process == 0 && !options.trace_path.empty()) {
        for (const RankRange& r : options.trace_ranks)
            if (r.last >= world_size) {
                why = "-xsim-trace-ranks: rank " + std::to_string(r.first > r.last ? r.first : r.last) +
                      " is beyond the " + std::to_string(world_size) + " simulated ranks (0-" +
                      std::to_string(world_size - 1) + ")";
                break;
            }
        const std::string& path = options.trace_path;
        if (why.empty() && ends_with(path, ".otf2")) {
            if (!otf2_available()) {
                why = "-xsim-trace " + path + ": this xsim was built without OTF2 (install libopen-trace-format2-dev "
                      "and rebuild), so it can write .json traces only";
            } else {
                // OTF2 makes NAME.otf2, NAME.def and the directory NAME/ next to each other; it
                // will not write into an existing NAME/, so say so now rather than after the run.
                const std::string stem = path.substr(0, path.size() - 5);
                struct stat st;
                if (stat(stem.c_str(), &st) == 0)
                    why = "-xsim-trace " + path + ": " + stem + "/ already exists (an earlier trace?); remove it "
                          "or choose another name";
                else
                    why = prepare_output_file("-xsim-trace", path);
            }
        } else if (why.empty()) {
            why = prepare_output_file("-xsim-trace", path);
        }
    }
    int length = static_cast<int>(why.size());
    real_mpi.Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    why.resize(static_cast<std::size_t>(length));
    if (length > 0) real_mpi.Bcast(why.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    return why;
}

bool write_trace(TraceRecorder& recorder) {
    recorder.close_open_calls();
    const std::string& path = recorder.engine().options().trace_path;
    return ends_with(path, ".otf2") ? write_otf2_trace(recorder, path) : write_json_trace(recorder, path);
}

}  // namespace xsim::trace
