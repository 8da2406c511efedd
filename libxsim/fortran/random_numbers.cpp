// Fortran RANDOM_NUMBER and RANDOM_SEED per simulated rank. libgfortran keeps its generator
// per thread: the state is a block it allocates on first use and finds again through a
// pthread key (get_rand_state: pthread_getspecific). Every rank of a process runs on the
// one simulation thread, so they drew from one stream: ranks that each seeded with
// RANDOM_SEED(PUT=...) and drew across MPI calls got each other's numbers, where each
// process of a native run has a stream of its own.
//
// Here a rank's call of the intrinsics (the _gfortran_random_* and _gfortran_arandom_*
// entry points, and RANDOM_SEED's) marks the simulation thread for its duration, and
// pthread_getspecific (runtime/thread_specific_interposition.cpp), asked meanwhile, answers
// with a zeroed block of the rank's (rank_state/libc_rank_state.hpp) instead of the thread's:
// libgfortran's own code then seeds, draws and reports that rank's state, with its own
// algorithm. The only key
// libgfortran asks for inside these calls is its generator's. Outside them (and in a
// process of one rank) pthread_getspecific is the C library's.
#include <dlfcn.h>
#include <pthread.h>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"

namespace xsim {
namespace {

template <class F>
F real_gfortran_random(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

// The calling rank's generator block, or null outside a rank's application code.
void* rank_generator() {
    const Rank* rank = application_rank();
    if (!rank || g_engine->local_count() < 2) return nullptr;
    runtime::LibcState& state = g_engine->libc_state_of(*rank);
    if (!state.fortran_random) state.fortran_random = std::make_unique<runtime::FortranRandomState>();
    return state.fortran_random->bytes;
}

// Runs libgfortran's `call` with the rank's generator in place of the thread's.
template <class Call>
void with_rank_generator(Call call) {
    void* mine = rank_generator();
    if (!mine) return call();
    runtime::t_fortran_generator = mine;
    call();
    runtime::t_fortran_generator = nullptr;
}

using OnePointer = void (*)(void*);

void draw(const char* name, OnePointer& real_call, void* x) {
    if (!real_call) real_call = real_gfortran_random<OnePointer>(name);
    with_rank_generator([&] { real_call(x); });
}

}  // namespace
}  // namespace xsim

using namespace xsim;

extern "C" {

// RANDOM_NUMBER of a scalar (REAL kinds 4, 8, 10, 16) and of an array (a descriptor).
#define XSIM_FORTRAN_DRAW(name)                          \
    void name(void* x) {                                 \
        static OnePointer real_call = nullptr;           \
        draw(#name, real_call, x);                       \
    }
XSIM_FORTRAN_DRAW(_gfortran_random_r4)
XSIM_FORTRAN_DRAW(_gfortran_random_r8)
XSIM_FORTRAN_DRAW(_gfortran_random_r10)
XSIM_FORTRAN_DRAW(_gfortran_random_r16)
XSIM_FORTRAN_DRAW(_gfortran_arandom_r4)
XSIM_FORTRAN_DRAW(_gfortran_arandom_r8)
XSIM_FORTRAN_DRAW(_gfortran_arandom_r10)
XSIM_FORTRAN_DRAW(_gfortran_arandom_r16)
#undef XSIM_FORTRAN_DRAW

// RANDOM_SEED(SIZE, PUT, GET) for default and 8-byte INTEGER arguments.
void _gfortran_random_seed_i4(void* size, void* put, void* get) {
    static const auto f = real_gfortran_random<void (*)(void*, void*, void*)>("_gfortran_random_seed_i4");
    with_rank_generator([&] { f(size, put, get); });
}

void _gfortran_random_seed_i8(void* size, void* put, void* get) {
    static const auto f = real_gfortran_random<void (*)(void*, void*, void*)>("_gfortran_random_seed_i8");
    with_rank_generator([&] { f(size, put, get); });
}

}  // extern "C"
