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
#include "link_fit.hpp"

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
    Value latency, bandwidth, rendezvous, eager_bandwidth, rendezvous_overhead;
};

// Latency: the one-way time of an empty message. Then the model of link_fit.hpp, fitted; each value's
// comment says how, and the bandwidth's comment gives the fit's worst error per size.
Link fit_link(const std::map<long, std::vector<double>>& by_size, const std::string& where) {
    std::vector<long> sizes;
    std::vector<Stats> st;
    std::vector<double> medians;
    for (const auto& [size, v] : by_size) {
        sizes.push_back(size);
        st.push_back(stats(v));
        medians.push_back(st.back().median);
    }
    if (sizes.size() < 4 || sizes.front() != 0) throw std::runtime_error(where + ": too few message sizes measured");
    const LinkFit f = fit_link_model(sizes, medians);
    if (f.cost < 0)
        throw std::runtime_error(where + ": the time did not grow with the message size; rerun on a quiet machine");
    const std::size_t k = sizes.size();
    double worst = 0;
    long worst_at = 0;
    for (std::size_t i = 0; i < k; ++i) {
        const double e = (f.one_way(sizes[i]) - medians[i]) / medians[i];
        if (std::fabs(e) > std::fabs(worst)) {
            worst = e;
            worst_at = sizes[i];
        }
    }
    const std::string n_runs = std::to_string(st[0].runs);
    const std::string fit_note = "least squares of the relative error over " + std::to_string(k) +
                                 " sizes (medians of " + n_runs + " runs); worst fit error " +
                                 fmt(100 * worst, 2) + "% at " + std::to_string(worst_at) + " bytes";
    Link link;
    link.latency = {fmt(f.latency), "one-way time of an empty message, " + st[0].comment()};
    if (f.last_eager + 1 < k) {
        link.bandwidth = {fmt(1 / f.per_byte), "rendezvous messages (" + std::to_string(sizes[f.last_eager + 1]) +
                                                   ".." + std::to_string(sizes[k - 1]) + " bytes): " + fit_note};
        link.eager_bandwidth = {fmt(1 / f.eager_per_byte), "eager messages (1.." + std::to_string(sizes[f.last_eager]) +
                                                               " bytes), same fit"};
        if (f.overhead > 1e-12)  // else none: the key's default (0)
            link.rendezvous_overhead = {fmt(f.overhead), "a rendezvous message's time beyond 3 latencies and its bytes, same fit"};
        link.rendezvous = {std::to_string(sizes[f.last_eager]),
                           "largest eager size: the split of the sizes into eager and rendezvous that fits best"};
    } else {
        link.bandwidth = {fmt(1 / f.per_byte), "every size fits one line (no eager/rendezvous step): " + fit_note};
        link.rendezvous = {std::to_string(sizes[k - 1]),
                           "no eager/rendezvous step stood out up to the largest size measured"};
    }
    return link;
}

}  // namespace

std::string calibrate_machine_toml(const CalibrateOptions& o) {
    const HostCounts h = detect_host();
    std::vector<HostLevel> levels = host_levels(h);
    const std::string probe = find_probe(o);
    const int repeats = o.quick ? 5 : 15;
    // The sizes programs send: a few doubles, halo faces and pipeline blocks (2-8 KiB around
    // the eager limit), and ping-pong's powers of 4 up to 1 MiB.
    const std::string sizes = o.quick ? "0,8,64,1024,4096,8192,16384,65536,262144,1048576"
                                      : "0,8,64,256,1024,2048,3072,4096,6144,8192,12288,16384,32768,65536,"
                                        "131072,262144,524288,1048576";
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
                const Link link = fit_link(pingpong(launch, what), what);
                std::remove(rankfile);
                l.latency = link.latency;
                l.bandwidth = link.bandwidth;
                l.rendezvous = link.rendezvous;
                l.eager_bandwidth = link.eager_bandwidth;
                l.rendezvous_overhead = link.rendezvous_overhead;
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
        const Link link = fit_link(pingpong(launch, what), what);
        l.latency = link.latency;
        l.bandwidth = link.bandwidth;
        l.rendezvous = link.rendezvous;
        l.eager_bandwidth = link.eager_bandwidth;
        l.rendezvous_overhead = link.rendezvous_overhead;
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
