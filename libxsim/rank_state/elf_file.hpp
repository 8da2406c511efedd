// An ELF file read from disk, mapped read-only for as long as the object lives, the sections
// that are program data (what privatization copies per rank and load_image.cpp puts back as
// loaded), and a loaded object's dynamic section.
#pragma once
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>

namespace xsim::runtime {

class MappedFile {
public:
    explicit MappedFile(const std::string& path) {
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            error_ = "cannot open " + path + ": " + std::strerror(errno);
            return;
        }
        struct stat st;
        if (fstat(fd, &st) != 0 || st.st_size <= 0) {
            close(fd);
            error_ = "cannot read " + path;
            return;
        }
        size_ = static_cast<std::size_t>(st.st_size);
        void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        close(fd);
        if (p == MAP_FAILED) {
            error_ = "cannot map " + path + ": " + std::strerror(errno);
            return;
        }
        image_ = static_cast<const unsigned char*>(p);
    }
    ~MappedFile() {
        if (image_) munmap(const_cast<unsigned char*>(image_), size_);
    }
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;
    const unsigned char* image() const { return image_; }
    std::size_t size() const { return size_; }
    const std::string& error() const { return error_; }  // empty when mapped

private:
    const unsigned char* image_ = nullptr;
    std::size_t size_ = 0;
    std::string error_;
};

// A section of writable, allocated, non-TLS data or .bss (loader sections included: the
// caller leaves those out by name).
inline bool is_program_data(const Elf64_Shdr& s) {
    return (s.sh_flags & SHF_WRITE) && (s.sh_flags & SHF_ALLOC) && !(s.sh_flags & SHF_TLS) &&
           (s.sh_type == SHT_PROGBITS || s.sh_type == SHT_NOBITS) && s.sh_size > 0;
}

// A loaded object's dynamic section (dl_iterate_phdr's `info`), or null.
inline const ElfW(Dyn)* dynamic_section(const dl_phdr_info* info) {
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            return reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    return nullptr;
}

}  // namespace xsim::runtime
