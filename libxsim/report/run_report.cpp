#include "libxsim/report/run_report.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <limits>

#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/report/critical_path_report.hpp"
#include "libxsim/report/output_file.hpp"
#include "libxsim/report/time_split_report.hpp"
#include "libxsim/report/wait_state_report.hpp"

namespace xsim {
namespace {

std::int64_t g_start_ns = 0;

enum Sum { kMessages, kMessageBytes, kCollectiveMessages, kRmaOperations, kRmaBytes, kRemoteEvents, kSwitches, kEvents, kSums };
enum Max { kSimTime, kPeakRss, kWindows, kMaxima };

struct Figures {
    unsigned long long sums[kSums];
    long long maxima[kMaxima];
};

// This process's figures. The simulated time is the largest clock at MPI_Finalize after a
// normal end, otherwise the latest clock any rank reached (where a deadlock or crash
// left it).
Figures local_figures(Engine& engine, RunEnd end) {
    const RunStats& s = engine.stats();
    unsigned long long unreceived = 0, unreceived_bytes = 0;
    unreceived_user_messages(engine, &unreceived, &unreceived_bytes);
    Figures f{{s.messages - unreceived, s.bytes - unreceived_bytes, s.internal_messages, s.rma_operations,
               s.rma_bytes, s.remote_events, s.context_switches, s.events},
              {s.max_finalize_time, peak_rss_bytes(), static_cast<long long>(engine.windows())}};
    if (end != RunEnd::Completed) f.maxima[kSimTime] = std::max<long long>(f.maxima[kSimTime], engine.latest_clock());
    return f;
}

void write_body(Engine& engine, FdWriter& out, const Figures& f, int exit_code, RunEnd end, const char* why,
                bool complete, const SplitTotals* split = nullptr, const RunCriticalPath* path = nullptr,
                const WaitStateTotals* waits = nullptr) {
    const Options& o = engine.options();
    out.print("{\n");
    out.print("  \"ranks\": %d,\n", engine.world_size());
    out.print("  \"processes\": %d,\n", engine.placement().processes);
    out.print("  \"end\": \"%s\",\n", run_end_name(end));
    out.print("  \"end_detail\": \"");
    out.json_string(why ? why : "");
    out.print("\",\n");
    out.print("  \"exit_code\": %d,\n", exit_code);
    // A report of one process after a bad end: its ranks only.
    out.print("  \"complete\": %s,\n", complete ? "true" : "false");
    if (!complete)
        out.print("  \"covers\": {\"process\": %d, \"first_rank\": %d, \"ranks\": %d},\n", engine.placement().process,
                  engine.first_local(), engine.local_count());
    out.print("  \"simulated_time_s\": %.12f,\n", simtime_to_seconds(f.maxima[kSimTime]));
    out.print("  \"simulated_time_ps\": %lld,\n", f.maxima[kSimTime]);
    out.print("  \"wall_time_s\": %.6f,\n", static_cast<double>(host_clock_ns() - g_start_ns) * 1e-9);
    out.print("  \"messages\": %llu,\n", f.sums[kMessages]);
    out.print("  \"bytes\": %llu,\n", f.sums[kMessageBytes]);
    out.print("  \"collective_messages\": %llu,\n", f.sums[kCollectiveMessages]);
    out.print("  \"rma_operations\": %llu,\n", f.sums[kRmaOperations]);
    out.print("  \"rma_bytes\": %llu,\n", f.sums[kRmaBytes]);
    out.print("  \"remote_events\": %llu,\n", f.sums[kRemoteEvents]);
    out.print("  \"context_switches\": %llu,\n", f.sums[kSwitches]);
    out.print("  \"events\": %llu,\n", f.sums[kEvents]);
    out.print("  \"peak_rss_bytes\": %lld,\n", f.maxima[kPeakRss]);
    // Every process takes part in every window: between processes, each is a round of
    // real collectives (pdes/conservative_loop.cpp).
    out.print("  \"windows\": %lld,\n", f.maxima[kWindows]);
    if (path) print_critical_path(out, *path);  // of the rank that ended last
    if (split) {  // summed over all ranks (engine/time_split.hpp)
        const unsigned long long* t = split->sums;
        out.print("  \"time_split\": {\"compute_s\": %.12f, \"point_to_point_s\": %.12f, \"collective_s\": %.12f, "
                  "\"waiting_s\": %.12f,\n",
                  simtime_to_seconds(t[SplitTotals::kCompute]), simtime_to_seconds(t[SplitTotals::kPointToPoint]),
                  simtime_to_seconds(t[SplitTotals::kCollective]), simtime_to_seconds(t[SplitTotals::kWaiting]));
        out.print("    \"max_waiting\": {\"rank\": %d, \"waiting_s\": %.12f}, \"min_waiting\": {\"rank\": %d, "
                  "\"waiting_s\": %.12f}},\n",
                  split->max_waiting_rank, simtime_to_seconds(split->max_waiting), split->min_waiting_rank,
                  simtime_to_seconds(split->min_waiting));
    }
    if (split && waits) {  // waiting classified by its cause (engine/wait_states.hpp)
        out.print("  \"wait_states\": ");
        const auto lines = wait_states_json(*waits, split->sums[SplitTotals::kWaiting], "  ");
        for (std::size_t i = 0; i < lines.size(); ++i) out.print("%s%s\n", lines[i].c_str(), i + 1 < lines.size() ? "" : ",");
    }
    // payload: "on", "off", "auto" or "threshold"; payload_threshold_bytes: the largest
    // message that carries its data (null for on and off).
    // compute_clock: what measured compute read; with thread, preemption_detector says how it
    // notices that the thread was scheduled out: "perf_event" (at once) or "1ms_refresh" (the
    // kernel refused the perf event; detector_note says why: off-CPU time up to 1 ms a refresh
    // can be charged); steal_time whether the host's kernel reports the time a hypervisor
    // takes the virtual CPU away ("none_reported": a virtual machine where it is charged as
    // compute; host_clock.hpp).
    out.print("  \"options\": {\"compute\": \"%s\", \"compute_clock\": \"%s\", ",
              o.compute == ComputeMode::None ? "none" : "measured",
              o.compute_clock == ComputeClock::Thread ? "thread" : "wall");
    if (o.reads_thread_clock()) {
        const ThreadCpuClock& clock = engine.thread_cpu_clock();
        out.print("\"preemption_detector\": \"%s\", \"detector_note\": \"",
                  clock.detects_preemption() ? "perf_event" : "1ms_refresh");
        out.json_string(clock.detector_note());
        out.print("\", \"steal_time\": \"%s\", ", steal_time_name(host_steal_time()));
    }
    // order: the processing order in effect (pdes/processing_order.hpp), cell_ps its cells'
    // length (null in time order).
    const ProcessingOrder& order = engine.processing_order();
    if (order.cells()) out.print("\"order\": \"cells\", \"cell_ps\": %lld, ", static_cast<long long>(order.cell_length()));
    else out.print("\"order\": \"time\", \"cell_ps\": null, ");
    // stack_default: no -xsim-stack, so the default for the ranks per process (options.hpp).
    out.print("\"stack_bytes\": %zu, \"stack_default\": %s, \"payload\": \"%s\", \"payload_threshold_bytes\": ",
              o.stack_bytes, o.stack_given ? "false" : "true", o.payload.name());
    if (o.payload.has_threshold()) out.print("%zu", static_cast<std::size_t>(o.payload.threshold_bytes()));
    else out.print("null");
    // epoch_seconds: what the realtime clocks read at virtual time 0 (-xsim-epoch).
    out.print(", \"epoch_seconds\": %lld},\n", static_cast<long long>(o.epoch_seconds));
    const runtime::Privatization& p = engine.privatization();
    out.print("  \"privatization\": {\"active\": %s, \"privatized_bytes\": %zu, \"bytes_per_rank\": %zu, "
              "\"switched_bytes\": %zu, \"remapped_bytes\": %zu, \"left_shared\": [",
              p.active() ? "true" : "false", p.privatized_bytes(), p.bytes_per_rank(), p.active() ? p.switched_bytes() : 0,
              p.remapped_bytes());
    for (std::size_t i = 0; i < p.left_shared().size(); ++i) {
        out.print("%s\"", i ? ", " : "");
        out.json_string(p.left_shared()[i].c_str());
        out.print("\"");
    }
    // remap_from_bytes: runs of written pages from this length on are remapped at a switch,
    // shorter ones copied (null: none is, or no image had a run to decide for); remap_cost: what
    // was measured on the host to decide it (null when nothing was measured).
    const std::size_t from = p.remap_from();
    if (from == 0 || from == std::numeric_limits<std::size_t>::max()) out.print("], \"remap_from_bytes\": null");
    else out.print("], \"remap_from_bytes\": %zu", from);
    const runtime::RemapCost& cost = p.remap_cost();
    if (cost.measured)
        out.print(", \"remap_cost\": {\"move_us\": %.3f, \"touch_page_us\": %.4f, \"copy_page_us\": %.4f}},\n", cost.move_us,
                  cost.touch_page_us, cost.copy_page_us);
    else out.print(", \"remap_cost\": null},\n");
    const std::string& machine = engine.machine().effective_config_json;
    out.print("  \"machine\": ");
    // The machine's JSON may be longer than one formatted line.
    for (std::size_t at = 0; at < machine.size(); at += 512)
        out.print("%.*s", static_cast<int>(std::min<std::size_t>(512, machine.size() - at)), machine.c_str() + at);
    out.print("%s\n}\n", machine.empty() ? "{}" : "");
}

}  // namespace

void note_run_start(std::int64_t host_ns) { g_start_ns = host_ns; }
std::int64_t run_start_ns() { return g_start_ns; }

long long peak_rss_bytes() {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<long long>(usage.ru_maxrss) * 1024;
}

void unreceived_user_messages(Engine& engine, unsigned long long* messages, unsigned long long* bytes) {
    *messages = *bytes = 0;
    for (int i = 0; i < engine.local_count(); ++i) {
        const Rank& r = engine.local(engine.first_local() + i);
        for (const Message* m = r.unexpected.head; m; m = m->next) {
            // User contexts are the even ones; a rendezvous envelope or an eager message
            // nobody received: counted at the send, never delivered.
            if (m->context % 2 != 0 || (m->kind != MessageKind::Eager && m->kind != MessageKind::RequestToSend)) continue;
            ++*messages;
            *bytes += m->bytes;
        }
    }
}

void write_run_report(Engine& engine, const std::string& path, int exit_code, RunEnd end, const char* why) {
    Figures f = local_figures(engine, end);
    const SplitTotals split = reduce_time_split(engine);
    const WaitStateTotals waits = reduce_wait_states(engine);
    const RunCriticalPath critical = reduce_critical_path(engine);
    int process = 0;
    real_mpi.Comm_rank(MPI_COMM_WORLD, &process);
    real_mpi.Reduce(process == 0 ? MPI_IN_PLACE : f.sums, f.sums, kSums, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    real_mpi.Reduce(process == 0 ? MPI_IN_PLACE : f.maxima, f.maxima, kMaxima, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (process != 0) return;
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    bool written = fd >= 0;
    if (fd >= 0) {
        FdWriter out(fd);
        write_body(engine, out, f, exit_code, end, why, true, &split, &critical, &waits);
        out.flush();
        written = out.ok();
        if (close(fd) != 0) written = false;
    }
    if (!written) std::fprintf(stderr, "xsim: -xsim-report %s: cannot write the run report\n", path.c_str());
}

bool write_local_run_report(Engine& engine, const char* path, int exit_code, RunEnd end, const char* why) {
    const int fd = open_abnormal_output(path);
    if (fd < 0) return false;
    bool written;
    {
        FdWriter out(fd);
        const RunCriticalPath critical = local_critical_path(engine);
        write_body(engine, out, local_figures(engine, end), exit_code, end, why, engine.placement().processes == 1,
                   nullptr, &critical);
        out.flush();
        written = out.ok();
    }
    return close(fd) == 0 && written;
}

}  // namespace xsim
