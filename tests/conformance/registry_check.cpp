// Checks the algorithm registry against the list the CTest matrix forces (passed as
// arguments "collective:program:algo1,algo2,..."): every listed algorithm exists, every algorithm
// of the library (but "analytic", tested separately) is listed, and set_forced_algorithm
// rejects unknown names with the valid ones. After `--files`, the names of colls/'s source
// files: every algorithm file (<collective>_<algorithm>.cpp) must have registered its
// algorithm for that collective (XSIM_REGISTER_ALGORITHM), and every collective with a
// message-level algorithm has an analytic one.
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "libxsim/colls/collective_kind.hpp"
#include "libxsim/colls/entry.hpp"
#include "libxsim/engine/engine.hpp"
#include "netmodels/machine.hpp"

namespace {

int failures = 0;
// Forced choices belong to an engine (one per real process).
xsim::Engine* engine = nullptr;

void expect(bool ok, const std::string& what) {
    if (ok) return;
    std::printf("FAIL registry_check: %s\n", what.c_str());
    ++failures;
}

bool throws_mentioning(const std::string& coll, const std::string& algo, const std::string& needle) {
    try {
        xsim::colls::set_forced_algorithm(*engine, coll, algo);
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()).find(needle) != std::string::npos;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    xsim::Engine one_rank({}, {1, 0, 1}, xsim::net::load_machine({}, 1));
    engine = &one_rank;
    std::set<std::string> tested, library, analytic;
    std::vector<std::string> files;
    int i = 1;
    for (; i < argc && std::string(argv[i]) != "--files"; ++i) {
        const std::string entry = argv[i];
        const std::string coll = entry.substr(0, entry.find(':'));
        const std::string rest = entry.substr(entry.rfind(':') + 1);
        for (std::size_t at = 0; at <= rest.size();) {
            const std::size_t comma = std::min(rest.find(',', at), rest.size());
            tested.insert(coll + " " + rest.substr(at, comma - at));
            at = comma + 1;
        }
    }
    for (++i; i < argc; ++i) files.push_back(argv[i]);
    for (const auto& l : xsim::colls::list_algorithms()) {
        expect(!l.description.empty(), l.collective + " " + l.algorithm + " has no description");
        if (l.algorithm != "analytic") library.insert(l.collective + " " + l.algorithm);
        else analytic.insert(l.collective);
    }
    for (const auto& l : library) {
        const std::string coll = l.substr(0, l.find(' '));
        if (coll.rfind("neighbor_", 0) != 0) expect(analytic.count(coll) == 1, coll + " has no analytic algorithm");
    }
    expect(!files.empty(), "no colls/ source files were passed after --files");
    int algorithm_files = 0;
    for (const std::string& file : files) {
        // The collective is the longest key the name starts with ("reduce_scatter_ring"
        // is reduce_scatter's ring, not reduce's); "neighbor_" names all five neighbor ones.
        std::string coll;
        for (int k = 1; k < xsim::colls::kCollKindCount; ++k) {
            std::string key = xsim::colls::kCollNames[k].key;
            if (key.rfind("neighbor_", 0) == 0) key = "neighbor";
            if (file.rfind(key + "_", 0) == 0 && key.size() > coll.size()) coll = key;
        }
        if (coll.empty() || file.size() < 4 || file.substr(file.size() - 4) != ".cpp") continue;
        ++algorithm_files;
        const std::string algo = file.substr(coll.size() + 1, file.size() - coll.size() - 5);
        bool registered = false;
        for (const auto& l : xsim::colls::list_algorithms())
            if (l.algorithm == algo &&
                (l.collective == coll || (coll == "neighbor" && l.collective.rfind("neighbor_", 0) == 0)))
                registered = true;
        expect(registered, "colls/" + file + " did not register '" + algo + "' for " + coll +
                               " (XSIM_REGISTER_ALGORITHM next to its definition)");
    }
    for (const auto& t : tested) expect(library.count(t) == 1, "tested algorithm '" + t + "' is not in the library");
    for (const auto& l : library) expect(tested.count(l) == 1, "algorithm '" + l + "' has no forced test");

    expect(throws_mentioning("allreduce", "fastest",
                             "valid: auto, linear, rabenseifner, recursive_doubling, ring, analytic"),
           "an unknown algorithm is rejected with the valid names");
    expect(throws_mentioning("allreduse", "ring", "valid: barrier, bcast"), "an unknown collective is rejected");
    try {
        xsim::colls::set_forced_algorithm(*engine, "allreduce", "ring");
        xsim::colls::set_forced_algorithm(*engine, "allreduce", "auto");
        xsim::colls::set_forced_algorithm(*engine, "scan", "");
    } catch (const std::exception& e) {
        expect(false, std::string("valid choices were rejected: ") + e.what());
    }
    const std::string text = xsim::colls::describe_algorithms();
    expect(text.find("allreduce rabenseifner") != std::string::npos, "describe_algorithms lists allreduce rabenseifner");
    if (failures == 0)
        std::printf("PASS registry_check (%zu algorithms, %d algorithm files)\n", library.size(), algorithm_files);
    return failures == 0 ? 0 : 1;
}
