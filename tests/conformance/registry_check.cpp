// Checks the algorithm registry against the list the CTest matrix forces (passed as
// arguments "collective:program:algo1,algo2,..."): every listed algorithm exists, every algorithm
// of the library (but "analytic", tested separately) is listed, and set_forced_algorithm
// rejects unknown names with the valid ones.
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>

#include "libxsim/colls/collectives.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
    if (ok) return;
    std::printf("FAIL registry_check: %s\n", what.c_str());
    ++failures;
}

bool throws_mentioning(const std::string& coll, const std::string& algo, const std::string& needle) {
    try {
        xsim::colls::set_forced_algorithm(coll, algo);
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()).find(needle) != std::string::npos;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    std::set<std::string> tested, library;
    for (int i = 1; i < argc; ++i) {
        const std::string entry = argv[i];
        const std::string coll = entry.substr(0, entry.find(':'));
        const std::string rest = entry.substr(entry.rfind(':') + 1);
        for (std::size_t at = 0; at <= rest.size();) {
            const std::size_t comma = std::min(rest.find(',', at), rest.size());
            tested.insert(coll + " " + rest.substr(at, comma - at));
            at = comma + 1;
        }
    }
    for (const auto& l : xsim::colls::list_algorithms()) {
        expect(!l.description.empty(), l.collective + " " + l.algorithm + " has no description");
        if (l.algorithm != "analytic") library.insert(l.collective + " " + l.algorithm);
    }
    for (const auto& t : tested) expect(library.count(t) == 1, "tested algorithm '" + t + "' is not in the library");
    for (const auto& l : library) expect(tested.count(l) == 1, "algorithm '" + l + "' has no forced test");

    expect(throws_mentioning("allreduce", "fastest", "valid: auto, recursive_doubling"),
           "an unknown algorithm is rejected with the valid names");
    expect(throws_mentioning("allreduse", "ring", "valid: barrier, bcast"), "an unknown collective is rejected");
    try {
        xsim::colls::set_forced_algorithm("allreduce", "ring");
        xsim::colls::set_forced_algorithm("allreduce", "auto");
        xsim::colls::set_forced_algorithm("scan", "");
    } catch (const std::exception& e) {
        expect(false, std::string("valid choices were rejected: ") + e.what());
    }
    const std::string text = xsim::colls::describe_algorithms();
    expect(text.find("allreduce rabenseifner") != std::string::npos, "describe_algorithms lists allreduce rabenseifner");
    if (failures == 0) std::printf("PASS registry_check (%zu algorithms)\n", library.size());
    return failures == 0 ? 0 : 1;
}
