#include "libxsim/runtime/privatization_plan.hpp"

#include "libxsim/runtime/requested_libraries.hpp"

namespace xsim::runtime {
namespace {

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& s : items) out += (out.empty() ? "" : "; ") + s;
    return out;
}

std::size_t total_bytes(const std::vector<Segment>& segments) {
    std::size_t bytes = 0;
    for (const Segment& s : segments) bytes += s.bytes;
    return bytes;
}

}  // namespace

PrivatizationPlan plan_privatization(PrivatizeMode mode, long long local_ranks, std::vector<Segment> libc) {
    PrivatizationPlan plan;
    const bool shared = local_ranks > 1;
    plan.enabled = mode == PrivatizeMode::On || (mode == PrivatizeMode::Auto && shared);
    Discovery found = discover(&per_rank_at_start);
    const std::size_t program_bytes = total_bytes(found.segments);
    plan.left_shared = found.uncovered;
    if (!plan.enabled) {
        if (shared && program_bytes + found.uncovered_bytes > 0)
            plan.lines.push_back("xsim: warning: -xsim-privatize off: the program's " +
                                 std::to_string(program_bytes + found.uncovered_bytes) +
                                 " bytes of writable globals and thread-locals are shared by the " +
                                 std::to_string(local_ranks) + " simulated ranks of each real process");
        return plan;
    }
    plan.segments = std::move(found.segments);
    plan.covered = found.covered;
    plan.executable_covered = found.executable_covered;
    plan.segments.insert(plan.segments.end(), libc.begin(), libc.end());
    plan.bytes_per_rank = Privatization::expected_bytes_per_rank(plan.segments);
    if (shared && found.uncovered_bytes > 0)
        plan.lines.push_back("xsim: warning: " + std::to_string(found.uncovered_bytes) +
                             " bytes of writable globals are not privatized and are shared by the simulated ranks "
                             "of each real process: " + joined(found.uncovered));
    if (mode == PrivatizeMode::On) {
        plan.lines.push_back("xsim: privatized " + std::to_string(program_bytes) + " bytes of globals per rank in " +
                             std::to_string(plan.segments.size() - libc.size()) + " segments of: " +
                             (found.covered.empty() ? std::string("(nothing)") : joined(found.covered)));
        if (!found.uncovered.empty()) plan.lines.push_back("xsim: left shared: " + joined(found.uncovered));
    }
    return plan;
}

}  // namespace xsim::runtime
