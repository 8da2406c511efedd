// Looks up the real MPI library's PMPI_* functions (real_mpi.hpp). dlsym(RTLD_NEXT) searches
// the objects loaded after the one holding this code: libmpi comes after libxsim (libxsim
// needs it, and the application links -lxsim first, see startup_checks), and a PMPI tool
// linked or preloaded before libxsim is skipped, so its wrappers cannot be taken for libmpi.
#include "libxsim/mpi/real_mpi.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace xsim {
namespace {

void* real_function(const char* name) {
    void* f = dlsym(RTLD_NEXT, name);
    if (!f) {
        const char* why = dlerror();
        std::fprintf(stderr, "xsim: the real MPI library's %s was not found (%s); libmpi must be loaded after libxsim\n",
                     name, why ? why : "no such symbol");
        std::_Exit(1);
    }
    return f;
}

// init_priority: before every other static initializer in libxsim, whatever the link order.
struct LoadAtStart {
    LoadAtStart() { load_real_mpi(); }
};
const LoadAtStart load_at_start __attribute__((init_priority(101)));

}  // namespace

// Zero-initialized (static storage) before any initializer of any library runs.
RealMpi real_mpi;

void load_real_mpi() {
    if (real_mpi.Wtime) return;  // the last member filled: the table is complete
    RealMpi table{};
#define XSIM_REAL_MPI_RESOLVE(name) \
    table.name = reinterpret_cast<decltype(table.name)>(real_function("PMPI_" #name));
    XSIM_REAL_MPI_FUNCTIONS(XSIM_REAL_MPI_RESOLVE)
#undef XSIM_REAL_MPI_RESOLVE
    real_mpi = table;
}

}  // namespace xsim
