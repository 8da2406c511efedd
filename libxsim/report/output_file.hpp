// The files a run writes at its end (-xsim-report, -xsim-regions-out): checked at start,
// before any rank runs, so that a long run cannot end with nowhere to put its results;
// and opened without waiting for anything when the run ends badly.
#pragma once
#include <string>

#include "libxsim/engine/options.hpp"

namespace xsim {

// Collective over the real processes: process 0, which writes them, checks the files of
// -xsim-report and -xsim-regions-out (prepare_output_file); every process returns the
// same answer, "" or the reason.
std::string check_output_files(const Options& options, int process);

// Whether `path` can be written: "" when it can, else "<option> <path>: cannot write
// there: <errno text>". A regular file left there by an earlier run is removed, so
// that a report found after a failed run is always this run's (and so that
// open_abnormal_output can claim it). Devices (/dev/null) and pipes are kept.
std::string prepare_output_file(const char* option, const std::string& path);

// Opens `path` for a report written when the run ends badly: creates it, or returns -1
// when it is already there (another process of this run wrote its report first); an
// existing device or pipe is opened for writing. Async-signal-safe.
int open_abnormal_output(const char* path);

// Small buffered formatting onto a file descriptor, without allocation (usable in a
// signal handler and after heap corruption). Lines longer than the buffer are cut.
class FdWriter {
public:
    explicit FdWriter(int fd) : fd_(fd) {}
    ~FdWriter() { flush(); }
    FdWriter(const FdWriter&) = delete;
    FdWriter& operator=(const FdWriter&) = delete;
    [[gnu::format(printf, 2, 3)]] void print(const char* format, ...);
    // `text` as the body of a JSON string (quotes, backslashes and control characters escaped).
    void json_string(const char* text);
    void flush();
    bool ok() const { return ok_; }

private:
    void put(const char* data, std::size_t size);
    int fd_;
    bool ok_ = true;
    std::size_t used_ = 0;
    char buffer_[4096];
};

}  // namespace xsim
