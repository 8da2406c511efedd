// The names of xsim's own functions, for the crash report (stack_guard). libxsim exports only
// its C interface (libxsim/exports.map), so dladdr names no function of xsim's C++: a crash
// inside xsim would name only the library. The ELF symbol table (.symtab) of the file xsim's
// code was loaded from (libxsim.so, or the executable of a unit test) has them all; it is
// mapped at start-up, and a signal handler looks an instruction up in it without allocating.
#pragma once
#include <cstddef>

namespace xsim {

// Maps the symbol table of the object holding xsim's code, once per process (later calls do
// nothing). At start-up, not in a signal handler: it opens the file and maps part of it. A
// file without .symtab (stripped) or one that cannot be read leaves a reason instead.
void load_own_symbols();

enum class OwnCode {
    Other,          // the instruction is not in xsim's object (or load_own_symbols never ran)
    Named,          // `out` holds "function+0xOFFSET"
    NoSymbolTable,  // in xsim's object, whose symbol table is missing: `out` says why
    Unnamed,        // in xsim's object, in no function of its symbol table
};

// Names the function of xsim's object that holds `pc`, which lies in the object whose dladdr
// dli_fbase is `object_base`: its C++ name demangled when the build has libiberty's
// allocation-free demangler and the signal stack has room for it, else the mangled name.
// Usable in a signal handler: no allocation, no lock, no system call but sigaltstack.
OwnCode name_own_code(const void* pc, const void* object_base, char* out, std::size_t size);

// True when this build demangles the names (libiberty found at configure time).
bool own_symbols_demangled();

}  // namespace xsim
