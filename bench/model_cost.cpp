// model_cost: what one message's network-model query costs, per shipped machine, at 2^20
// ranks with random (src, dst) pairs. The engine asks the model once per message
// (path() for the protocol, arrival() for the timing), so this must stay far below the
// engine's own cost per message (about 1-3 us, bench/engine_p2p.sh) to not be the bottleneck.
//
// Machines: the built-in default, every examples/machines/*.toml (torus3d.toml is resized
// to 64x32x32 nodes x 16 ranks = 2^20 ranks, it ships with 4096 nodes), and with
// network.contention = true the default star and the 2^20-rank torus.
//
// Benchmarks per machine:
//   path/<machine>     Path p = network->path(src, dst)
//   arrival/<machine>  network->arrival(src, dst, 64 bytes, start), start advancing 1 ns per call
//                      (what the engine calls for every message; with contention it reserves links)
//   arrival_1us_apart/<machine>  (contention machines only) the same with starts 1 us apart
// Pairs come from a fixed table of 65536 random pairs (splitmix64), walked in order; the
// loop overhead (table read, counter) is included.
//
// Usage: model_cost [--ranks N] [google benchmark flags, e.g. --benchmark_min_time=0.2]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "netmodels/machine.hpp"

#ifndef XSIM_MACHINES_DIR
#define XSIM_MACHINES_DIR "examples/machines"
#endif

namespace {

struct Pair {
    int src, dst;
};

std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::vector<Pair> random_pairs(int ranks) {
    std::vector<Pair> pairs(65536);
    std::uint64_t state = 42;
    for (auto& p : pairs) {
        p.src = static_cast<int>(splitmix(state) % static_cast<std::uint64_t>(ranks));
        p.dst = static_cast<int>(splitmix(state) % static_cast<std::uint64_t>(ranks));
    }
    return pairs;
}

struct Case {
    std::string name;
    xsim::net::MachineSpec spec;
};

void bench_path(benchmark::State& state, std::shared_ptr<xsim::net::Machine> machine,
                std::shared_ptr<const std::vector<Pair>> pairs) {
    const auto& net = *machine->network;
    const std::size_t mask = pairs->size() - 1;
    std::size_t i = 0;
    for (auto _ : state) {
        const Pair& p = (*pairs)[i++ & mask];
        xsim::net::Path path = net.path(p.src, p.dst);
        benchmark::DoNotOptimize(path);
    }
    state.SetItemsProcessed(state.iterations());
}

void bench_arrival(benchmark::State& state, std::shared_ptr<xsim::net::Machine> machine,
                   std::shared_ptr<const std::vector<Pair>> pairs, xsim::SimTime step) {
    auto& net = *machine->network;
    const std::size_t mask = pairs->size() - 1;
    std::size_t i = 0;
    xsim::SimTime start = 0;
    for (auto _ : state) {
        const Pair& p = (*pairs)[i++ & mask];
        start += step;  // virtual time between consecutive messages
        xsim::SimTime t = net.arrival(p.src, p.dst, 64, start);
        benchmark::DoNotOptimize(t);
    }
    state.SetItemsProcessed(state.iterations());
}

}  // namespace

int main(int argc, char** argv) {
    int ranks = 1 << 20;
    std::vector<char*> args;
    for (int i = 0; i < argc; ++i) {
        if (std::strcmp(argv[i], "--ranks") == 0 && i + 1 < argc) {
            ranks = std::atoi(argv[++i]);
        } else {
            args.push_back(argv[i]);
        }
    }
    int bench_argc = static_cast<int>(args.size());
    benchmark::Initialize(&bench_argc, args.data());

    // A torus of 2^20 ranks at 16 ranks per node: 65536 nodes.
    const std::vector<std::string> big_torus = {"network.torus.dims=[64,32,32]"};
    std::vector<Case> cases;
    cases.push_back({"default", {"", {}}});
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(XSIM_MACHINES_DIR))
        if (entry.path().extension() == ".toml") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        Case c{f.stem().string(), {f.string(), {}}};
        if (c.name == "torus3d") c.spec.overrides = big_torus;
        cases.push_back(c);
    }
    cases.push_back({"default+contention", {"", {"network.contention=true"}}});
    {
        Case c{"torus3d+contention", {std::string(XSIM_MACHINES_DIR) + "/torus3d.toml", big_torus}};
        c.spec.overrides.push_back("network.contention=true");
        cases.push_back(c);
    }

    auto pairs = std::make_shared<const std::vector<Pair>>(random_pairs(ranks));
    for (const auto& c : cases) {
        std::shared_ptr<xsim::net::Machine> machine;
        try {
            machine = std::shared_ptr<xsim::net::Machine>(xsim::net::load_machine(c.spec, ranks).release());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "model_cost: skipping %s: %s\n", c.name.c_str(), e.what());
            continue;
        }
        const std::string suffix = c.name + "/" + machine->network->name() + "/ranks:" + std::to_string(ranks);
        // contention state is per Machine: each benchmark gets its own
        if (c.name.find("contention") == std::string::npos)
            benchmark::RegisterBenchmark(("path/" + suffix).c_str(), bench_path, machine, pairs);
        // starts 1 ns apart: a dense stream of messages (with contention: heavy link sharing)
        std::shared_ptr<xsim::net::Machine> fresh(xsim::net::load_machine(c.spec, ranks).release());
        benchmark::RegisterBenchmark(("arrival/" + suffix).c_str(), bench_arrival, fresh, pairs, xsim::SimTime{1000});
        if (c.name.find("contention") != std::string::npos) {
            // starts 1 us apart: little overlap on the links
            std::shared_ptr<xsim::net::Machine> sparse(xsim::net::load_machine(c.spec, ranks).release());
            benchmark::RegisterBenchmark(("arrival_1us_apart/" + suffix).c_str(), bench_arrival, sparse, pairs,
                                         xsim::SimTime{1000000});
        }
    }
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
