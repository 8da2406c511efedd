// Helpers for the netmodels unit tests: machines from TOML text and error capture.
#pragma once
#include <string>
#include <vector>

#include "netmodels/machine.hpp"

namespace xsim::net::test {

// Writes `text` to a fresh file under the test temp dir and returns its path.
std::string write_temp_file(const std::string& name, const std::string& text);

// load_machine from TOML text (written to a temp file) plus overrides.
std::unique_ptr<Machine> machine_from(const std::string& toml, int world_size,
                                      const std::vector<std::string>& overrides = {});

// The default machine with overrides.
std::unique_ptr<Machine> default_machine(int world_size, const std::vector<std::string>& overrides = {});

// The message of the ConfigError load_machine throws; fails the test if none is thrown.
std::string config_error(const MachineSpec& spec, int world_size);
std::string config_error_from(const std::string& toml, int world_size,
                              const std::vector<std::string>& overrides = {});

constexpr SimTime us(double microseconds) { return seconds_to_simtime(microseconds * 1e-6); }

}  // namespace xsim::net::test
