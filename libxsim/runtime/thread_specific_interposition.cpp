// Thread-specific data (pthread_key_create, pthread_setspecific, ...) of simulated ranks.
// Natively each MPI process has its own keys and its thread its own values; here the ranks of
// a real process are fibers of one thread, sharing the C library's 1,024 keys: the Python
// interpreter takes one or two per rank at start-up, so the 1,021st rank of a process
// failed. A key created by a rank's code is xsim's (rank_state/libc_rank_state.hpp,
// ThreadSpecificKeys), and its values are per rank; keys created by anything else (xsim, the
// MPI library, constructors before the simulation) are the C library's. As at a process's
// exit, a key's destructor is not called when a rank ends. Code that runs outside every rank
// (an exit handler a shared library registered with the C library, run at the process's exit:
// HDF5's H5_term_library, whose API context key the first rank to call HDF5 created) uses such
// a key as a thread that has set no value yet: its values are the thread's own. (Before,
// pthread_setspecific answered EINVAL there and HDF5's context stack was lost: a segfault in
// H5CX_pop at the exit of ABINIT.) (pthread_getspecific also answers libgfortran's
// random-number intrinsics with the rank's generator: fortran/random_numbers.cpp.)
#include <pthread.h>

#include <algorithm>
#include <cerrno>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/rank_state/libc_rank_state.hpp"
#include "libxsim/runtime/next_function.hpp"

using namespace xsim;
using runtime::next_function;
using runtime::ThreadSpecificKeys;

namespace {

using Values = std::vector<std::pair<unsigned, const void*>>;

// The values of the rank whose code runs on this thread, or null. Its own code, or code of
// its that xsim calls: an attribute's delete callback in MPI_Comm_free, or, outside its
// fiber, a user reduction op as a message arrives (mpi4py's enter the Python interpreter,
// which reads its keys: without the rank's values it aborts).
// Outside every rank, the values of this thread's code: a pointer, never freed, not a
// thread_local vector, whose destructor the main thread's exit would run before the exit
// handlers that use it.
Values* rank_values() {
    if (const Rank* rank = acting_rank()) return &g_engine->libc_state_of(*rank).thread_specific;
    static thread_local Values* outside = nullptr;
    if (!outside) outside = new Values;
    return outside;
}

// True unless the key was deleted (or never made). After the engine is gone (the process's
// last exit handlers), every key of ours counts as live: none can be deleted any more.
bool live(pthread_key_t key) { return !g_engine || g_engine->libc_state().keys.live(key); }

}  // namespace

extern "C" int pthread_key_create(pthread_key_t* key, void (*destructor)(void*)) noexcept {
    if (application_rank()) {
        *key = g_engine->libc_state().keys.create();
        return 0;
    }
    using Create = int (*)(pthread_key_t*, void (*)(void*));
    static const auto real = next_function<Create>("pthread_key_create");
    return real(key, destructor);
}

extern "C" int pthread_key_delete(pthread_key_t key) noexcept {
    if (!ThreadSpecificKeys::is_ours(key)) {
        using Delete = int (*)(pthread_key_t);
        static const auto real = next_function<Delete>("pthread_key_delete");
        return real(key);
    }
    // After the engine is gone (a shared library's exit handler at the process's exit: TBB's,
    // which deletes the key its first user made) the key is live, as for the calls below, and
    // deleting it succeeds, as natively.
    if (!live(key)) return EINVAL;
    if (g_engine) g_engine->libc_state().keys.remove(key);
    return 0;
}

extern "C" void* pthread_getspecific(pthread_key_t key) noexcept {
    if (runtime::t_fortran_generator) return runtime::t_fortran_generator;
    if (!ThreadSpecificKeys::is_ours(key)) {
        using Get = void* (*)(pthread_key_t);
        static const auto real = next_function<Get>("pthread_getspecific");
        return real(key);
    }
    if (!live(key)) return nullptr;
    const Values* values = rank_values();
    for (const auto& [k, v] : *values)
        if (k == key) return const_cast<void*>(v);
    return nullptr;
}

extern "C" int pthread_setspecific(pthread_key_t key, const void* value) noexcept {
    if (!ThreadSpecificKeys::is_ours(key)) {
        using Set = int (*)(pthread_key_t, const void*);
        static const auto real = next_function<Set>("pthread_setspecific");
        return real(key, value);
    }
    if (!live(key)) return EINVAL;
    Values* values = rank_values();
    auto at = std::find_if(values->begin(), values->end(), [&](const auto& kv) { return kv.first == key; });
    if (at != values->end()) at->second = value;
    else values->emplace_back(key, value);
    return 0;
}
