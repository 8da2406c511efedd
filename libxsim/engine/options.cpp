#include "libxsim/engine/options.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <sstream>

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
    {"-xsim-compute-clock", "wall|thread",
     "the clock measured compute reads: wall (default; a preempted process is charged the preemption) "
     "or thread (the simulation thread's CPU time: host load and sleeps are not charged; a system call "
     "per read, twice per MPI call)"},
    {"-xsim-stack", "SIZE", "stack per simulated rank, e.g. 64k, 1m (default), 8m; 2k, 4k, 8k for shallow skeletons at 2^22+ ranks"},
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
    {"-xsim-quiet", nullptr, "same as -xsim-progress off -xsim-summary off"},
    {"-xsim-privatize", "auto|on|off",
     "per-rank copies of the program's globals and thread-locals (auto: on when several ranks share a "
     "real process; on also lists the libraries left shared)"},
    {"-xsim-analytic-ranks", "N",
     "on communicators of at least N ranks (default 4096; 0: never), collectives whose default "
     "algorithm sends O(p^2) messages (ring, pairwise, linear all-to-all) run the analytic algorithm "
     "instead, with their data where all ranks share a real process"},
    {"-xsim-regions-out", "FILE", "record the simulated time of xsim_region_begin/end regions into FILE"},
    {"-xsim-regions-in", "FILE", "model run: each xsim_region_end advances the clock by FILE's recorded mean"},
    {"-xsim-help", nullptr, "print this help and exit"},
};

const OptionSpec* find_option(const std::string& name) {
    for (const auto& spec : kOptions)
        if (name == spec.name) return &spec;
    return nullptr;
}

long long parse_count(const std::string& option, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE)
        throw OptionError(option + ": '" + text + "' is not a whole number");
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
        else throw OptionError("-xsim-compute-clock: expected 'wall' or 'thread', got '" + value + "'");
    } else if (name == "-xsim-stack") {
        o.stack_bytes = parse_size(name, value);
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
    } else if (name == "-xsim-regions-out" || name == "-xsim-regions-in") {
        if (value.empty()) throw OptionError(name + ": expected a file name");
        (name == "-xsim-regions-out" ? o.regions_out : o.regions_in) = value;
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
    return cl;
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
