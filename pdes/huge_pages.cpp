#include "pdes/huge_pages.hpp"

#include <sys/mman.h>

#include <cstdint>

namespace xsim {
namespace {
std::size_t rounded(std::size_t bytes) { return (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1); }
}  // namespace

void* map_huge(std::size_t bytes) {
    if (bytes == 0) return nullptr;
    const std::size_t size = rounded(bytes);
    // Map one huge page more than needed and trim both ends to an aligned range: the kernel
    // only uses huge pages for aligned 2 MiB ranges.
    void* raw = mmap(nullptr, size + kHugePageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    if (raw == MAP_FAILED) return nullptr;
    const auto at = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (at + kHugePageBytes - 1) & ~(std::uintptr_t{kHugePageBytes} - 1);
    if (aligned > at) munmap(raw, aligned - at);
    const std::uintptr_t end = at + size + kHugePageBytes;
    if (end > aligned + size) munmap(reinterpret_cast<void*>(aligned + size), end - aligned - size);
    // Advice only: a kernel without transparent huge pages refuses it and the memory stays usable.
    madvise(reinterpret_cast<void*>(aligned), size, MADV_HUGEPAGE);
    return reinterpret_cast<void*>(aligned);
}

void unmap_huge(void* p, std::size_t bytes) {
    if (p) munmap(p, rounded(bytes));
}

}  // namespace xsim
