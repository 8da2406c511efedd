#include "libxsim/mpi/context_ids.hpp"

#include <algorithm>
#include <cstdio>

#include "libxsim/mpi/process_objects.hpp"

namespace xsim {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    // splitmix64 step over the combination: well spread, deterministic.
    std::uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::uint64_t repeats_key(std::uint32_t parent_context, int world_rank) {
    return static_cast<std::uint64_t>(parent_context) << 32 | static_cast<std::uint32_t>(world_rank);
}

}  // namespace

ContextId derive_context(std::uint32_t parent, std::uint64_t a, std::uint64_t b) {
    const std::uint64_t h = mix(mix(mix(0x78736d, parent), a), b);
    std::uint32_t context = static_cast<std::uint32_t>(h >> 33) & ~1u;
    if (context < 4) context += 4;  // 0..3 belong to WORLD and SELF
    return {context, h};
}

std::string acquire_context(const ContextId& id) {
    auto& live = process_objects().live_contexts;
    auto [it, fresh] = live.try_emplace(id.context, LiveContext{id.derivation, 0});
    if (!fresh && it->second.derivation != id.derivation) {
        // Birthday odds: with n ids live, a new one meets one of them with probability n / 2^30,
        // and some pair among them collides with about n^2 / 2^31.
        const double n = static_cast<double>(live.size());
        char odds[64];
        std::snprintf(odds, sizeof odds, "%.2g", std::min(1.0, n * n / 2147483648.0));
        return "two communicators got the same context id " + std::to_string(id.context) +
               " (ids are 30-bit hashes of how a communicator was made; with " + std::to_string(live.size()) +
               " communicators alive in this process, such a collision had a probability of about " + odds +
               "); free communicators that are no longer used, or change the order in which they are created";
    }
    ++it->second.users;
    return {};
}

void release_context(std::uint32_t context) {
    auto& live = process_objects().live_contexts;
    auto it = live.find(context);
    if (it != live.end() && --it->second.users == 0) live.erase(it);
}

std::uint32_t next_repeat(std::uint32_t parent_context, int world_rank, int tag, std::uint64_t what) {
    // Usually one or two entries per (parent, rank): a short list, scanned.
    std::vector<CreationRepeat>& counts = process_objects().creation_repeats[repeats_key(parent_context, world_rank)];
    for (CreationRepeat& r : counts)
        if (r.tag == tag && r.what == what) return r.count++;
    counts.push_back({tag, what, 1});
    return 0;
}

void forget_repeats(std::uint32_t parent_context, int world_rank) {
    auto& repeats = process_objects().creation_repeats;
    if (!repeats.empty()) repeats.erase(repeats_key(parent_context, world_rank));
}

}  // namespace xsim
