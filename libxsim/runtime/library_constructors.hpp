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
// constructors of the recorded library `library` (a loaded object's path), and of those it
// needs, unless it ran them before: another rank when it opens them too, or the same rank
// opening again what its last dlclose destroyed (close_in_rank).
// Returns false when the loader's run cannot count as the loading rank's (`loading`): a new
// library needs one recorded before that this rank has not constructed (another rank loaded
// it), so the loader ran its constructors before those of what it needs. Then, as for the
// libraries of the start, the exit handlers they registered run, the data is reset, and
// construct_loaded_libraries constructs them for the loading rank too, in order.
bool prepare_loaded_libraries(const std::vector<std::string>& per_rank_objects, std::size_t local_ranks,
                              std::size_t loading, std::string& error);
void construct_loaded_libraries(const Engine& engine, const std::string& library, std::size_t local);
// Before local rank `local` opens `file` (a path, or a bare name that the loader searches
// for from the calling object, in file `caller`: empty for the executable): the recorded
// libraries the load will need that this rank has not constructed, constructed now, as the
// loader would before the file's own constructors. What the file needs is followed through
// the libraries not loaded yet, found as the loader searches (library_search.hpp). Then the
// loader's run of the new libraries' constructors can stand as the rank's
// (prepare_loaded_libraries); a library the search does not find is prepare's fallback.
void construct_needed_before_load(const Engine& engine, const char* file, const std::string& caller,
                                  std::size_t local);

// The life of a recorded library in each rank, as the loader of the rank's own process would
// count it: note_rank_open counts a dlopen of `library` (a loaded object's path) by local
// rank `local` (with RTLD_NODELETE: the rank never unloads it); loaded_in_rank says whether
// that rank has it loaded (constructed: opened, or needed by what it opened), which is what
// RTLD_NOLOAD finds; close_in_rank counts a dlclose, and at the rank's last one of it
// destroys, in that rank, what the rank holds no more (the library, and what it alone
// needed, unless the loader never unloads it: DF_1_NODELETE, an STB_GNU_UNIQUE symbol): their
// destructors run (with them, through __cxa_finalize, the exit handlers the rank registered
// for them) and the rank's image of their data goes back to the load-time image, so that its
// next dlopen constructs a fresh copy. NotRecorded: a library loaded before the ranks started
// or not per rank; NotLoaded from close_in_rank: the rank has no open of it.
enum class RankLoad { NotRecorded, NotLoaded, Loaded };
void note_rank_open(const std::string& library, std::size_t local, bool no_delete);
RankLoad loaded_in_rank(const std::string& library, std::size_t local);
RankLoad close_in_rank(const std::string& library, std::size_t local);

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
