#include "libxsim/rank_state/remap_cost.hpp"

#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace xsim::runtime {
namespace {

// The C library's clock_gettime is xsim's virtual clock (runtime/time_interposition.cpp):
// the kernel's, a system call of well under a microsecond, against runs measured in tens.
double now_us() {
    struct timespec ts {};
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

// Two lengths (pages) give the fixed and the per-page cost of a remap; each is tried a few
// times and the best kept (a shared host preempts some tries).
constexpr std::size_t kShortRun = 8, kLongRun = 64, kTries = 4;

// Slots of two "ranks" in a memory file and a live range, as privatization lays them out.
class Scratch {
public:
    explicit Scratch(std::size_t pages) : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))), bytes_(pages * page_) {
        fd_ = memfd_create("xsim-remap-cost", MFD_CLOEXEC);
        if (fd_ < 0 || ftruncate(fd_, static_cast<off_t>(2 * bytes_)) != 0) return;
        void* s = mmap(nullptr, 2 * bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
        void* l = mmap(nullptr, 3 * bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (s != MAP_FAILED) slots_ = static_cast<char*>(s);
        if (l != MAP_FAILED) live_ = static_cast<char*>(l);
        if (!ok()) return;
        std::memset(slots_, 1, 2 * bytes_);
        std::memset(live_, 2, 3 * bytes_);
    }
    ~Scratch() {
        if (slots_) munmap(slots_, 2 * bytes_);
        if (live_) munmap(live_, 3 * bytes_);
        if (fd_ >= 0) close(fd_);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    bool ok() const { return slots_ && live_; }

    // One switch of `pages` pages to the other slot's rank by remapping, then a write to each
    // page (the rank touching its globals): the time of each part.
    bool remap(std::size_t pages, double& move_us, double& touch_us) {
        const std::size_t bytes = pages * page_;
        const int in = in_ == 0 ? 1 : 0;
        const double t0 = now_us();
        if (moving_) {
            if (in_ >= 0 && !move(live_, slots_ + in_ * bytes_, bytes)) return false;
            if (!move(slots_ + in * bytes_, live_, bytes)) {
                moving_ = false;  // a kernel without MREMAP_DONTUNMAP for shared maps: mapped over
                if (mmap(slots_, 2 * bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_, 0) != slots_) return false;
            }
        }
        if (!moving_ && mmap(live_, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_,
                             static_cast<off_t>(in * bytes_)) != live_)
            return false;
        in_ = moving_ ? in : -1;
        const double t1 = now_us();
        for (std::size_t at = 0; at < bytes; at += page_) ++live_[at];
        move_us = t1 - t0;
        touch_us = now_us() - t1;
        return true;
    }
    // A switch of as many pages by copying (out to one slot, in from the other), then the
    // same writes.
    double copy(std::size_t pages) {
        const std::size_t bytes = pages * page_;
        char* spare = live_ + bytes_;  // a page-aligned buffer of the pages' size past live
        const double t0 = now_us();
        std::memcpy(spare, live_, bytes);
        std::memcpy(live_, spare + bytes_, bytes);
        const double t = now_us() - t0;
        for (std::size_t at = 0; at < bytes; at += page_) ++live_[at];
        return t;
    }

private:
    static bool move(char* from, char* to, std::size_t bytes) {
        return mremap(from, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, to) == to;
    }
    std::size_t page_;
    std::size_t bytes_;
    int fd_ = -1;
    char* slots_ = nullptr;
    char* live_ = nullptr;
    bool moving_ = true;
    int in_ = -1;  // the slot whose pages are live (moved there), or -1
};

}  // namespace

std::size_t remap_threshold(double move_us, double touch_page_us, double copy_page_us, std::size_t page,
                            std::size_t floor) {
    constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();
    const double saved_per_page = copy_page_us - touch_page_us;
    if (!(saved_per_page > 0)) return kNever;
    const double pages = std::floor(std::max(0.0, move_us) / saved_per_page) + 1;
    // Beyond any image (2^40 bytes): never.
    if (pages * static_cast<double>(page) >= 1099511627776.0) return kNever;
    return std::max(floor, static_cast<std::size_t>(pages) * page);
}

RemapCost measure_remap_cost(std::size_t floor) {
    RemapCost cost;
    cost.remap_from = floor;
    Scratch scratch(kLongRun);
    if (!scratch.ok()) return cost;
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    double best_short = 1e300, best_long = 1e300, best_copy = 1e300;
    for (std::size_t t = 0; t < kTries; ++t) {
        for (const std::size_t pages : {kShortRun, kLongRun}) {
            double move = 0, touch = 0;
            if (!scratch.remap(pages, move, touch)) return cost;
            double& best = pages == kShortRun ? best_short : best_long;
            best = std::min(best, move + touch);
        }
        best_copy = std::min(best_copy, scratch.copy(kLongRun));
    }
    // cost(n) = move + n * touch through the two lengths (the best try of each).
    cost.touch_page_us = std::max(0.0, (best_long - best_short) / static_cast<double>(kLongRun - kShortRun));
    cost.move_us = std::max(0.0, best_long - cost.touch_page_us * static_cast<double>(kLongRun));
    cost.copy_page_us = best_copy / static_cast<double>(kLongRun);
    cost.measured = true;
    cost.remap_from = remap_threshold(cost.move_us, cost.touch_page_us, cost.copy_page_us, page, floor);
    return cost;
}

}  // namespace xsim::runtime
