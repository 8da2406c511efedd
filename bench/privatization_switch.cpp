// Cost of switching one rank's globals for another's (runtime/privatization), for 1 KiB,
// 64 KiB and 1 MiB of globals, over 64 ranks taken in turn (each switch saves the outgoing
// rank's image and loads the next one's, as Engine::run_fiber does), against the
// alternative of one memfd-backed image per rank mapped over the globals with
// mmap(MAP_FIXED) at each switch. After each switch the "rank" writes one cache line
// (Touch1) or every page (TouchAll) of its globals, as a rank that uses few or all of them.
// The globals are written anonymous memory (every page counts as written), or, with
// from_file, a private mapping of a file, like a program's .data: then a large image is
// switched by written page (rank_state/written_pages.hpp).
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

#include "libxsim/rank_state/privatization.hpp"

namespace {

constexpr std::size_t kRanks = 64;
constexpr std::size_t kPage = 4096;

// Globals stand-in: page aligned so that the remapping variant can map over it.
char* globals(std::size_t bytes, bool from_file = false) {
    if (from_file) {
        char path[] = "/tmp/xsim_bench_globalsXXXXXX";
        const int fd = mkstemp(path);
        if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) throw std::runtime_error("mkstemp");
        unlink(path);
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        close(fd);
        if (p == MAP_FAILED) throw std::runtime_error("mmap");
        return static_cast<char*>(p);
    }
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap");
    std::memset(p, 1, bytes);
    return static_cast<char*>(p);
}

void touch(char* g, std::size_t bytes, bool all, std::size_t rank) {
    if (!all) {
        g[0] = static_cast<char>(rank);
        return;
    }
    for (std::size_t at = 0; at < bytes; at += kPage) g[at] = static_cast<char>(rank);
}

void copy_switch(benchmark::State& state) {
    const auto bytes = static_cast<std::size_t>(state.range(0));
    const bool all = state.range(1) != 0;
    char* g = globals(bytes, state.range(2) != 0);
    xsim::runtime::Privatization p;
    p.start({{g, bytes, "globals"}}, kRanks);
    for (std::size_t r = 0; r < kRanks; ++r) p.switch_to(r);  // every slot committed
    std::size_t rank = 0;
    for (auto _ : state) {
        rank = (rank + 1) % kRanks;
        p.switch_to(rank);
        touch(g, bytes, all, rank);
        benchmark::ClobberMemory();
    }
    state.counters["switched_bytes"] = static_cast<double>(p.switched_bytes());
    munmap(g, bytes);
}

void remap_switch(benchmark::State& state) {
    const auto bytes = static_cast<std::size_t>(state.range(0));
    const std::size_t mapped = (bytes + kPage - 1) / kPage * kPage;
    const bool all = state.range(1) != 0;
    char* g = globals(mapped);
    const int fd = memfd_create("xsim-images", 0);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(mapped * kRanks)) != 0) {
        state.SkipWithError("memfd_create");
        return;
    }
    for (std::size_t r = 0; r < kRanks; ++r)
        if (pwrite(fd, g, mapped, static_cast<off_t>(r * mapped)) != static_cast<ssize_t>(mapped)) {
            state.SkipWithError("pwrite");
            return;
        }
    std::size_t rank = 0;
    for (auto _ : state) {
        rank = (rank + 1) % kRanks;
        if (mmap(g, mapped, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, static_cast<off_t>(rank * mapped)) ==
            MAP_FAILED) {
            state.SkipWithError("mmap MAP_FIXED");
            break;
        }
        touch(g, bytes, all, rank);
        benchmark::ClobberMemory();
    }
    close(fd);
    munmap(g, mapped);
}

void sizes(benchmark::internal::Benchmark* b) {
    for (long bytes : {1L << 10, 64L << 10, 1L << 20})
        for (long all : {0L, 1L}) b->Args({bytes, all, 0});
    b->ArgNames({"bytes", "touch_all", "from_file"});
}

void file_sizes(benchmark::internal::Benchmark* b) {
    for (long bytes : {64L << 10, 1L << 20, 4L << 20})
        for (long all : {0L, 1L}) b->Args({bytes, all, 1});
    b->ArgNames({"bytes", "touch_all", "from_file"});
}

}  // namespace

BENCHMARK(copy_switch)->Apply(sizes);
BENCHMARK(copy_switch)->Apply(file_sizes);
BENCHMARK(remap_switch)->Apply(sizes);  // from_file is not used
BENCHMARK_MAIN();
