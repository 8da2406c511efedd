#include "libxsim/engine/call_scope.hpp"
#include "libxsim/mpi/real_mpi.hpp"

#include <cstdio>
#include <cstdlib>

namespace xsim {
namespace {

Rank& calling_rank(const char* call) {
    // Another thread (one started before the simulation, by a library, or by a rank behind
    // pthread_create's back) is no rank: the rank now current belongs to the simulation
    // thread, and this thread's stack is not that rank's (the stack check would call it an
    // overflow). Stop before touching any simulation state.
    if (g_engine && !on_simulation_thread()) {
        // While a rank has an OpenMP region open (the suspend guard is set), the other
        // threads running application code are that region's workers.
        const Rank* team = g_engine->suspend_guard() ? g_engine->current() : nullptr;
        char whose[160] = "a thread the program started";
        if (team)
            std::snprintf(whose, sizeof whose, "an OpenMP worker thread of simulated rank %d's parallel region",
                          team->world);
        std::fprintf(stderr,
                     "xsim: %s was called from a thread other than the simulation thread (%s): each simulated "
                     "rank is one fiber on that thread, so xsim takes MPI calls only from the thread that "
                     "called MPI_Init (as MPI_THREAD_FUNNELED; the MPI_THREAD_SERIALIZED that MPI_Init_thread "
                     "provides holds while a rank has no other threads)\n",
                     call, whose);
        std::fflush(stderr);
        std::_Exit(1);
    }
    if (!g_engine || !g_engine->current()) {
        std::fprintf(stderr,
                     "xsim: %s was called outside a simulated rank (from a thread, a destructor or an "
                     "atexit handler, a shared library's static constructor, the program's own with "
                     "-xsim-privatize off, or xsim is not active in this program%s)\n",
                     call,
                     g_engine ? ""
                              : ": xsim takes over programs that import MPI_Init, and the Python, R and Ruby "
                                "interpreters when given an -xsim- option, as in `python3 script.py -xsim-np 64`, "
                                "`Rscript script.R -xsim-np 64`, `ruby script.rb -xsim-np 64`, or XSIM_OPTIONS");
        std::fflush(stderr);
        std::_Exit(1);
    }
    return *g_engine->current();
}

}  // namespace

Rank* running_rank() { return g_engine && on_simulation_thread() ? g_engine->current() : nullptr; }

Rank* acting_rank() {
    if (!g_engine || !on_simulation_thread()) return nullptr;
    const std::size_t callback = g_engine->privatization().callback_index();
    if (callback == runtime::Privatization::kNone) return g_engine->current();
    return &g_engine->local(g_engine->first_local() + static_cast<int>(callback));
}

Rank* application_rank() {
    return g_engine && on_simulation_thread() && g_engine->in_application() ? g_engine->current() : nullptr;
}

SimTime read_clock(Engine& engine, Rank& rank) {
    if (engine.options().compute == ComputeMode::None) rank.clock += engine.machine().clock_read_cost;
    return rank.clock;
}

int AnytimeCall::result(int code) {
    if (code == MPI_SUCCESS || !rank_) return code;
    int error_class = code;
    real_mpi.Error_class(code, &error_class);
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    real_mpi.Error_string(code, text, &len);
    return raise(*rank_, nullptr, call_, error_class, text);
}

CallScope::CallScope(const char* name) : engine(*g_engine), rank(calling_rank(name)), call(name) {
    engine.enter(rank, call);
}

int CallScope::not_initialized() {
    return fail(nullptr, MPI_ERR_OTHER,
                rank.phase == MpiPhase::Before ? "called before MPI_Init" : "called after MPI_Finalize");
}

const Comm* resolve_comm(MPI_Comm handle) {
    if (handle == MPI_COMM_WORLD) return &g_engine->world_comm();
    if (handle == MPI_COMM_SELF) return &g_engine->self_comm();
    if (handle == MPI_COMM_NULL || reinterpret_cast<std::uintptr_t>(handle) % alignof(Comm) != 0) return nullptr;
    const auto* c = reinterpret_cast<const Comm*>(handle);
    return c->magic == Comm::kMagic && !c->freed ? c : nullptr;
}

Request* resolve_request(MPI_Request handle) {
    if (handle == MPI_REQUEST_NULL || reinterpret_cast<std::uintptr_t>(handle) % alignof(Request) != 0) return nullptr;
    auto* r = reinterpret_cast<Request*>(handle);
    return r->magic == Request::kMagic ? r : nullptr;
}

}  // namespace xsim
