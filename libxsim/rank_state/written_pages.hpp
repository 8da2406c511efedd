// Which pages of some address ranges have been written since the program was loaded, read
// from /proc/self/pagemap. A page of a program's data is the file's page (or not mapped at
// all, for .bss) until something writes to it; from then on it is an anonymous page, for
// good. Privatization uses this to copy, at a rank switch, only the pages that any rank
// has written: a library like PETSc has 2.5 MB of writable data, of which a run writes a
// few dozen pages.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace xsim::runtime {

class WrittenPages {
public:
    WrittenPages() = default;
    ~WrittenPages();
    WrittenPages(const WrittenPages&) = delete;
    WrittenPages& operator=(const WrittenPages&) = delete;

    struct Span {
        const char* start;
        std::size_t bytes;
    };
    // Watches the pages that `spans` touch. False (and nothing watched) when the page map
    // cannot be read.
    bool watch(const std::vector<Span>& spans);
    bool watching() const { return fd_ >= 0; }
    static std::size_t page_bytes();

    // Appends to `found` the start of every watched page written since the last call (or
    // since watch()) and marks them written. False when the page map could not be read:
    // then every page not yet marked is reported, and watching stops.
    bool poll(std::vector<const char*>& found);
    // Marks the watched pages that [start, start + bytes) touches as written (xsim is about
    // to write there on behalf of a rank whose image is not loaded), appending those that
    // were not to `found`.
    void mark(const char* start, std::size_t bytes, std::vector<const char*>& found);
    bool written(const char* page) const;

    // The pages of `spans` that read as zero although nothing has touched them: pages of a
    // private anonymous mapping (a file's .bss past its data, the heap) that are neither in
    // memory nor swapped out. Copying them would read them, and a read fault maps the shared
    // zero page only on most kernels: others (a PVM guest's) map a page of the process's own,
    // which the page map then shows written like any written page. Whole pages inside the
    // spans, in address order, adjacent ones joined; none when /proc/self/maps or the page map
    // cannot be read (then every page is to be read). One read of each per call.
    static std::vector<Span> untouched_zero_pages(const std::vector<Span>& spans);

private:
    struct Run {
        std::uintptr_t first;  // page number
        std::size_t count;
        std::size_t index;  // of its first page in written_
    };
    const Run* run_of(std::uintptr_t page) const;
    // The page map entries of `count` pages from page number `first` into entries_; false
    // (and watching stops) when they cannot be read.
    bool read_entries(std::uintptr_t first, std::size_t count);
    void report_all(std::vector<const char*>& found);

    std::vector<Run> runs_;
    std::vector<std::uint8_t> written_;   // per watched page
    std::size_t written_count_ = 0;       // of written_ set
    std::vector<std::uint64_t> entries_;  // page map entries, read per run
    long faults_ = -1;  // the process's page faults when the page map was last read
    int fd_ = -1;
};

}  // namespace xsim::runtime
