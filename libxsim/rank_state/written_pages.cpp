#include "libxsim/rank_state/written_pages.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace xsim::runtime {
namespace {

// Page map entry bits (Documentation/admin-guide/mm/pagemap.rst).
constexpr std::uint64_t kPresent = std::uint64_t{1} << 63;
constexpr std::uint64_t kSwapped = std::uint64_t{1} << 62;
constexpr std::uint64_t kFilePage = std::uint64_t{1} << 61;
constexpr std::uint64_t kExclusive = std::uint64_t{1} << 56;

// The page map entries of `count` pages from page number `first` into `entries`; false
// when the page map cannot be read.
bool read_page_map(int fd, std::uintptr_t first, std::size_t count, std::vector<std::uint64_t>& entries) {
    entries.resize(count);
    const std::size_t want = count * sizeof(std::uint64_t);
    std::size_t got = 0;
    while (got < want) {
        const ssize_t n = pread(fd, reinterpret_cast<char*>(entries.data()) + got, want - got,
                                static_cast<off_t>(first * sizeof(std::uint64_t) + got));
        if (n <= 0) return false;
        got += static_cast<std::size_t>(n);
    }
    return true;
}

// A written page is an anonymous page of this process alone: in memory, or swapped out.
// Reading .bss maps the shared zero page, which is neither a file page nor exclusive (it is
// not a written page), on most kernels; where a read fault maps a page of the process's own
// instead (a PVM guest), a page read counts as written: start-up reads none that nothing
// touched (untouched_zero_pages). A page written and then shared with a child between fork and exec
// looks unwritten for that moment; it is seen at the next look.
bool was_written(std::uint64_t entry) {
    return (entry & kSwapped) || ((entry & kPresent) && !(entry & kFilePage) && (entry & kExclusive));
}

// Pages closer than this are read in one go with the ones between them.
constexpr std::uintptr_t kGapPages = 64;

}  // namespace

WrittenPages::~WrittenPages() {
    if (fd_ >= 0) close(fd_);
}

std::size_t WrittenPages::page_bytes() {
    static const std::size_t bytes = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    return bytes;
}

bool WrittenPages::watch(const std::vector<Span>& spans) {
    const std::uintptr_t page = page_bytes();
    std::vector<Run> pages;
    for (const Span& s : spans) {
        if (s.bytes == 0) continue;
        const auto begin = reinterpret_cast<std::uintptr_t>(s.start);
        pages.push_back({begin / page, (begin + s.bytes + page - 1) / page - begin / page, 0});
    }
    std::sort(pages.begin(), pages.end(), [](const Run& a, const Run& b) { return a.first < b.first; });
    runs_.clear();
    for (const Run& r : pages) {
        if (!runs_.empty() && r.first <= runs_.back().first + runs_.back().count + kGapPages)
            runs_.back().count = std::max(runs_.back().count, r.first + r.count - runs_.back().first);
        else runs_.push_back(r);
    }
    std::size_t total = 0;
    for (Run& r : runs_) {
        r.index = total;
        total += r.count;
    }
    if (runs_.empty()) return false;
    fd_ = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) {
        runs_.clear();
        return false;
    }
    written_.assign(total, 0);
    written_count_ = 0;
    return true;
}

void WrittenPages::report_all(std::vector<const char*>& found) {
    const std::uintptr_t page = page_bytes();
    for (const Run& r : runs_)
        for (std::size_t i = 0; i < r.count; ++i)
            if (!written_[r.index + i]) {
                written_[r.index + i] = 1;
                ++written_count_;
                found.push_back(reinterpret_cast<const char*>((r.first + i) * page));
            }
}

bool WrittenPages::poll(std::vector<const char*>& found) {
    if (fd_ < 0 || written_count_ == written_.size()) return true;  // nothing new can be found
    // A page becomes written through a page fault of this process (copy-on-write of a file
    // or zero page, a first touch of .bss), also when the kernel writes for a system call.
    // Without a new fault since the last look nothing can have changed: a system call of
    // under a microsecond instead of a page map walk (some 25 us for 4 MB of globals).
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
        const long faults = usage.ru_minflt + usage.ru_majflt;
        if (faults == faults_) return true;
        faults_ = faults;
    }
    const std::uintptr_t page = page_bytes();
    for (const Run& r : runs_) {
        // Only the stretches of pages not yet known written are read (pages once written stay
        // so): most of a large image's written pages are in a few long runs.
        std::size_t i = 0;
        while (i < r.count) {
            while (i < r.count && written_[r.index + i]) ++i;
            if (i == r.count) break;
            std::size_t end = i + 1, gap = 0;  // one past the stretch's last unwritten page
            for (std::size_t j = i + 1; j < r.count && gap <= kGapPages; ++j) {
                if (written_[r.index + j]) ++gap;
                else end = j + 1, gap = 0;
            }
            if (!read_entries(r.first + i, end - i)) {
                report_all(found);
                return false;
            }
            for (std::size_t k = i; k < end; ++k)
                if (!written_[r.index + k] && was_written(entries_[k - i])) {
                    written_[r.index + k] = 1;
                    ++written_count_;
                    found.push_back(reinterpret_cast<const char*>((r.first + k) * page));
                }
            i = end;
        }
    }
    return true;
}

bool WrittenPages::read_entries(std::uintptr_t first, std::size_t count) {
    if (read_page_map(fd_, first, count, entries_)) return true;
    close(fd_);
    fd_ = -1;
    return false;
}

std::vector<WrittenPages::Span> WrittenPages::untouched_zero_pages(const std::vector<Span>& spans) {
    std::vector<Span> out;
    // The private anonymous mappings: no file (device 0:0, inode 0), copy on write.
    struct Area {
        std::uintptr_t begin, end;
    };
    std::vector<Area> anonymous;
    if (FILE* maps = std::fopen("/proc/self/maps", "re")) {
        char line[4096];
        while (std::fgets(line, sizeof line, maps)) {
            unsigned long begin = 0, end = 0, offset = 0, inode = 0;
            unsigned major = 0, minor = 0;
            char perms[8] = {};
            if (std::sscanf(line, "%lx-%lx %7s %lx %x:%x %lu", &begin, &end, perms, &offset, &major, &minor, &inode) != 7)
                continue;
            if (perms[3] == 'p' && major == 0 && minor == 0 && inode == 0) anonymous.push_back({begin, end});
        }
        std::fclose(maps);
    }
    if (anonymous.empty()) return out;
    const int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return out;
    const std::uintptr_t page = page_bytes();
    std::vector<std::uint64_t> entries;
    for (const Span& s : spans) {
        const auto begin = reinterpret_cast<std::uintptr_t>(s.start);
        const std::uintptr_t first = (begin + page - 1) / page, end = (begin + s.bytes) / page;  // whole pages
        for (const Area& a : anonymous) {
            const std::uintptr_t lo = std::max(first, a.begin / page), hi = std::min(end, a.end / page);
            if (lo >= hi) continue;
            if (!read_page_map(fd, lo, hi - lo, entries)) {  // unreadable: every page is read
                close(fd);
                return {};
            }
            for (std::uintptr_t p = lo; p < hi; ++p) {
                if (entries[p - lo] & (kPresent | kSwapped)) continue;
                auto* at = reinterpret_cast<const char*>(p * page);
                if (!out.empty() && out.back().start + out.back().bytes == at) out.back().bytes += page;
                else out.push_back({at, page});
            }
        }
    }
    close(fd);
    std::sort(out.begin(), out.end(), [](const Span& a, const Span& b) { return a.start < b.start; });
    return out;
}

const WrittenPages::Run* WrittenPages::run_of(std::uintptr_t page) const {
    auto it = std::upper_bound(runs_.begin(), runs_.end(), page, [](std::uintptr_t p, const Run& r) { return p < r.first; });
    if (it == runs_.begin()) return nullptr;
    --it;
    return page < it->first + it->count ? &*it : nullptr;
}

void WrittenPages::mark(const char* start, std::size_t bytes, std::vector<const char*>& found) {
    const std::uintptr_t page = page_bytes();
    const auto begin = reinterpret_cast<std::uintptr_t>(start);
    for (std::uintptr_t p = begin / page; p * page < begin + bytes; ++p) {
        const Run* r = run_of(p);
        if (!r || written_[r->index + (p - r->first)]) continue;
        written_[r->index + (p - r->first)] = 1;
        ++written_count_;
        found.push_back(reinterpret_cast<const char*>(p * page));
    }
}

bool WrittenPages::written(const char* at) const {
    const std::uintptr_t p = reinterpret_cast<std::uintptr_t>(at) / page_bytes();
    const Run* r = run_of(p);
    return r && written_[r->index + (p - r->first)];
}

}  // namespace xsim::runtime
