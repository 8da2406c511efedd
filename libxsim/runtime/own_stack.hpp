// A rank's own stack, as the C library describes a process's stack to the code that asks:
// `__libc_stack_end` (the loader's pointer into the process's stack, which R reads to find
// where its C stack starts), the mapping that holds it in /proc/self/maps, and
// getrlimit(RLIMIT_STACK). Natively each rank is a process whose stack is its own mapping;
// here it is the rank's fiber stack, one piece of xsim's stack arena. pthread_getattr_np is
// in thread_interposition.cpp.
#pragma once
#include <string>

namespace xsim {
struct Rank;
}

namespace xsim::runtime {

// Makes the loader's __libc_stack_end writable for the simulation: it lies in the loader's
// RELRO pages, read-only once the process started, and the ranks' values are switched into
// it. Returns why it cannot ("" on success).
std::string open_stack_end_for_ranks();
// A program constructor (ProgramConstructor) run first in each rank: points the rank's
// `__libc_stack_end` (per rank with the C library's state, libc_private_segments) into its
// own stack.
void set_rank_stack_end(int argc, char** argv, char** envp);
// After the simulation: the process's own value again (the rank stacks go away), read-only.
void restore_process_stack_end();
// /proc/self/maps as the rank sees it: the real text, with the rank's stack split out of the
// stack arena's mapping as a mapping of its own, named [stack] (what R looks up to find the
// end of the stack __libc_stack_end points into).
std::string rank_maps_text(const Rank& rank);

}  // namespace xsim::runtime
