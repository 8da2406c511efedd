// Fuzz test of the machine-file loader: random mutations of the shipped machines
// (examples/machines/*.toml and the built-in default) and random overrides, with a fixed
// seed so that CI runs the same cases every time. Every case must either load, giving
// times that did not wrap, or throw ConfigError with one line that names the key or the
// file and line. Anything else (another exception, a crash, a message naming neither)
// fails, printing the mutated input to reproduce it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>

#include "netmodels/config.hpp"
#include "test_support.hpp"

namespace xsim::net::test {
namespace {

constexpr std::uint64_t kSeed = 20261124;
constexpr int kFileCases = 400;
constexpr int kOverrideCases = 150;

// Values that have broken loaders: integers beyond 2^53 and int64, non-finite and extreme
// floats, wrong types, empty and odd strings.
const std::vector<std::string> kValues = {
    "9007199254740993", "9223372036854775807", "-9223372036854775808", "99999999999999999999", "0", "-1", "1",
    "2147483648", "1e300", "-1e300", "1e-300", "5e-13", "inf", "-inf", "nan", "0.5", "1e6", "1e7", "\"\"",
    "\"x\"", "\"0-99999999999999999999\"", "\"3-1\"", "true", "[]", "[0]", "[1, \"2-3\"]", "[true]",
    "{a = 1}", "[{name = \"q\", latency = 1e-6, bandwidth = 1e9}]", "\"torus\"", "\"file\"", "\"random\"",
    "\"periodic\"", "\"round-robin\"", "2e-6", "65536", "[4, 4]", "[false, true]"};

const std::vector<std::string> kKeys = {
    "processor.speed", "processor.flops", "processor.poll_cost", "processor.clock_read_cost",
    "processor.noise.kind", "processor.noise.period", "processor.noise.duration", "processor.noise.probability",
    "processor.noise.seed", "processor.noise.sync", "processor.override", "processor.override.0.speed",
    "processor.override.0.ranks", "mapping.kind", "mapping.ranks_per_node", "mapping.file", "network.model",
    "network.contention", "network.level", "network.level.0.latency", "network.level.0.bandwidth",
    "network.level.0.name", "network.level.1.name", "network.level.1.ranks", "network.level.0.nodes_per_group",
    "network.level.2.rendezvous", "network.torus.dims", "network.torus.wrap", "network.torus.base_latency",
    "network.torus.hop_latency", "network.torus.link_bandwidth", "network.torus.rendezvous", "nosuch.key",
    "network.level.node.latency", "processor.speed.x", "network..model"};

const std::vector<int> kWorldSizes = {1, 2, 16, 17, 1000, 65536};

std::vector<std::string> shipped_machines() {
    std::vector<std::string> texts = {default_machine_toml()};
    for (const auto& entry : std::filesystem::directory_iterator(XSIM_EXAMPLE_MACHINES_DIR)) {
        if (entry.path().extension() != ".toml") continue;
        std::ifstream in(entry.path());
        std::ostringstream text;
        text << in.rdbuf();
        texts.push_back(text.str());
    }
    return texts;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string join(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
}

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : rng_(seed) {}

    std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }
    const std::string& value() { return kValues[pick(kValues.size())]; }

    // One to three mutations of `text`.
    std::string mutate(const std::string& text) {
        std::vector<std::string> lines = lines_of(text);
        const std::size_t rounds = 1 + pick(3);
        for (std::size_t r = 0; r < rounds && !lines.empty(); ++r) {
            std::string& line = lines[pick(lines.size())];
            switch (pick(8)) {
                case 0: {  // replace the value of a key = value line
                    const auto eq = line.find('=');
                    if (eq != std::string::npos) line = line.substr(0, eq + 1) + " " + value();
                    break;
                }
                case 1: lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(pick(lines.size()))); break;
                case 2: lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(pick(lines.size())), line); break;
                case 3: std::swap(line, lines[pick(lines.size())]); break;
                case 4: {  // a random byte
                    if (line.empty()) break;
                    line[pick(line.size())] = static_cast<char>(pick(256));
                    break;
                }
                case 5: line.resize(pick(line.size() + 1)); break;  // truncate a line
                case 6: {  // a key line with a random key (the last part of a known one)
                    const std::string& key = kKeys[pick(kKeys.size())];
                    line = key.substr(key.rfind('.') + 1) + " = " + value();
                    break;
                }
                case 7: {  // repeat a [[table]] header: a new entry of the array
                    for (const auto& l : lines)
                        if (l.rfind("[[", 0) == 0) {
                            line = l;
                            break;
                        }
                    break;
                }
            }
        }
        return join(lines);
    }

    std::vector<std::string> overrides() {
        std::vector<std::string> out;
        const std::size_t n = 1 + pick(3);
        for (std::size_t i = 0; i < n; ++i) out.push_back(kKeys[pick(kKeys.size())] + "=" + value());
        return out;
    }

private:
    std::mt19937_64 rng_;
};

// What every error must say: the key, or the file and line.
bool names_key_or_line(const std::string& msg) {
    static const std::regex file_line(R"(\.toml:[0-9]+)");
    return msg.find("key '") != std::string::npos || std::regex_search(msg, file_line);
}

// A loaded machine gives times that did not wrap, even for huge messages and computes.
void check_machine(const Machine& m, int world, Mutator& mut, const std::string& input) {
    for (int i = 0; i < 8; ++i) {
        const int a = static_cast<int>(mut.pick(static_cast<std::size_t>(world)));
        const int b = static_cast<int>(mut.pick(static_cast<std::size_t>(world)));
        const Path p = m.network->path(a, b);
        ASSERT_GE(p.latency, 1) << input;
        const SimTime start = static_cast<SimTime>(mut.pick(1000)) * kPicosPerSecond;
        for (std::uint64_t bytes : {std::uint64_t{0}, std::uint64_t{1} << 20, std::uint64_t{1} << 62}) {
            const SimTime t = m.network->arrival(a, b, bytes, start);
            ASSERT_GE(t, start + p.latency) << input;
        }
        ASSERT_GE(m.processor->measured_compute(a, kPicosPerSecond * 3600, start), 0) << input;
        ASSERT_GE(m.processor->flops_compute(a, 1e30, start), 0) << input;
    }
    ASSERT_GE(m.network->min_latency(), 1) << input;
}

struct Outcome {
    int loaded = 0;
    int refused = 0;
};

void run_case(const MachineSpec& spec, int world, Mutator& mut, const std::string& input, Outcome& outcome) {
    try {
        auto m = load_machine(spec, world);
        ++outcome.loaded;
        check_machine(*m, world, mut, input);
    } catch (const ConfigError& e) {
        ++outcome.refused;
        const std::string msg = e.what();
        EXPECT_EQ(msg.find('\n'), std::string::npos) << "error spans lines: " << msg << "\ninput:\n" << input;
        EXPECT_TRUE(names_key_or_line(msg)) << "error names neither key nor line: " << msg << "\ninput:\n" << input;
        EXPECT_EQ(msg.find("cannot load the machine configuration"), std::string::npos)
            << "an unexpected exception reached the safety net: " << msg << "\ninput:\n" << input;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "uncaught " << typeid(e).name() << ": " << e.what() << "\ninput:\n" << input;
    }
}

TEST(ConfigFuzz, MutatedShippedMachinesLoadOrNameTheProblem) {
    const std::vector<std::string> machines = shipped_machines();
    ASSERT_GE(machines.size(), 4u);
    Mutator mut(kSeed);
    Outcome outcome;
    for (int i = 0; i < kFileCases && !HasFailure(); ++i) {
        const std::string text = mut.mutate(machines[mut.pick(machines.size())]);
        const int world = kWorldSizes[mut.pick(kWorldSizes.size())];
        const std::string file = write_temp_file("fuzz.toml", text);
        run_case({file, {}}, world, mut, "case " + std::to_string(i) + ", " + std::to_string(world) + " ranks:\n" + text,
                 outcome);
    }
    // The mutations must exercise both paths, or the test checks little.
    EXPECT_GT(outcome.loaded, kFileCases / 20);
    EXPECT_GT(outcome.refused, kFileCases / 4);
}

TEST(ConfigFuzz, RandomOverridesLoadOrNameTheKey) {
    const std::vector<std::string> machines = shipped_machines();
    Mutator mut(kSeed + 1);
    Outcome outcome;
    for (int i = 0; i < kOverrideCases && !HasFailure(); ++i) {
        const std::string file = write_temp_file("base.toml", machines[mut.pick(machines.size())]);
        const std::vector<std::string> overrides = mut.overrides();
        const int world = kWorldSizes[mut.pick(kWorldSizes.size())];
        std::string input = "case " + std::to_string(i) + ", " + std::to_string(world) + " ranks, overrides:";
        for (const auto& o : overrides) input += " '" + o + "'";
        MachineSpec spec{file, overrides};
        try {
            auto m = load_machine(spec, world);
            ++outcome.loaded;
            check_machine(*m, world, mut, input);
        } catch (const ConfigError& e) {
            ++outcome.refused;
            const std::string msg = e.what();
            // Override errors name the override (and nearly always the key); file errors the line.
            EXPECT_TRUE(names_key_or_line(msg) || msg.find("override '") != std::string::npos)
                << "error names neither key nor line: " << msg << "\n" << input;
            EXPECT_EQ(msg.find("cannot load the machine configuration"), std::string::npos) << msg << "\n" << input;
        } catch (const std::exception& e) {
            ADD_FAILURE() << "uncaught " << typeid(e).name() << ": " << e.what() << "\n" << input;
        }
    }
    EXPECT_GT(outcome.loaded, 0);
    EXPECT_GT(outcome.refused, kOverrideCases / 4);
}

}  // namespace
}  // namespace xsim::net::test
