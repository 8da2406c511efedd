// exit() called by a simulated rank ends that rank, not the real process: after
// MPI_Finalize (or before MPI_Init) with status 0 the rank simply finishes; any other
// exit ends the whole simulation with a message naming the rank, as a real MPI job would.
//
// Exit handlers that a rank's code registers for its own globals are the rank's: each real
// process of a native run would call them once, on its own copy. Registered with the C
// library, the handlers of all the ranks of a process would run at its exit on one rank's
// globals: the destructor of a function-local `static std::vector` once per rank on the
// same vector (a double free; LLNL Quicksilver), an atexit() cleanup once per rank on rank
// 0's data. So __cxa_atexit (atexit() calls it too, from libc_nonshared) called from a
// rank's application code, for an object in its privatized globals or a function of the
// program or of a privatized library (a library of the program's own, PETSc), keeps the
// handler with the rank (rank_state/libc_rank_state.hpp); the engine calls them when the
// rank ends. Other registrations (static constructors before the first
// rank, libraries whose state all ranks share) go to the C library as before. An MPI call
// registered as an exit handler (`atexit((void (*)())MPI_Finalize)`: IQ-TREE's way to
// finalize) is the rank's too, with or without privatization: natively it runs at its
// process's exit, here when the rank returns from main; at the process's exit it ran outside
// every rank, after the rank had been stopped for returning without MPI_Finalize.

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/executable_inspection.hpp"
#include "libxsim/runtime/library_constructors.hpp"
#include "libxsim/runtime/next_function.hpp"

using namespace xsim;

extern "C" void exit(int status) noexcept {
    if (Rank* running = application_rank()) {
        Rank& rank = *running;
        if (g_engine->in_forked_child()) [[unlikely]]
            g_engine->end_forked_child(rank, status);  // a fork()ed child's exit is its own
        // The rank's exit handlers first, as exit() runs them natively: one may be MPI_Finalize.
        if (status == 0 && rank.phase == MpiPhase::Initialized)
            g_engine->libc_state().run_exit_handlers(g_engine->local_index(rank));
        if (status == 0 && rank.phase != MpiPhase::Initialized) g_engine->finish_current_rank(0);
        char when[64];
        std::snprintf(when, sizeof when, "%.9f", simtime_to_seconds(rank.clock));
        g_engine->abort_run(status == 0 ? 1 : status,
                            "simulated rank " + std::to_string(rank.world) + " called exit(" + std::to_string(status) +
                                ")" + (rank.phase == MpiPhase::Initialized ? " without calling MPI_Finalize" : "") +
                                " at virtual time " + when + " s; ending the simulation",
                            RunEnd::Exit);
    }
    static const auto real_exit = runtime::next_function<void (*)(int)>("exit");
    real_exit(status);
    __builtin_unreachable();
}

namespace {

// True when `function` lies in the same loaded object as the program's main, or in a library
// whose globals are per rank.
bool in_program(void (*function)(void*)) {
    const void* code = reinterpret_cast<void*>(function);
    return in_program_object(code) || g_engine->privatization().in_privatized_library(code);
}

// True when `function` is one of libxsim's MPI entry points (`MPI_Finalize`, `mpi_finalize_`,
// ... the program passed). Not any function of libxsim: the C++ template instances libxsim
// exports (`std::vector<std::pair<std::string, std::string>>::~vector`) are what the loader
// binds a library's own static destructors to when libxsim is preloaded, and such a handler,
// registered while the loader constructs a library a rank opens with dlopen, belongs to the C
// library (its object is the process's, destroyed before the ranks construct their own):
// kept with the rank too, the rank's object was destroyed twice at its end (DOLFINx).
bool in_libxsim(void (*function)(void*)) {
    static const void* const own_base = loaded_object_base(reinterpret_cast<void*>(&in_libxsim));
    Dl_info it{};
    if (!own_base || !dladdr(reinterpret_cast<void*>(function), &it) || it.dli_fbase != own_base) return false;
    if (!it.dli_sname || it.dli_saddr != reinterpret_cast<void*>(function)) return false;
    const std::string_view name = it.dli_sname;
    return name.starts_with("MPI_") || name.starts_with("PMPI_") || name.starts_with("mpi_") ||
           name.starts_with("pmpi_") || name.starts_with("MPIX_");
}

}  // namespace

extern "C" int __cxa_atexit(void (*function)(void*), void* arg, void* dso_handle) noexcept {
    Rank* rank = application_rank();
    // Without privatization (one rank per process) the program's own handlers are the rank's
    // too: for an object of the program (a C++ static), or a function of it. IQ-TREE's
    // finalization is one: kept for the process's exit, it came after the rank's end. An MPI
    // call (in_libxsim: a dladdr) is asked last: a C++ static of the rank's is the common case.
    const bool privatized = g_engine && g_engine->privatization().active();
    if (rank && ((privatized ? (arg ? g_engine->privatization().may_hold(arg) : in_program(function))
                             : (arg ? in_program_object(arg) : in_program(function))) ||
                 in_libxsim(function))) {
        g_engine->libc_state_of(*rank).exit_handlers.push_back({function, arg, dso_handle});
        return 0;
    }
    // Registered by the constructors a rank's dlopen runs: whose it is is known after the load.
    if (rank && runtime::defer_exit_handler(function, arg, dso_handle)) return 0;
    runtime::note_process_exit_handle(dso_handle);  // runtime/library_constructors.hpp
    using Register = int (*)(void (*)(void*), void*, void*);
    static const auto real_cxa_atexit = runtime::next_function<Register>("__cxa_atexit");
    return real_cxa_atexit(function, arg, dso_handle);
}

// __cxa_finalize(d) runs the exit handlers registered for the loaded object `d` (a library's
// own destructor calls it when the library is unloaded: crtbegin's __do_global_dtors_aux).
// Called in a rank (its last dlclose of a library: runtime/library_constructors.hpp,
// close_in_rank), it runs the rank's handlers of that object, which the C library does not
// hold; those the C library holds for a library whose globals are per rank are the process's
// and stay for its exit (the library stays loaded for the other ranks).
extern "C" void __cxa_finalize(void* dso_handle) noexcept {
    static const auto real_finalize = runtime::next_function<void (*)(void*)>("__cxa_finalize");
    if (Rank* rank = application_rank(); rank && dso_handle && g_engine) {
        g_engine->libc_state().run_exit_handlers_of(g_engine->local_index(*rank), dso_handle);
        if (g_engine->privatization().active() && g_engine->privatization().in_privatized_library(dso_handle)) return;
    }
    real_finalize(dso_handle);
}
