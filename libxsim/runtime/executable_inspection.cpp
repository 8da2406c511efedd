#include "libxsim/runtime/executable_inspection.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "libxsim/rank_state/privatization.hpp"

namespace xsim {
namespace {

// C, and Fortran in every gfortran mangling (mpif.h, `use mpi`, `use mpi_f08`).
bool is_mpi_init(const char* name) {
    static const char* const names[] = {"MPI_Init", "MPI_Init_thread", "mpi_init_", "mpi_init__", "mpi_init",
                                        "MPI_INIT", "mpi_init_thread_", "mpi_init_thread__", "mpi_init_thread",
                                        "MPI_INIT_THREAD", "mpi_init_f08_", "mpi_init_thread_f08_"};
    for (const char* n : names)
        if (std::strcmp(name, n) == 0) return true;
    return false;
}

// Calls visit(symbol, name) for each symbol of an ELF64 image's dynamic symbol table until it
// returns true; returns whether one did.
template <class Visit>
bool visit_dynamic_symbols(const unsigned char* image, std::size_t size, Visit&& visit) {
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
        for (std::size_t s = 0; s < count; ++s)
            if (syms[s].st_name < strtab.sh_size && visit(syms[s], names + syms[s].st_name)) return true;
    }
    return false;
}

// visit_dynamic_symbols over the ELF file at `path` (false if it cannot be read).
template <class Visit>
bool for_each_dynamic_symbol(const char* path, Visit&& visit) {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    bool found = false;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void* image = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (image != MAP_FAILED) {
            found = visit_dynamic_symbols(static_cast<const unsigned char*>(image), static_cast<std::size_t>(st.st_size),
                                          visit);
            munmap(image, static_cast<std::size_t>(st.st_size));
        }
    }
    close(fd);
    return found;
}

// Whether the ELF file at `path` imports (an undefined dynamic symbol) a name `wanted` accepts.
bool file_imports(const char* path, bool (*wanted)(const char*)) {
    return for_each_dynamic_symbol(path, [&](const Elf64_Sym& sym, const char* name) {
        return sym.st_shndx == SHN_UNDEF && wanted(name);
    });
}

// A loaded library, not MPI's own nor libxsim, that calls MPI_Init for the program.
int library_imports_mpi_init(dl_phdr_info* info, std::size_t, void* found) {
    const char* name = info->dlpi_name;
    if (!name || !*name || runtime::is_mpi_library(name) || runtime::is_own_library(name)) return 0;
    if (file_imports(name, is_mpi_init)) {
        *static_cast<bool*>(found) = true;
        return 1;  // stops the walk
    }
    return 0;
}

// The functions by which an interpreter's executable enters the interpreter: Python's
// (defined in /usr/bin/python3, or imported from a libpython), R's (exec/R is a main of
// three lines that calls Rf_initialize_R and Rf_mainloop of libR.so) and Ruby's (ruby's main
// calls ruby_options and ruby_run_node of libruby; ruby-mpi's mpi.so imports MPI_Init).
bool is_interpreter_entry(const char* name) {
    return std::strcmp(name, "Py_BytesMain") == 0 || std::strcmp(name, "Rf_initialize_R") == 0 ||
           std::strcmp(name, "ruby_run_node") == 0;
}

// The functions by which a program embeds an interpreter of its own: Smilei's main calls
// Py_Initialize of libpython and runs its input file in it; an embedded R (Rf_initEmbeddedR)
// or Ruby (ruby_setup, ruby_init) likewise. Natively each process has its interpreter.
bool is_embedding_entry(const char* name) {
    static const char* const entries[] = {"Py_Initialize", "Py_InitializeEx", "Py_InitializeFromConfig",
                                          "Rf_initEmbeddedR", "ruby_setup", "ruby_init"};
    for (const char* entry : entries)
        if (std::strcmp(name, entry) == 0) return true;
    return false;
}

// Appends the functions the ELF file at `path` defines (its dynamic symbol table).
void add_defined_functions(const char* path, std::vector<std::string>& found) {
    for_each_dynamic_symbol(path, [&](const Elf64_Sym& sym, const char* name) {
        if (sym.st_shndx != SHN_UNDEF && ELF64_ST_TYPE(sym.st_info) == STT_FUNC && *name) found.emplace_back(name);
        return false;
    });
}

// The functions the program defines for the libraries it loads (the dynamic symbol tables of
// the executable and of its interpreter library), sorted. Functions only: the C library's
// variables the executable refers to (stdout, environ) are defined in its .bss too, as
// copies. (Nor dlsym: a non-PIE executable that takes the address of a C library function
// has that function's canonical address in its own PLT.)
const std::vector<std::string>& program_definitions() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> found;
        add_defined_functions("/proc/self/exe", found);
        if (const std::string& library = interpreter_library(); !library.empty())
            add_defined_functions(library.c_str(), found);
        std::sort(found.begin(), found.end());
        return found;
    }();
    return names;
}

}  // namespace

bool imports_from_program(const std::string& path) {
    const std::vector<std::string>& program = program_definitions();
    return !program.empty() && for_each_dynamic_symbol(path.c_str(), [&](const Elf64_Sym& sym, const char* name) {
        return sym.st_shndx == SHN_UNDEF && std::binary_search(program.begin(), program.end(), name);
    });
}

bool program_is_interpreter() {
    return for_each_dynamic_symbol("/proc/self/exe",
                                   [](const Elf64_Sym&, const char* name) { return is_interpreter_entry(name); });
}

const std::string& interpreter_library() {
    static const std::string library = [] {
        std::string found;
        for_each_dynamic_symbol("/proc/self/exe", [&](const Elf64_Sym& sym, const char* name) {
            if (sym.st_shndx != SHN_UNDEF || !(is_interpreter_entry(name) || is_embedding_entry(name))) return false;
            Dl_info where{};
            void* entry = dlsym(RTLD_DEFAULT, name);
            if (entry && dladdr(entry, &where) && where.dli_fname && *where.dli_fname) found = where.dli_fname;
            return !found.empty();
        });
        return found;
    }();
    return library;
}

bool is_interpreter_library(const std::string& path) {
    return !path.empty() && path == interpreter_library();
}

bool program_imports_mpi_init() {
    if (file_imports("/proc/self/exe", is_mpi_init)) return true;
    bool found = false;
    dl_iterate_phdr(&library_imports_mpi_init, &found);
    return found;
}

namespace {

// The first loaded library after libxsim (in the loader's search order) that defines an MPI
// call of the program's own: a PMPI tool whose wrappers the program's calls never reach.
struct ToolSearch {
    bool past_libxsim = false;
    std::string tool;
};

bool defines_mpi_entry(const char* path) {
    return for_each_dynamic_symbol(path, [](const Elf64_Sym& sym, const char* name) {
        return sym.st_shndx != SHN_UNDEF && ELF64_ST_TYPE(sym.st_info) == STT_FUNC &&
               (std::strcmp(name, "MPI_Init") == 0 || std::strcmp(name, "MPI_Finalize") == 0);
    });
}

int find_tool_behind_libxsim(dl_phdr_info* info, std::size_t, void* arg) {
    auto& search = *static_cast<ToolSearch*>(arg);
    const char* name = info->dlpi_name;
    if (!name || !*name) return 0;  // the executable (always first) or the vDSO
    if (runtime::is_own_library(name)) {
        search.past_libxsim = true;
        return 0;
    }
    if (!search.past_libxsim || runtime::is_mpi_library(name) || !defines_mpi_entry(name)) return 0;
    search.tool = name;
    return 1;
}

}  // namespace

std::string pmpi_tool_behind_libxsim() {
    ToolSearch search;
    dl_iterate_phdr(&find_tool_behind_libxsim, &search);
    return search.tool;
}

std::string loaded_conservative_collector() {
    void* collector = dlsym(RTLD_DEFAULT, "GC_malloc");
    Dl_info where{};
    if (!collector || !dlsym(RTLD_DEFAULT, "GC_gcollect")) return "";
    return dladdr(collector, &where) && where.dli_fname ? where.dli_fname : "libgc";
}

const void* loaded_object_base(const void* address) {
    Dl_info where{};
    return dladdr(address, &where) ? where.dli_fbase : nullptr;
}

bool in_program_object(const void* code) {
    const MainFunction main = g_engine ? g_engine->application_main() : nullptr;
    const void* base = main ? loaded_object_base(code) : nullptr;
    return base && base == loaded_object_base(reinterpret_cast<void*>(main));
}

}  // namespace xsim
