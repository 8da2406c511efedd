// Checks made before a simulation starts, so that a run that cannot fit is refused with
// an explanation instead of being killed by the kernel's OOM killer halfway.
#pragma once
#include <string>

#include "libxsim/engine/engine.hpp"

namespace xsim {

// Empty when the run fits this machine; otherwise the reason, with the figures.
// `privatized_bytes`: each rank's copy of the program's globals (runtime/privatization).
std::string check_memory_budget(const Options& options, const Engine::Placement& placement,
                                std::size_t privatized_bytes = 0);

// Bytes of a rank's stack that are touched at least: one page, or the whole stack when
// small stacks share pages.
std::size_t stack_bytes_touched(std::size_t stack_bytes);
// Bytes of page tables that map a rank's stack and guard pages (x86-64: 1/512 of them
// for stacks under 2 MiB, about 4 KiB each for larger ones).
std::size_t stack_page_table_bytes(std::size_t stack_bytes);
// Bytes a simulated rank is expected to need at its peak: its state, what it has in flight
// and its touched stack (the floor; deeper stacks touch more).
std::size_t expected_bytes_per_rank(std::size_t stack_bytes);

}  // namespace xsim
