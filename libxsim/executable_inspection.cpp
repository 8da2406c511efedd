#include "libxsim/executable_inspection.hpp"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace xsim {
namespace {

bool is_mpi_init(const char* name) {
    return std::strcmp(name, "MPI_Init") == 0 || std::strcmp(name, "MPI_Init_thread") == 0 ||
           std::strcmp(name, "mpi_init_") == 0 || std::strcmp(name, "mpi_init_thread_") == 0 ||
           std::strcmp(name, "MPI_INIT") == 0;
}

// Scans the dynamic symbol table of an ELF64 image for an undefined MPI_Init*.
bool scan(const unsigned char* image, std::size_t size) {
    if (size < sizeof(Elf64_Ehdr) || std::memcmp(image, ELFMAG, SELFMAG) != 0 || image[EI_CLASS] != ELFCLASS64)
        return false;
    const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(image);
    if (eh->e_shoff == 0 || eh->e_shoff + eh->e_shnum * sizeof(Elf64_Shdr) > size) return false;
    const auto* sections = reinterpret_cast<const Elf64_Shdr*>(image + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; ++i) {
        const Elf64_Shdr& symtab = sections[i];
        if (symtab.sh_type != SHT_DYNSYM || symtab.sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr& strtab = sections[symtab.sh_link];
        if (symtab.sh_offset + symtab.sh_size > size || strtab.sh_offset + strtab.sh_size > size) return false;
        const auto* syms = reinterpret_cast<const Elf64_Sym*>(image + symtab.sh_offset);
        const std::size_t count = symtab.sh_size / sizeof(Elf64_Sym);
        const char* names = reinterpret_cast<const char*>(image + strtab.sh_offset);
        for (std::size_t s = 0; s < count; ++s) {
            if (syms[s].st_name >= strtab.sh_size) continue;
            if (syms[s].st_shndx == SHN_UNDEF && is_mpi_init(names + syms[s].st_name)) return true;
        }
    }
    return false;
}

}  // namespace

bool executable_imports_mpi_init() {
    const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    bool found = false;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void* image = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (image != MAP_FAILED) {
            found = scan(static_cast<const unsigned char*>(image), static_cast<std::size_t>(st.st_size));
            munmap(image, static_cast<std::size_t>(st.st_size));
        }
    }
    close(fd);
    return found;
}

}  // namespace xsim
