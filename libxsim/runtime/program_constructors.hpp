// The executable's static constructors (its DT_INIT_ARRAY: C++ globals' constructors,
// gfortran's registration of static coarrays, __attribute__((constructor)) functions),
// taken out of the C library's start-up so that each simulated rank can run them on its
// own globals, as each process of a native run does. Run once before the first rank, a
// std::vector global with contents would share its heap buffer between the ranks (each
// rank's destructor frees it: a double free), and a constructor that calls MPI (OpenCoarrays
// initializes MPI there) would call it outside any rank.
#pragma once
#include <vector>

#include "libxsim/engine/engine.hpp"

namespace xsim::runtime {

// Replaces every entry of the executable's init array by a function that does nothing and
// returns the entries, in order, for the caller to run. Call from __libc_start_main, before
// the C library runs the array. Empty when the executable has none or its array cannot be
// made writable (then the C library runs them as usual).
std::vector<ProgramConstructor> take_program_constructors();

}  // namespace xsim::runtime
