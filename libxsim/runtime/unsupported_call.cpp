// The fate of an MPI call xsim does not simulate: a clear message naming the function and
// the end of the run, never a silent wrong answer or a pass-through to the real library
// (which knows nothing of simulated ranks and communicators). The weak definitions that
// land here are generated from Open MPI's mpi.h at build time; every implemented call
// has a strong definition that replaces its stub.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "libxsim/engine/engine.hpp"

// Hidden: called by the stubs and the Fortran bindings, not part of the API (libxsim/exports.map).
extern "C" [[noreturn]] __attribute__((visibility("hidden"))) void xsim_unsupported_call(const char* name) {
    using namespace xsim;
    if (g_engine && g_engine->current()) {
        const Rank& r = *g_engine->current();
        g_engine->abort_run(1, std::string(name) + " is not supported by xsim (called by simulated rank " +
                                   std::to_string(r.world) + "); see the README for the supported calls");
    }
    std::fprintf(stderr, "xsim: %s is not supported by xsim (called outside a simulated rank)\n", name);
    std::fflush(stderr);
    std::_Exit(1);
}
