// What this host charges for the two ways privatization switches a run of written pages
// (privatization.hpp): copying the pages out to the outgoing rank's slot and in from the next
// rank's, or remapping them (mremap: the page table entries move with the pages, and the
// kernel flushes the TLB for the old range). On bare metal a remap costs some 5-20 us
// whatever the run's length and the rank then touches its pages without faulting, so runs
// from a few dozen pages on are cheaper remapped. Under a hypervisor that shadows the guest's
// page tables (a firecracker/PVM guest) each TLB flush is a trip to the hypervisor (100-300
// us for the two of a switch) and every page the rank touches after the move faults again
// there (4-50 us a page), against 0.1-0.2 us a page to copy it both ways: there copying wins
// for any run (bench/RESULTS.md, "Session 40"). Measured once, at start-up, when an image has
// runs long enough to be remapped.
#pragma once
#include <cstddef>

namespace xsim::runtime {

struct RemapCost {
    double move_us = 0;        // the fixed cost of remapping a run at a switch (out, then in)
    double touch_page_us = 0;  // a first write to each page of a run just remapped in, per page
    double copy_page_us = 0;   // copying a page out and the next rank's in, per page
    bool measured = false;     // false: not measured (the figures are 0)
    // Runs of at least this many bytes are remapped, shorter ones copied (remap_threshold).
    std::size_t remap_from = 0;
};

// The shortest run (bytes, a multiple of `page`, at least `floor`) that costs less remapped
// than copied, for a rank that touches every page of it in its turn: n pages with
// move_us + n * touch_page_us < n * copy_page_us. Never (the largest size_t) when touching a
// remapped page costs as much as copying it.
std::size_t remap_threshold(double move_us, double touch_page_us, double copy_page_us, std::size_t page,
                            std::size_t floor);

// Measures the costs on this host with runs of a scratch memory file moved the way a switch
// moves them (mremap MREMAP_DONTUNMAP; where the kernel refuses, mapped over: mmap MAP_FIXED),
// the best of a few tries of two lengths; a few milliseconds at most on a shadowing
// hypervisor. Not measured (remap_from = floor) when the scratch cannot be had.
RemapCost measure_remap_cost(std::size_t floor);

}  // namespace xsim::runtime
