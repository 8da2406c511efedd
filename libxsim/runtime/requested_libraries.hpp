// -xsim-privatize-libs: libraries of the system directories that the user asks to be per rank
// (a serial library that keeps state between calls: FFTW's planner, a Fortran library's SAVE
// variables), with the libraries built on them, as xsim makes those built on MPI.
#pragma once
#include <string>
#include <vector>

namespace xsim::runtime {

// Remembers the names (fftw3, libgsl.so.27, ...) for the rules below. Returns what refuses
// them, empty when they can be per rank: a name of a library xsim itself runs on (the MPI
// library, the C or C++ runtime, ...). `unmatched` gets the names no loaded library has
// (a library the program opens later with dlopen is per rank when it loads).
std::string request_per_rank_libraries(const std::vector<std::string>& names, std::vector<std::string>* unmatched);
// Whether the library at `path` is one the user named.
bool requested_per_rank(const std::string& path);

// The rules for a system library's globals, with the user's names added: at start-up (an
// interpreter's library: R's libR.so) and for a library a rank loads (a Python extension module).
bool per_rank_at_start(const std::string& path);
bool per_rank_when_loaded(const std::string& path);

}  // namespace xsim::runtime
