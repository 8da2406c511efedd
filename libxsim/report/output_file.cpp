#include "libxsim/report/output_file.hpp"

#include <fcntl.h>
#include <mpi.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {

std::string prepare_output_file(const char* option, const std::string& path) {
    auto refused = [&](int error) {
        return std::string(option) + " " + path + ": cannot write there: " + std::strerror(error);
    };
    if (path.empty()) return std::string(option) + ": expected a file name";
    struct stat st;
    if (stat(path.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) return refused(EISDIR);
        const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) return refused(errno);
        close(fd);
        if (S_ISREG(st.st_mode) && unlink(path.c_str()) != 0) return refused(errno);
        return "";
    }
    if (errno != ENOENT) return refused(errno);
    // Try it: creating the file is the only check that sees every reason (a missing
    // directory, permissions, a read-only file system, quotas on inodes).
    const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) return refused(errno);
    close(fd);
    unlink(path.c_str());
    return "";
}

std::string check_output_files(const Options& options, int process) {
    std::string why;
    if (process == 0) {
        if (!options.report_path.empty()) why = prepare_output_file("-xsim-report", options.report_path);
        if (why.empty() && !options.regions_out.empty()) why = prepare_output_file("-xsim-regions-out", options.regions_out);
        if (why.empty() && !options.profile_path.empty()) why = prepare_output_file("-xsim-profile", options.profile_path);
        if (why.empty() && !options.commmatrix_path.empty())
            why = prepare_output_file("-xsim-commmatrix", options.commmatrix_path);
    }
    int length = static_cast<int>(why.size());
    real_mpi.Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
    why.resize(static_cast<std::size_t>(length));
    if (length > 0) real_mpi.Bcast(why.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
    return why;
}

int open_abnormal_output(const char* path) {
    const int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
    struct stat st;
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return -1;
    return open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
}

void FdWriter::put(const char* data, std::size_t size) {
    while (size > 0) {
        if (used_ == sizeof buffer_) flush();
        const std::size_t n = size < sizeof buffer_ - used_ ? size : sizeof buffer_ - used_;
        std::memcpy(buffer_ + used_, data, n);
        used_ += n;
        data += n;
        size -= n;
    }
}

void FdWriter::print(const char* format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    const int n = std::vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (n > 0) put(line, static_cast<std::size_t>(n) < sizeof line ? static_cast<std::size_t>(n) : sizeof line - 1);
}

void FdWriter::json_string(const char* text) {
    for (const char* c = text; *c; ++c) {
        const auto u = static_cast<unsigned char>(*c);
        if (u == '"' || u == '\\') {
            const char escaped[2] = {'\\', *c};
            put(escaped, 2);
        } else if (u < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", u);
            put(escaped, 6);
        } else {
            put(c, 1);
        }
    }
}

void FdWriter::flush() {
    std::size_t done = 0;
    while (done < used_) {
        const ssize_t n = write(fd_, buffer_ + done, used_ - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ok_ = false;
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    used_ = 0;
}

}  // namespace xsim
