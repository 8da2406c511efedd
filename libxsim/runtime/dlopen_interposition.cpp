// Libraries a simulated rank loads with dlopen (Python's extension modules: numpy, mpi4py;
// a program's plugins) get per-rank globals, as the libraries loaded at start-up do: their
// globals are per process natively, and an interpreter's extension module keeps objects of
// the interpreter (per rank here) in them. The library loads once per real process, and the
// loader's run of its constructors, in the loading rank (its globals loaded), is that rank's
// construction, with the exit handlers they register (kept aside during the load, then the
// rank's: runtime/library_constructors.hpp); the library's globals as the loader relocated
// them, before its constructors, become every other rank's initial image
// (rank_state/privatization.hpp, add_loaded_library), and each other rank runs its
// constructors at its own dlopen. Run again in the loading rank, they registered a plugin
// twice in the program's tables (FreeFem++'s "always load (skip)"). Of the libraries in the system directories only those that are part
// of the program are per rank: built on MPI (a DT_NEEDED libmpi), or plugins that call the
// program's own functions (an extension module calls the Python interpreter's). dlclose of
// such a library leaves it loaded: other ranks' images of it live on.
#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/executable_inspection.hpp"
#include "libxsim/runtime/library_constructors.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/runtime/own_definitions.hpp"
#include "libxsim/runtime/requested_libraries.hpp"

using namespace xsim;

namespace {

using Open = void* (*)(const char*, int);

// A library whose globals are per rank (loaded at start-up or by a rank).
bool per_rank_library(void* handle) {
    link_map* map = nullptr;
    return dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && g_engine->privatization().in_privatized_library(map->l_ld);
}

void privatize_loaded_since(const std::vector<const void*>& known, const Rank& rank) {
    runtime::Discovery found = runtime::discover_loaded(known, &runtime::per_rank_when_loaded);
    runtime::Privatization& privatization = g_engine->privatization();
    std::string why;
    if (!found.segments.empty()) {
        // The loader has constructed the new libraries in the loading rank: its image of them.
        std::vector<std::vector<char>> constructed;
        for (const runtime::Segment& s : found.segments) constructed.emplace_back(s.start, s.start + s.bytes);
        const std::vector<runtime::Segment> segments = found.segments;
        // Their data goes back to the load-time image, the other ranks' start.
        const bool kept = runtime::prepare_loaded_libraries(
            found.covered, static_cast<std::size_t>(g_engine->local_count()), g_engine->local_index(rank), why);
        if (!why.empty()) g_engine->abort_run(1, why);
        why = privatization.add_loaded_library(std::move(found.segments), found.covered);
        // The loading rank goes on with its construction (the live image is its own).
        if (kept)
            for (std::size_t i = 0; i < segments.size(); ++i)
                std::memcpy(segments[i].start, constructed[i].data(), segments[i].bytes);
    }
    if (!why.empty())
        for (const std::string& name : found.covered) found.uncovered.push_back(name + " (" + why + ")");
    for (const std::string& what : found.uncovered)
        std::fprintf(stderr,
                     "xsim: warning: simulated rank %lld loaded %s: what is not per rank of it is shared by the ranks "
                     "of each real process\n",
                     static_cast<long long>(rank.world), what.c_str());
}

}  // namespace

extern "C" void* dlopen(const char* file, int mode) noexcept {
    static const auto real = runtime::next_function<Open>("dlopen");
    const Rank* rank = application_rank();
    if (!rank || !file) return real(file, mode);
    const std::vector<const void*> known = runtime::loaded_objects();
    const bool privatized = g_engine->privatization().active();
    if (privatized) {
        // What the file needs from libraries another rank loaded, constructed first.
        runtime::construct_needed_before_load(*g_engine, file, g_engine->local_index(*rank));
        runtime::begin_rank_load();  // the new libraries' exit handlers, kept aside
    }
    void* handle = real(file, mode);
    if (handle && runtime::loaded_objects().size() != known.size()) {
        runtime::bind_own_definitions(known);  // before the load-time image is taken
        if (privatized) privatize_loaded_since(known, *rank);
    }
    if (!privatized) return handle;
    runtime::end_rank_load();  // now the rank's when for a per-rank library
    link_map* map = nullptr;
    if (handle && !(mode & RTLD_NOLOAD) && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
        runtime::construct_loaded_libraries(*g_engine, map->l_name, g_engine->local_index(*rank));
    return handle;
}

extern "C" int dlclose(void* handle) noexcept {
    using Close = int (*)(void*);
    static const auto real = runtime::next_function<Close>("dlclose");
    if (application_rank() && g_engine->privatization().active() && per_rank_library(handle)) return 0;
    return real(handle);
}
