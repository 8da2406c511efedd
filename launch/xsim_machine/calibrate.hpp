// xsim-machine --calibrate: measure this host (and, with a hostfile, its network) with the
// real Open MPI and write a machine file whose every value says how it was measured.
#pragma once
#include <string>

namespace xsim::machine {

struct CalibrateOptions {
    std::string hostfile;      // two or more hosts: also measure the network level
    std::string probe;         // xsim-calibration-probe; empty: next to this program, else PATH
    std::string mpirun = "mpirun";
    bool quick = false;        // fewer sizes and repeats (CI): seconds, not a minute
};

// The calibrated machine file (TOML). Progress goes to stderr. Throws std::runtime_error
// naming the measurement that failed.
std::string calibrate_machine_toml(const CalibrateOptions& options);

}  // namespace xsim::machine
