// Calibration: the probe (calibration_probe.c) runs under the real mpirun for each level of
// the host's star hierarchy -- a rank to itself, two ranks on cores that share exactly that
// level (a rankfile pins them), two hosts from the hostfile -- and for the processor. Every
// measurement is repeated; the median is kept and the spread written next to it.
#include "calibrate.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "host_machine.hpp"

namespace xsim::machine {
namespace {

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string here_dir() {
    std::array<char, 4096> buf{};
    const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
    if (n <= 0) return ".";
    std::string path(buf.data(), static_cast<std::size_t>(n));
    return path.substr(0, path.rfind('/'));
}

std::string find_probe(const CalibrateOptions& o) {
    if (!o.probe.empty()) return o.probe;
    const std::string beside = here_dir() + "/xsim-calibration-probe";
    if (access(beside.c_str(), X_OK) == 0) return beside;
    return "xsim-calibration-probe";
}

// Runs a command, returns its standard output; throws with the output on failure.
std::string run(const std::string& command, const std::string& what) {
    std::FILE* p = popen((command + " 2>&1").c_str(), "r");
    if (!p) throw std::runtime_error(what + ": cannot start: " + command);
    std::string out;
    std::array<char, 4096> buf{};
    std::size_t n;
    while ((n = std::fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    const int status = pclose(p);
    if (status != 0) throw std::runtime_error(what + " failed (" + command + "):\n" + out);
    return out;
}

struct Stats {
    double median = 0, low = 0, high = 0;
    int runs = 0;
    std::string comment(const char* unit_note = "") const {
        std::ostringstream o;
        o.precision(3);
        o << "median of " << runs << " runs" << unit_note << ", spread " << low << ".." << high;
        if (median > 0) o << " (" << std::lround(100.0 * (high - low) / median) << "%)";
        return o.str();
    }
};

Stats stats(std::vector<double> v) {
    if (v.empty()) throw std::runtime_error("a measurement printed nothing");
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return {n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]), v.front(), v.back(), static_cast<int>(n)};
}

// "KEY X" lines of the probe's output, by first field and second field.
std::map<long, std::vector<double>> parse(const std::string& out, const std::string& key, bool sized) {
    std::map<long, std::vector<double>> values;
    std::istringstream in(out);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream l(line);
        std::string k;
        l >> k;
        if (k != key) continue;
        long size = 0;
        double value = 0;
        if (sized) l >> size;
        if (l >> value && std::isfinite(value) && value > 0) values[size].push_back(value);
    }
    return values;
}

std::string fmt(double v, int digits = 3) {
    std::ostringstream o;
    o.precision(digits);
    o << v;
    return o.str();
}

struct Link {
    Value latency, bandwidth, rendezvous;
};

// Latency: the one-way time of an empty message. Bandwidth: the slope between the two
// largest sizes. Eager limit: the size after which the time jumps most above that slope
// (the rendezvous handshake), if the jump stands out of the noise.
Link fit_link(const std::map<long, std::vector<double>>& by_size, const std::string& where, const Value& keep_rdv) {
    std::vector<long> sizes;
    std::vector<Stats> st;
    for (const auto& [size, v] : by_size) {
        sizes.push_back(size);
        st.push_back(stats(v));
    }
    if (sizes.size() < 3 || sizes.front() != 0) throw std::runtime_error(where + ": too few message sizes measured");
    const std::size_t k = sizes.size();
    const double dt = st[k - 1].median - st[k - 2].median;
    const double bw = dt > 0 ? static_cast<double>(sizes[k - 1] - sizes[k - 2]) / dt : 0;
    if (!(bw > 0)) throw std::runtime_error(where + ": the time did not grow with the message size; rerun on a quiet machine");
    Link link;
    link.latency = {fmt(st[0].median), "one-way time of an empty message, " + st[0].comment()};
    link.bandwidth = {fmt(bw), "slope between " + std::to_string(sizes[k - 2]) + " and " + std::to_string(sizes[k - 1]) +
                                   " bytes (medians of " + std::to_string(st[k - 1].runs) + " runs)"};
    double best = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i + 1 < k - 1; ++i) {
        const double excess = (st[i + 1].median - st[i].median) - static_cast<double>(sizes[i + 1] - sizes[i]) / bw;
        const double noise = std::max(st[i].high - st[i].low, st[i + 1].high - st[i + 1].low);
        if (sizes[i] > 0 && excess > best && excess > 0.3 * st[0].median && excess > 0.5 * noise) {
            best = excess;
            at = i;
        }
    }
    if (best > 0) {
        link.rendezvous = {std::to_string(sizes[at]), "largest eager size: the time jumps by " + fmt(best * 1e6) +
                                                           " us between " + std::to_string(sizes[at]) + " and " +
                                                           std::to_string(sizes[at + 1]) + " bytes (rendezvous)"};
    } else {
        link.rendezvous = {keep_rdv.text, "no eager/rendezvous step stood out of the noise up to " +
                                              std::to_string(sizes[k - 1]) + " bytes: kept the typical value"};
    }
    return link;
}

}  // namespace

std::string calibrate_machine_toml(const CalibrateOptions& o) {
    const HostCounts h = detect_host();
    std::vector<HostLevel> levels = host_levels(h);
    const std::string probe = find_probe(o);
    const int repeats = o.quick ? 5 : 15;
    const std::string sizes = o.quick ? "0,1024,2048,4096,8192,16384,32768,65536,262144,1048576"
                                      : "0,64,512,1024,2048,3072,4096,6144,8192,12288,16384,24576,32768,49152,65536,"
                                        "98304,131072,262144,1048576,4194304";
    const std::string mpirun = o.mpirun + (geteuid() == 0 ? " --allow-run-as-root" : "");
    auto measure = [&](const std::string& launch, const std::string& args, const std::string& what) {
        std::cerr << "xsim-machine: measuring " << what << "\n";
        return run(launch + " " + quote(probe) + " " + args, what);
    };
    auto pingpong = [&](const std::string& launch, const std::string& what) {
        return parse(measure(launch, "pingpong " + sizes + " " + std::to_string(repeats), what), "pingpong", true);
    };

    // Levels, innermost first: the outermost is the network, the others are inside the host.
    const int cores = h.cores > 0 ? h.cores : 1;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        HostLevel& l = levels[i];
        const bool outermost = l.ranks == 0;
        std::string launch, what;
        if (i == 0) {
            launch = mpirun + " -np 1 --bind-to core";
            what = "level '" + l.name + "': a rank to itself";
        } else if (!outermost) {
            // Core 0 and the first core outside the next inner group share exactly this level.
            const int other = levels[i - 1].ranks;
            if (other >= cores) continue;
            char rankfile[] = "/tmp/xsim-calibrate-rankfile-XXXXXX";
            const int fd = mkstemp(rankfile);
            if (fd < 0) throw std::runtime_error("cannot create a rankfile in /tmp");
            close(fd);
            std::ofstream(rankfile) << "rank 0=localhost slot=0\nrank 1=localhost slot=" << other << "\n";
            launch = mpirun + " -np 2 --rankfile " + rankfile;
            what = "level '" + l.name + "': cores 0 and " + std::to_string(other);
            try {
                const Link link = fit_link(pingpong(launch, what), what, l.rendezvous);
                std::remove(rankfile);
                l.latency = link.latency;
                l.bandwidth = link.bandwidth;
                l.rendezvous = link.rendezvous;
                l.comment += " -- measured between cores 0 and " + std::to_string(other);
            } catch (...) {
                std::remove(rankfile);
                throw;
            }
            continue;
        } else if (!o.hostfile.empty()) {
            launch = mpirun + " -np 2 --map-by node --hostfile " + quote(o.hostfile);
            what = "level '" + l.name + "': two hosts of " + o.hostfile;
        } else {
            l.comment += " (not measured: give --hostfile with two or more hosts)";
            continue;
        }
        const Link link = fit_link(pingpong(launch, what), what, l.rendezvous);
        l.latency = link.latency;
        l.bandwidth = link.bandwidth;
        l.rendezvous = link.rendezvous;
        l.comment += i == 0 ? " -- measured" : " -- measured between two hosts";
    }

    const std::string one = mpirun + " -np 1 --bind-to core";
    const Stats poll = stats(parse(measure(one, "poll " + std::to_string(repeats), "the cost of an MPI_Iprobe poll"),
                                   "poll", false)[0]);
    const Stats clock = stats(parse(measure(one, "clock " + std::to_string(repeats), "the cost of MPI_Wtime"),
                                    "clock", false)[0]);
    const Stats flops = stats(parse(measure(one, "kernel " + std::to_string(repeats), "the reference kernel"),
                                    "kernel", false)[0]);

    std::ostringstream header;
    header << "# xsim machine file measured by `xsim-machine --calibrate`" << (o.quick ? " --quick" : "")
           << " on this host with the real Open MPI\n"
           << "# (" << cores << " core(s), " << h.packages << " socket(s), " << h.numa_nodes << " NUMA node(s) from hwloc"
           << (o.hostfile.empty() ? "" : "; network: hosts of " + o.hostfile) << ").\n"
           << "# Each value: the median of repeated measurements, with the spread (lowest..highest) next to it.\n"
           << "# Ping-pong: one-way time = round trip / 2 for sizes " << sizes << " bytes.\n"
           << "# Measure on a quiet machine: other load shows up as spread and as slower values.\n"
           << "# Every key: see netmodels/README.md or `xsim-machine --keys`.\n";
    std::vector<std::pair<std::string, Value>> processor = {
        {"speed", {"1.0", "measured compute runs on this host, so this host is speed 1"}},
        {"flops", {fmt(flops.median), "flop/s of the reference kernel (y = a*x + y, 8 KiB arrays), " + flops.comment()}},
        {"poll_cost", {fmt(poll.median), "an MPI_Iprobe that finds nothing, " + poll.comment()}},
        {"clock_read_cost", {fmt(clock.median), "an MPI_Wtime call, " + clock.comment()}},
    };
    return render_machine_toml(h, header.str(), processor, levels);
}

}  // namespace xsim::machine
