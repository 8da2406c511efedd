// The -xsim-* command-line options (also read from XSIM_OPTIONS), removed from the
// argv the application sees.
#pragma once
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "libxsim/engine/payload_policy.hpp"

namespace xsim {

enum class ComputeMode { Measured, None };
enum class ComputeClock { Wall, Thread };  // what measured compute reads (host_clock.hpp)
enum class ProgressMode { Auto, On, Off };
enum class PrivatizeMode { Auto, On, Off };  // per-rank globals (runtime/privatization.hpp)
enum class EventOrderOption { Cells, Time };  // -xsim-order (pdes/processing_order.hpp)

// -xsim-trace-ranks: an inclusive range of world ranks.
struct RankRange {
    long long first = 0;
    long long last = 0;
};
// -xsim-trace-calls: kinds of MPI calls a trace keeps (bits).
enum TraceCallKind : unsigned {
    kTraceP2p = 1,    // point-to-point: sends, receives, probes, waits and tests
    kTraceColl = 2,   // collectives, communicator creation, init and finalize
    kTraceOther = 4,  // everything else (MPI_Comm_rank, datatypes, MPI_Wtime, xsim_*)
    kTraceRma = 8,    // one-sided: MPI_Put, MPI_Get, accumulates, MPI_Win_* (windows, epochs)
    kTraceAllCalls = 15,
};

struct Options {
    long long np = 0;                   // simulated ranks; 0 = one per real process
    ComputeMode compute = ComputeMode::Measured;
    ComputeClock compute_clock = ComputeClock::Thread;  // -xsim-compute-clock thread|wall
    // Measured compute reads the thread CPU clock (ThreadCpuClock, with its perf event).
    bool reads_thread_clock() const { return compute == ComputeMode::Measured && compute_clock == ComputeClock::Thread; }
    // -xsim-stack; when not given (stack_given false), choose_default_stack sets it at start-up
    // from the ranks per real process. Until then 1 MiB, the default at scale.
    std::size_t stack_bytes = 1024 * 1024;
    bool stack_given = false;
    // -xsim-epoch: what the realtime clocks (time, gettimeofday, CLOCK_REALTIME) read at
    // virtual time 0, in seconds since 1970. Fixed by default, so runs are reproducible;
    // `now` (epoch_now) takes real process 0's clock at start-up, the same for every rank.
    static constexpr std::int64_t kFixedEpochSeconds = 1'700'000'000;  // 2023-11-14T22:13:20Z
    std::int64_t epoch_seconds = kFixedEpochSeconds;
    bool epoch_now = false;
    std::string report_path;
    std::string config_file;
    std::vector<std::string> overrides;  // -xsim-set key=value
    PayloadPolicy payload;              // -xsim-payload on|off|auto|<bytes>
    ProgressMode progress = ProgressMode::Auto;
    ProgressMode summary = ProgressMode::Auto;   // -xsim-summary: end-of-run summary on stderr (auto: a terminal)
    std::string profile_path;           // -xsim-profile: per-call profile (.csv or .json)
    std::string commmatrix_path;        // -xsim-commmatrix: rank-to-rank (or node) message matrix, CSV
    long long commmatrix_limit = 4096;  // -xsim-commmatrix-limit: most entities before aggregating to nodes
    PrivatizeMode privatize = PrivatizeMode::Auto;  // auto: on when ranks share a real process
    std::vector<std::string> privatize_libraries;   // -xsim-privatize-libs: system libraries made per rank too
    // -xsim-privatize-remap: runs of written pages from this many bytes on are remapped at a
    // switch, shorter ones copied; 0 (auto): measured on the host; the largest size_t (off): none.
    std::size_t privatize_remap_from = 0;
    // -xsim-analytic-ranks: on communicators of at least this many ranks, a collective whose
    // default algorithm sends O(p^2) messages runs analytic instead (0: never).
    long long analytic_ranks = 4096;  // from bench/RESULTS.md ("Analytic collectives with data")
    EventOrderOption order = EventOrderOption::Cells;  // -xsim-order cells|time
    bool help = false;
    std::string regions_out;            // -xsim-regions-out: record region times into this file
    std::string regions_in;             // -xsim-regions-in: replay region times from this file
    double watchdog_seconds = 0;        // -xsim-watchdog: wall seconds one rank may run alone (0: off)
    // -xsim-trace FILE.otf2|FILE.json and its filters (report/trace/): which ranks, which
    // virtual-time window (calls that start in [begin, end) ps; end -1: no end), which call kinds.
    std::string trace_path;
    std::vector<RankRange> trace_ranks;  // empty: every rank
    long long trace_begin_ps = 0;
    long long trace_end_ps = -1;
    unsigned trace_calls = kTraceAllCalls;
    // Every option as applied, (name, value) in order: all real processes must agree on them
    // (runtime/option_agreement).
    std::vector<std::pair<std::string, std::string>> given;
};

class OptionError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct CommandLine {
    Options options;
    std::vector<char*> app_argv;  // argv without any -xsim-* option, null-terminated
};

// The stack of a rank when -xsim-stack is not given, decided by the largest block of ranks a
// process hosts, ceil(ranks / processes), the same on every process:
// - 8 MiB, what a native main thread gets (Linux's default `ulimit -s`), up to kLargeStackRanks;
// - 1 MiB above, where the page tables (about 5 KB per rank at 8 MiB, 2.1 KB at 1 MiB) and the
//   stride between stacks add up (bench/RESULTS.md "Session 38");
// - above kSpanStackRanks, the largest power of two that keeps the process's stacks within
//   kStackSpanBudget of address space (512 KiB at 131,072 ranks per process, 128 KiB at
//   524,288), never below kSmallestDefaultStack. Every stack whose top page a rank touches
//   needs a page-table page per 2 MiB of span; where a hypervisor shadows the guest's page
//   tables, a store re-faults once a process has more than about 100,000 of them
//   (bench/page_table_reach.c): 2^20 ranks on 2 processes took 609 s with 1 MiB stacks,
//   88 s with 64 KiB (bench/RESULTS.md "Session 38"). 64 GiB is about 34,000 of them.
constexpr std::size_t kLargeDefaultStack = std::size_t{8} << 20;
constexpr std::size_t kScaleDefaultStack = std::size_t{1} << 20;
constexpr std::size_t kSmallestDefaultStack = std::size_t{64} << 10;
constexpr std::size_t kStackSpanBudget = std::size_t{64} << 30;
constexpr long long kLargeStackRanks = 4096;
constexpr long long kSpanStackRanks = static_cast<long long>(kStackSpanBudget / kScaleDefaultStack);
std::size_t default_stack_bytes(long long ranks, int processes);
// Sets options.stack_bytes to the default for this run unless -xsim-stack was given.
void choose_default_stack(Options& options, long long ranks, int processes);
// How the stack size was chosen, for messages: "" when -xsim-stack was given, else e.g.
// " (the default for up to 4096 simulated ranks per real process)". Usable in a signal handler.
// Depends on stack_bytes only: each rule gives sizes the others do not.
const char* stack_origin(std::size_t stack_bytes, bool given);

// `env_options` is the XSIM_OPTIONS text (may be null); argv options come after it and win.
// Throws OptionError naming the offending option or value.
CommandLine parse_command_line(int argc, char** argv, const char* env_options);

// Parses "64k", "1m", "2g", "65536" (also KiB/MiB/GiB); throws OptionError.
std::size_t parse_size(const std::string& option, const std::string& text);

std::string options_help();

// The -xsim-trace filters' values; throw OptionError naming the option and the bad part.
// "0-63,1024": ranges of world ranks (the world size is checked at start-up).
std::vector<RankRange> parse_rank_ranges(const std::string& option, const std::string& text);
// "T0:T1" in seconds of virtual time, either side may be empty ("1e-3:", ":0.5"): [T0, T1) in ps.
std::pair<long long, long long> parse_time_window(const std::string& option, const std::string& text);
// "p2p,coll,other" or "all": TraceCallKind bits.
unsigned parse_call_kinds(const std::string& option, const std::string& text);


}  // namespace xsim
