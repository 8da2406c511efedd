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

// Stacks below this size (-xsim-stack 2k, 4k, 8k) are "small": they share pages, keep a
// smaller safety margin, have no room for prefaulting, and need functions bound at load time.
constexpr std::size_t kSmallStackLimit = 16 * 1024;
constexpr bool is_small_stack(std::size_t stack_bytes) { return stack_bytes < kSmallStackLimit; }

// Bytes kept free at the bottom of every rank's stack for xsim's own frames: 4 KiB, or
// half of a small stack (-xsim-stack 2k/4k/8k, where less is left for the application).
constexpr std::size_t stack_safety_margin(std::size_t stack_bytes) {
    return stack_bytes / 2 < 4096 ? stack_bytes / 2 : 4096;
}

void install_fault_handler();

}  // namespace xsim
