// -xsim-trace FILE.json: Chrome/Perfetto trace-event JSON in the format of
// notes/formats.md. One track per traced rank (pid = its node in the machine model, tid =
// its world rank), a complete event ("X") per MPI call, a flow pair ("s" at the send, "f"
// at the receive's completion) per point-to-point message. Each real process writes its
// own ranks: process 0 FILE.json, process p FILE.json.p; nothing goes through one process.
#include <cinttypes>
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "libxsim/colls/collective_kind.hpp"
#include "libxsim/report/trace/trace_recorder.hpp"

namespace xsim::trace {
namespace {

// Microseconds with the picoseconds kept: 12.345678.
std::string us(SimTime t) {
    char text[40];
    std::snprintf(text, sizeof text, "%" PRId64 ".%06" PRId64, t / 1'000'000, t % 1'000'000);
    return text;
}

std::string json_text(const std::string& s) {
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) {
            char e[8];
            std::snprintf(e, sizeof e, "\\u%04x", c);
            out += e;
            continue;
        }
        out += c;
    }
    return out + "\"";
}

const char* category(const std::string& call) {
    const unsigned kind = trace_call_kind(call.c_str());
    return kind == kTraceP2p ? "p2p" : kind == kTraceColl ? "coll" : kind == kTraceRma ? "rma" : "other";
}

// rma::OperationKind as the flows of one-sided operations name them.
const char* rma_name(std::int32_t kind) {
    static const char* const kNames[] = {"MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Get_accumulate",
                                         "MPI_Compare_and_swap"};
    return kind >= 0 && kind < 5 ? kNames[kind] : "one-sided operation";
}

const char* rma_collective_name(std::uint16_t kind) {
    switch (static_cast<EventObserver::RmaCollective>(kind)) {
        case EventObserver::RmaCollective::Create: return "create";
        case EventObserver::RmaCollective::CreateAllocate: return "create and allocate";
        case EventObserver::RmaCollective::Free: return "free";
        case EventObserver::RmaCollective::FreeDeallocate: return "free and deallocate";
        case EventObserver::RmaCollective::Fence: return "fence";
    }
    return "";
}

// What an open call's complete event will say besides its name and times.
struct OpenCall {
    std::uint16_t region = 0;
    SimTime start = 0;
    std::string args;   // ",\"bytes\":..." (the first message's), collective's figures
    int messages = 0;
};

// A message's flow id, ((sender << 32) | sequence) + 1, as a hex string: as a JSON number it
// would pass 2^53 from about 2^21 ranks up, where JavaScript (Perfetto, Chrome) rounds it.
std::string flow_id(std::uint64_t id) {
    char text[24];
    std::snprintf(text, sizeof text, "\"0x%llx\"", static_cast<unsigned long long>(id));
    return text;
}

}  // namespace

std::string json_part_name(const std::string& path, int process) {
    return process == 0 ? path : path + "." + std::to_string(process);
}

bool write_json_trace(TraceRecorder& recorder, const std::string& base) {
    Engine& engine = recorder.engine();
    const int process = engine.placement().process;
    const std::string path = json_part_name(base, process);
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (!out) {
        std::fprintf(stderr, "xsim: -xsim-trace %s: cannot write there\n", path.c_str());
        return false;
    }
    std::vector<char> buffer(1 << 20);  // outlives the fclose below
    std::setvbuf(out, buffer.data(), _IOFBF, buffer.size());
    const auto& comms = recorder.comms();
    const auto& regions = recorder.regions();
    std::fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"xsim_ranks\":%d,\"xsim_processes\":%d,"
                      "\"xsim_process\":%d,\"xsim_traced_ranks_here\":%zu,\"xsim_parts\":[",
                 engine.world_size(), engine.placement().processes, process, recorder.ranks().size());
    for (int p = 0; p < engine.placement().processes; ++p)
        std::fprintf(out, "%s%s", p ? "," : "", json_text(json_part_name(base, p)).c_str());
    std::fprintf(out, "]},\"traceEvents\":[\n");
    bool first = true;
    auto event = [&](const std::string& text) {
        std::fputs(first ? "" : ",\n", out);
        std::fputs(text.c_str(), out);
        first = false;
    };
    // Track names: a "process" per node, a "thread" per rank.
    std::set<int> nodes;
    // A rank that other ranks' one-sided operations reached also has a track for its window
    // memory (tid = world size + rank), where each operation shows as it is applied.
    const int world_size = engine.world_size();
    auto memory_track = [&](int world) { return world_size + world; };
    for (const RankTrace& t : recorder.ranks()) {
        const int node = engine.machine().node_of(t.world);
        if (nodes.insert(node).second)
            event("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(node) +
                  ",\"args\":{\"name\":\"node " + std::to_string(node) + "\"}}");
        event("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(node) +
              ",\"tid\":" + std::to_string(t.world) + ",\"args\":{\"name\":\"rank " + std::to_string(t.world) + "\"}}");
        for (const Record& r : t.records)
            if (r.type == RecordType::RmaApplied) {
                event("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(node) +
                      ",\"tid\":" + std::to_string(memory_track(t.world)) + ",\"args\":{\"name\":\"rank " +
                      std::to_string(t.world) + " window memory\"}}");
                break;
            }
    }
    for (const RankTrace& t : recorder.ranks()) {
        const std::string track = ",\"pid\":" + std::to_string(engine.machine().node_of(t.world)) +
                                  ",\"tid\":" + std::to_string(t.world);
        std::vector<OpenCall> open;
        auto comm_args = [&](std::uint32_t c) {
            return ",\"comm\":" + std::to_string(comms[c].context) + ",\"comm_name\":" + json_text(comms[c].name);
        };
        auto note_message = [&](const Record& r) {
            if (open.empty()) return;
            OpenCall& call = open.back();
            if (call.messages++ == 0)
                call.args += ",\"bytes\":" + std::to_string(r.bytes) + ",\"peer\":" + std::to_string(r.peer) +
                             ",\"tag\":" + std::to_string(r.tag) + comm_args(r.comm);
        };
        for (const Record& r : t.records) {
            switch (r.type) {
                case RecordType::Enter: open.push_back({r.region, r.time, "", 0}); break;
                case RecordType::Leave: {
                    if (open.empty()) break;
                    const OpenCall call = open.back();
                    open.pop_back();
                    const std::string& name = regions[call.region];
                    std::string args = call.args;
                    if (call.messages > 1) args += ",\"messages\":" + std::to_string(call.messages);
                    event("{\"ph\":\"X\",\"name\":" + json_text(name) + ",\"cat\":\"" + category(name) +
                          "\",\"ts\":" + us(call.start) + ",\"dur\":" + us(r.time - call.start) + track +
                          ",\"args\":{" + (args.empty() ? "" : args.substr(1)) + "}}");
                    break;
                }
                case RecordType::Send:
                case RecordType::Isend:
                    note_message(r);
                    event("{\"ph\":\"s\",\"cat\":\"message\",\"name\":\"msg\",\"id\":" + flow_id(r.id) +
                          ",\"ts\":" + us(r.time) + track + ",\"args\":{\"bytes\":" + std::to_string(r.bytes) +
                          ",\"tag\":" + std::to_string(r.tag) + "}}");
                    break;
                case RecordType::Recv:
                case RecordType::Irecv:
                    note_message(r);
                    if (r.id != 0)
                        event("{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"message\",\"name\":\"msg\",\"id\":" +
                              flow_id(r.id) + ",\"ts\":" + us(r.time) + track + "}");
                    break;
                case RecordType::NbcComplete: {  // an instant on the track, in the wait or test that saw it
                    const auto kind = static_cast<colls::CollKind>(r.region);
                    event("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"coll\",\"name\":" +
                          json_text(std::string(colls::names(kind).mpi) + " completed") + ",\"ts\":" + us(r.time) + track +
                          ",\"args\":{\"nonblocking\":true" + comm_args(r.comm) + ",\"root\":" + std::to_string(r.peer) +
                          ",\"bytes_sent\":" + std::to_string(r.bytes) + ",\"bytes_received\":" + std::to_string(r.id) + "}}");
                    break;
                }
                case RecordType::CollectiveEnd:
                    if (!open.empty()) {
                        const auto kind = static_cast<colls::CollKind>(r.region);
                        open.back().args += ",\"collective\":" + json_text(colls::names(kind).mpi) +
                                            comm_args(r.comm) + ",\"root\":" + std::to_string(r.peer) +
                                            ",\"bytes_sent\":" + std::to_string(r.bytes) +
                                            ",\"bytes_received\":" + std::to_string(r.id);
                    }
                    break;
                // One-sided: a flow per operation from its call at the origin ("s"), through the
                // target's window memory track where it is applied ("t"), to the origin's call
                // that learned it completed ("f"); the id is the same in every process's part.
                case RecordType::RmaOperation:
                    if (!open.empty() && open.back().messages++ == 0)
                        open.back().args += ",\"bytes\":" + std::to_string(r.bytes) + ",\"bytes_fetched\":" +
                                            std::to_string(r.request) + ",\"target\":" + std::to_string(r.peer) +
                                            ",\"window\":" + json_text(comms[r.comm].name);
                    event("{\"ph\":\"s\",\"cat\":\"rma\",\"name\":" + json_text(rma_name(r.tag)) + ",\"id\":" +
                          flow_id(r.id) + ",\"ts\":" + us(r.time) + track + ",\"args\":{\"bytes\":" +
                          std::to_string(r.bytes) + ",\"bytes_fetched\":" + std::to_string(r.request) +
                          ",\"target\":" + std::to_string(r.peer) + "}}");
                    break;
                case RecordType::RmaApplied: {
                    const std::string memory = ",\"pid\":" + std::to_string(engine.machine().node_of(t.world)) +
                                               ",\"tid\":" + std::to_string(memory_track(t.world));
                    event("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"rma\",\"name\":" +
                          json_text(std::string(rma_name(r.tag)) + " applied") + ",\"ts\":" + us(r.time) + memory +
                          ",\"args\":{\"origin\":" + std::to_string(r.peer) + "}}");
                    event("{\"ph\":\"t\",\"cat\":\"rma\",\"name\":" + json_text(rma_name(r.tag)) + ",\"id\":" +
                          flow_id(r.id) + ",\"ts\":" + us(r.time) + memory + "}");
                    break;
                }
                case RecordType::RmaComplete:
                    if (r.tag != kRmaRemote)  // an MPI_Rput's flow ends where its request completes
                        event("{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"rma\",\"name\":" + json_text(rma_name(r.region)) +
                              ",\"id\":" + flow_id(r.id) + ",\"ts\":" + us(r.time) + track + "}");
                    break;
                case RecordType::RmaCollectiveEnd:
                    if (!open.empty())
                        open.back().args += ",\"window\":" + json_text(comms[r.comm].name) + ",\"window_collective\":" +
                                            json_text(rma_collective_name(r.region));
                    break;
                case RecordType::RmaLock:
                    if (!open.empty() && static_cast<EventObserver::RmaLock>(r.region) != EventObserver::RmaLock::Request)
                        open.back().args += ",\"window\":" + json_text(comms[r.comm].name) + ",\"lock_target\":" +
                                            std::to_string(r.peer) + ",\"lock\":" +
                                            (r.tag ? "\"exclusive\"" : "\"shared\"");
                    break;
                case RecordType::RmaGroupSync: {
                    if (open.empty()) break;
                    std::string group;
                    for (const int m : comms[r.id].members) {
                        if (!group.empty()) group += ',';
                        group += std::to_string(m);
                    }
                    open.back().args += ",\"window\":" + json_text(comms[r.comm].name) + ",\"group\":[" + group + "]";
                    break;
                }
                case RecordType::IsendComplete:
                case RecordType::IrecvRequest:
                case RecordType::CollectiveBegin:
                case RecordType::NbcRequest:
                case RecordType::RmaCollectiveBegin:
                case RecordType::RmaWinCreate:
                case RecordType::RmaWinDestroy: break;
            }
        }
    }
    std::fprintf(out, "\n]}\n");
    const bool ok = std::ferror(out) == 0;
    if (std::fclose(out) != 0 || !ok) {
        std::fprintf(stderr, "xsim: -xsim-trace %s: writing failed\n", path.c_str());
        return false;
    }
    return true;
}

}  // namespace xsim::trace
