#include "libxsim/report/regions.hpp"

#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/report/output_file.hpp"
#include "libxsim/report/region_file.hpp"

namespace xsim::regions {
namespace {

enum class Mode { Check, Record, Replay };

// What one process measured for one region. The total is exact (integer picoseconds in
// 128 bits), so merging processes in any order gives the same mean.
struct Tally {
    std::uint64_t calls = 0;
    unsigned __int128 total = 0;
    SimTime min = kNever;
    SimTime max = 0;
};

// The region a rank is in; id < 0: none. One per local rank, allocated at the first use.
struct OpenRegion {
    int id = -1;
    SimTime start = 0;
};

// One engine's regions: the engine owns them (a layer slot), so two engines in one process
// keep their own; without install() a run only checks the calls (Mode::Check).
struct State : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::Regions;
    Mode mode = Mode::Check;
    std::string in_path, out_path;
    std::deque<std::string> names;                     // owns the strings the index views
    std::unordered_map<std::string_view, int> index;   // name -> id, no allocation per lookup
    std::vector<Tally> tallies;                        // by id (recording)
    std::vector<SimTime> replay_mean;                  // by id (replay)
    std::vector<OpenRegion> open;                      // by local rank

    int add_name(const std::string& name);
    int lookup(const char* name);
    std::string known_names() const;
};

// For the abnormal end (signal handlers, the watchdog): the state if there is one, made
// by nothing (no allocation).
const State* existing_state(Engine& engine) {
    return static_cast<const State*>(engine.layer_slot(State::kSlot).get());
}

[[noreturn]] void misuse(Engine& engine, Rank& rank, const char* call, const char* name, const std::string& why) {
    engine.abort_run(1, std::string(call) + "(\"" + (name ? name : "(null)") + "\") in simulated rank " +
                            std::to_string(rank.world) + ": " + why);
}

std::string State::known_names() const {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

int State::add_name(const std::string& name) {
    names.push_back(name);
    const int id = static_cast<int>(names.size()) - 1;
    index.emplace(std::string_view(names.back()), id);
    tallies.emplace_back();
    return id;
}

// The id of `name`, or -1 (replay: the file does not know it). Records new names.
int State::lookup(const char* name) {
    const auto it = index.find(std::string_view(name));
    if (it != index.end()) return it->second;
    if (mode == Mode::Replay) return -1;
    return add_name(name);
}

OpenRegion& open_of(State& g, Engine& engine, Rank& rank) {
    if (g.open.empty()) g.open.resize(static_cast<std::size_t>(engine.local_count()));
    return g.open[engine.local_index(rank)];
}

void check_name(Engine& engine, Rank& rank, const char* call, const char* name) {
    if (!name) misuse(engine, rank, call, name, "the region name is a null pointer");
    if (!valid_region_name(name))
        misuse(engine, rank, call, name, "a region name has 1 to 128 printable characters, no space and no '#'");
}

}  // namespace

Loaded load(const Options& options) {
    auto g = std::make_unique<State>();
    g->in_path = options.regions_in;
    g->out_path = options.regions_out;
    if (!g->in_path.empty()) {
        g->mode = Mode::Replay;
        for (const auto& [name, record] : read_region_file(g->in_path)) {
            g->add_name(name);
            g->replay_mean.push_back(record.mean);
        }
    } else if (!g->out_path.empty()) {
        g->mode = Mode::Record;
    }
    return g;
}

void install(Engine& engine, Loaded loaded) { engine.layer_slot(State::kSlot) = std::move(loaded); }

bool replaying(Engine& engine) {
    const State* g = existing_state(engine);
    return g && g->mode == Mode::Replay;
}

void begin(Engine& engine, Rank& rank, const char* name) {
    static const char* const call = "xsim_region_begin";
    check_name(engine, rank, call, name);
    State& g = layer_state<State>(engine);
    OpenRegion& open = open_of(g, engine, rank);
    if (open.id >= 0)
        misuse(engine, rank, call, name, "region '" + g.names[static_cast<std::size_t>(open.id)] +
                                             "' is still open (regions do not nest: end it first)");
    const int id = g.lookup(name);
    if (id < 0)
        misuse(engine, rank, call, name, "region '" + std::string(name) + "' is not in the regions file " +
                                             g.in_path + " (it has: " + g.known_names() + ")");
    open.id = id;
    open.start = rank.clock;
}

void end(Engine& engine, Rank& rank, const char* name) {
    static const char* const call = "xsim_region_end";
    check_name(engine, rank, call, name);
    State& g = layer_state<State>(engine);
    OpenRegion& open = open_of(g, engine, rank);
    if (open.id < 0) misuse(engine, rank, call, name, "no region is open (xsim_region_begin was not called)");
    const std::string& open_name = g.names[static_cast<std::size_t>(open.id)];
    if (open_name != name) misuse(engine, rank, call, name, "the open region is '" + open_name + "'");
    const auto id = static_cast<std::size_t>(open.id);
    open.id = -1;
    if (g.mode == Mode::Replay) {
        const SimTime charged = engine.machine().processor->modeled_compute(rank.world, g.replay_mean[id], rank.clock);
        rank.clock += charged;
        rank.path.compute += charged;
        return;
    }
    if (g.mode == Mode::Record) {
        const SimTime took = rank.clock - open.start;
        Tally& t = g.tallies[id];
        ++t.calls;
        t.total += static_cast<unsigned __int128>(took);
        t.min = std::min(t.min, took);
        t.max = std::max(t.max, took);
    }
}

namespace {

// This process's tallies as text lines: name calls total_high total_low min max.
std::string serialize_tallies(const State& g) {
    std::ostringstream out;
    for (std::size_t id = 0; id < g.names.size(); ++id) {
        const Tally& t = g.tallies[id];
        if (t.calls == 0) continue;
        out << g.names[id] << ' ' << t.calls << ' ' << static_cast<std::uint64_t>(t.total >> 64) << ' '
            << static_cast<std::uint64_t>(t.total) << ' ' << t.min << ' ' << t.max << '\n';
    }
    return out.str();
}

RegionTable merge_region_tables(const std::vector<char>& all) {
    std::map<std::string, Tally> merged;
    std::istringstream in(std::string(all.begin(), all.end()));
    std::string name;
    std::uint64_t calls, high, low;
    SimTime min, max;
    while (in >> name >> calls >> high >> low >> min >> max) {
        Tally& t = merged[name];
        t.calls += calls;
        t.total += (static_cast<unsigned __int128>(high) << 64) | low;
        t.min = std::min(t.min, min);
        t.max = std::max(t.max, max);
    }
    RegionTable table;
    for (const auto& [n, t] : merged) {
        const unsigned __int128 mean = (t.total + t.calls / 2) / t.calls;  // nearest picosecond
        table[n] = RegionRecord{t.calls, static_cast<SimTime>(mean), t.min, t.max};
    }
    return table;
}

}  // namespace

int finish(Engine& engine) {
    const State& g = layer_state<State>(engine);
    int code = 0;
    for (std::size_t i = 0; i < g.open.size(); ++i) {
        if (g.open[i].id < 0) continue;
        std::fprintf(stderr, "xsim: simulated rank %d ended with region '%s' still open (xsim_region_begin without "
                             "xsim_region_end)\n",
                     engine.first_local() + static_cast<int>(i), g.names[static_cast<std::size_t>(g.open[i].id)].c_str());
        code = 1;
        break;
    }
    if (g.mode == Mode::Record) {
        const std::string mine = serialize_tallies(g);
        int length = static_cast<int>(mine.size());
        const int processes = engine.placement().processes;
        const bool root = engine.placement().process == 0;
        std::vector<int> lengths(root ? static_cast<std::size_t>(processes) : 0);
        real_mpi.Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
        std::vector<int> offsets(lengths.size());
        std::size_t total = 0;
        for (std::size_t p = 0; p < lengths.size(); ++p) {
            offsets[p] = static_cast<int>(total);
            total += static_cast<std::size_t>(lengths[p]);
        }
        std::vector<char> all(total);
        real_mpi.Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0,
                     MPI_COMM_WORLD);
        if (root) {
            const std::string text = format_region_file(merge_region_tables(all));
            std::FILE* f = std::fopen(g.out_path.c_str(), "w");
            const bool written = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
            if (f && std::fclose(f) != 0) f = nullptr;
            if (!written || !f) {
                std::fprintf(stderr, "xsim: -xsim-regions-out %s: cannot write the regions file\n", g.out_path.c_str());
                code = 1;
            }
        }
    }
    real_mpi.Allreduce(MPI_IN_PLACE, &code, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return code;
}

void write_partial(Engine& engine, const char* end, const char* why) {
    const State* found = existing_state(engine);
    if (!found || found->mode != Mode::Record) return;
    const State& g = *found;
    const int fd = open_abnormal_output(g.out_path.c_str());
    if (fd < 0) return;
    {
        FdWriter out(fd);
        out.print("xsim-regions 1\n# partial: the run ended badly (%s: ", end);
        for (const char* c = why; *c; ++c) out.print("%c", *c == '\n' ? ' ' : *c);
        out.print(")\n# recorded by real process %d (simulated ranks %d-%d) before that end\n",
                  engine.placement().process, engine.first_local(), engine.first_local() + engine.local_count() - 1);
        out.print("# name calls mean_s min_s max_s (simulated seconds; see xsim README, Regions)\n");
        auto seconds = [](SimTime ps, char* text, std::size_t size) {
            std::snprintf(text, size, "%lld.%012lld", static_cast<long long>(ps / kPicosPerSecond),
                          static_cast<long long>(ps % kPicosPerSecond));
            return text;
        };
        for (std::size_t id = 0; id < g.names.size(); ++id) {
            const Tally& t = g.tallies[id];
            if (t.calls == 0) continue;
            const auto mean = static_cast<SimTime>((t.total + t.calls / 2) / t.calls);
            char a[48], b[48], c[48];
            out.print("%s %llu %s %s %s\n", g.names[id].c_str(), static_cast<unsigned long long>(t.calls),
                      seconds(mean, a, sizeof a), seconds(t.min, b, sizeof b), seconds(t.max, c, sizeof c));
        }
    }
    close(fd);
}

}  // namespace xsim::regions
