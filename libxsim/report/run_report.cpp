#include "libxsim/mpi/real_mpi.hpp"
#include "libxsim/report/run_report.hpp"

#include <mpi.h>
#include <sys/resource.h>

#include <cstdio>

namespace xsim {

long long peak_rss_bytes() {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<long long>(usage.ru_maxrss) * 1024;
}

void write_run_report(Engine& engine, const std::string& path, double wall_seconds, int exit_code) {
    const RunStats& s = engine.stats();
    unsigned long long sums[6] = {s.messages, s.bytes, s.internal_messages, s.remote_events, s.context_switches, s.events};
    long long maxima[3] = {s.max_finalize_time, peak_rss_bytes(), 0};
    int process = 0;
    real_mpi.Comm_rank(MPI_COMM_WORLD, &process);
    real_mpi.Reduce(process == 0 ? MPI_IN_PLACE : sums, sums, 6, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    real_mpi.Reduce(process == 0 ? MPI_IN_PLACE : maxima, maxima, 3, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (process != 0) return;
    FILE* out = std::fopen(path.c_str(), "w");
    if (!out) {
        std::fprintf(stderr, "xsim: cannot write the run report to '%s'\n", path.c_str());
        return;
    }
    const Options& o = engine.options();
    std::fprintf(out, "{\n");
    std::fprintf(out, "  \"ranks\": %d,\n", engine.world_size());
    std::fprintf(out, "  \"processes\": %d,\n", engine.placement().processes);
    std::fprintf(out, "  \"simulated_time_s\": %.12f,\n", simtime_to_seconds(maxima[0]));
    std::fprintf(out, "  \"simulated_time_ps\": %lld,\n", maxima[0]);
    std::fprintf(out, "  \"wall_time_s\": %.6f,\n", wall_seconds);
    std::fprintf(out, "  \"messages\": %llu,\n", sums[0]);
    std::fprintf(out, "  \"bytes\": %llu,\n", sums[1]);
    std::fprintf(out, "  \"collective_messages\": %llu,\n", sums[2]);
    std::fprintf(out, "  \"remote_events\": %llu,\n", sums[3]);
    std::fprintf(out, "  \"context_switches\": %llu,\n", sums[4]);
    std::fprintf(out, "  \"events\": %llu,\n", sums[5]);
    std::fprintf(out, "  \"peak_rss_bytes\": %lld,\n", maxima[1]);
    std::fprintf(out, "  \"exit_code\": %d,\n", exit_code);
    // payload: "on", "off", "auto" or "threshold"; payload_threshold_bytes: the largest
    // message that carries its data (null for on and off).
    const std::string threshold = o.payload.has_threshold() ? std::to_string(o.payload.threshold_bytes()) : "null";
    std::fprintf(out,
                 "  \"options\": {\"compute\": \"%s\", \"stack_bytes\": %zu, \"payload\": \"%s\", "
                 "\"payload_threshold_bytes\": %s},\n",
                 o.compute == ComputeMode::None ? "none" : "measured", o.stack_bytes, o.payload.name(),
                 threshold.c_str());
    const runtime::Privatization& p = engine.privatization();
    std::fprintf(out, "  \"privatization\": {\"active\": %s, \"privatized_bytes\": %zu, \"bytes_per_rank\": %zu, \"left_shared\": [",
                 p.active() ? "true" : "false", p.privatized_bytes(), p.bytes_per_rank());
    for (std::size_t i = 0; i < p.left_shared().size(); ++i) {
        std::string name;
        for (char c : p.left_shared()[i]) {
            if (c == '"' || c == '\\') name += '\\';
            name += c;
        }
        std::fprintf(out, "%s\"%s\"", i ? ", " : "", name.c_str());
    }
    std::fprintf(out, "]},\n");
    std::fprintf(out, "  \"machine\": %s\n", engine.machine().effective_config_json.empty()
                                                 ? "{}" : engine.machine().effective_config_json.c_str());
    std::fprintf(out, "}\n");
    std::fclose(out);
}

}  // namespace xsim
