// Stack overflow detection without a guard page per rank (which the kernel's mapping
// limit forbids at millions of ranks):
//  - every entry into xsim checks how deep the rank's stack is; past the safety margin
//    the run ends with a message naming the rank and -xsim-stack;
//  - a SIGSEGV handler on its own signal stack reports faults inside a simulated rank
//    (an overflow that skipped the check lands in the stack below, or in the one guard
//    page under the arena) with the rank and the stack size.
#pragma once
#include <cstddef>

namespace xsim {

// Bytes kept free at the bottom of every rank's stack for xsim's own frames.
constexpr std::size_t kStackSafetyMargin = 4096;

void install_fault_handler();

}  // namespace xsim
