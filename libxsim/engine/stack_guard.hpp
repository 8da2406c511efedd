// Stack overflow detection, in three layers:
//  - every stack of 16 KiB or more has guard pages under it (pdes/stack_arena: guard
//    markers, which cost no mapping, or mprotect on older kernels while the mapping limit
//    allows), so an overflow faults at once, even between two MPI calls;
//  - a SIGSEGV handler on its own signal stack reports such a fault as "stack overflow in
//    simulated rank R", with the stack size and the -xsim-stack to try;
//  - every entry into xsim checks how deep the rank's stack is; past the safety margin
//    the run ends with the same kind of message. For small stacks (several per page, no
//    guard of their own) and when the kernel gives no guard pages, this check and the one
//    guard zone under the first stack are what is left.
#pragma once
#include <signal.h>

#include <cstddef>
#include <cstdint>

#include "pdes/stack_arena.hpp"

namespace xsim {

// Stacks below this size (-xsim-stack 2k, 4k, 8k) are "small": they share pages, keep a
// smaller safety margin, have no room for prefaulting, and need functions bound at load time.
constexpr std::size_t kSmallStackLimit = StackArena::kGuardedStack;
constexpr bool is_small_stack(std::size_t stack_bytes) { return stack_bytes < kSmallStackLimit; }

// Bytes kept free at the bottom of every rank's stack for xsim's own frames: 4 KiB, or
// half of a small stack (-xsim-stack 2k/4k/8k, where less is left for the application).
constexpr std::size_t stack_safety_margin(std::size_t stack_bytes) {
    return stack_bytes / 2 < 4096 ? stack_bytes / 2 : 4096;
}

// Small stacks of one page or less (-xsim-stack 2k, 4k) share pages, so no guard page can
// separate them: kStackCanaryBytes of guard words at each one's bottom, written when its
// rank starts and checked at every MPI entry, catch a rank that overflowed between two
// calls into its neighbour before that neighbour runs on the damage. (8k stacks span two
// pages; writing the lower one would commit a page per rank that most never touch.)
constexpr std::size_t kStackCanaryBytes = 64;
constexpr bool uses_stack_canary(std::size_t stack_bytes) { return stack_bytes <= 4096; }
void write_stack_canary(char* bottom);
inline bool stack_canary_intact(const char* bottom) {
    // One word in every 16 bytes would miss a sparse write; all eight words are checked.
    const auto* words = reinterpret_cast<const std::uint64_t*>(bottom);
    const std::uint64_t expected = 0x5a17c0de5a17c0deULL ^ reinterpret_cast<std::uintptr_t>(bottom);
    std::uint64_t diff = 0;
    for (std::size_t i = 0; i < kStackCanaryBytes / 8; ++i) diff |= words[i] ^ expected;
    return diff == 0;
}

// "1 MiB", "64 KiB", "3000 bytes"; and the -xsim-stack value to suggest after an
// overflow of `stack_bytes` ("4m": four times as much). Both usable in a signal handler.
void format_stack_size(char* out, std::size_t size, std::size_t bytes);
void format_suggested_stack(char* out, std::size_t size, std::size_t stack_bytes);
// "stack overflow in simulated rank R (<how>): its stack of 1 MiB<origin> is used up; rerun
// with a larger one, e.g. -xsim-stack 4m", into `out` (usable in a signal handler); `origin`
// says how the size was chosen (stack_origin in options.hpp: "" when -xsim-stack was given).
void format_stack_overflow(char* out, std::size_t size, int world_rank, std::size_t stack_bytes, const char* origin,
                           const char* how);

// One line at start-up (process 0) when stacks of 16 KiB or more have no guard pages of
// their own: overflows between two MPI calls are then caught only at the next MPI call.
void note_stack_guards(GuardPages guards, std::size_t stack_bytes, int process);

// SIGSEGV, SIGBUS and SIGABRT name the simulated rank, its virtual time and last MPI call;
// these and SIGINT/SIGTERM save what the process has (run_end.hpp) before it dies.
void install_fault_handler();
// While xsim's fault handler is installed, the program's sigaction/signal for SIGSEGV and
// SIGBUS (runtime/signal_interposition.cpp) is recorded instead of installed: `old` gets the
// program's previous action (SIG_DFL at first). xsim reports an overflow of a rank's stack
// itself and hands any other fault to the program's handler.
bool keeps_program_fault_action(int signal);
// While it is installed, a rank's sigaltstack (runtime/signal_interposition.cpp) is recorded
// for that rank, as natively for its process, not installed: xsim's signal stack stays. An
// overflow of the rank's stack then goes to the program's SIGSEGV handler when that asked for
// the alternate stack (SA_ONSTACK): it runs on xsim's, and may recover (Ruby's
// SystemStackError); when it returns, xsim reports the overflow.
bool keeps_program_alternate_stack();
int program_alternate_stack(const stack_t* stack, stack_t* old);
void program_fault_action(int signal, const struct sigaction* action, struct sigaction* old);
// The program's recorded SIGSEGV and SIGBUS actions, to put back after a call whose own
// handlers xsim's report replaces (libgfortran's backtrace handlers: fortran/gfortran_runtime).
struct ProgramFaultActions {
    struct sigaction action[2];
    bool set[2];
};
ProgramFaultActions recorded_program_fault_actions();
void restore_program_fault_actions(const ProgramFaultActions& saved);

}  // namespace xsim
