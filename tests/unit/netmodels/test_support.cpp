#include "test_support.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <unistd.h>

namespace xsim::net::test {

namespace {

// This process's scratch directory, removed when the process exits.
struct ScratchDir {
    std::filesystem::path path = std::filesystem::path(::testing::TempDir()) /
                                 ("xsim_netmodels_" + std::to_string(::getpid()));
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

}  // namespace

std::string write_temp_file(const std::string& name, const std::string& text) {
    static ScratchDir scratch;
    static std::atomic<int> counter{0};
    const auto dir = scratch.path / std::to_string(counter++);
    std::filesystem::create_directories(dir);
    const auto path = dir / name;
    std::ofstream(path) << text;
    return path.string();
}

std::unique_ptr<Machine> machine_from(const std::string& toml, int world_size,
                                      const std::vector<std::string>& overrides) {
    return load_machine({write_temp_file("machine.toml", toml), overrides}, world_size);
}

std::unique_ptr<Machine> default_machine(int world_size, const std::vector<std::string>& overrides) {
    return load_machine({"", overrides}, world_size);
}

std::string config_error(const MachineSpec& spec, int world_size) {
    try {
        load_machine(spec, world_size);
    } catch (const ConfigError& e) {
        const std::string msg = e.what();
        EXPECT_EQ(msg.find('\n'), std::string::npos) << "error spans lines: " << msg;
        return msg;
    }
    ADD_FAILURE() << "expected a ConfigError";
    return {};
}

std::string config_error_from(const std::string& toml, int world_size, const std::vector<std::string>& overrides) {
    return config_error({write_temp_file("bad.toml", toml), overrides}, world_size);
}

}  // namespace xsim::net::test
