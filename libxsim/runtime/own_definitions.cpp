#include "libxsim/runtime/own_definitions.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "libxsim/rank_state/elf_file.hpp"
#include "libxsim/rank_state/privatization.hpp"

namespace xsim::runtime {
namespace {

// A Fortran entry point's name that C code may also use for a function of its own.
bool fortran_style_name(const char* name) {
    return std::strncmp(name, "mpi_", 4) == 0 || std::strncmp(name, "pmpi_", 5) == 0;
}

bool defined_by_libxsim(std::uintptr_t address) {
    Dl_info where{};
    return address != 0 && dladdr(reinterpret_cast<void*>(address), &where) && where.dli_fname &&
           is_own_library(where.dli_fname);
}

// Whether `address` lies in a segment the object maps.
bool in_object(const dl_phdr_info* info, std::uintptr_t address) {
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& p = info->dlpi_phdr[i];
        if (p.p_type == PT_LOAD && address >= info->dlpi_addr + p.p_vaddr &&
            address < info->dlpi_addr + p.p_vaddr + p.p_memsz)
            return true;
    }
    return false;
}

// Writes `value` at `where`, making its page writable for the write if it is not (RELRO).
void write_word(const dl_phdr_info* info, std::uintptr_t where, std::uintptr_t value) {
    bool read_only = false;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr)& p = info->dlpi_phdr[i];
        if (p.p_type == PT_GNU_RELRO && where >= info->dlpi_addr + p.p_vaddr &&
            where < info->dlpi_addr + p.p_vaddr + p.p_memsz)
            read_only = true;
    }
    const auto page_bytes = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    void* page = reinterpret_cast<void*>(where & ~(page_bytes - 1));
    if (read_only && mprotect(page, page_bytes, PROT_READ | PROT_WRITE) != 0) return;
    *reinterpret_cast<std::uintptr_t*>(where) = value;
    if (read_only) mprotect(page, page_bytes, PROT_READ);
}

struct Walk {
    const std::vector<const void*>* known;
};

void rebind_relocations(const dl_phdr_info* info, const ElfW(Rela)* relocations, std::size_t bytes,
                        const ElfW(Sym)* symbols, const char* names) {
    for (std::size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
        const ElfW(Rela)& r = relocations[i];
        const auto type = ELF64_R_TYPE(r.r_info);
        if (type != R_X86_64_64 && type != R_X86_64_GLOB_DAT && type != R_X86_64_JUMP_SLOT) continue;
        const ElfW(Sym)& sym = symbols[ELF64_R_SYM(r.r_info)];
        if (ELF64_R_SYM(r.r_info) == 0 || sym.st_shndx == SHN_UNDEF || ELF64_ST_TYPE(sym.st_info) != STT_FUNC ||
            !fortran_style_name(names + sym.st_name))
            continue;
        const std::uintptr_t where = info->dlpi_addr + r.r_offset;
        const std::intptr_t addend = type == R_X86_64_64 ? r.r_addend : 0;
        const std::uintptr_t bound = *reinterpret_cast<const std::uintptr_t*>(where) - addend;
        const std::uintptr_t own = info->dlpi_addr + sym.st_value;
        if (bound == own) continue;
        // A slot the loader binds lazily still points into the object's PLT: its first call
        // would bind it to the first definition of the global scope, libxsim's.
        const bool lazy = type == R_X86_64_JUMP_SLOT && in_object(info, bound) &&
                          defined_by_libxsim(reinterpret_cast<std::uintptr_t>(dlsym(RTLD_DEFAULT, names + sym.st_name)));
        if (lazy || defined_by_libxsim(bound)) write_word(info, where, own + addend);
    }
}

int visit(dl_phdr_info* info, std::size_t, void* arg) {
    const Walk& walk = *static_cast<const Walk*>(arg);
    const void* base = reinterpret_cast<const void*>(info->dlpi_addr);
    if (std::find(walk.known->begin(), walk.known->end(), base) != walk.known->end()) return 0;
    const std::string name = info->dlpi_name ? info->dlpi_name : "";
    if (!name.empty() && (is_mpi_library(name) || is_own_library(name))) return 0;
    const ElfW(Dyn)* dynamic = dynamic_section(info);
    if (!dynamic) return 0;
    std::uintptr_t rela = 0, rela_bytes = 0, jmprel = 0, jmprel_bytes = 0, symtab = 0, strtab = 0;
    bool rela_plt = true;
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
        switch (d->d_tag) {
            case DT_RELA: rela = d->d_un.d_ptr; break;
            case DT_RELASZ: rela_bytes = d->d_un.d_val; break;
            case DT_JMPREL: jmprel = d->d_un.d_ptr; break;
            case DT_PLTRELSZ: jmprel_bytes = d->d_un.d_val; break;
            case DT_PLTREL: rela_plt = d->d_un.d_val == DT_RELA; break;
            case DT_SYMTAB: symtab = d->d_un.d_ptr; break;
            case DT_STRTAB: strtab = d->d_un.d_ptr; break;
            default: break;
        }
    }
    if (!symtab || !strtab) return 0;
    // The loader relocates these addresses in place, except where it left them unrelocated.
    auto at = [&](std::uintptr_t p) { return p < info->dlpi_addr ? p + info->dlpi_addr : p; };
    const auto* symbols = reinterpret_cast<const ElfW(Sym)*>(at(symtab));
    const auto* names = reinterpret_cast<const char*>(at(strtab));
    if (rela) rebind_relocations(info, reinterpret_cast<const ElfW(Rela)*>(at(rela)), rela_bytes, symbols, names);
    if (jmprel && rela_plt)
        rebind_relocations(info, reinterpret_cast<const ElfW(Rela)*>(at(jmprel)), jmprel_bytes, symbols, names);
    return 0;
}

}  // namespace

void bind_own_definitions(const std::vector<const void*>& known) {
    Walk walk{&known};
    dl_iterate_phdr(&visit, &walk);
}

}  // namespace xsim::runtime
