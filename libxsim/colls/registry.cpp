// Which algorithm runs: the forced choices per collective (per real process: all its
// simulated ranks share them, as they share the environment) and the default selectors.
#include <array>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "libxsim/colls/algorithm_registry.hpp"
#include "libxsim/colls/entry.hpp"
#include "libxsim/colls/collective_call.hpp"
#include "libxsim/colls/default_choice.hpp"
#include "libxsim/colls/intercomm_collectives.hpp"
#include "libxsim/p2p/completion.hpp"

namespace xsim::colls {
namespace {

// Owned by the engine (layer_state.hpp): one set per real process.
struct ForcedChoices final : LayerState {
    static constexpr LayerSlot kSlot = LayerSlot::ForcedCollectiveChoices;
    bool environment_read = false;
    std::array<std::string, kCollKindCount> algorithm;  // "" = default choice
    std::array<bool, kCollKindCount> warned{};
};

ForcedChoices& forced(Engine& engine) { return layer_state<ForcedChoices>(engine); }

Engine& running_engine(const char* what) {
    if (!g_engine) throw std::logic_error(std::string(what) + " needs a running xsim engine");
    return *g_engine;
}

const std::vector<const AlgorithmInfo*>& algorithms_of(CollKind kind) { return registered_algorithms(kind); }

std::string known_collectives() {
    std::string s;
    for (int k = 1; k < kCollKindCount; ++k)
        if (!algorithms_of(static_cast<CollKind>(k)).empty()) s += std::string(k > 1 ? ", " : "") + kCollNames[k].key;
    return s;
}

template <class Args>
const Algorithm<Args>* pick(const Collective<Args>& t, const Context& c, const Args& a) {
    ForcedChoices& f = forced(c.engine);
    const int k = static_cast<int>(t.kind);
    // Communicator construction (kinds past kCollKindCount) has no forced choice.
    if (k < kCollKindCount && !f.algorithm[static_cast<std::size_t>(k)].empty()) {
        const std::string& wanted = f.algorithm[static_cast<std::size_t>(k)];
        for (const Algorithm<Args>* alg : t.algorithms) {
            if (wanted != alg->name) continue;
            if (!alg->usable || alg->usable(c, a)) return alg;
            if (!f.warned[static_cast<std::size_t>(k)]) {
                f.warned[static_cast<std::size_t>(k)] = true;
                std::fprintf(stderr,
                             "xsim: warning: %s algorithm '%s' cannot run this call (it needs a commutative op or a "
                             "power-of-two communicator); using the default '%s' where it cannot\n",
                             names(t.kind).mpi, alg->name, t.choose(c, a)->name);
            }
            break;
        }
    }
    return default_choice(t, c, a);
}

}  // namespace

void set_forced_algorithm(const std::string& collective, const std::string& algorithm) {
    set_forced_algorithm(running_engine("set_forced_algorithm"), collective, algorithm);
}

void set_forced_algorithm(Engine& engine, const std::string& collective, const std::string& algorithm) {
    for (int k = 1; k < kCollKindCount; ++k) {
        if (collective != kCollNames[k].key || algorithms_of(static_cast<CollKind>(k)).empty()) continue;
        std::string& slot = forced(engine).algorithm[static_cast<std::size_t>(k)];
        if (algorithm.empty() || algorithm == "auto") {
            slot.clear();
            return;
        }
        std::string valid = "auto";
        for (const AlgorithmInfo* info : algorithms_of(static_cast<CollKind>(k))) {
            if (algorithm == info->name) {
                slot = algorithm;
                return;
            }
            valid += std::string(", ") + info->name;
        }
        throw std::invalid_argument("unknown algorithm '" + algorithm + "' for collective '" + collective +
                                    "' (valid: " + valid + ")");
    }
    throw std::invalid_argument("unknown collective '" + collective + "' (valid: " + known_collectives() + ")");
}

std::string forced_algorithm(Engine& engine, const std::string& collective) {
    for (int k = 1; k < kCollKindCount; ++k)
        if (collective == kCollNames[k].key) return forced(engine).algorithm[static_cast<std::size_t>(k)];
    throw std::invalid_argument("unknown collective '" + collective + "' (valid: " + known_collectives() + ")");
}

void read_forced_algorithms_from_environment() {
    read_forced_algorithms_from_environment(running_engine("read_forced_algorithms_from_environment"));
}

void read_forced_algorithms_from_environment(Engine& engine) {
    forced(engine).environment_read = true;
    for (int k = 1; k < kCollKindCount; ++k) {
        std::string var = "XSIM_COLL_";
        for (const char* p = kCollNames[k].key; *p; ++p) var += static_cast<char>(std::toupper(*p));
        const char* value = std::getenv(var.c_str());
        if (!value) continue;
        try {
            set_forced_algorithm(engine, kCollNames[k].key, value);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(var + ": " + e.what());
        }
    }
}

std::vector<AlgorithmListing> list_algorithms() {
    std::vector<AlgorithmListing> out;
    for (int k = 1; k < kCollKindCount; ++k)
        for (const AlgorithmInfo* info : algorithms_of(static_cast<CollKind>(k)))
            out.push_back({kCollNames[k].key, info->name, info->description});
    return out;
}

std::string describe_algorithms() {
    std::string s;
    for (const AlgorithmListing& l : list_algorithms()) {
        std::string line = l.collective + " " + l.algorithm;
        line.resize(std::max<std::size_t>(line.size() + 1, 40), ' ');
        s += line + l.description + "\n";
    }
    return s;
}

template <class Args>
const Algorithm<Args>* choose_algorithm(const Collective<Args>& table, Engine& engine, const Context& ctx,
                                        const Args& args) {
    if (!forced(engine).environment_read) {
        try {
            read_forced_algorithms_from_environment(engine);
        } catch (const std::invalid_argument& e) {
            engine.abort_run(2, e.what());
        }
    }
    // On an intercommunicator, its own algorithm (forced choices are for intracommunicators).
    if (ctx.comm.is_inter()) return intercomm_algorithm<Args>(table.kind);
    return pick(table, ctx, args);
}

template const Algorithm<BarrierArgs>* choose_algorithm(const Collective<BarrierArgs>&, Engine&, const Context&, const BarrierArgs&);
template const Algorithm<BcastArgs>* choose_algorithm(const Collective<BcastArgs>&, Engine&, const Context&, const BcastArgs&);
template const Algorithm<ReduceArgs>* choose_algorithm(const Collective<ReduceArgs>&, Engine&, const Context&, const ReduceArgs&);
template const Algorithm<RootedArgs>* choose_algorithm(const Collective<RootedArgs>&, Engine&, const Context&, const RootedArgs&);
template const Algorithm<AllgatherArgs>* choose_algorithm(const Collective<AllgatherArgs>&, Engine&, const Context&, const AllgatherArgs&);
template const Algorithm<AlltoallArgs>* choose_algorithm(const Collective<AlltoallArgs>&, Engine&, const Context&, const AlltoallArgs&);
template const Algorithm<ReduceScatterArgs>* choose_algorithm(const Collective<ReduceScatterArgs>&, Engine&, const Context&, const ReduceScatterArgs&);
template const Algorithm<NeighborArgs>* choose_algorithm(const Collective<NeighborArgs>&, Engine&, const Context&,
                                                        const NeighborArgs&);

}  // namespace xsim::colls
