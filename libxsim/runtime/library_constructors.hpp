// The static constructors of shared libraries whose globals are per rank, run by each rank
// on its own globals, as the executable's are (program_constructors.hpp). The loader has
// run them once for the real process before xsim starts; what they allocated would be one
// heap object that every rank's copy of the library points to (OpenFOAM's libOpenFOAM.so:
// the rank's number is kept in a DynamicList its constructor allocates, so every rank read
// the last one's). So, before the ranks' start image is taken: the exit handlers those
// constructors registered run (the process's objects are destroyed, as at a process's
// exit), the libraries' data goes back to how the loader left it (load_image.hpp), and
// their constructors become the first things each rank runs, in the loader's order
// (a library after the libraries it needs).
#pragma once
#include <string>
#include <vector>

#include "libxsim/engine/engine.hpp"

namespace xsim::runtime {

// Remembers the DSO handle of an exit handler registered with the C library (called by the
// __cxa_atexit interposer for what it does not keep with a rank): how a library's
// registrations are found.
void note_process_exit_handle(void* dso_handle);

// Does the above for the shared libraries among `per_rank_objects` (paths of the loaded
// objects privatization covers; the executable is skipped) and returns their constructors in
// the order each rank runs them. Sets `error` (and returns nothing) when a library's data
// cannot be reset.
std::vector<ProgramConstructor> take_library_constructors(const std::vector<std::string>& per_rank_objects,
                                                          std::string& error);

// Libraries a rank loads later (dlopen): the loader constructed them once, in the loading rank.
// prepare_loaded_libraries does the same as above for those the load made per rank, before
// their images are added (so every rank starts from the load-time image), and records them;
// construct_loaded_libraries then runs, for local rank `local`, the constructors of the
// recorded libraries that hold `library` (a loaded object's path), and of those they need,
// unless it ran them before: the loading rank at once, another rank when it opens them too.
void prepare_loaded_libraries(const std::vector<std::string>& per_rank_objects, std::size_t local_ranks,
                              std::string& error);
void construct_loaded_libraries(const Engine& engine, const std::string& library, std::size_t local);

}  // namespace xsim::runtime
