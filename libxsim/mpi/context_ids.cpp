#include "libxsim/mpi/context_ids.hpp"

#include <string>
#include <unordered_map>

#include "libxsim/engine/engine.hpp"

namespace xsim {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    // splitmix64 step over the combination: well spread, deterministic.
    std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

struct LiveContext {
    std::uint64_t derivation;
    std::int64_t users;
};

std::unordered_map<std::uint32_t, LiveContext>& live() {
    static std::unordered_map<std::uint32_t, LiveContext> table;
    return table;
}

}  // namespace

ContextId derive_context(std::uint32_t parent, std::uint64_t a, std::uint64_t b) {
    const std::uint64_t h = mix(mix(mix(0x78736d, parent), a), b);
    std::uint32_t context = static_cast<std::uint32_t>(h >> 33) & ~1u;
    if (context < 4) context += 4;  // 0..3 belong to WORLD and SELF
    return {context, h};
}

void acquire_context(const ContextId& id) {
    auto [it, fresh] = live().try_emplace(id.context, LiveContext{id.derivation, 0});
    if (!fresh && it->second.derivation != id.derivation)
        g_engine->abort_run(MPI_ERR_INTERN, "two communicators got the same context id " +
                                                std::to_string(id.context) +
                                                " (a 1 in 2^30 hash collision); change the order in which "
                                                "communicators are created, and please report this");
    ++it->second.users;
}

void release_context(std::uint32_t context) {
    auto it = live().find(context);
    if (it != live().end() && --it->second.users == 0) live().erase(it);
}

}  // namespace xsim
