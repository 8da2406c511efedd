// The launcher's variables, per simulated rank. mpirun (and srun, Hydra, PALS) tells each
// process who it is in its environment: OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_LOCAL_RANK,
// PMIX_RANK, SLURM_PROCID... Programs and tools read them, often before MPI_Init: to decide
// which process prints or logs, to name a per-rank output or trace file, to pick a device
// per node-local rank, to size a job before initializing. Under xsim every rank of a real
// process would read the real process's values: a thousand ranks each "rank 0", writing one
// file. Here each rank reads what the launcher would have told it in a native run of
// -xsim-np processes placed on the machine's nodes (the rank mapping, as
// MPI_Comm_split_type sees it):
//   - getenv and secure_getenv called from a rank's application code give the rank's value;
//     called from anywhere else (xsim, the real MPI library, other threads) the process's;
//   - the variables' entries in `environ` hold the rank's values while it starts (its
//     constructors and main up to its first switch), for code that reads the environment
//     array itself then: a Python interpreter builds os.environ from it at start-up.
// Only variables the launcher set are given (under mpirun, no SLURM_PROCID appears); a
// variable a program sets itself (setenv) is its own, as natively. Not covered: `environ`
// read after a rank's first switch (it shows the rank that started last), and the
// environment of processes a rank starts (system, fork and exec).
#include "libxsim/runtime/launcher_environment.hpp"

#include <stdlib.h>
#include <string.h>

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "netmodels/machine.hpp"

extern char** environ;

namespace xsim::runtime {
namespace {

enum class Value : std::uint8_t { WorldRank, WorldSize, LocalRank, LocalSize, Node, PmixId };

struct Variable {
    const char* name;
    Value value;
};

// Open MPI's mpirun (ORTE/PMIx), MPICH's Hydra, Slurm's srun, MVAPICH2 and Cray PALS.
constexpr Variable kVariables[] = {
    {"OMPI_COMM_WORLD_RANK", Value::WorldRank},       {"OMPI_COMM_WORLD_SIZE", Value::WorldSize},
    {"OMPI_COMM_WORLD_LOCAL_RANK", Value::LocalRank}, {"OMPI_COMM_WORLD_LOCAL_SIZE", Value::LocalSize},
    {"OMPI_COMM_WORLD_NODE_RANK", Value::LocalRank},  {"OMPI_UNIVERSE_SIZE", Value::WorldSize},
    {"OMPI_APP_CTX_NUM_PROCS", Value::WorldSize},     {"PMIX_RANK", Value::WorldRank},
    {"PMIX_ID", Value::PmixId},                       {"PMI_RANK", Value::WorldRank},
    {"PMI_SIZE", Value::WorldSize},                   {"MPI_LOCALRANKID", Value::LocalRank},
    {"MPI_LOCALNRANKS", Value::LocalSize},            {"SLURM_PROCID", Value::WorldRank},
    {"SLURM_NTASKS", Value::WorldSize},               {"SLURM_NPROCS", Value::WorldSize},
    {"SLURM_LOCALID", Value::LocalRank},              {"SLURM_NODEID", Value::Node},
    {"MV2_COMM_WORLD_RANK", Value::WorldRank},        {"MV2_COMM_WORLD_SIZE", Value::WorldSize},
    {"MV2_COMM_WORLD_LOCAL_RANK", Value::LocalRank},  {"MV2_COMM_WORLD_LOCAL_SIZE", Value::LocalSize},
    {"PALS_RANKID", Value::WorldRank},                {"PALS_LOCAL_RANKID", Value::LocalRank},
};

// A launcher variable found in the environment: its real value, and the entry of `environ`
// that xsim owns now ("NAME=value", with room for any rank's value).
struct Present {
    const Variable* variable;
    std::size_t name_length;
    std::string real;
    char* entry;
    std::size_t room;          // bytes of `entry`
    std::size_t number_at;     // where the rank's number goes in `entry` (after "NAME=" or "PMIX_ID=<namespace>.")
};

// Process-wide, as the environment is; made once at start-up, before any rank runs, and
// never destroyed (getenv may be called by exit handlers after libxsim's statics are gone).
struct LauncherEnvironment {
    std::vector<Present> present;
    // What getenv handed a rank, kept for the run: (variable's index in `present`, world rank)
    // -> value. A node holds its string, so the pointers stay valid; only ranks that ask pay.
    std::unordered_map<std::uint64_t, std::string> given;
};
LauncherEnvironment* g_launcher = nullptr;  // null: no launcher variable taken over

// The number a variable gives `rank` (for PMIX_ID, "<namespace>.<rank>", the part after the dot).
long number_for(const Present& p, const Rank& rank) {
    const net::Machine& machine = g_engine->machine();
    switch (p.variable->value) {
        case Value::WorldRank: return rank.world;
        case Value::WorldSize: return g_engine->world_size();
        case Value::LocalRank: return machine.local_rank_of(rank.world);
        case Value::LocalSize: return machine.ranks_on_node_of(rank.world);
        case Value::Node: return machine.node_of(rank.world);
        case Value::PmixId: return rank.world;
    }
    return 0;
}

std::string value_for(const Present& p, const Rank& rank) {
    const std::size_t kept = p.number_at - p.name_length - 1;  // PMIX_ID's "<namespace>."
    return std::string(p.entry + p.name_length + 1, kept) + std::to_string(number_for(p, rank));
}

// Writes `number` in decimal with its terminating null at `out` (room for 21 bytes): little
// stack, as it runs first on a rank's stack, which may be 2 KiB (snprintf takes more).
void write_decimal(long number, char* out) {
    char digits[24];
    int n = 0;
    const bool negative = number < 0;
    unsigned long rest = negative ? 0UL - static_cast<unsigned long>(number) : static_cast<unsigned long>(number);
    do {
        digits[n++] = static_cast<char>('0' + rest % 10);
        rest /= 10;
    } while (rest);
    if (negative) *out++ = '-';
    while (n) *out++ = digits[--n];
    *out = '\0';
}

// The launcher variable `name`, if the launcher set it. Cheap for every other name: the
// names all start with one of four letters.
const Present* launcher_variable(const char* name) {
    if (!g_launcher || !strchr("OPSM", name[0])) return nullptr;
    for (const Present& p : g_launcher->present)
        if (strcmp(name, p.variable->name) == 0) return &p;
    return nullptr;
}

// getenv's answer for a launcher variable, given the C library's answer `current`.
char* launcher_value(const Present& p, char* current) {
    // The program set the variable itself (setenv, putenv): its value, as natively.
    if (current != p.entry + p.name_length + 1) return current;
    const Rank* rank = application_rank();
    if (!rank) return const_cast<char*>(p.real.c_str());
    const auto index = static_cast<std::uint64_t>(&p - g_launcher->present.data());
    auto [it, fresh] = g_launcher->given.try_emplace(index << 32 | static_cast<std::uint32_t>(rank->world));
    if (fresh) it->second = value_for(p, *rank);
    return it->second.data();
}

}  // namespace

void take_over_launcher_environment(char** main_envp) {
    auto launcher = std::make_unique<LauncherEnvironment>();
    for (char** e = environ; e && *e; ++e) {
        const char* equals = strchr(*e, '=');
        if (!equals) continue;
        const auto name_length = static_cast<std::size_t>(equals - *e);
        for (const Variable& v : kVariables) {
            if (strlen(v.name) != name_length || strncmp(*e, v.name, name_length) != 0) continue;
            const std::string real(equals + 1);
            // Room for the longest value: a world rank has at most 10 digits.
            const std::size_t room = name_length + 1 + real.size() + 24;
            char* entry = new char[room];  // for the process's lifetime, as environ's strings
            snprintf(entry, room, "%s=%s", v.name, real.c_str());
            std::size_t number_at = name_length + 1;
            if (v.value == Value::PmixId)
                if (const std::size_t dot = real.rfind('.'); dot != std::string::npos) number_at += dot + 1;
            launcher->present.push_back({&v, name_length, real, entry, room, number_at});
            *e = entry;
            break;
        }
    }
    // main's third argument is the array the process started with; the real MPI library's
    // setenv calls may have moved `environ` to a copy since: the same entries in both.
    if (main_envp != environ)
        for (char** e = main_envp; e && *e; ++e)
            for (const Present& p : launcher->present)
                if (strncmp(*e, p.entry, p.name_length + 1) == 0) *e = p.entry;
    if (!launcher->present.empty()) g_launcher = launcher.release();
}

void show_rank_launcher_environment(int, char**, char**) {
    const Rank* rank = running_rank();
    if (!rank || !g_launcher) return;
    for (const Present& p : g_launcher->present) write_decimal(number_for(p, *rank), p.entry + p.number_at);
}

}  // namespace xsim::runtime

using xsim::runtime::launcher_value;
using xsim::runtime::launcher_variable;
using xsim::runtime::next_function;

extern "C" {

char* getenv(const char* name) noexcept {
    static const auto real = next_function<char* (*)(const char*)>("getenv");
    char* current = real(name);
    const xsim::runtime::Present* p = launcher_variable(name);
    return p ? launcher_value(*p, current) : current;
}

char* secure_getenv(const char* name) noexcept {
    static const auto real = next_function<char* (*)(const char*)>("secure_getenv");
    char* current = real(name);
    const xsim::runtime::Present* p = launcher_variable(name);
    // In a set-user-ID program secure_getenv gives nothing; so for the launcher's variables.
    return p && current ? launcher_value(*p, current) : current;
}

}  // extern "C"
