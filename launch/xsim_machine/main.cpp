// xsim-machine: machine-file tools.
//   xsim-machine --from-host [-o FILE]      write a machine file for this host (hwloc)
//   xsim-machine --check FILE [--ranks N]   validate a machine file, print the effective config
//   xsim-machine --keys                     list every configuration key
//   xsim-machine --calibrate [-o FILE] [--hostfile H] [--quick]   measure this host with the real MPI
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "calibrate.hpp"
#include "host_machine.hpp"
#include "netmodels/machine.hpp"

namespace {

void usage(std::ostream& out) {
    out << "usage: xsim-machine --from-host [-o FILE]\n"
           "       xsim-machine --check FILE [--ranks N] [--set key=value ...]\n"
           "       xsim-machine --keys\n"
           "       xsim-machine --calibrate [-o FILE] [--hostfile H] [--quick] [--probe PATH]\n"
           "  --from-host  write a TOML machine file for this host (cores, sockets, NUMA nodes from hwloc)\n"
           "               to FILE, or to standard output\n"
           "  --check      load FILE for N ranks (default 1) and print the effective configuration as JSON\n"
           "  --keys       describe every configuration key, its type, default and meaning\n"
           "  --calibrate  measure this host with the real Open MPI (ping-pong per level, eager limit,\n"
           "               MPI_Iprobe and MPI_Wtime costs, a reference kernel) and write a machine file\n"
           "               with a comment per value; --hostfile H (two or more hosts) also measures the\n"
           "               network; --quick: fewer sizes and repeats (seconds)\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::string mode, output, file;
    int ranks = 1;
    std::vector<std::string> overrides;
    xsim::machine::CalibrateOptions calibration;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "xsim-machine: " << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--from-host" || a == "--keys" || a == "--calibrate") {
            mode = a;
        } else if (a == "--check") {
            mode = a;
            file = next();
        } else if (a == "-o" || a == "--output") {
            output = next();
        } else if (a == "--ranks") {
            const std::string text = next();
            char* end = nullptr;
            errno = 0;
            const long n = std::strtol(text.c_str(), &end, 10);
            if (text.empty() || *end != '\0' || errno == ERANGE || n < 1 || n > 0x7fffffffL) {
                std::cerr << "xsim-machine: --ranks: expected a whole number from 1 to 2147483647, got '" << text
                          << "'\n";
                return 2;
            }
            ranks = static_cast<int>(n);
        } else if (a == "--hostfile") {
            calibration.hostfile = next();
        } else if (a == "--probe") {
            calibration.probe = next();
        } else if (a == "--quick") {
            calibration.quick = true;
        } else if (a == "--set") {
            overrides.push_back(next());
        } else if (a == "-h" || a == "--help") {
            usage(std::cout);
            return 0;
        } else {
            std::cerr << "xsim-machine: unknown argument '" << a << "'\n";
            usage(std::cerr);
            return 2;
        }
    }
    try {
        if (mode == "--from-host" || mode == "--calibrate") {
            const std::string toml = mode == "--calibrate"
                                         ? xsim::machine::calibrate_machine_toml(calibration)
                                         : xsim::machine::host_machine_toml(xsim::machine::detect_host());
            if (output.empty()) {
                std::cout << toml;
                return 0;
            }
            std::ofstream out(output);
            if (!(out << toml)) {
                std::cerr << "xsim-machine: cannot write " << output << "\n";
                return 1;
            }
            out.close();
            // The written file must load as a machine (throws ConfigError otherwise).
            xsim::net::load_machine({output, {}}, 1);
            std::cerr << "xsim-machine: wrote " << output << "\n";
            return 0;
        }
        if (mode == "--check") {
            // Empty would silently check the built-in default machine.
            if (file.empty()) {
                std::cerr << "xsim-machine: --check: expected a machine file name, got an empty path\n";
                return 2;
            }
            auto m = xsim::net::load_machine({file, overrides}, ranks);
            std::cout << m->effective_config_json << "\n";
            return 0;
        }
        if (mode == "--keys") {
            std::cout << xsim::net::describe_config_keys();
            return 0;
        }
    } catch (const xsim::net::ConfigError& e) {
        std::cerr << "xsim-machine: " << e.what() << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "xsim-machine: " << e.what() << "\n";
        return 1;
    }
    usage(std::cerr);
    return 2;
}
