// The library loaded_exit_handlers.cpp opens with dlopen in every rank (as Python opens a C++
// extension module and the libraries it needs: DOLFINx's libdolfinx). Its C++ statics are
// destroyed by exit handlers that __cxa_atexit registers: a global, constructed when the library
// is constructed, and a function-local static, constructed by each rank on first use. Each is
// the rank's (per-rank globals), so its destructor must run once per rank, on the rank's copy,
// when the rank ends: twice, or on another rank's copy, is a double free.
//
// The global is a std::vector<std::pair<std::string, std::string>> on purpose: libxsim exports
// that instance of the destructor, and the loader binds this library's call to it there when
// libxsim is preloaded (see exit_interposition.cpp, in_libxsim).
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace {

std::vector<std::pair<std::string, std::string>> g_names = {
    {"a key longer than the small-string buffer", "a value longer than the small-string buffer"},
    {"another key longer than the small buffer", "another value longer than the small buffer"}};

struct RankReport {
    int rank = -1;
    std::map<int, std::string> names;
    ~RankReport() {
        bool ok = names.size() == 1 && names.count(rank) == 1 && names[rank] == "rank " + std::to_string(rank) &&
                  g_names.size() == 2;
        std::printf("%s rank %d\n", ok ? "LOADED_DTOR ok" : "FAIL loaded_exit_handlers: a static of another rank at",
                    rank);
        std::fflush(stdout);
    }
};

RankReport& report() {
    static RankReport r;  // constructed by each rank on first use
    return r;
}

}  // namespace

extern "C" int plugin_use(int rank) {
    RankReport& r = report();
    if (r.rank != -1 || !r.names.empty() || g_names.size() != 2) return 0;  // another rank's
    r.rank = rank;
    r.names[rank] = "rank " + std::to_string(rank);
    g_names.push_back({"rank", std::to_string(rank)});
    g_names.pop_back();
    return 1;
}
