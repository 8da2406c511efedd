#include "libxsim/runtime/startup_checks.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>

namespace xsim {
namespace {

// What a rank holds besides its Rank and its stack while a collective is in flight: the
// call and its request, a posted receive, messages and events on their way, pool slack.
// Measured: ring_allreduce at 2^20 ranks peaks at about 6.6 KB per rank with 64k stacks
// (bench/RESULTS.md), of which 4 KiB is the stack page and 224 bytes the Rank.
constexpr std::size_t kInFlightBytesPerRank = 2304;

// Memory the kernel can give without swapping (MemAvailable), or all of it if unknown.
double available_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    double kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemAvailable:") return kib * 1024;
        meminfo.ignore(256, '\n');
    }
    return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(page_size());
}

std::string size_text(std::size_t bytes) {
    if (bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
    return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB" : std::to_string(bytes) + " bytes";
}

}  // namespace

std::size_t stack_bytes_touched(std::size_t stack_bytes) { return std::min(stack_bytes, page_size()); }

// x86-64 needs one 4 KiB page of page-table entries per 2 MiB of address space where
// anything is mapped: the touched top of each stack and, right above it, the next stack's
// guard pages. Stacks under 2 MiB share those pages (slot/512 bytes per rank: 2176 with
// 1 MiB stacks); larger ones need one each, two when that hot part straddles a 2 MiB line
// (measured: 5,160 bytes per rank with 8 MiB). Not part of the resident set the run report
// shows, but memory all the same.
std::size_t stack_page_table_bytes(std::size_t stack_bytes) {
    constexpr double kSpan = 2 << 20;
    const double slot = static_cast<double>(StackArena::slot_bytes_for(stack_bytes));
    const double hot = static_cast<double>(StackArena::guard_bytes_for(stack_bytes) + stack_bytes_touched(stack_bytes));
    return static_cast<std::size_t>(4096 * std::min(slot / kSpan, 1 + hot / kSpan));
}

std::size_t expected_bytes_per_rank(std::size_t stack_bytes) {
    return sizeof(Rank) + kInFlightBytesPerRank + stack_bytes_touched(stack_bytes) + stack_page_table_bytes(stack_bytes);
}

std::string check_memory_budget(const Options& options, const Engine::Placement& placement,
                                std::size_t privatized_bytes) {
    const double available = available_bytes();
    // All real processes of a run share this machine (mpirun on one host).
    const std::size_t per_rank = expected_bytes_per_rank(options.stack_bytes) + privatized_bytes;
    const double need = static_cast<double>(placement.world_size) * static_cast<double>(per_rank);
    const double reserve =
        static_cast<double>(placement.world_size) * static_cast<double>(StackArena::slot_bytes_for(options.stack_bytes));
    char text[600];
    if (need > 0.95 * available) {
        const bool small_helps = options.stack_bytes > 2048;
        std::snprintf(text, sizeof text,
                      "%d simulated ranks at %s stacks need about %.1f GiB (%zu bytes each: %s of touched stack, %zu of page tables, "
                      "%zu of rank state, %zu of messages and calls in flight, %zu of privatized globals), "
                      "this machine has %.1f GiB available%s",
                      placement.world_size, size_text(options.stack_bytes).c_str(), need / (1 << 30), per_rank,
                      size_text(stack_bytes_touched(options.stack_bytes)).c_str(),
                      stack_page_table_bytes(options.stack_bytes), sizeof(Rank),
                      kInFlightBytesPerRank, privatized_bytes, available / (1 << 30),
                      small_helps ? "; fewer ranks, or -xsim-stack 2k for a program with a shallow stack, may fit"
                                  : "; run fewer ranks");
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
