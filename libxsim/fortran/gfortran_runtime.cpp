// Where gfortran's own runtime meets xsim. A Fortran main (run once per simulated rank)
// first calls libgfortran's _gfortran_set_options, which with -fbacktrace (gfortran's
// default) installs its own SIGSEGV and SIGBUS handlers: a rank overflowing its stack
// would then die with a bare segmentation fault. xsim puts its fault handler (which names
// the rank and the stack size, and writes the run report) back right after, and forgets the
// handlers libgfortran asked for (they are recorded, not installed, while xsim's is: a fault
// would go to gfortran's backtrace, which ends the process by the signal, without the report).
// The options are also noted for OPEN (io_units.cpp: Fortran 2018's files on several units).
#include <dlfcn.h>

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/stack_guard.hpp"
#include "libxsim/fortran/io_units.hpp"

extern "C" void _gfortran_set_options(int count, const int options[]) {
    using Real = void (*)(int, const int[]);
    static const Real real = reinterpret_cast<Real>(dlsym(RTLD_NEXT, "_gfortran_set_options"));
    const xsim::ProgramFaultActions before = xsim::recorded_program_fault_actions();
    if (real) real(count, options);
    xsim::note_gfortran_options(count, options);
    if (xsim::g_engine) {
        xsim::restore_program_fault_actions(before);
        xsim::install_fault_handler();
    }
}
