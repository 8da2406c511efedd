#include "libxsim/engine/options.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>
#include <tuple>

#include "libxsim/engine/stack_guard.hpp"

namespace xsim {
namespace {

struct OptionSpec {
    const char* name;
    const char* value;  // null: a flag
    const char* help;
};

constexpr OptionSpec kOptions[] = {
    {"-xsim-np", "N", "number of simulated MPI ranks (default: the number of real processes)"},
    {"-xsim-compute", "measured|none",
     "charge the host time ranks spend between MPI calls (measured, scaled by the processor "
     "model) or only modeled time (none: fully reproducible runs)"},
    {"-xsim-compute-clock", "thread|wall",
     "the clock measured compute reads: thread (default: the simulation thread's CPU time, so host load, "
     "preemption and sleeps are not charged; costs about a monotonic-clock read, plus a system call after "
     "the thread was scheduled out or 1 ms passed) or wall (the monotonic clock, 16 ns a read; a "
     "preempted process is charged the preemption)"},
    {"-xsim-epoch", "fixed|now|SECONDS",
     "what time(), gettimeofday and CLOCK_REALTIME read when the simulation starts: fixed (default: "
     "1700000000, 2023-11-14, so runs are reproducible), now (the host's clock at start-up, so output "
     "files named by date do not overwrite an earlier run's) or seconds since 1970"},
    {"-xsim-stack", "SIZE",
     "stack per simulated rank, e.g. 64k, 1m, 8m (default: 8m while a real process hosts at most 4096 ranks, "
     "as a native main thread; 1m above); 2k, 4k, 8k for shallow skeletons at 2^22+ ranks"},
    {"-xsim-report", "FILE.json", "write a JSON run report when the simulation ends"},
    {"-xsim-config", "FILE.toml", "load the simulated machine from a TOML file"},
    {"-xsim-set", "KEY=VALUE", "override one machine key, e.g. network.level.node.latency=2e-6 (repeatable)"},
    {"-xsim-payload", "on|off|auto|BYTES",
     "which messages carry their data: on (all), off (application-model mode: only envelopes move, "
     "buffers untouched), BYTES (e.g. 4k: messages and collective blocks up to that size; larger ones "
     "move as envelopes), auto (4k); virtual times are the same in every mode"},
    {"-xsim-progress", "auto|on|off", "progress line on stderr (auto: only when stderr is a terminal)"},
    {"-xsim-watchdog", "SECONDS",
     "end the run when one rank runs that long (wall clock) without giving control back to xsim, "
     "naming it, its virtual time and last call (default: off)"},
    {"-xsim-summary", "auto|on|off",
     "summary of the run on stderr at its end: times, messages, memory and the split of rank time into "
     "compute, point-to-point, collective and waiting (auto: only when stderr is a terminal)"},
    {"-xsim-profile", "FILE.csv|FILE.json",
     "write the per-MPI-call profile over all ranks and the per-rank time split (min/mean/max) at the end"},
    {"-xsim-commmatrix", "FILE.csv",
     "write the sparse matrix of messages and bytes sent between ranks (user point-to-point and "
     "collectives' messages), aggregated to nodes of the machine above -xsim-commmatrix-limit ranks"},
    {"-xsim-commmatrix-limit", "N",
     "most rows/columns of -xsim-commmatrix before it aggregates to nodes, then to groups of nodes (default 4096)"},
    {"-xsim-quiet", nullptr, "same as -xsim-progress off -xsim-summary off"},
    {"-xsim-privatize", "auto|on|off",
     "per-rank copies of the program's globals and thread-locals (auto: on when several ranks share a "
     "real process; on also lists the libraries left shared)"},
    {"-xsim-privatize-libs", "NAMES",
     "also per rank: these libraries of the system directories (comma-separated, e.g. fftw3,gsl), serial "
     "libraries that keep state between calls, and the libraries built on them (repeatable)"},
    {"-xsim-privatize-remap", "auto|off|SIZE",
     "runs of written globals a switch remaps (mremap) instead of copying: auto (default) those from the "
     "length where the host was measured to remap faster (none under a hypervisor that shadows page "
     "tables) and those the ranks are seen to barely change per turn, off none, SIZE those from SIZE on "
     "(at least 64k)"},
    {"-xsim-analytic-ranks", "N",
     "on communicators of at least N ranks (default 4096; 0: never), collectives whose default "
     "algorithm sends O(p^2) messages (ring, pairwise, linear all-to-all) run the analytic algorithm "
     "instead, with their data (reduce-scatter only with -xsim-payload off)"},
    {"-xsim-order", "cells|time",
     "the order in which a process handles its events: cells (default: rank order inside slices of "
     "virtual time no longer than the smallest network latency, time order between them; faster at scale, "
     "same results) or time (strict time order; with network.contention it is always time)"},
    {"-xsim-regions-out", "FILE", "record the simulated time of xsim_region_begin/end regions into FILE"},
    {"-xsim-regions-in", "FILE", "model run: each xsim_region_end advances the clock by FILE's recorded mean"},
    {"-xsim-trace", "FILE.otf2|FILE.json",
     "write a trace of the MPI calls and messages at virtual times: an OTF2 archive (Vampir, Scalasca) or "
     "Chrome/Perfetto trace-event JSON; each real process writes its own ranks' part"},
    {"-xsim-trace-ranks", "LIST", "trace only these world ranks, e.g. 0-63,1024 (default: all)"},
    {"-xsim-trace-window", "T0:T1", "trace only the calls that start in [T0, T1) seconds of virtual time, e.g. 0.5:1 or 2e-3:"},
    {"-xsim-trace-calls", "KINDS", "trace only these call kinds: p2p, coll, rma, other, all (comma-separated; default all)"},
    {"-xsim-help", nullptr, "print this help and exit"},
};

const OptionSpec* find_option(const std::string& name) {
    for (const auto& spec : kOptions)
        if (name == spec.name) return &spec;
    return nullptr;
}

// False unless `text` is a whole number within long long.
bool whole_number(const std::string& text, long long* value) {
    errno = 0;
    char* end = nullptr;
    *value = std::strtoll(text.c_str(), &end, 10);
    return !text.empty() && *end == '\0' && errno != ERANGE;
}

// A comma-separated list of library names (fftw3, libgsl.so.27), not paths.
std::vector<std::string> parse_library_names(const std::string& option, const std::string& text) {
    std::vector<std::string> names;
    std::size_t at = 0;
    for (;;) {
        const std::size_t comma = text.find(',', at);
        const std::string name = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (name.empty() || name.find_first_of("/ \t") != std::string::npos)
            throw OptionError(option + ": expected library names separated by commas (e.g. fftw3,libgsl.so.27; no " +
                              "paths), got '" + text + "'");
        names.push_back(name);
        if (comma == std::string::npos) return names;
        at = comma + 1;
    }
}

long long parse_count(const std::string& option, const std::string& text) {
    long long value = 0;
    if (!whole_number(text, &value)) throw OptionError(option + ": '" + text + "' is not a whole number");
    return value;
}

void apply(Options& o, const OptionSpec& spec, const std::string& value) {
    const std::string name = spec.name;
    o.given.emplace_back(name, value);
    if (name == "-xsim-np") {
        o.np = parse_count(name, value);
        if (o.np < 1) throw OptionError("-xsim-np: the number of simulated ranks must be at least 1, got " + value);
        if (o.np > 0x7fffffffLL) throw OptionError("-xsim-np: " + value + " ranks is more than MPI's int ranks can address");
    } else if (name == "-xsim-compute") {
        if (value == "measured") o.compute = ComputeMode::Measured;
        else if (value == "none") o.compute = ComputeMode::None;
        else throw OptionError("-xsim-compute: expected 'measured' or 'none', got '" + value + "'");
    } else if (name == "-xsim-compute-clock") {
        if (value == "wall") o.compute_clock = ComputeClock::Wall;
        else if (value == "thread") o.compute_clock = ComputeClock::Thread;
        else throw OptionError("-xsim-compute-clock: expected 'thread' or 'wall', got '" + value + "'");
    } else if (name == "-xsim-epoch") {
        o.epoch_now = value == "now";
        if (value == "fixed") {
            o.epoch_seconds = Options::kFixedEpochSeconds;
        } else if (!o.epoch_now) {
            // Up to 9999-12-31: far from where a time_t or the picoseconds of a run overflow.
            constexpr long long kLatest = 253'402'300'799;
            long long seconds = -1;
            if (!whole_number(value, &seconds) || seconds < 0 || seconds > kLatest)
                throw OptionError("-xsim-epoch: expected 'fixed', 'now' or seconds since 1970 (0 to " +
                                  std::to_string(kLatest) + "), got '" + value + "'");
            o.epoch_seconds = seconds;
        }
    } else if (name == "-xsim-stack") {
        o.stack_bytes = parse_size(name, value);
        o.stack_given = true;
        // Below 16k only 2k, 4k and 8k: stacks that share pages must tile them exactly.
        const std::size_t s = o.stack_bytes;
        if (s < 2 * 1024)
            throw OptionError("-xsim-stack: " + value + " is too small; at least 2k is needed");
        if (is_small_stack(s) && s != 2 * 1024 && s != 4 * 1024 && s != 8 * 1024)
            throw OptionError("-xsim-stack: " + value + " is not a usable small stack; below 16k use 2k, 4k or 8k");
    } else if (name == "-xsim-report") {
        o.report_path = value;
    } else if (name == "-xsim-config") {
        // Empty would silently mean "the default machine".
        if (value.empty()) throw OptionError("-xsim-config: expected a machine file name, got an empty path");
        o.config_file = value;
    } else if (name == "-xsim-set") {
        if (value.find('=') == std::string::npos || value.front() == '=')
            throw OptionError("-xsim-set: expected KEY=VALUE, got '" + value + "'");
        o.overrides.push_back(value);
    } else if (name == "-xsim-payload") {
        if (value == "on") o.payload = PayloadPolicy::on();
        else if (value == "off") o.payload = PayloadPolicy::off();
        else if (value == "auto") o.payload = PayloadPolicy::threshold(kAutoPayloadThreshold, PayloadMode::Auto);
        else if (!value.empty() && std::isdigit(static_cast<unsigned char>(value[0])))
            o.payload = PayloadPolicy::threshold(parse_size(name, value));
        else
            throw OptionError("-xsim-payload: expected 'on', 'off', 'auto' or a size in bytes (e.g. 4k), got '" +
                              value + "'");
    } else if (name == "-xsim-progress") {
        if (value == "auto") o.progress = ProgressMode::Auto;
        else if (value == "on") o.progress = ProgressMode::On;
        else if (value == "off") o.progress = ProgressMode::Off;
        else throw OptionError("-xsim-progress: expected 'auto', 'on' or 'off', got '" + value + "'");
    } else if (name == "-xsim-privatize") {
        if (value == "auto") o.privatize = PrivatizeMode::Auto;
        else if (value == "on") o.privatize = PrivatizeMode::On;
        else if (value == "off") o.privatize = PrivatizeMode::Off;
        else throw OptionError("-xsim-privatize: expected 'auto', 'on' or 'off', got '" + value + "'");
    } else if (name == "-xsim-privatize-libs") {
        for (std::string& library : parse_library_names(name, value)) o.privatize_libraries.push_back(std::move(library));
    } else if (name == "-xsim-privatize-remap") {
        if (value == "auto") o.privatize_remap_from = 0;
        else if (value == "off") o.privatize_remap_from = std::numeric_limits<std::size_t>::max();
        else o.privatize_remap_from = std::max<std::size_t>(parse_size(name, value), 64 * 1024);
    } else if (name == "-xsim-watchdog") {
        char* end = nullptr;
        const double seconds = std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || !(seconds > 0) || seconds > 1e7)
            throw OptionError("-xsim-watchdog: expected a number of seconds above 0 (e.g. 600), got '" + value + "'");
        o.watchdog_seconds = seconds;
    } else if (name == "-xsim-analytic-ranks") {
        o.analytic_ranks = parse_count(name, value);
        if (o.analytic_ranks < 0)
            throw OptionError("-xsim-analytic-ranks: expected a number of ranks (0: never), got " + value);
    } else if (name == "-xsim-order") {
        if (value == "cells") o.order = EventOrderOption::Cells;
        else if (value == "time") o.order = EventOrderOption::Time;
        else throw OptionError("-xsim-order: expected 'cells' or 'time', got '" + value + "'");
    } else if (name == "-xsim-quiet") {
        o.progress = ProgressMode::Off;
        o.summary = ProgressMode::Off;
    } else if (name == "-xsim-summary") {
        if (value == "auto") o.summary = ProgressMode::Auto;
        else if (value == "on") o.summary = ProgressMode::On;
        else if (value == "off") o.summary = ProgressMode::Off;
        else throw OptionError("-xsim-summary: expected 'auto', 'on' or 'off', got '" + value + "'");
    } else if (name == "-xsim-profile") {
        const auto ends = [&](const char* ext) {
            const std::size_t n = std::strlen(ext);
            return value.size() > n && value.compare(value.size() - n, n, ext) == 0;
        };
        if (!ends(".csv") && !ends(".json"))
            throw OptionError("-xsim-profile: expected a file name ending in .csv or .json, got '" + value + "'");
        o.profile_path = value;
    } else if (name == "-xsim-commmatrix") {
        if (value.empty()) throw OptionError("-xsim-commmatrix: expected a file name");
        o.commmatrix_path = value;
    } else if (name == "-xsim-commmatrix-limit") {
        o.commmatrix_limit = parse_count(name, value);
        if (o.commmatrix_limit < 1 || o.commmatrix_limit > (1LL << 24))
            throw OptionError("-xsim-commmatrix-limit: expected a number of entities from 1 to 16777216, got " + value);
    } else if (name == "-xsim-regions-out" || name == "-xsim-regions-in") {
        if (value.empty()) throw OptionError(name + ": expected a file name");
        (name == "-xsim-regions-out" ? o.regions_out : o.regions_in) = value;
    } else if (name == "-xsim-trace") {
        const auto ends = [&](const char* ext) {
            const std::size_t n = std::strlen(ext);
            return value.size() > n && value.compare(value.size() - n, n, ext) == 0 && value[value.size() - n - 1] != '/';
        };
        if (!ends(".otf2") && !ends(".json"))
            throw OptionError("-xsim-trace: expected a file name ending in .otf2 or .json, got '" + value + "'");
        o.trace_path = value;
    } else if (name == "-xsim-trace-ranks") {
        o.trace_ranks = parse_rank_ranges(name, value);
    } else if (name == "-xsim-trace-window") {
        std::tie(o.trace_begin_ps, o.trace_end_ps) = parse_time_window(name, value);
    } else if (name == "-xsim-trace-calls") {
        o.trace_calls = parse_call_kinds(name, value);
    } else if (name == "-xsim-help") {
        o.help = true;
    }
}

// Consumes the option at words[i] (and its value); returns how many words it used.
std::size_t take_option(Options& o, const std::vector<std::string>& words, std::size_t i) {
    std::string name = words[i];
    std::string value;
    bool inline_value = false;
    if (const auto eq = name.find('='); eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
        inline_value = true;
    }
    const OptionSpec* spec = find_option(name);
    if (!spec) throw OptionError("unknown option '" + name + "' (see -xsim-help)");
    if (!spec->value) {
        if (inline_value) throw OptionError(name + " takes no value");
        apply(o, *spec, "");
        return 1;
    }
    if (!inline_value) {
        if (i + 1 >= words.size()) throw OptionError(name + ": missing value " + spec->value);
        value = words[i + 1];
    }
    apply(o, *spec, value);
    return inline_value ? 1 : 2;
}

bool is_xsim_option(const char* word) { return std::strncmp(word, "-xsim-", 6) == 0; }

}  // namespace

std::size_t parse_size(const std::string& option, const std::string& text) {
    char* end = nullptr;
    errno = 0;
    const double number = std::strtod(text.c_str(), &end);
    if (text.empty() || end == text.c_str() || (errno == ERANGE && number < 1) || number <= 0 ||
        std::isnan(number))
        throw OptionError(option + ": '" + text + "' is not a size (examples: 64k, 1m, 65536)");
    std::string unit(end);
    for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double scale = 1;
    if (unit.empty() || unit == "b") scale = 1;
    else if (unit == "k" || unit == "kb" || unit == "kib") scale = 1024.0;
    else if (unit == "m" || unit == "mb" || unit == "mib") scale = 1024.0 * 1024;
    else if (unit == "g" || unit == "gb" || unit == "gib") scale = 1024.0 * 1024 * 1024;
    else throw OptionError(option + ": unknown size unit '" + std::string(end) + "' in '" + text + "'");
    // Beyond 2^63 the conversion would wrap (to 0: "too small").
    if (!(number * scale < 0x1p63)) throw OptionError(option + ": '" + text + "' is too large");
    return static_cast<std::size_t>(number * scale);
}

std::vector<RankRange> parse_rank_ranges(const std::string& option, const std::string& text) {
    std::vector<RankRange> ranges;
    const auto number = [&](const std::string& part, const std::string& item) {
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
            throw OptionError(option + ": '" + item + "' is not a rank or a range of ranks (e.g. 0-63,1024)");
        errno = 0;
        const long long v = std::strtoll(part.c_str(), nullptr, 10);
        if (errno == ERANGE || v > 0x7fffffffLL) throw OptionError(option + ": rank " + part + " is beyond MPI's int ranks");
        return v;
    };
    std::size_t at = 0;
    for (;;) {
        const std::size_t comma = text.find(',', at);
        const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (item.empty()) throw OptionError(option + ": empty item in '" + text + "' (expected e.g. 0-63,1024)");
        const std::size_t dash = item.find('-');
        RankRange r;
        r.first = number(item.substr(0, dash), item);
        r.last = dash == std::string::npos ? r.first : number(item.substr(dash + 1), item);
        if (r.last < r.first) throw OptionError(option + ": range '" + item + "' ends before it starts");
        ranges.push_back(r);
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return ranges;
}

std::pair<long long, long long> parse_time_window(const std::string& option, const std::string& text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
        throw OptionError(option + ": expected T0:T1 in seconds of virtual time (e.g. 0.5:1, 2e-3:), got '" + text + "'");
    const auto seconds = [&](const std::string& part, long long empty) {
        if (part.empty()) return empty;
        char* end = nullptr;
        const double s = std::strtod(part.c_str(), &end);
        if (*end != '\0' || !(s >= 0) || s > 4.0e6)
            throw OptionError(option + ": '" + part + "' is not a time in seconds from 0 to 4e6 (in '" + text + "')");
        return std::llround(s * 1e12);
    };
    const long long begin = seconds(text.substr(0, colon), 0);
    const long long end = seconds(text.substr(colon + 1), -1);
    if (end >= 0 && end <= begin)
        throw OptionError(option + ": the window '" + text + "' is empty (T1 must be later than T0)");
    return {begin, end};
}

unsigned parse_call_kinds(const std::string& option, const std::string& text) {
    unsigned kinds = 0;
    std::size_t at = 0;
    for (;;) {
        const std::size_t comma = text.find(',', at);
        const std::string item = text.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (item == "p2p") kinds |= kTraceP2p;
        else if (item == "coll") kinds |= kTraceColl;
        else if (item == "rma") kinds |= kTraceRma;
        else if (item == "other") kinds |= kTraceOther;
        else if (item == "all") kinds |= kTraceAllCalls;
        else throw OptionError(option + ": unknown call kind '" + item + "' (expected p2p, coll, rma, other or all, comma-separated)");
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    return kinds;
}

CommandLine parse_command_line(int argc, char** argv, const char* env_options) {
    CommandLine cl;
    if (env_options) {
        std::istringstream in(env_options);
        std::vector<std::string> words;
        for (std::string w; in >> w;) words.push_back(w);
        for (std::size_t i = 0; i < words.size();) {
            if (!is_xsim_option(words[i].c_str()))
                throw OptionError("XSIM_OPTIONS: '" + words[i] + "' is not an -xsim-* option");
            i += take_option(cl.options, words, i);
        }
    }
    std::vector<std::string> words(argv, argv + argc);
    for (int i = 0; i < argc;) {
        if (i > 0 && is_xsim_option(argv[i])) {
            i += static_cast<int>(take_option(cl.options, words, static_cast<std::size_t>(i)));
            continue;
        }
        cl.app_argv.push_back(argv[i]);
        ++i;
    }
    cl.app_argv.push_back(nullptr);
    if (!cl.options.regions_out.empty() && !cl.options.regions_in.empty())
        throw OptionError("-xsim-regions-out and -xsim-regions-in: a run either records regions or replays them, not both");
    if (cl.options.trace_path.empty())
        for (const auto& [name, value] : cl.options.given)
            if (name.rfind("-xsim-trace-", 0) == 0)
                throw OptionError(name + " filters a trace, but no -xsim-trace FILE.otf2|FILE.json was given");
    return cl;
}

std::size_t default_stack_bytes(long long ranks, int processes) {
    const long long per_process = processes > 0 ? (ranks + processes - 1) / processes : ranks;
    if (per_process <= kLargeStackRanks) return kLargeDefaultStack;
    if (per_process <= kSpanStackRanks) return kScaleDefaultStack;
    std::size_t stack = kScaleDefaultStack;
    while (stack > kSmallestDefaultStack && static_cast<long double>(stack) * per_process > kStackSpanBudget)
        stack /= 2;
    return stack;
}

void choose_default_stack(Options& options, long long ranks, int processes) {
    if (!options.stack_given) options.stack_bytes = default_stack_bytes(ranks, processes);
}

const char* stack_origin(std::size_t stack_bytes, bool given) {
    static_assert(kLargeStackRanks == 4096 && kSpanStackRanks == 65536 && kStackSpanBudget == std::size_t{64} << 30,
                  "the texts below name the thresholds");
    if (given) return "";
    if (stack_bytes == kLargeDefaultStack) return " (the default for up to 4096 simulated ranks per real process)";
    if (stack_bytes == kScaleDefaultStack) return " (the default for 4097 to 65536 simulated ranks per real process)";
    return " (the default above 65536 simulated ranks per real process, which keeps its stacks within 64 GiB of "
           "address space)";
}

std::string options_help() {
    std::ostringstream out;
    out << "xsim: run an MPI program with many simulated ranks.\n"
           "usage: mpirun -np P ./app -xsim-np N [xsim options] [app args]\n"
           "Options may also be given in the environment variable XSIM_OPTIONS.\n\n";
    for (const auto& spec : kOptions) {
        std::string head = std::string("  ") + spec.name + (spec.value ? std::string(" ") + spec.value : "");
        out << head;
        if (head.size() < 30) out << std::string(30 - head.size(), ' ');
        else out << "\n" << std::string(30, ' ');
        out << spec.help << "\n";
    }
    return out.str();
}

}  // namespace xsim
