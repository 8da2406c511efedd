#include "libxsim/runtime/requested_libraries.hpp"

#include <algorithm>

#include "libxsim/rank_state/privatization.hpp"
#include "libxsim/runtime/executable_inspection.hpp"

namespace xsim::runtime {
namespace {

// Set once at start-up, before any rank runs; read by the loader hooks.
std::vector<std::string> g_requested;

}  // namespace

std::string request_per_rank_libraries(const std::vector<std::string>& names, std::vector<std::string>* unmatched) {
    g_requested = names;
    for (const std::string& name : names) {
        const NamedLibraries named = find_named_system_libraries(name);
        if (!named.refused.empty())
            return "-xsim-privatize-libs: " + name + " names " + named.refused.front() +
                   ", which cannot be per rank: xsim itself runs on it (the MPI library, what it loaded for itself, and what they, or xsim, need)";
        if (named.found.empty() && unmatched) unmatched->push_back(name);
    }
    return {};
}

bool requested_per_rank(const std::string& path) {
    return std::any_of(g_requested.begin(), g_requested.end(),
                       [&](const std::string& name) { return library_has_name(path, name); });
}

bool per_rank_at_start(const std::string& path) { return is_interpreter_library(path) || requested_per_rank(path); }

bool per_rank_when_loaded(const std::string& path) { return imports_from_program(path) || requested_per_rank(path); }

}  // namespace xsim::runtime
