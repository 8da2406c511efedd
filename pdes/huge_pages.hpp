// Memory for the large arrays the scheduler walks at every event (the ranks, their call
// slots, the message and request pools), mapped so that the kernel backs it with 2 MiB pages
// (transparent huge pages, MADV_HUGEPAGE; Debian's default "madvise" mode only gives them to
// memory that asks).
//
// Why. At 65,536 ranks a run touches tens of megabytes of such memory per sweep of a cell,
// and once the clocks drift the messages are read in an order unrelated to their addresses:
// with 4 KiB pages nearly every message costs a TLB miss, a page walk that is several times
// dearer in a virtual machine (nested paging), and the software prefetches that should hide
// it wait for the walk (bench/RESULTS.md, "Session 11"). A first touch also costs one fault
// per 2 MiB instead of one per 4 KiB (10-15 us each on the machines we measure on).
//
// Where the kernel has no huge page to give, the mapping is an ordinary one: only speed
// differs. Memory is not committed until touched (as with malloc).
#pragma once
#include <cstddef>
#include <new>

namespace xsim {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// `bytes` of zeroed memory, aligned to kHugePageBytes, or null when the mapping fails.
// Release with unmap_huge(p, bytes).
void* map_huge(std::size_t bytes);
void unmap_huge(void* p, std::size_t bytes);

// A fixed-size array of default-constructed T in such memory (what std::unique_ptr<T[]> is
// for new[]).
template <class T>
class HugeArray {
public:
    HugeArray() = default;
    HugeArray(const HugeArray&) = delete;
    HugeArray& operator=(const HugeArray&) = delete;
    ~HugeArray() { reset(0); }
    // Destroys the elements, then makes n new ones.
    void reset(std::size_t n) {
        for (std::size_t i = 0; i < size_; ++i) data_[i].~T();
        unmap_huge(data_, size_ * sizeof(T));
        data_ = nullptr;
        size_ = 0;
        if (n == 0) return;
        static_assert(alignof(T) <= kHugePageBytes);
        data_ = static_cast<T*>(map_huge(n * sizeof(T)));
        if (!data_) throw std::bad_alloc();
        for (; size_ < n; ++size_) new (data_ + size_) T();
    }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace xsim
