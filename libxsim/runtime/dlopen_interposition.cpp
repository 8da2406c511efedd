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
// program's own functions (an extension module calls the Python interpreter's). Such a
// library stays loaded in the process (other ranks' images of it live on), but its life in a
// rank follows that rank's own dlopen and dlclose calls, counted per rank as the loader of
// its own process would: the rank's last dlclose runs its destructors and exit handlers in
// that rank and gives the rank a fresh copy for a later dlopen, and dlopen(RTLD_NOLOAD) finds
// it only in a rank that has it loaded.
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
#include "libxsim/runtime/library_search.hpp"
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

// The path the loader gave the object `handle` opens, or empty.
std::string loaded_name(void* handle) {
    link_map* map = nullptr;
    return handle && dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name ? map->l_name : std::string();
}

}  // namespace

extern "C" void* dlopen(const char* file, int mode) noexcept {
    static const auto real = runtime::next_function<Open>("dlopen");
    const Rank* rank = application_rank();
    if (!rank || !file) return real(file, mode);
    const std::string caller = runtime::loaded_object_path_of(__builtin_return_address(0));
    // A bare name is searched from the program's object that calls, as natively (the real
    // dlopen would search from libxsim's): opened by the path found, when it is not loaded.
    std::string found;
    if (!std::strchr(file, '/') && !runtime::names_loaded_object(file)) found = runtime::find_library_file(file, caller);
    const char* open_as = found.empty() ? file : found.c_str();
    const std::vector<const void*> known = runtime::loaded_objects();
    const bool privatized = g_engine->privatization().active();
    const std::size_t local = g_engine->local_index(*rank);
    if (privatized && !(mode & RTLD_NOLOAD)) {
        // What the load needs from libraries another rank loaded, constructed first.
        runtime::construct_needed_before_load(*g_engine, open_as, caller, local);
        runtime::begin_rank_load();  // the new libraries' exit handlers, kept aside
    }
    void* handle = real(open_as, mode);
    if (handle && runtime::loaded_objects().size() != known.size()) {
        runtime::bind_own_definitions(known);  // before the load-time image is taken
        if (privatized) privatize_loaded_since(known, *rank);
    }
    if (!privatized) return handle;
    const std::string name = loaded_name(handle);
    if (mode & RTLD_NOLOAD) {
        // Natively another rank's load is another process's: not found here.
        if (runtime::loaded_in_rank(name, local) == runtime::RankLoad::NotLoaded) return nullptr;
    } else {
        runtime::end_rank_load();  // now the rank's when for a per-rank library
        if (!name.empty()) runtime::construct_loaded_libraries(*g_engine, name, local);
    }
    if (!name.empty()) runtime::note_rank_open(name, local, (mode & RTLD_NODELETE) != 0);
    return handle;
}

// A library with per-rank globals stays loaded in the process (other ranks' images of it live
// on); the rank's last dlclose of one it opened destroys the rank's copy (close_in_rank).
extern "C" int dlclose(void* handle) noexcept {
    using Close = int (*)(void*);
    static const auto real = runtime::next_function<Close>("dlclose");
    const Rank* rank = application_rank();
    if (!rank || !g_engine->privatization().active() || !per_rank_library(handle)) return real(handle);
    const std::string name = loaded_name(handle);
    const runtime::RankLoad closed = runtime::close_in_rank(name, g_engine->local_index(*rank));
    if (closed != runtime::RankLoad::NotLoaded) return 0;
    // Natively the C library's "shared object not open".
    std::fprintf(stderr, "xsim: warning: simulated rank %lld called dlclose on %s, which it does not have open\n",
                 static_cast<long long>(rank->world), name.c_str());
    return -1;
}
