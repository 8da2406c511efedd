#include "libxsim/runtime/program_constructors.hpp"

#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace xsim::runtime {
namespace {

void constructor_taken(int, char**, char**) {}

struct InitArray {
    ElfW(Addr)* entries = nullptr;
    std::size_t count = 0;
    bool read_only_after_relocation = false;  // inside PT_GNU_RELRO: made read-only again
};

// The executable is the first object dl_iterate_phdr reports. Its dynamic section's
// DT_INIT_ARRAY is a link-time address (the loader relocates only some entries in place;
// the C library adds the load bias when it runs the array, and so do we).
int find_init_array(dl_phdr_info* info, std::size_t, void* arg) {
    auto& out = *static_cast<InitArray*>(arg);
    const ElfW(Dyn)* dynamic = nullptr;
    ElfW(Addr) relro_begin = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& ph = info->dlpi_phdr[i];
        if (ph.p_type == PT_DYNAMIC) dynamic = reinterpret_cast<const ElfW(Dyn)*>(info->dlpi_addr + ph.p_vaddr);
        if (ph.p_type == PT_GNU_RELRO) {
            relro_begin = info->dlpi_addr + ph.p_vaddr;
            relro_end = relro_begin + ph.p_memsz;
        }
    }
    if (!dynamic) return 1;
    ElfW(Addr) array = 0, bytes = 0;
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
        if (d->d_tag == DT_INIT_ARRAY) array = d->d_un.d_ptr;
        if (d->d_tag == DT_INIT_ARRAYSZ) bytes = d->d_un.d_val;
    }
    if (array == 0 || bytes < sizeof(ElfW(Addr))) return 1;
    out.entries = reinterpret_cast<ElfW(Addr)*>(info->dlpi_addr + array);
    out.count = bytes / sizeof(ElfW(Addr));
    const auto at = reinterpret_cast<ElfW(Addr)>(out.entries);
    out.read_only_after_relocation = at >= relro_begin && at + bytes <= relro_end;
    return 1;  // only the executable
}

}  // namespace

std::vector<ProgramConstructor> take_program_constructors() {
    InitArray array;
    dl_iterate_phdr(&find_init_array, &array);
    if (array.count == 0) return {};
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(array.entries) & ~(page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(array.entries + array.count) + page - 1) & ~(page - 1);
    void* pages = reinterpret_cast<void*>(begin);
    if (array.read_only_after_relocation && mprotect(pages, end - begin, PROT_READ | PROT_WRITE) != 0) return {};
    std::vector<ProgramConstructor> taken;
    for (std::size_t i = 0; i < array.count; ++i) {
        taken.push_back(reinterpret_cast<ProgramConstructor>(array.entries[i]));
        array.entries[i] = reinterpret_cast<ElfW(Addr)>(&constructor_taken);
    }
    if (array.read_only_after_relocation) mprotect(pages, end - begin, PROT_READ);
    return taken;
}

}  // namespace xsim::runtime
