// Where the loader would find a library that is not loaded yet, so that what a rank's dlopen
// will load can be known before the real dlopen runs its constructors
// (library_constructors.hpp, construct_needed_before_load): the file a bare name opens
// (searched from the calling object), and the files its DT_NEEDED entries name, recursively.
// The search is glibc's: a name with a slash is a path; otherwise the DT_RPATH of the object
// that asks (when it has no DT_RUNPATH) and of the executable, LD_LIBRARY_PATH as the process
// started with, the object's DT_RUNPATH, /etc/ld.so.cache, and the system directories.
// $ORIGIN is expanded; a directory with another dynamic string token ($LIB, $PLATFORM) is
// skipped, and so are glibc-hwcaps subdirectories. Objects already loaded are matched by name
// first, as the loader does. The dlopen interposer opens a bare name by the path found here:
// the real dlopen, called from libxsim, would search from libxsim instead of the program's
// calling object (not the program's DT_RUNPATH, natively searched).
#pragma once
#include <string>
#include <vector>

#include "libxsim/rank_state/privatization.hpp"

namespace xsim::runtime {

// dynamic_of_file (rank_state/privatization.hpp) of `path`, read again only when the file
// changed (its inode, size or modification time): a dlopen of each rank asks for the same.
FileDynamic dynamic_of_file_cached(const std::string& path);
// The file the loader would open for `name` asked for by the object in file `from_path`
// (empty: the executable), or empty when none is found.
std::string find_library_file(const std::string& name, const std::string& from_path);
// Whether a loaded object answers to `name` (its path as loaded, or its soname), as the
// loader matches a name before it searches.
bool names_loaded_object(const std::string& name);
// The loaded object (its path as the loader named it) that holds `address`: the dlopen
// caller's object; empty for the executable or when none does.
std::string loaded_object_path_of(const void* address);

}  // namespace xsim::runtime
