// A loaded library's globals as the loader left them, before its constructors ran: the
// start every rank's copy needs when each rank runs the library's constructors itself
// (runtime/library_constructors.cpp). Natively each MPI process loads the library and
// constructs its globals: a static container allocated by a constructor is the process's
// own. Constructed once and copied into every rank's image, it would be one heap object
// that all ranks' copies point to (OpenFOAM's UPstream::myProcNo_, a DynamicList: every
// rank read the last rank's number).
#pragma once
#include <cstdint>
#include <string>

namespace xsim::runtime {

// Writes the load-time image over the live program data of the library in file `path`
// loaded at `bias`: its sections' bytes from the file (zeros for .bss), except the words
// the loader relocated, which keep their live (relocated) value: constructors do not
// rewrite relocated constants. The ranges are those privatization covers (read_elf_data:
// program data less RELRO and copy relocations). Returns why it could not (the file is
// unreadable, a relocation format it does not know), or an empty string.
std::string reset_to_load_image(const std::string& path, std::uintptr_t bias);

}  // namespace xsim::runtime
