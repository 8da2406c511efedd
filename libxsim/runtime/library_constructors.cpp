#include "libxsim/runtime/library_constructors.hpp"

#include <link.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "libxsim/rank_state/elf_file.hpp"
#include "libxsim/rank_state/load_image.hpp"
#include "libxsim/rank_state/privatization.hpp"
#include "libxsim/runtime/executable_inspection.hpp"

extern "C" void __cxa_finalize(void* dso_handle);
extern "C" int __cxa_atexit(void (*function)(void*), void* arg, void* dso_handle) noexcept;

namespace xsim::runtime {
namespace {

// Plain storage (no constructor): the loader's constructors register exit handlers before
// libxsim's own constructors may have run.
constexpr std::size_t kMaxHandles = 1024;
void* g_handles[kMaxHandles];
std::size_t g_handle_count;

struct Library {
    LoadedObject names;  // path, soname, needed
    std::uintptr_t base = 0;
    ProgramConstructor init = nullptr;  // DT_INIT
    const ElfW(Addr)* init_array = nullptr;
    std::size_t init_count = 0;
};

struct Collect {
    const std::vector<std::string>* wanted = nullptr;
    std::vector<Library> found;  // in load order
    bool first = true;
};

int collect(dl_phdr_info* info, std::size_t, void* arg) {
    Collect& c = *static_cast<Collect*>(arg);
    if (std::exchange(c.first, false) || !info->dlpi_name || !*info->dlpi_name) return 0;  // the executable
    if (std::find(c.wanted->begin(), c.wanted->end(), info->dlpi_name) == c.wanted->end()) return 0;
    Library lib;
    lib.names = describe_loaded_object(info, info->dlpi_name);
    lib.base = info->dlpi_addr;
    const ElfW(Dyn)* dynamic = dynamic_section(info);
    if (!dynamic) return 0;
    ElfW(Addr) array = 0, array_bytes = 0;
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
        // The loader does not relocate these two in place (glibc adds the base when it runs them).
        if (d->d_tag == DT_INIT) lib.init = reinterpret_cast<ProgramConstructor>(info->dlpi_addr + d->d_un.d_ptr);
        if (d->d_tag == DT_INIT_ARRAY) array = d->d_un.d_ptr;
        if (d->d_tag == DT_INIT_ARRAYSZ) array_bytes = d->d_un.d_val;
    }
    if (array != 0 && array_bytes >= sizeof(ElfW(Addr))) {
        lib.init_array = reinterpret_cast<const ElfW(Addr)*>(info->dlpi_addr + array);
        lib.init_count = array_bytes / sizeof(ElfW(Addr));
    }
    c.found.push_back(std::move(lib));
    return 0;
}

// The loader's initialization order: a library after those it needs; otherwise the last
// loaded first.
std::vector<const Library*> initialization_order(const std::vector<Library>& libs) {
    std::vector<const Library*> order;
    std::vector<int> state(libs.size(), 0);  // 0 unvisited, 1 in progress (a cycle), 2 placed
    const std::function<void(std::size_t)> place = [&](std::size_t i) {
        if (state[i] != 0) return;
        state[i] = 1;
        for (const std::string& needed : libs[i].names.needed)
            for (std::size_t j = 0; j < libs.size(); ++j)
                if (is_named_by(libs[j].names, needed)) place(j);
        state[i] = 2;
        order.push_back(&libs[i]);
    };
    for (std::size_t i = libs.size(); i-- > 0;) place(i);
    return order;
}

}  // namespace

void note_process_exit_handle(void* dso_handle) {
    if (!dso_handle) return;
    for (std::size_t i = 0; i < g_handle_count; ++i)
        if (g_handles[i] == dso_handle) return;
    if (g_handle_count < kMaxHandles) g_handles[g_handle_count++] = dso_handle;
}

namespace {

// What the loader calls to construct `lib` (DT_INIT, then DT_INIT_ARRAY), appended to `out`.
void append_constructors(const Library& lib, std::vector<ProgramConstructor>& out) {
    if (lib.init) out.push_back(lib.init);
    for (std::size_t i = 0; i < lib.init_count; ++i) {
        const ElfW(Addr) entry = lib.init_array[i];
        if (entry != 0 && entry != static_cast<ElfW(Addr)>(-1)) out.push_back(reinterpret_cast<ProgramConstructor>(entry));
    }
}

// The libraries among `per_rank_objects`, their process-level objects destroyed and their data
// reset; returns their constructors in the loader's order (and the libraries, in `members`).
std::vector<ProgramConstructor> unconstruct(const std::vector<std::string>& per_rank_objects, std::string& error,
                                            std::vector<LoadedObject>* members = nullptr) {
    Collect c;
    c.wanted = &per_rank_objects;
    dl_iterate_phdr(&collect, &c);
    const std::vector<const Library*> order = initialization_order(c.found);
    // The process's objects go as at its exit: the last constructed library first.
    for (auto it = order.rbegin(); it != order.rend(); ++it)
        for (std::size_t i = 0; i < g_handle_count; ++i)
            if (reinterpret_cast<std::uintptr_t>(loaded_object_base(g_handles[i])) == (*it)->base)
                __cxa_finalize(g_handles[i]);
    std::vector<ProgramConstructor> constructors;
    for (const Library* lib : order) {
        const std::string why = reset_to_load_image(lib->names.path, lib->base);
        if (!why.empty()) {
            error = "cannot give each rank its own copy of " + lib->names.path + " as loaded: " + why;
            return {};
        }
        if (members) members->push_back(lib->names);
        append_constructors(*lib, constructors);
    }
    return constructors;
}

// Exit handlers registered while a rank's dlopen runs the new libraries' constructors
// (begin_rank_load). Per thread: the loader's lock makes one load at a time, and the thread
// that loads is the one whose __cxa_atexit calls are deferred.
struct DeferredExit {
    void (*function)(void*);
    void* arg;
    void* dso_handle;
};
// In malloc'ed memory, not a std::vector: a program may replace operator new (FreeFem++
// counts its allocations, and reports what is not freed at its end).
thread_local std::size_t t_load_depth;
thread_local bool t_replaying;
thread_local DeferredExit* t_deferred;
thread_local std::size_t t_deferred_count;
thread_local std::size_t t_deferred_capacity;

void replay_deferred_exit_handlers() {
    if (t_replaying || t_deferred_count == 0) return;
    t_replaying = true;  // registered again, each goes where the interposer puts it now
    for (std::size_t i = 0; i < t_deferred_count; ++i)
        __cxa_atexit(t_deferred[i].function, t_deferred[i].arg, t_deferred[i].dso_handle);
    t_deferred_count = 0;
    t_replaying = false;
}

// The libraries one dlopen of a rank made per rank, and which local ranks have constructed them.
struct LoadedGroup {
    std::vector<LoadedObject> members;
    std::vector<ProgramConstructor> constructors;
    std::vector<std::size_t> needs;  // earlier groups holding a library its members need
    std::vector<bool> constructed;   // by local rank
};
// Process-wide like the loader's own list of loaded objects (the images are per rank).
std::vector<LoadedGroup> g_loaded_groups;

void construct_group(const Engine& engine, std::size_t group, std::size_t local) {
    LoadedGroup& g = g_loaded_groups[group];
    if (local >= g.constructed.size() || g.constructed[local]) return;
    g.constructed[local] = true;
    for (std::size_t needed : g.needs) construct_group(engine, needed, local);
    engine.run_constructors(g.constructors);
}

}  // namespace

std::vector<ProgramConstructor> take_library_constructors(const std::vector<std::string>& per_rank_objects,
                                                          std::string& error) {
    return unconstruct(per_rank_objects, error);
}

bool prepare_loaded_libraries(const std::vector<std::string>& per_rank_objects, std::size_t local_ranks,
                              std::size_t loading, std::string& error) {
    Collect c;
    c.wanted = &per_rank_objects;
    dl_iterate_phdr(&collect, &c);
    LoadedGroup g;
    for (const Library& lib : c.found) g.members.push_back(lib.names);
    if (g.members.empty()) return true;
    for (std::size_t earlier = 0; earlier < g_loaded_groups.size(); ++earlier) {
        bool needed = false;
        for (const LoadedObject& m : g.members)
            for (const std::string& n : m.needed)
                for (const LoadedObject& o : g_loaded_groups[earlier].members) needed = needed || is_named_by(o, n);
        if (needed) g.needs.push_back(earlier);
    }
    // A recorded group is constructed by a rank only after those it needs (construct_group).
    bool kept = true;
    for (std::size_t needed : g.needs) {
        const std::vector<bool>& done = g_loaded_groups[needed].constructed;
        kept = kept && loading < done.size() && done[loading];
    }
    if (kept) {
        // The loader's run stands as the loading rank's: its objects and exit handlers stay
        // (no __cxa_finalize); only the data goes back to the load-time image, the others' start.
        for (const Library* lib : initialization_order(c.found)) {
            const std::string why = reset_to_load_image(lib->names.path, lib->base);
            if (!why.empty()) {
                error = "cannot give each rank its own copy of " + lib->names.path + " as loaded: " + why;
                return true;
            }
            append_constructors(*lib, g.constructors);
        }
    } else {
        replay_deferred_exit_handlers();  // to the C library, for unconstruct to run them
        g.members.clear();
        g.constructors = unconstruct(per_rank_objects, error, &g.members);
        if (!error.empty()) return false;
    }
    g.constructed.assign(local_ranks, false);
    if (kept && loading < local_ranks) g.constructed[loading] = true;
    g_loaded_groups.push_back(std::move(g));
    return kept;
}

void construct_needed_before_load(const Engine& engine, const char* file, std::size_t local) {
    if (!file || !std::strchr(file, '/')) return;  // found by the loader's search: not looked for
    bool pending = false;
    for (const LoadedGroup& g : g_loaded_groups) pending = pending || (local < g.constructed.size() && !g.constructed[local]);
    if (!pending) return;
    for (const std::string& needed : needed_libraries_of_file(file))
        for (std::size_t group = 0; group < g_loaded_groups.size(); ++group)
            for (const LoadedObject& m : g_loaded_groups[group].members)
                if (is_named_by(m, needed)) construct_group(engine, group, local);
}

void construct_loaded_libraries(const Engine& engine, const std::string& library, std::size_t local) {
    for (std::size_t group = 0; group < g_loaded_groups.size(); ++group)
        for (const LoadedObject& m : g_loaded_groups[group].members)
            if (m.path == library) construct_group(engine, group, local);
}

void begin_rank_load() { ++t_load_depth; }

bool defer_exit_handler(void (*function)(void*), void* arg, void* dso_handle) {
    if (t_load_depth == 0 || t_replaying) return false;
    if (t_deferred_count == t_deferred_capacity) {
        const std::size_t capacity = t_deferred_capacity ? 2 * t_deferred_capacity : 16;
        void* grown = std::realloc(t_deferred, capacity * sizeof(DeferredExit));
        if (!grown) return false;  // registered at once, as without a load under way
        t_deferred = static_cast<DeferredExit*>(grown);
        t_deferred_capacity = capacity;
    }
    t_deferred[t_deferred_count++] = {function, arg, dso_handle};
    return true;
}

void end_rank_load() {
    if (t_load_depth == 0 || --t_load_depth > 0) return;
    replay_deferred_exit_handlers();
}

}  // namespace xsim::runtime
