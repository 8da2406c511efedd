#include "libxsim/runtime/library_constructors.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>

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
#include "libxsim/runtime/library_search.hpp"

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
    void (*fini)() = nullptr;  // DT_FINI
    const ElfW(Addr)* fini_array = nullptr;
    std::size_t fini_count = 0;
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
    ElfW(Addr) array = 0, array_bytes = 0, fini_array = 0, fini_array_bytes = 0;
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
        // The loader does not relocate these in place (glibc adds the base when it runs them).
        if (d->d_tag == DT_INIT) lib.init = reinterpret_cast<ProgramConstructor>(info->dlpi_addr + d->d_un.d_ptr);
        if (d->d_tag == DT_INIT_ARRAY) array = d->d_un.d_ptr;
        if (d->d_tag == DT_INIT_ARRAYSZ) array_bytes = d->d_un.d_val;
        if (d->d_tag == DT_FINI) lib.fini = reinterpret_cast<void (*)()>(info->dlpi_addr + d->d_un.d_ptr);
        if (d->d_tag == DT_FINI_ARRAY) fini_array = d->d_un.d_ptr;
        if (d->d_tag == DT_FINI_ARRAYSZ) fini_array_bytes = d->d_un.d_val;
    }
    if (array != 0 && array_bytes >= sizeof(ElfW(Addr))) {
        lib.init_array = reinterpret_cast<const ElfW(Addr)*>(info->dlpi_addr + array);
        lib.init_count = array_bytes / sizeof(ElfW(Addr));
    }
    if (fini_array != 0 && fini_array_bytes >= sizeof(ElfW(Addr))) {
        lib.fini_array = reinterpret_cast<const ElfW(Addr)*>(info->dlpi_addr + fini_array);
        lib.fini_count = fini_array_bytes / sizeof(ElfW(Addr));
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

// The calling thread's block of thread-locals of the library loaded at `base` put back to the
// library's initial image (its PT_TLS: .tdata, then zeros), as a fresh load of the library
// would give the thread (the simulation thread's blocks are the ranks' images of them).
void reset_thread_locals(std::uintptr_t base) {
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* arg) {
            if (info->dlpi_addr != *static_cast<std::uintptr_t*>(arg) || !info->dlpi_tls_data) return 0;
            for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                if (ph.p_type != PT_TLS || ph.p_filesz > ph.p_memsz) continue;
                char* block = static_cast<char*>(info->dlpi_tls_data);
                std::memcpy(block, reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr), ph.p_filesz);
                std::memset(block + ph.p_filesz, 0, ph.p_memsz - ph.p_filesz);
            }
            return 1;
        },
        &base);
}

// What the loader calls to destroy `lib` (DT_FINI_ARRAY, last entry first, then DT_FINI).
std::vector<void (*)()> destructors_of(const Library& lib) {
    std::vector<void (*)()> out;
    for (std::size_t i = lib.fini_count; i-- > 0;) {
        const ElfW(Addr) entry = lib.fini_array[i];
        if (entry != 0 && entry != static_cast<ElfW(Addr)>(-1)) out.push_back(reinterpret_cast<void (*)()>(entry));
    }
    if (lib.fini) out.push_back(lib.fini);
    return out;
}

// The C library's __cxa_finalize (libxsim interposes it for the ranks: exit_interposition.cpp).
void finalize_for_process(void* dso_handle) {
    static const auto real = reinterpret_cast<void (*)(void*)>(dlsym(RTLD_NEXT, "__cxa_finalize"));
    if (real) real(dso_handle);
}

// The libraries `c` found, their process-level objects destroyed and their data reset;
// returns them in the loader's order of construction (empty, with `error` set, when a
// library's data cannot be reset).
std::vector<const Library*> unconstruct(const Collect& c, std::string& error) {
    const std::vector<const Library*> order = initialization_order(c.found);
    // The process's objects go as at its exit: the last constructed library first.
    for (auto it = order.rbegin(); it != order.rend(); ++it)
        for (std::size_t i = 0; i < g_handle_count; ++i)
            if (reinterpret_cast<std::uintptr_t>(loaded_object_base(g_handles[i])) == (*it)->base)
                finalize_for_process(g_handles[i]);
    for (const Library* lib : order) {
        const std::string why = reset_to_load_image(lib->names.path, lib->base);
        if (!why.empty()) {
            error = "cannot give each rank its own copy of " + lib->names.path + " as loaded: " + why;
            return {};
        }
    }
    return order;
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

// A library that a rank's dlopen made per rank, and its life in each local rank: natively
// each rank is a process with its own loader, whose reference counts say when the library
// is constructed and destroyed.
struct LoadedLibrary {
    LoadedObject names;
    std::uintptr_t base = 0;
    std::vector<ProgramConstructor> constructors;
    std::vector<void (*)()> destructors;  // in the order the loader runs them
    std::vector<std::size_t> needs;       // recorded libraries it needs (DT_NEEDED)
    bool no_delete = false;               // the loader never unloads it (dynamic_of_file)
    std::vector<std::uint8_t> state;      // by local rank: kConstructed, kPinned
    std::vector<std::uint32_t> opens;     // by local rank: its dlopen calls not yet closed
    // Its data as loaded (every rank's start), for a rank's copy after its last dlclose.
    std::vector<std::pair<char*, std::vector<char>>> load_image;
};
constexpr std::uint8_t kConstructed = 1;
constexpr std::uint8_t kPinned = 2;  // opened with RTLD_NODELETE
// Process-wide like the loader's own list of loaded objects (the images are per rank).
std::vector<LoadedLibrary> g_libraries;

bool constructed_by(std::size_t library, std::size_t local) {
    const std::vector<std::uint8_t>& state = g_libraries[library].state;
    return local < state.size() && (state[local] & kConstructed);
}

// Constructs recorded library `library` for local rank `local` (what it needs first), unless
// that rank has.
void construct_library(const Engine& engine, std::size_t library, std::size_t local) {
    if (local >= g_libraries[library].state.size() || constructed_by(library, local)) return;
    g_libraries[library].state[local] |= kConstructed;
    const std::vector<std::size_t> needs = g_libraries[library].needs;
    for (std::size_t needed : needs) construct_library(engine, needed, local);
    // A copy: a constructor may open a library, which records more.
    const std::vector<ProgramConstructor> constructors = g_libraries[library].constructors;
    engine.run_constructors(constructors);
}

// The live bytes of the data of the library in file `path` loaded at `base` (the ranges
// privatization covers), to put back later.
std::vector<std::pair<char*, std::vector<char>>> data_image(const std::string& path, std::uintptr_t base) {
    std::vector<std::pair<char*, std::vector<char>>> image;
    for (const Range& r : read_elf_data(path).data) {
        char* live = reinterpret_cast<char*>(base + r.begin);
        image.emplace_back(live, std::vector<char>(live, live + (r.end - r.begin)));
    }
    return image;
}

// The recorded library loaded from `path`, or g_libraries.size().
std::size_t recorded(const std::string& path) {
    for (std::size_t i = 0; i < g_libraries.size(); ++i)
        if (g_libraries[i].names.path == path) return i;
    return g_libraries.size();
}

}  // namespace

std::vector<ProgramConstructor> take_library_constructors(const std::vector<std::string>& per_rank_objects,
                                                          std::string& error) {
    Collect c;
    c.wanted = &per_rank_objects;
    dl_iterate_phdr(&collect, &c);
    std::vector<ProgramConstructor> constructors;
    for (const Library* lib : unconstruct(c, error)) append_constructors(*lib, constructors);
    return constructors;
}

bool prepare_loaded_libraries(const std::vector<std::string>& per_rank_objects, std::size_t local_ranks,
                              std::size_t loading, std::string& error) {
    Collect c;
    c.wanted = &per_rank_objects;
    dl_iterate_phdr(&collect, &c);
    if (c.found.empty()) return true;
    const std::size_t first = g_libraries.size();
    for (const Library& lib : c.found) {
        LoadedLibrary l;
        l.names = lib.names;
        l.base = lib.base;
        append_constructors(lib, l.constructors);
        l.destructors = destructors_of(lib);
        l.no_delete = dynamic_of_file(lib.names.path).no_delete;
        l.state.assign(local_ranks, 0);
        l.opens.assign(local_ranks, 0);
        g_libraries.push_back(std::move(l));
    }
    for (std::size_t i = first; i < g_libraries.size(); ++i)
        for (const std::string& n : g_libraries[i].names.needed)
            for (std::size_t j = 0; j < g_libraries.size(); ++j)
                if (j != i && is_named_by(g_libraries[j].names, n)) g_libraries[i].needs.push_back(j);
    // The loader's run stands as the loading rank's when what the new libraries need of the
    // recorded ones, that rank has constructed (construct_library constructs a library only
    // after those it needs).
    bool kept = true;
    for (std::size_t i = first; i < g_libraries.size(); ++i)
        for (std::size_t needed : g_libraries[i].needs) kept = kept && (needed >= first || constructed_by(needed, loading));
    if (kept) {
        // Its objects and exit handlers stay (no __cxa_finalize); only the data goes back to
        // the load-time image, the others' start.
        for (const Library* lib : initialization_order(c.found)) {
            reset_thread_locals(lib->base);
            const std::string why = reset_to_load_image(lib->names.path, lib->base);
            if (!why.empty()) {
                error = "cannot give each rank its own copy of " + lib->names.path + " as loaded: " + why;
                return true;
            }
        }
        if (loading < local_ranks)
            for (std::size_t i = first; i < g_libraries.size(); ++i) g_libraries[i].state[loading] |= kConstructed;
    } else {
        replay_deferred_exit_handlers();  // to the C library, for unconstruct to run them
        for (const Library* lib : unconstruct(c, error)) reset_thread_locals(lib->base);
        if (!error.empty()) return false;
    }
    for (std::size_t i = first; i < g_libraries.size(); ++i)
        g_libraries[i].load_image = data_image(g_libraries[i].names.path, g_libraries[i].base);
    return kept;
}

void construct_needed_before_load(const Engine& engine, const char* file, const std::string& caller,
                                  std::size_t local) {
    if (!file || !*file) return;
    bool pending = false;
    for (std::size_t i = 0; i < g_libraries.size() && !pending; ++i)
        pending = local < g_libraries[i].state.size() && !constructed_by(i, local);
    if (!pending) return;
    // The loaded objects, by name, as the loader matches a name before it searches.
    const std::vector<LoadedObject> loaded = loaded_object_names();
    // As the loader: a name that is a loaded object's path or soname, or a file that is one.
    const auto loaded_as = [&](const std::string& name) -> const LoadedObject* {
        for (const LoadedObject& o : loaded)
            if (answers_to(o, name)) return &o;
        return nullptr;
    };
    const auto loaded_file = [&](const std::string& path) -> const LoadedObject* {
        struct stat file;
        if (stat(path.c_str(), &file) != 0) return nullptr;
        for (const LoadedObject& o : loaded) {
            struct stat other;
            if (o.path == path ||
                (stat(o.path.c_str(), &other) == 0 && other.st_dev == file.st_dev && other.st_ino == file.st_ino))
                return &o;
        }
        return nullptr;
    };
    // The files the load will map (found as the loader searches), their DT_NEEDED entries
    // followed; the recorded libraries among the loaded ones they name are constructed.
    std::vector<std::string> visited;
    const std::function<void(const std::string&, const std::string&)> walk = [&](const std::string& name,
                                                                                 const std::string& from) {
        const LoadedObject* o = loaded_as(name);
        std::string path;
        if (!o) {
            path = find_library_file(name, from);
            if (path.empty()) return;
            o = loaded_file(path);
        }
        if (o) {
            const std::size_t i = recorded(o->path);
            if (i < g_libraries.size()) construct_library(engine, i, local);
            return;
        }
        if (std::find(visited.begin(), visited.end(), path) != visited.end()) return;
        visited.push_back(path);
        for (const std::string& needed : dynamic_of_file_cached(path).needed) walk(needed, path);
    };
    walk(file, caller);
}

void construct_loaded_libraries(const Engine& engine, const std::string& library, std::size_t local) {
    const std::size_t i = recorded(library);
    if (i < g_libraries.size()) construct_library(engine, i, local);
}

void note_rank_open(const std::string& library, std::size_t local, bool no_delete) {
    const std::size_t i = recorded(library);
    if (i >= g_libraries.size() || local >= g_libraries[i].opens.size()) return;
    ++g_libraries[i].opens[local];
    if (no_delete) g_libraries[i].state[local] |= kPinned;
}

RankLoad loaded_in_rank(const std::string& library, std::size_t local) {
    const std::size_t i = recorded(library);
    if (i >= g_libraries.size()) return RankLoad::NotRecorded;
    return constructed_by(i, local) ? RankLoad::Loaded : RankLoad::NotLoaded;
}

RankLoad close_in_rank(const std::string& library, std::size_t local) {
    const std::size_t closed = recorded(library);
    if (closed >= g_libraries.size()) return RankLoad::NotRecorded;
    if (local >= g_libraries[closed].opens.size() || g_libraries[closed].opens[local] == 0) return RankLoad::NotLoaded;
    if (g_libraries[closed].opens[local] > 1) {
        --g_libraries[closed].opens[local];
        return RankLoad::Loaded;
    }
    // What the rank holds: the libraries it has open or may not unload, and what they need;
    // what it held before this dlclose and holds no more goes (not a library constructed for
    // the rank some other way: needed by one that is not per rank).
    const std::size_t count = g_libraries.size();
    const auto held = [&] {
        std::vector<bool> live(count, false);
        const std::function<void(std::size_t)> hold = [&](std::size_t i) {
            if (live[i]) return;
            live[i] = true;
            for (std::size_t needed : g_libraries[i].needs) hold(needed);
        };
        for (std::size_t i = 0; i < count; ++i)
            if (constructed_by(i, local) &&
                (g_libraries[i].opens[local] > 0 || g_libraries[i].no_delete || (g_libraries[i].state[local] & kPinned)))
                hold(i);
        return live;
    };
    const std::vector<bool> before = held();
    --g_libraries[closed].opens[local];
    const std::vector<bool> live = held();
    const auto goes = [&](std::size_t i) { return before[i] && !live[i]; };
    // The others it has constructed go, a library before those it needs, as the loader
    // unloads: their destructors run (the library's own calls __cxa_finalize, which runs the
    // rank's exit handlers of that library), and the rank's image of their data goes back to
    // the load-time one, for a later dlopen to construct afresh.
    std::vector<std::size_t> order;  // what is needed first
    std::vector<bool> placed(count, false);
    const std::function<void(std::size_t)> place = [&](std::size_t i) {
        if (placed[i]) return;
        placed[i] = true;
        for (std::size_t needed : g_libraries[i].needs)
            if (goes(needed)) place(needed);
        order.push_back(i);
    };
    for (std::size_t i = count; i-- > 0;)
        if (goes(i)) place(i);
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const std::vector<void (*)()> destructors = g_libraries[*it].destructors;
        for (void (*destroy)() : destructors) destroy();
        g_libraries[*it].state[local] &= static_cast<std::uint8_t>(~kConstructed);
        reset_thread_locals(g_libraries[*it].base);
        for (const auto& [live, bytes] : g_libraries[*it].load_image) std::memcpy(live, bytes.data(), bytes.size());
    }
    return RankLoad::Loaded;
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
