#include "libxsim/startup_checks.hpp"

#include <unistd.h>

#include <cstdio>

namespace xsim {

std::size_t expected_bytes_per_rank() { return sizeof(Rank) + page_size(); }

std::string check_memory_budget(const Options& options, const Engine::Placement& placement) {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const double machine_bytes = static_cast<double>(pages) * static_cast<double>(page_size());
    // All real processes of a run share this machine (mpirun on one host).
    const double need = static_cast<double>(placement.world_size) * static_cast<double>(expected_bytes_per_rank());
    const double reserve = static_cast<double>(placement.world_size) * static_cast<double>(options.stack_bytes);
    char text[400];
    if (need > 0.9 * machine_bytes) {
        std::snprintf(text, sizeof text,
                      "%d simulated ranks need at least %.1f GiB (%zu bytes of state and a 4 KiB stack page each), "
                      "this machine has %.1f GiB",
                      placement.world_size, need / (1 << 30), sizeof(Rank), machine_bytes / (1 << 30));
        return text;
    }
    // Address space for the stacks is reserved, not committed; x86-64 user space is 128 TiB.
    if (reserve > 100.0 * (1ULL << 40)) {
        std::snprintf(text, sizeof text,
                      "%d ranks with %zu-byte stacks need %.0f TiB of address space; use a smaller -xsim-stack",
                      placement.world_size, options.stack_bytes, reserve / (1ULL << 40));
        return text;
    }
    return {};
}

}  // namespace xsim
