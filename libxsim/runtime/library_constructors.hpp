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

// Libraries a rank loads later (dlopen): the loader constructs them once, in the loading rank
// (with its globals loaded), as that rank's own construction, as natively in the process that
// loads them. prepare_loaded_libraries records those the load made per rank (among
// `per_rank_objects`) and resets their data to the load-time image, which is every other
// rank's start once their images are added (the caller puts the loading rank's constructed
// bytes back after that); construct_loaded_libraries then runs, for local rank `local`, the
// constructors of the recorded libraries that hold `library` (a loaded object's path), and of
// those they need, unless it ran them before: another rank when it opens them too.
// Returns false when the loader's run cannot count as the loading rank's (`loading`): a new
// library needs one recorded before that this rank has not constructed (another rank loaded
// it), so the loader ran its constructors before those of what it needs. Then, as for the
// libraries of the start, the exit handlers they registered run, the data is reset, and
// construct_loaded_libraries constructs them for the loading rank too, in order.
bool prepare_loaded_libraries(const std::vector<std::string>& per_rank_objects, std::size_t local_ranks,
                              std::size_t loading, std::string& error);
void construct_loaded_libraries(const Engine& engine, const std::string& library, std::size_t local);
// Before local rank `local` opens `file` (a path): the recorded libraries the file needs
// (its DT_NEEDED entries) that this rank has not constructed, constructed now, as the loader
// would before the file's own constructors. Then the loader's run of the new libraries'
// constructors can stand as the rank's (prepare_loaded_libraries). What the file needs
// through a library not loaded yet is not looked for: that case is prepare's fallback.
void construct_needed_before_load(const Engine& engine, const char* file, std::size_t local);

// The exit handlers that constructors register while a rank's dlopen runs them (an atexit,
// a C++ static's destructor), which are the loading rank's when they are for a library the
// load makes per rank, are not known as such until the load is privatized: from
// begin_rank_load the __cxa_atexit interposer hands them to defer_exit_handler (true: kept
// aside), and end_rank_load registers them again, in order, through the interposer, when the
// new libraries' globals are per rank (or before their data is reset). Loads nest (a
// constructor that opens a library): the outermost one ends the deferral.
void begin_rank_load();
bool defer_exit_handler(void (*function)(void*), void* arg, void* dso_handle);
void end_rank_load();

}  // namespace xsim::runtime
