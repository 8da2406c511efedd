#include "libxsim/rank_state/privatization.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "libxsim/rank_state/elf_file.hpp"
#include "pdes/small_copy.hpp"

namespace xsim::runtime {
namespace {

// Images from this size on are switched by written page (written_pages.hpp): below it,
// copying the whole image costs less than reading the page map (about 8 us for 700 pages).
constexpr std::size_t kTrackPagesFrom = 128 * 1024;

// Runs of written pages from Privatization::kRemapFloor (64 KiB) on may be remapped at a switch
// instead of copied both ways: on bare metal a map costs some 5-10 us, plus about a microsecond
// for each page of the run the rank then touches; copying a page out and in costs 0.5-1.5 us
// (bench/RESULTS.md, "Session 27": Quantum ESPRESSO ran as fast from 32 to 256 KiB, slower from
// 8 KiB, many small maps). Whether they are, and from which length, is measured on the host
// (remap_cost.hpp; "Session 40": under a shadowing hypervisor, none).

// Runs of written pages this close (unwritten pages between them) are remapped as one, when
// the gap is no longer than the runs it joins (so that it at most doubles what a rank's slot
// takes): each map costs some 10-20 us of the kernel's work on its areas (splitting,
// merging the old ones), whatever its length, while the pages between cost a rank's slot
// their bytes and, when a rank touches them, a fault (bench/RESULTS.md, "Session 36":
// MITgcm's 7.8 MB of written COMMON blocks in 11 runs, 88-620 KiB apart, now in 2).
constexpr std::size_t kBridgeUpTo = 1024 * 1024;

// A switch moves the remapped runs' pages (mremap: the page table entries go with them) from
// the live addresses to the outgoing rank's place in the memory file's mapping and the incoming
// rank's from there, instead of mapping the file over the live pages: a rank then faults only
// on pages it never touched before, and nothing is zapped (bench/RESULTS.md, "Session 37":
// MITgcm, whose ranks faulted again on every page they touched in every turn). The kernel
// moves a whole page table (2 MiB of pages) at once where the source and destination are both
// aligned to it: the pieces of an image that can hold such a block (2 MiB or more) are laid
// out in their slots at the same place in a 2 MiB block as live, the others at their place in
// a page (the slots are virtual memory of a sparse file: the padding costs no memory, and
// each such piece at most 2 MiB of address space per rank), so that only the ends of a long
// run are moved entry by entry.
constexpr std::size_t kTableBytes = 2 * 1024 * 1024;

// Writable sections that are not program data: owned by the loader (GOT, dynamic section,
// constructor tables) or made read-only after relocation (RELRO).
bool is_loader_section(const char* name) {
    static const char* const kNames[] = {".got", ".got.plt", ".dynamic", ".init_array", ".fini_array",
                                         ".preinit_array", ".ctors", ".dtors", ".jcr"};
    for (const char* n : kNames)
        if (std::strcmp(name, n) == 0) return true;
    return std::strncmp(name, ".data.rel.ro", 12) == 0;
}

// `ranges` minus every range of `holes`.
std::vector<Range> subtract(const std::vector<Range>& ranges, const std::vector<Range>& holes) {
    std::vector<Range> out;
    for (const Range& r : ranges) {
        std::vector<Range> pieces{r};
        for (const Range& h : holes) {
            std::vector<Range> next;
            for (const Range& p : pieces) {
                if (h.end <= p.begin || h.begin >= p.end) {
                    next.push_back(p);
                    continue;
                }
                if (p.begin < h.begin) next.push_back({p.begin, h.begin});
                if (h.end < p.end) next.push_back({h.end, p.end});
            }
            pieces = std::move(next);
        }
        out.insert(out.end(), pieces.begin(), pieces.end());
    }
    std::sort(out.begin(), out.end(), [](const Range& a, const Range& b) { return a.begin < b.begin; });
    // Adjacent pieces (e.g. .data followed by .bss) are copied in one go.
    std::vector<Range> merged;
    for (const Range& r : out) {
        if (!merged.empty() && merged.back().end == r.begin) merged.back().end = r.end;
        else merged.push_back(r);
    }
    return merged;
}

}  // namespace

ElfData parse_elf_data(const unsigned char* image, std::size_t size) {
    ElfData d;
    if (size < sizeof(Elf64_Ehdr) || std::memcmp(image, ELFMAG, SELFMAG) != 0 || image[EI_CLASS] != ELFCLASS64) {
        d.error = "not a 64-bit ELF file";
        return d;
    }
    const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(image);
    if (eh->e_machine != EM_X86_64) {
        d.error = "not an x86-64 ELF file";
        return d;
    }
    if (eh->e_shoff == 0 || eh->e_shoff + std::size_t{eh->e_shnum} * sizeof(Elf64_Shdr) > size ||
        eh->e_shstrndx >= eh->e_shnum || eh->e_phoff + std::size_t{eh->e_phnum} * sizeof(Elf64_Phdr) > size) {
        d.error = "no readable section headers (stripped of them?)";
        return d;
    }
    const auto* sections = reinterpret_cast<const Elf64_Shdr*>(image + eh->e_shoff);
    const auto* segments = reinterpret_cast<const Elf64_Phdr*>(image + eh->e_phoff);
    std::vector<Range> holes, read_only;
    for (int i = 0; i < eh->e_phnum; ++i) {
        if (segments[i].p_type == PT_GNU_RELRO)
            read_only.push_back({segments[i].p_vaddr, segments[i].p_vaddr + segments[i].p_memsz});
        if (segments[i].p_type == PT_TLS) d.tls_bytes = segments[i].p_memsz;
    }
    holes = read_only;
    const Elf64_Shdr& names = sections[eh->e_shstrndx];
    if (names.sh_offset + names.sh_size > size) {
        d.error = "section name table out of the file";
        return d;
    }
    std::vector<Range> data;
    for (int i = 0; i < eh->e_shnum; ++i) {
        const Elf64_Shdr& s = sections[i];
        const char* name = s.sh_name < names.sh_size ? reinterpret_cast<const char*>(image + names.sh_offset + s.sh_name) : "";
        if (is_program_data(s) && !is_loader_section(name)) data.push_back({s.sh_addr, s.sh_addr + s.sh_size});
        // Copy relocations: the loader copies another object's variable into this file's
        // .bss and every library uses that copy from then on.
        if (s.sh_type != SHT_RELA || s.sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr& symtab = sections[s.sh_link];
        if (symtab.sh_type != SHT_DYNSYM || s.sh_offset + s.sh_size > size || symtab.sh_offset + symtab.sh_size > size)
            continue;
        const auto* rela = reinterpret_cast<const Elf64_Rela*>(image + s.sh_offset);
        const auto* syms = reinterpret_cast<const Elf64_Sym*>(image + symtab.sh_offset);
        const std::size_t nsyms = symtab.sh_size / sizeof(Elf64_Sym);
        const Elf64_Shdr* symbol_names = symtab.sh_link < eh->e_shnum ? &sections[symtab.sh_link] : nullptr;
        for (std::size_t r = 0; r < s.sh_size / sizeof(Elf64_Rela); ++r) {
            if (ELF64_R_TYPE(rela[r].r_info) != R_X86_64_COPY) continue;
            const std::size_t sym = ELF64_R_SYM(rela[r].r_info);
            const std::size_t bytes = sym < nsyms ? syms[sym].st_size : 0;
            const Range copy{rela[r].r_offset, rela[r].r_offset + std::max<std::size_t>(bytes, 1)};
            // A copy of a constant (a vtable, a const table) goes to .data.rel.ro, read-only once
            // relocated: the same for every rank, and never to be written at a switch.
            const bool constant = std::any_of(read_only.begin(), read_only.end(), [&](const Range& ro) {
                return copy.begin >= ro.begin && copy.end <= ro.end;
            });
            if (constant) continue;
            d.copies.push_back(copy);
            const bool named = sym < nsyms && symbol_names && symbol_names->sh_offset + symbol_names->sh_size <= size &&
                               syms[sym].st_name < symbol_names->sh_size;
            d.copy_symbols.push_back(
                named ? std::string(reinterpret_cast<const char*>(image + symbol_names->sh_offset + syms[sym].st_name))
                      : std::string());
        }
    }
    holes.insert(holes.end(), d.copies.begin(), d.copies.end());
    d.data = subtract(data, holes);
    return d;
}

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.compare(0, std::strlen(prefix), prefix) == 0; }

std::string base_name(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// `path` with "." and ".." resolved and repeated slashes merged, as names, without the file
// system (an absolute path: ".." of the root is the root).
std::string lexically_normal(const std::string& path) {
    if (path.find("/.") == std::string::npos && path.find("//") == std::string::npos) return path;
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at <= path.size()) {
        std::size_t end = path.find('/', at);
        if (end == std::string::npos) end = path.size();
        const std::string part = path.substr(at, end - at);
        if (part == "..") {
            if (!parts.empty()) parts.pop_back();
        } else if (!part.empty() && part != ".") {
            parts.push_back(part);
        }
        at = end + 1;
    }
    std::string out;
    for (const std::string& part : parts) out += "/" + part;
    return out;
}

bool is_system_object(const std::string& loaded_path) {
    // The loader names a library by the path it found it at: through a DT_RUNPATH of
    // $ORIGIN/../lib/x86_64-linux-gnu (ParaView's pvbatch in /usr/bin) every library, the C
    // library too, is /usr/bin/../lib/x86_64-linux-gnu/...
    const std::string path = loaded_path.empty() || loaded_path[0] != '/' ? loaded_path : lexically_normal(loaded_path);
    static const char* const kDirs[] = {"/lib/", "/lib32/", "/lib64/", "/libx32/", "/usr/lib/", "/usr/lib32/", "/usr/lib64/",
                                        "/usr/libx32/"};
    for (const char* dir : kDirs)
        if (starts_with(path, dir)) return true;
    return starts_with(path, "linux-vdso") || starts_with(path, "linux-gate");
}

}  // namespace

LoadedObject describe_loaded_object(const dl_phdr_info* info, std::string path) {
    LoadedObject o;
    o.path = std::move(path);
    const ElfW(Dyn)* dynamic = dynamic_section(info);
    if (!dynamic) return o;
    std::uintptr_t strtab = 0;
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d)
        if (d->d_tag == DT_STRTAB) strtab = d->d_un.d_ptr;
    if (strtab == 0) return o;
    if (strtab < info->dlpi_addr) strtab += info->dlpi_addr;  // where the loader left it unrelocated
    for (const ElfW(Dyn)* d = dynamic; d->d_tag != DT_NULL; ++d) {
        const char* text = reinterpret_cast<const char*>(strtab + d->d_un.d_val);
        if (d->d_tag == DT_NEEDED) o.needed.emplace_back(text);
        if (d->d_tag == DT_SONAME) o.soname = text;
    }
    return o;
}

bool is_mpi_library(const std::string& path) {
    const std::string name = base_name(path);
    // "libmpi" alone is no prefix: PMPI tools are named after MPI too (mpiP's libmpiP.so,
    // valgrind's libmpiwrap-*.so, IBM's libmpitrace.so) and their globals are per rank. MPI's
    // own: libmpi.so, libmpi_cxx, libmpi_mpifh, libmpi_usempif08 (Open MPI, Intel MPI),
    // libmpich*, libmpicxx, libmpifort (MPICH, Intel MPI), libmpl (MPICH's utilities).
    if (starts_with(name, "libmpi")) {
        const std::string rest = name.substr(6);
        static const char* const kMpiRests[] = {".", "_", "ch", "cxx.", "fort.", "f77.", "f90.", "f08."};
        for (const char* r : kMpiRests)
            if (starts_with(rest, r)) return true;
        return false;
    }
    static const char* const kPrefixes[] = {"libopen-pal", "libopen-rte", "libmca_", "mca_",    "libpmi",  "libpmix",
                                            "libompitrace", "libucp",     "libucs",  "libuct",  "libfabric",
                                            "libhwloc",    "libevent",    "libprrte", "libfmpich", "libmpl."};
    for (const char* p : kPrefixes)
        if (starts_with(name, p)) return true;
    return false;
}

namespace {

// The file libxsim was loaded from.
const std::string& own_path() {
    static const std::string path = [] {
        Dl_info info{};
        return dladdr(reinterpret_cast<void*>(&is_mpi_library), &info) && info.dli_fname ? std::string(info.dli_fname)
                                                                                      : std::string();
    }();
    return path;
}

// The paths of the objects the real MPI library loaded for itself (note_loaded_by_mpi): set
// once at start-up, before any rank runs, then only read.
std::vector<std::string>& mpi_loaded_paths() {
    static std::vector<std::string> paths;
    return paths;
}


// Writable bytes an object maps (its writable PT_LOAD segments), for objects that cannot
// be read.
std::size_t writable_bytes(const dl_phdr_info* info) {
    std::size_t bytes = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i)
        if (info->dlpi_phdr[i].p_type == PT_LOAD && (info->dlpi_phdr[i].p_flags & PF_W)) bytes += info->dlpi_phdr[i].p_memsz;
    return bytes;
}

struct Walk {
    Discovery* out = nullptr;
    bool first = true;
    // For objects loaded after start-up (discover_loaded): the objects to skip, and which
    // objects of the system directories are per rank after all.
    const std::vector<const void*>* known = nullptr;
    bool (*system_object_is_per_rank)(const std::string& path) = nullptr;
    // The loaded objects that are built on MPI (built_on_mpi), by path.
    std::vector<std::string> on_mpi;
    // The executable's copy relocations (their live addresses) and the variables they copy.
    std::vector<Range> executable_copies;
    std::vector<std::string> copied_symbols;
};

// The loaded object (not the executable) whose variable `symbol` the loader copied into the
// executable: the first in load order that defines it.
std::string copy_source(const std::string& symbol) {
    struct Search {
        const std::string* symbol = nullptr;
        bool first = true;
        std::string found;
    } search;
    search.symbol = &symbol;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* arg) {
            Search& s = *static_cast<Search*>(arg);
            if (std::exchange(s.first, false) || !info->dlpi_name || !*info->dlpi_name) return 0;
            void* handle = dlopen(info->dlpi_name, RTLD_NOLOAD | RTLD_LAZY);
            if (!handle) return 0;
            Dl_info where{};
            void* at = dlsym(handle, s.symbol->c_str());
            const bool here = at && dladdr(at, &where) && where.dli_fname &&
                              std::strcmp(where.dli_fname, info->dlpi_name) == 0;
            dlclose(handle);
            if (!here) return 0;
            s.found = info->dlpi_name;
            return 1;
        },
        &search);
    return search.found;
}


// The calling thread's block of thread-locals of TLS module `module`, allocated if it was not
// (the x86-64 ABI's __tls_get_addr, which code of the module calls on its first access).
extern "C" void* __tls_get_addr(void*);
void* thread_locals_of_module(std::size_t module) {
    struct {
        unsigned long module;
        unsigned long offset;
    } index{module, 0};
    return __tls_get_addr(&index);
}

int visit(dl_phdr_info* info, std::size_t, void* arg) {
    Walk& walk = *static_cast<Walk*>(arg);
    Discovery& out = *walk.out;
    const bool executable = walk.first;
    walk.first = false;
    if (walk.known) {  // objects loaded since: the executable and the known ones are not
        const void* base = reinterpret_cast<const void*>(info->dlpi_addr);
        if (executable || std::find(walk.known->begin(), walk.known->end(), base) != walk.known->end()) return 0;
    }
    const std::string name = executable ? executable_path() : std::string(info->dlpi_name ? info->dlpi_name : "");
    const bool per_rank_anyway = std::find(walk.on_mpi.begin(), walk.on_mpi.end(), name) != walk.on_mpi.end();
    if (name.empty() || (is_system_object(name) && is_foreign_object(name, per_rank_anyway))) return 0;
    // libxsim's own data stays shared; the executable is never libxsim, even where xsim is
    // linked into it statically (the unit tests) and dladdr names it like the program.
    if (!executable && name == own_path()) return 0;
    if (is_mpi_library(name)) {
        out.uncovered.push_back(name + " (an MPI library: its state stays per process)");
        return 0;
    }
    if (loaded_by_mpi(name)) {
        out.uncovered.push_back(name + " (loaded by the MPI library for itself: its state stays per process)");
        return 0;
    }
    const ElfData d = read_elf_data(executable ? "/proc/self/exe" : name);
    if (!d.error.empty()) {
        out.uncovered.push_back(name + " (" + d.error + ")");
        out.uncovered_bytes += writable_bytes(info);
        return 0;
    }
    for (const Range& r : d.data)
        out.segments.push_back({reinterpret_cast<char*>(info->dlpi_addr + r.begin), r.end - r.begin, "data of " + name});
    if (executable) {
        for (const Range& r : d.copies) walk.executable_copies.push_back({info->dlpi_addr + r.begin, info->dlpi_addr + r.end});
        walk.copied_symbols = d.copy_symbols;
    }
    if (d.tls_bytes > 0) {
        void* tls = info->dlpi_tls_data;
        // A library loaded by dlopen gets its thread-locals on a thread's first use of them:
        // the simulation thread's block is made now, from the library's initial image.
        if (!tls && walk.known && info->dlpi_tls_modid != 0) tls = thread_locals_of_module(info->dlpi_tls_modid);
        if (!tls) {
            out.uncovered.push_back(name + " (its thread-locals are not allocated on the simulation thread)");
            out.uncovered_bytes += d.tls_bytes;
            return 0;
        }
        out.segments.push_back({static_cast<char*>(tls), d.tls_bytes, "thread-locals of " + name});
    }
    out.covered.push_back(name);
    if (executable) out.executable_covered = true;
    return 0;
}

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }
std::size_t round_down(std::size_t n, std::size_t to) { return n / to * to; }

}  // namespace

ElfData read_elf_data(const std::string& path) {
    const MappedFile file(path);
    if (!file.error().empty()) {
        ElfData d;
        d.error = file.error();
        return d;
    }
    return parse_elf_data(file.image(), file.size());
}

const std::string& executable_path() {
    static const std::string path = [] {
        char buf[4096];
        const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("the executable");
    }();
    return path;
}

bool answers_to(const LoadedObject& o, const std::string& name) {
    return o.path == name || (!o.soname.empty() && o.soname == name);
}

// Every loaded object (the executable first, under its path) with its dynamic names.
std::vector<LoadedObject> loaded_object_names() {
    struct Collect {
        std::vector<LoadedObject> objects;
        bool first = true;
    } collect;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* arg) {
            Collect& c = *static_cast<Collect*>(arg);
            const bool executable = std::exchange(c.first, false);
            c.objects.push_back(
                describe_loaded_object(info, executable ? executable_path() : std::string(info->dlpi_name ? info->dlpi_name : "")));
            c.objects.back().mpi_loaded = !executable && loaded_by_mpi(c.objects.back().path);
            return 0;
        },
        &collect);
    return collect.objects;
}

namespace {

// Calls visit(symbol, name) for each symbol of the dynamic symbol tables (SHT_DYNSYM) of
// `file`, the null entry aside, `name` empty when it lies outside its string table; stops
// when visit returns false. Nothing for a file that is not 64-bit ELF or whose section
// headers lie outside it.
template <class Visit>
void for_each_mapped_dynamic_symbol(const MappedFile& file, Visit&& visit) {
    if (!file.error().empty() || file.size() < sizeof(Elf64_Ehdr)) return;
    const unsigned char* image = file.image();
    const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(image);
    if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff == 0 ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > file.size() ||
        eh->e_shnum > (file.size() - eh->e_shoff) / sizeof(Elf64_Shdr))
        return;
    const auto* sh = reinterpret_cast<const Elf64_Shdr*>(image + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; ++i) {
        if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_entsize != sizeof(Elf64_Sym) || sh[i].sh_offset > file.size() ||
            sh[i].sh_size > file.size() - sh[i].sh_offset)
            continue;
        const char* strings = nullptr;
        std::size_t strings_size = 0;
        if (sh[i].sh_link < eh->e_shnum) {
            const Elf64_Shdr& strtab = sh[sh[i].sh_link];
            if (strtab.sh_offset <= file.size() && strtab.sh_size <= file.size() - strtab.sh_offset) {
                strings = reinterpret_cast<const char*>(image + strtab.sh_offset);
                strings_size = strtab.sh_size;
            }
        }
        const auto* sym = reinterpret_cast<const Elf64_Sym*>(image + sh[i].sh_offset);
        for (std::size_t k = 1; k < sh[i].sh_size / sizeof(Elf64_Sym); ++k) {
            const char* name = "";
            if (sym[k].st_name < strings_size &&
                std::memchr(strings + sym[k].st_name, '\0', strings_size - sym[k].st_name))
                name = strings + sym[k].st_name;
            if (!visit(sym[k], name)) return;
        }
    }
}

}  // namespace

FileDynamic dynamic_of_file(const std::string& path) {
    FileDynamic out;
    MappedFile file(path);
    if (!file.error().empty() || file.size() < sizeof(Elf64_Ehdr)) return out;
    const unsigned char* image = file.image();
    const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(image);
    if (std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > file.size() ||
        eh->e_phnum > (file.size() - eh->e_phoff) / sizeof(Elf64_Phdr))
        return out;
    out.readable = true;
    const auto* ph = reinterpret_cast<const Elf64_Phdr*>(image + eh->e_phoff);
    // A virtual address's place in the file, or 0.
    const auto offset_of = [&](Elf64_Addr address) -> std::size_t {
        for (int i = 0; i < eh->e_phnum; ++i)
            if (ph[i].p_type == PT_LOAD && address >= ph[i].p_vaddr && address < ph[i].p_vaddr + ph[i].p_filesz)
                return static_cast<std::size_t>(address - ph[i].p_vaddr + ph[i].p_offset);
        return 0;
    };
    for (int i = 0; i < eh->e_phnum; ++i) {
        if (ph[i].p_type != PT_DYNAMIC || ph[i].p_offset > file.size() || ph[i].p_filesz > file.size() - ph[i].p_offset)
            continue;
        const auto* dyn = reinterpret_cast<const Elf64_Dyn*>(image + ph[i].p_offset);
        const std::size_t count = ph[i].p_filesz / sizeof(Elf64_Dyn);
        std::size_t strtab = 0, strsz = 0;
        for (std::size_t d = 0; d < count && dyn[d].d_tag != DT_NULL; ++d) {
            if (dyn[d].d_tag == DT_STRTAB) strtab = offset_of(dyn[d].d_un.d_ptr);
            if (dyn[d].d_tag == DT_STRSZ) strsz = dyn[d].d_un.d_val;
            if (dyn[d].d_tag == DT_FLAGS_1 && (dyn[d].d_un.d_val & DF_1_NODELETE)) out.no_delete = true;
        }
        if (strtab == 0 || strtab > file.size() || strsz > file.size() - strtab) return out;
        const auto string_at = [&](Elf64_Xword at) {
            const char* name = reinterpret_cast<const char*>(image + strtab + at);
            return std::string(name, strnlen(name, strsz - at));
        };
        for (std::size_t d = 0; d < count && dyn[d].d_tag != DT_NULL; ++d) {
            if (dyn[d].d_un.d_val >= strsz) continue;
            if (dyn[d].d_tag == DT_NEEDED) out.needed.push_back(string_at(dyn[d].d_un.d_val));
            if (dyn[d].d_tag == DT_RPATH) out.rpath = string_at(dyn[d].d_un.d_val);
            if (dyn[d].d_tag == DT_RUNPATH) out.runpath = string_at(dyn[d].d_un.d_val);
        }
    }
    // A defined STB_GNU_UNIQUE symbol (a C++ inline function's static, a template's static
    // member): the loader marks the library not to be unloaded once such a symbol is bound.
    if (!out.no_delete)
        for_each_mapped_dynamic_symbol(file, [&](const Elf64_Sym& symbol, const char*) {
            out.no_delete = ELF64_ST_BIND(symbol.st_info) == STB_GNU_UNIQUE && symbol.st_shndx != SHN_UNDEF;
            return !out.no_delete;
        });
    return out;
}

std::vector<std::string> needed_libraries_of_file(const std::string& path) { return dynamic_of_file(path).needed; }

bool is_own_library(const std::string& path) { return !path.empty() && path == own_path(); }

bool is_foreign_object(const std::string& path, bool on_mpi) {
    return path.empty() || is_mpi_library(path) || path == own_path() || loaded_by_mpi(path) ||
           (is_system_object(path) && !on_mpi);
}

void note_loaded_by_mpi(const std::vector<const void*>& before) {
    struct Collect {
        const std::vector<const void*>* before = nullptr;
        std::vector<std::string> paths;
    } collect;
    collect.before = &before;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* arg) {
            Collect& c = *static_cast<Collect*>(arg);
            const void* base = reinterpret_cast<const void*>(info->dlpi_addr);
            if (info->dlpi_name && *info->dlpi_name &&
                std::find(c.before->begin(), c.before->end(), base) == c.before->end())
                c.paths.emplace_back(info->dlpi_name);
            return 0;
        },
        &collect);
    std::vector<std::string>& paths = mpi_loaded_paths();
    for (std::string& path : collect.paths)
        if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(std::move(path));
}

bool loaded_by_mpi(const std::string& path) {
    const std::vector<std::string>& paths = mpi_loaded_paths();
    return !path.empty() && std::find(paths.begin(), paths.end(), path) != paths.end();
}

bool is_named_by(const LoadedObject& o, const std::string& needed) {
    return needed == o.soname || needed == base_name(o.path);
}

bool keeps_registry_of_program_objects(const std::string& path) {
    const std::string name = base_name(path);
    return starts_with(name, "libboost_serialization") || starts_with(name, "libboost_wserialization");
}

bool is_mpi_layer_of(const std::string& layer, const std::string& needed) {
    const std::string name = base_name(layer), wanted = base_name(needed);
    const std::size_t so = wanted.find(".so");
    if (so == std::string::npos || so < 4 || !starts_with(wanted, "lib")) return false;
    const std::string stem = wanted.substr(0, so);  // libfftw3
    if (name.size() <= stem.size() + 1 || name.compare(0, stem.size(), stem) != 0) return false;
    const char separator = name[stem.size()];
    if (separator != '_' && separator != '-') return false;
    const std::string rest = name.substr(stem.size() + 1);  // mpi.so.3
    return starts_with(rest, "mpi") || starts_with(rest, "openmpi") || starts_with(rest, "mpich");
}

namespace {

// A library file name of a release with a version tag, "lib<project...>-<tag>.so<...>"
// (libvtkParallelMPI-9.1.so.1, libvtkCommonCore-pv5.11.so.1): the project's leading
// lowercase letters ("vtk") and everything from the tag on ("-9.1.so.1"); empty without a tag.
struct ReleaseName {
    std::string project, release;
};
ReleaseName release_name_of(const std::string& file) {
    const std::size_t so = file.find(".so");
    if (so == std::string::npos || !starts_with(file, "lib")) return {};
    const std::size_t dash = file.rfind('-', so);
    if (dash == std::string::npos || dash <= 3 || dash + 1 >= so) return {};
    if (!std::any_of(file.begin() + static_cast<std::ptrdiff_t>(dash) + 1, file.begin() + static_cast<std::ptrdiff_t>(so),
                     [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) != 0; }))
        return {};
    std::size_t end = 3;
    while (end < dash && std::islower(static_cast<unsigned char>(file[end]))) ++end;
    if (end - 3 < 3) return {};
    return {file.substr(3, end - 3), file.substr(dash)};
}

}  // namespace

bool is_same_release(const std::string& layer, const std::string& needed) {
    const ReleaseName a = release_name_of(base_name(layer)), b = release_name_of(base_name(needed));
    if (a.release.empty() || a.release != b.release) return false;
    const std::string& shorter = a.project.size() <= b.project.size() ? a.project : b.project;
    const std::string& longer = a.project.size() <= b.project.size() ? b.project : a.project;
    return longer.compare(0, shorter.size(), shorter) == 0;
}

bool library_has_name(const std::string& path, const std::string& name) {
    const std::string file = base_name(path);
    for (const std::string& stem : {name, "lib" + name}) {
        if (name.empty() || file.compare(0, stem.size(), stem) != 0) continue;
        const std::string rest = file.substr(stem.size());  // "", ".so.3", or ".3" after "libfftw3.so"
        if (rest.empty() || starts_with(rest, ".so") ||
            (stem.find(".so") != std::string::npos && rest.size() > 1 && rest[0] == '.' &&
             std::isdigit(static_cast<unsigned char>(rest[1]))))
            return true;
    }
    return false;
}

namespace {

// The loaded objects (the executable aside) by the names a DT_NEEDED entry may give them,
// their soname and their file name: is_named_by as an index.
class NeededIndex {
public:
    explicit NeededIndex(const std::vector<LoadedObject>& objects) : objects_(objects) {
        for (std::size_t j = 1; j < objects.size(); ++j) {
            if (!objects[j].soname.empty()) by_name_[objects[j].soname].push_back(j);
            const std::string file = base_name(objects[j].path);
            if (file != objects[j].soname) by_name_[file].push_back(j);
        }
    }
    // Marks in `marked` everything the objects in `todo` need, directly or not.
    void mark_closure(std::vector<bool>& marked, std::vector<std::size_t> todo) const {
        while (!todo.empty()) {
            const std::size_t k = todo.back();
            todo.pop_back();
            for (const std::string& needed : objects_[k].needed)
                if (const auto it = by_name_.find(needed); it != by_name_.end())
                    for (const std::size_t j : it->second)
                        if (!marked[j]) {
                            marked[j] = true;
                            todo.push_back(j);
                        }
        }
    }

private:
    const std::vector<LoadedObject>& objects_;
    std::unordered_map<std::string, std::vector<std::size_t>> by_name_;
};

// Whether `o` is one of what xsim itself runs on: the MPI library, libxsim, or what the MPI
// library loaded for itself.
bool is_runtime_object(const LoadedObject& o) { return is_mpi_library(o.path) || o.path == own_path() || o.mpi_loaded; }

// What xsim itself runs on (is_runtime_object) and every library they need.
std::vector<bool> runtime_underneath(const std::vector<LoadedObject>& objects, const NeededIndex& index) {
    std::vector<bool> underneath(objects.size(), false);
    std::vector<std::size_t> todo;
    for (std::size_t j = 1; j < objects.size(); ++j)
        if (is_runtime_object(objects[j])) {
            underneath[j] = true;
            todo.push_back(j);
        }
    index.mark_closure(underneath, std::move(todo));
    return underneath;
}

// The names of the symbols the ELF file at `path` imports (undefined in its dynamic symbol
// table, weak ones aside: they may stay unresolved).
std::vector<std::string> imported_symbols(const std::string& path) {
    std::vector<std::string> names;
    const MappedFile file(path);
    for_each_mapped_dynamic_symbol(file, [&](const Elf64_Sym& symbol, const char* name) {
        if (symbol.st_shndx == SHN_UNDEF && ELF64_ST_BIND(symbol.st_info) != STB_WEAK && *name) names.emplace_back(name);
        return true;
    });
    return names;
}

}  // namespace

void add_undeclared_dependencies(std::vector<LoadedObject>& objects) {
    static std::unordered_map<std::string, std::vector<std::string>> known;  // path -> relies_on
    // Built at the first path not seen before (each dlopen of Python's brings new ones): the
    // objects by the names a DT_NEEDED entry may give, what xsim runs on.
    std::optional<NeededIndex> index;
    std::vector<bool> underneath;
    for (std::size_t i = 1; i < objects.size(); ++i) {
        LoadedObject& o = objects[i];
        if (o.path.empty() || !is_system_object(o.path) || is_runtime_object(o)) continue;
        if (const auto seen = known.find(o.path); seen != known.end()) {
            o.relies_on = seen->second;
            continue;
        }
        if (!index) {
            index.emplace(objects);
            underneath = runtime_underneath(objects, *index);
        }
        if (underneath[i]) continue;
        // Its DT_NEEDED closure.
        std::vector<bool> declared(objects.size(), false);
        declared[i] = true;
        index->mark_closure(declared, {i});
        std::vector<std::string> relies_on;
        std::string last;  // consecutive imports mostly come from one library
        for (const std::string& name : imported_symbols(o.path)) {
            void* at = dlsym(RTLD_DEFAULT, name.c_str());
            Dl_info where{};
            if (!at || !dladdr(at, &where) || !where.dli_fname || last == where.dli_fname) continue;
            last = where.dli_fname;
            for (std::size_t j = 1; j < objects.size(); ++j)
                if (objects[j].path == last && !declared[j] && !underneath[j] && is_system_object(objects[j].path) &&
                    std::find(relies_on.begin(), relies_on.end(), objects[j].path) == relies_on.end())
                    relies_on.push_back(objects[j].path);
        }
        known.emplace(o.path, relies_on);
        o.relies_on = std::move(relies_on);
    }
}

NamedLibraries find_named_system_libraries(const std::string& name) {
    const std::vector<LoadedObject> objects = loaded_object_names();
    const std::vector<bool> underneath = runtime_underneath(objects, NeededIndex(objects));
    NamedLibraries out;
    for (std::size_t i = 1; i < objects.size(); ++i) {
        if (!is_system_object(objects[i].path) || !library_has_name(objects[i].path, name)) continue;
        (underneath[i] ? out.refused : out.found).push_back(objects[i].path);
    }
    return out;
}

std::vector<bool> built_on_mpi(const std::vector<LoadedObject>& objects, bool (*also)(const std::string& path)) {
    std::vector<bool> on(objects.size(), false);
    for (std::size_t i = 0; i < objects.size(); ++i) {
        const LoadedObject& o = objects[i];
        on[i] = !o.mpi_loaded &&
                (std::any_of(o.needed.begin(), o.needed.end(), [](const std::string& n) { return starts_with(n, "libmpi"); }) ||
                 keeps_registry_of_program_objects(o.path) || (also && is_system_object(o.path) && also(o.path)));
    }
    // The serial library under an MPI layer named after it (libfftw3 under libfftw3_mpi): the
    // layer keeps its state there (FFTW's planner, where fftw_mpi_init adds the MPI solvers
    // and which fftw_mpi_cleanup frees), so it is per rank with the layer.
    for (std::size_t i = 0; i < objects.size(); ++i) {
        if (!on[i]) continue;
        const std::string& layer = objects[i].soname.empty() ? objects[i].path : objects[i].soname;
        for (const std::string& needed : objects[i].needed) {
            if (!is_mpi_layer_of(layer, needed)) continue;
            for (std::size_t j = 0; j < objects.size(); ++j)
                if (!objects[j].mpi_loaded && is_named_by(objects[j], needed)) on[j] = true;
        }
    }
    const auto index_of = [&](const std::string& path) {
        for (std::size_t j = 0; j < objects.size(); ++j)
            if (objects[j].path == path) return j;
        return objects.size();
    };
    // The libraries of the same release as a library built on MPI that it needs, directly or
    // through others of the release (libvtkParallelCore-9.1 under libvtkParallelMPI-9.1,
    // ParaView's libvtkprotobuf-pv5.11 under its libvtkRemotingCore-pv5.11): one project's
    // libraries share their state (VTK's global controller, the descriptors that ParaView's
    // per-rank libraries register in protobuf's database at construction), per process natively.
    const auto take_release_of = [&](std::size_t i) {
        bool grew = false;
        if (!is_system_object(objects[i].path) || is_mpi_library(objects[i].path)) return grew;
        const std::string& layer = objects[i].soname.empty() ? objects[i].path : objects[i].soname;
        for (const std::string& needed : objects[i].needed) {
            if (!is_same_release(layer, needed)) continue;
            for (std::size_t j = 0; j < objects.size(); ++j)
                if (!on[j] && !objects[j].mpi_loaded && is_named_by(objects[j], needed) &&
                    is_system_object(objects[j].path) && !is_mpi_library(objects[j].path))
                    on[j] = grew = true;
        }
        return grew;
    };
    for (bool grew = true; grew;) {  // a few rounds: dependency chains are short
        grew = false;
        for (std::size_t i = 0; i < objects.size(); ++i) {
            // What a library built on MPI relies on without needing it (underlinked: part of
            // the same program) is built on MPI too.
            if (on[i] && is_system_object(objects[i].path))
                for (const std::string& path : objects[i].relies_on)
                    if (const std::size_t j = index_of(path); j < objects.size() && !on[j] && !objects[j].mpi_loaded)
                        on[j] = grew = true;
            if (on[i] && take_release_of(i)) grew = true;
            // What the MPI library loaded for itself stays the MPI library's, whatever it needs.
            if (on[i] || objects[i].mpi_loaded) continue;
            for (const std::string& needed : objects[i].needed) {
                for (std::size_t j = 0; j < objects.size() && !on[i]; ++j)
                    if (on[j] && is_named_by(objects[j], needed)) on[i] = grew = true;
                if (on[i]) break;
            }
            for (const std::string& path : objects[i].relies_on)
                if (const std::size_t j = index_of(path); !on[i] && j < objects.size() && on[j]) on[i] = grew = true;
        }
    }
    return on;
}

namespace {

// Fills walk.on_mpi from the objects loaded now.
void find_objects_on_mpi(Walk& walk) {
    std::vector<LoadedObject> objects = loaded_object_names();
    add_undeclared_dependencies(objects);
    const std::vector<bool> on = built_on_mpi(objects, walk.system_object_is_per_rank);
    for (std::size_t i = 0; i < objects.size(); ++i)
        if (on[i]) walk.on_mpi.push_back(objects[i].path);
}

}  // namespace

Discovery discover(bool (*system_object_is_per_rank)(const std::string&)) {
    Discovery out;
    Walk walk;
    walk.out = &out;
    walk.system_object_is_per_rank = system_object_is_per_rank;
    find_objects_on_mpi(walk);
    dl_iterate_phdr(&visit, &walk);
    // A variable of a privatized library that the executable refers to directly (a copy
    // relocation: PIE code reaching PETSC_COMM_WORLD, say) lives in the executable's .bss,
    // and every user of it uses that copy: it is per rank with its library. Copies of the C
    // and MPI libraries' variables (stdout, environ, ompi_mpi_comm_world) stay shared.
    for (std::size_t i = 0; i < walk.executable_copies.size() && i < walk.copied_symbols.size(); ++i) {
        if (walk.copied_symbols[i].empty()) continue;
        const std::string source = copy_source(walk.copied_symbols[i]);
        if (source.empty() || std::find(out.covered.begin(), out.covered.end(), source) == out.covered.end()) continue;
        const Range& r = walk.executable_copies[i];
        out.segments.push_back({reinterpret_cast<char*>(r.begin), r.end - r.begin,
                                walk.copied_symbols[i] + " (copied from " + source + ")"});
    }
    return out;
}

std::vector<const void*> loaded_objects() {
    std::vector<const void*> bases;
    dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* arg) {
            static_cast<std::vector<const void*>*>(arg)->push_back(reinterpret_cast<const void*>(info->dlpi_addr));
            return 0;
        },
        &bases);
    return bases;
}

Discovery discover_loaded(const std::vector<const void*>& known, bool (*system_object_is_per_rank)(const std::string&)) {
    Discovery out;
    Walk walk;
    walk.out = &out;
    walk.known = &known;
    walk.system_object_is_per_rank = system_object_is_per_rank;
    find_objects_on_mpi(walk);
    dl_iterate_phdr(&visit, &walk);
    return out;
}

bool Privatization::in_privatized_library(const void* function) const {
    Dl_info where{};
    if (!active() || !dladdr(function, &where) || !where.dli_fname) return false;
    return std::find(covered_.begin(), covered_.end(), where.dli_fname) != covered_.end();
}

Privatization::~Privatization() {
    if (snapshot_) munmap(snapshot_, slot_bytes_);
    if (slots_) munmap(slots_, reserved_);
    if (slot_file_ >= 0) close(slot_file_);  // remapped live pages keep the file
}

std::size_t Privatization::lay_out(const std::vector<Segment>& segments, std::vector<Piece>& pieces) {
    for (const Segment& s : segments)
        if (s.bytes > 0) pieces.push_back({s.start, s.bytes, 0});
    const bool by_page = tracks_pages(pieces);
    const std::size_t align = slot_alignment(pieces);
    std::size_t offset = 0;
    for (Piece& q : pieces) {
        if (by_page) {  // the next offset at the same place in its page (page table) as the live bytes
            const std::size_t page = q.bytes >= kTableBytes ? align : WrittenPages::page_bytes();
            const std::size_t in_page = reinterpret_cast<std::uintptr_t>(q.live) % page;
            offset += (in_page + page - offset % page) % page;
        }
        q.offset = offset;
        offset = round_up(offset + q.bytes, 16);
    }
    return round_up(offset, align);  // slots start on cache lines (pages, page tables)
}

std::size_t Privatization::slot_alignment(const std::vector<Piece>& pieces) {
    if (!tracks_pages(pieces)) return 64;
    for (const Piece& q : pieces)
        if (q.bytes >= kTableBytes) return kTableBytes;
    return WrittenPages::page_bytes();
}

std::size_t Privatization::expected_bytes_per_rank(const std::vector<Segment>& segments) {
    std::vector<Piece> pieces;
    const std::size_t slot = lay_out(segments, pieces);
    WrittenPages pages;
    if (!tracks_pages(pieces) || !pages.watch(spans_of(pieces))) return slot;
    std::vector<const char*> found;
    pages.poll(found);
    return bytes_of(on_written_pages(pieces, pages));
}

std::size_t Privatization::bytes_of(const std::vector<Piece>& pieces) {
    std::size_t bytes = 0;
    for (const Piece& p : pieces) bytes += p.bytes;
    return bytes;
}

bool Privatization::tracks_pages(const std::vector<Piece>& pieces) { return bytes_of(pieces) >= kTrackPagesFrom; }

std::vector<WrittenPages::Span> Privatization::spans_of(const std::vector<Piece>& pieces) {
    std::vector<WrittenPages::Span> spans;
    for (const Piece& q : pieces) spans.push_back({q.live, q.bytes});
    return spans;
}

std::string Privatization::start(std::vector<Segment> segments, std::size_t ranks, std::size_t loaded) {
    slot_bytes_ = lay_out(segments, pieces_);
    if (pieces_.empty() || ranks == 0) {
        pieces_.clear();
        return {};
    }
    image_bytes_ = bytes_of(pieces_);
    // The start-up image, in pages of its own (zero, untouched until written). Of a large
    // image, the pages that nothing has touched yet (.bss no constructor wrote) are left out:
    // they read as zero, in every rank's image, and reading them would map them, on some
    // kernels as pages of the process's own, which the page map shows written (then every
    // switch moved them).
    void* image = mmap(nullptr, slot_bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (image == MAP_FAILED) {
        const std::string why = "cannot reserve " + std::to_string(slot_bytes_) +
                                " bytes for the start-up image of the program's globals: " + std::strerror(errno);
        pieces_.clear();
        return why;
    }
    snapshot_ = static_cast<char*>(image);
    std::vector<WrittenPages::Span> untouched;  // in address order, apart
    if (tracks_pages(pieces_)) untouched = WrittenPages::untouched_zero_pages(spans_of(pieces_));
    for (const Piece& q : pieces_) {
        const char* at = q.live;
        const char* end = q.live + q.bytes;
        auto hole = std::upper_bound(untouched.begin(), untouched.end(), at,
                                     [](const char* c, const WrittenPages::Span& h) { return c < h.start + h.bytes; });
        while (at < end) {
            const char* stop = hole == untouched.end() ? end : std::min(end, hole->start);
            if (stop > at) std::memcpy(snapshot_ + q.offset + (at - q.live), at, static_cast<std::size_t>(stop - at));
            if (hole == untouched.end()) break;
            at = std::max(at, hole->start + hole->bytes);
            ++hole;
        }
    }
    // Reserved, not committed: a slot's pages are touched when its rank is first switched
    // out, and one mapping serves every rank (no limit from the kernel's map count).
    reserved_ = round_up(slot_bytes_ * ranks, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
    void* p = MAP_FAILED;
    if (tracks_pages(pieces_)) {
        // A large image's slots are pages of a memory file (sparse, like the reservation), so
        // that a run of them can be mapped over the live pages (remap). The mapping starts at
        // a multiple of the slots' alignment (lay_out), which a larger reservation provides.
        slot_file_ = memfd_create("xsim-globals", MFD_CLOEXEC);
        const std::size_t align = slot_alignment(pieces_);
        if (slot_file_ >= 0 && ftruncate(slot_file_, static_cast<off_t>(reserved_)) == 0) {
            void* area = mmap(nullptr, reserved_ + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (area != MAP_FAILED) {
                auto* base = reinterpret_cast<char*>(round_up(reinterpret_cast<std::uintptr_t>(area), align));
                p = mmap(base, reserved_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, slot_file_, 0);
                auto* first = static_cast<char*>(area);
                if (p == MAP_FAILED) munmap(area, reserved_ + align);
                else {
                    if (base > first) munmap(first, static_cast<std::size_t>(base - first));
                    if (first + reserved_ + align > base + reserved_)
                        munmap(base + reserved_, static_cast<std::size_t>(first + align - base));
                }
            }
        }
        if (p == MAP_FAILED && slot_file_ >= 0) {
            close(slot_file_);  // copied, as a small image
            slot_file_ = -1;
        }
    }
    if (p == MAP_FAILED)
        p = mmap(nullptr, reserved_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
        const std::string why = "cannot reserve " + std::to_string(reserved_) + " bytes for " + std::to_string(ranks) +
                                " copies of the program's globals: " + std::strerror(errno);
        pieces_.clear();
        reserved_ = 0;
        return why;
    }
    slots_ = static_cast<char*>(p);
    saved_.assign((ranks + 63) / 64, 0);
    ranks_ = ranks;
    segments_ = std::move(segments);
    low_ = pieces_.front().live;
    high_ = pieces_.front().live + pieces_.front().bytes;
    for (const Piece& q : pieces_) {
        low_ = std::min<const void*>(low_, q.live);
        high_ = std::max<const void*>(high_, q.live + q.bytes);
    }
    copies_ = pieces_;
    loaded_ = loaded;  // before update_copies: the runs it remaps are the loaded rank's
    if (tracks_pages(pieces_) && written_pages_.watch(spans_of(pieces_))) {
        found_.clear();
        written_pages_.poll(found_);  // written before main: relocated, constructed
        update_copies();
    }
    return {};
}

bool Privatization::holds(const char* c) const {
    const char* below = static_cast<const char*>(low_);  // the gap: ends of what lies around c
    const char* above = static_cast<const char*>(high_);
    for (const Piece& q : pieces_) {
        if (c >= q.live && c < q.live + q.bytes) return true;
        if (q.live + q.bytes <= c) below = std::max<const char*>(below, q.live + q.bytes);
        else above = std::min<const char*>(above, q.live);
    }
    for (const auto& library : loaded_libraries_) {
        if (library->may_hold(c)) return true;
        const auto* lo = static_cast<const char*>(library->low_);
        const auto* hi = static_cast<const char*>(library->high_);
        if (c >= lo && c < hi) {
            // Between its segments, which may enclose other libraries' (a library's
            // thread-locals lie on the heap, its data near the other libraries'): the others
            // are asked too, and the gap is narrowed to the one its may_hold just found.
            below = std::max(below, library->gap_low_);
            above = std::min(above, library->gap_high_);
            continue;
        }
        if (hi <= c) below = std::max(below, hi);
        else above = std::min(above, lo);
    }
    gap_low_ = below;
    gap_high_ = above;
    return false;
}

std::string Privatization::add_loaded_library(std::vector<Segment> segments, std::vector<std::string> covered) {
    if (!active() || loaded_ == kNone) return "no rank is loaded";
    auto library = std::make_unique<Privatization>();
    library->remap_from_ = remap_from_;  // measured once per process (or set)
    library->remap_cost_ = remap_cost_;
    // The live bytes are every rank's start, and the loaded rank's image.
    if (std::string why = library->start(std::move(segments), ranks_, loaded_); !why.empty()) return why;
    if (!library->active()) return {};
    if (remap_from_ == 0) {  // the library's runs were the first long enough to measure for
        remap_from_ = library->remap_from_;
        remap_cost_ = library->remap_cost_;
    }
    low_ = std::min(low_, library->low_);
    high_ = std::max(high_, library->high_);
    gap_low_ = gap_high_ = nullptr;  // the new segments may lie in it
    covered_.insert(covered_.end(), covered.begin(), covered.end());
    loaded_libraries_.push_back(std::move(library));
    return {};
}

std::size_t Privatization::bytes_per_rank() const {
    std::size_t bytes = slot_bytes_;
    for (const auto& library : loaded_libraries_) bytes += library->bytes_per_rank();
    return bytes;
}

std::size_t Privatization::privatized_bytes() const {
    std::size_t bytes = image_bytes_;
    for (const auto& library : loaded_libraries_) bytes += library->privatized_bytes();
    return bytes;
}

std::size_t Privatization::remapped_bytes() const {
    std::size_t bytes = bytes_of(remapped_);
    for (const auto& library : loaded_libraries_) bytes += library->remapped_bytes();
    return bytes;
}

std::size_t Privatization::switched_bytes() const {
    std::size_t bytes = bytes_of(copies_);
    for (const auto& library : loaded_libraries_) bytes += library->switched_bytes();
    return bytes;
}

std::vector<Privatization::Piece> Privatization::on_written_pages(const std::vector<Piece>& pieces,
                                                                  const WrittenPages& pages) {
    const std::size_t page = WrittenPages::page_bytes();
    std::vector<Piece> out;
    for (const Piece& q : pieces) {
        // q's bytes in runs of written pages.
        const auto first = reinterpret_cast<std::uintptr_t>(q.live) / page;
        const auto end = (reinterpret_cast<std::uintptr_t>(q.live) + q.bytes + page - 1) / page;
        for (std::uintptr_t p = first; p < end; ++p) {
            if (!pages.written(reinterpret_cast<const char*>(p * page))) continue;
            char* from = std::max(q.live, reinterpret_cast<char*>(p * page));
            char* to = std::min(q.live + q.bytes, reinterpret_cast<char*>((p + 1) * page));
            const std::size_t offset = q.offset + (from - q.live);
            // One copy for bytes that follow each other both live and in the slot (a piece's
            // next page). Two pieces that touch live may lie apart in the slot (lay_out keeps
            // each at its place in a page: the executable's copies of PETSc's petsc_TotalFlops
            // and PETSC_COMM_WORLD, 8 bytes each, one page apart): each keeps its own offset.
            if (!out.empty() && out.back().live + out.back().bytes == from && out.back().offset + out.back().bytes == offset)
                out.back().bytes += to - from;
            else out.push_back({from, static_cast<std::size_t>(to - from), offset});
        }
    }
    return out;
}

void Privatization::note_written(const char* start, std::size_t bytes) {
    found_.clear();
    written_pages_.poll(found_);
    if (start) written_pages_.mark(start, bytes, found_);
    if (found_.empty()) return;
    give_others_startup_pages();
    update_copies();
}

void Privatization::give_others_startup_pages() {
    // Until now the page was the start-up one in every image. The loaded rank's copy is the
    // live page (saved at its switch); every other rank that has a slot gets the start-up
    // bytes there, as a rank without a slot starts from them.
    const std::size_t page = WrittenPages::page_bytes();
    for (const char* at : found_)
        for (const Piece& q : pieces_) {
            const char* from = std::max<const char*>(q.live, at);
            const char* to = std::min<const char*>(q.live + q.bytes, at + page);
            if (from >= to) continue;
            const std::size_t offset = q.offset + (from - q.live);
            for (std::size_t r = 0; r < ranks_; ++r)
                if (r != loaded_ && saved(r))
                    std::memcpy(slot(r) + offset, snapshot_ + offset, to - from);
        }
}

std::vector<Privatization::Piece> Privatization::without(const std::vector<Piece>& pieces,
                                                         const std::vector<Piece>& holes) {
    std::vector<Piece> out;
    for (const Piece& q : pieces) {
        std::vector<Piece> parts{q};
        for (const Piece& h : holes) {
            std::vector<Piece> next;
            for (const Piece& p : parts) {
                if (h.live + h.bytes <= p.live || h.live >= p.live + p.bytes) {
                    next.push_back(p);
                    continue;
                }
                if (p.live < h.live) next.push_back({p.live, static_cast<std::size_t>(h.live - p.live), p.offset});
                if (h.live + h.bytes < p.live + p.bytes) {
                    char* from = h.live + h.bytes;
                    next.push_back({from, static_cast<std::size_t>(p.live + p.bytes - from), p.offset + (from - p.live)});
                }
            }
            parts = std::move(next);
        }
        out.insert(out.end(), parts.begin(), parts.end());
    }
    return out;
}

bool Privatization::privatized_in_place(const char* from, std::size_t bytes, std::size_t offset) const {
    const char* end = from + bytes;
    for (const char* at = from; at < end;) {
        const Piece* in = nullptr;
        for (const Piece& q : pieces_)
            if (at >= q.live && at < q.live + q.bytes && q.offset + (at - q.live) == offset + (at - from)) in = &q;
        if (!in) return false;
        at = std::min<const char*>(end, in->live + in->bytes);
    }
    return true;
}

std::vector<Privatization::Piece> Privatization::runs_to_remap(const std::vector<Piece>& written) {
    const std::size_t page = WrittenPages::page_bytes();
    std::vector<Piece> runs;  // the whole written pages, joined where they follow each other live and in the slot
    for (const Piece& w : written) {
        const auto begin = reinterpret_cast<std::uintptr_t>(w.live);
        const std::size_t first = round_up(begin, page), end = round_down(begin + w.bytes, page);
        if (end > first) runs.push_back({reinterpret_cast<char*>(first), end - first, w.offset + (first - begin)});
    }
    std::sort(runs.begin(), runs.end(), [](const Piece& a, const Piece& b) { return a.live < b.live; });
    std::vector<Piece> joined;
    for (const Piece& r : runs) {
        if (!joined.empty()) {
            Piece& last = joined.back();
            const std::size_t gap = static_cast<std::size_t>(r.live - (last.live + last.bytes));
            // Joined across a short gap of unwritten pages that are privatized at their place
            // in the slot (not across another object's bytes, nor a piece laid out elsewhere).
            if (r.live >= last.live + last.bytes && gap <= kBridgeUpTo && gap <= last.bytes + r.bytes &&
                last.offset + last.bytes + gap == r.offset &&
                (gap == 0 || privatized_in_place(last.live + last.bytes, gap, last.offset + last.bytes))) {
                last.bytes += gap + r.bytes;
                continue;
            }
        }
        joined.push_back(r);
    }
    std::vector<Piece> out;
    for (const Piece& r : joined)
        if (r.bytes >= kRemapFloor) out.push_back(r);
    if (!out.empty() && remap_from_ == 0) {
        remap_cost_ = measure_remap_cost(kRemapFloor);
        remap_from_ = remap_cost_.remap_from;
    }
    auto promoted = [&](const Piece& r) {
        for (const Piece& q : promoted_)
            if (q.live < r.live + r.bytes && r.live < q.live + q.bytes) return true;
        return false;
    };
    std::vector<Candidate> candidates;
    std::erase_if(out, [&](const Piece& r) {
        if (r.bytes >= remap_from_ || promoted(r)) return false;
        if (remap_cost_.measured) {  // copied for now: sampled (its counts kept while it stays)
            Candidate c{r.live, r.bytes};
            for (const Candidate& old : candidates_)
                if (old.live == c.live && old.bytes == c.bytes) c = old;
            candidates.push_back(c);
        }
        return true;
    });
    candidates_ = std::move(candidates);
    return out;
}

void Privatization::update_copies() {
    std::vector<Piece> written = on_written_pages(pieces_, written_pages_);
    if (slot_file_ >= 0) {
        std::vector<Piece> runs = runs_to_remap(written);
        // The unwritten pages a run bridges count as written from now on: each rank's image of
        // them is the start-up one (the loaded rank's is live).
        found_.clear();
        for (const Piece& r : runs) written_pages_.mark(r.live, r.bytes, found_);
        if (!found_.empty()) {
            give_others_startup_pages();
            written = on_written_pages(pieces_, written_pages_);
        }
        // The runs contain those remapped so far (written pages stay written): what is new in
        // them is the loaded rank's live bytes, which its slot receives before it is mapped.
        // (Its runs moved live go back to its slot first: the new runs are moved from there.)
        const std::vector<Piece> added = without(runs, remapped_);
        if (!added.empty()) {
            move_runs_out();
            if (loaded_ != kNone)
                for (const Piece& a : added) std::memcpy(slot(loaded_) + a.offset, a.live, a.bytes);
            remapped_ = std::move(runs);
            if (loaded_ != kNone) map_runs(loaded_);  // else the first switch maps them
        }
    }
    copies_ = without(written, remapped_);
}

bool Privatization::move_pages(char* from, char* to, std::size_t bytes) {
    // MREMAP_DONTUNMAP (Linux 5.13 for shared mappings): the source keeps its mapping of the
    // same file pages, without page table entries. A hole there would be taken by the next
    // mmap of the kernel's choosing (malloc's, the MPI library's: Open MPI received a message
    // into a buffer placed in the loaded rank's slot, which moving the rank's pages back then
    // unmapped), and the loaded rank's slot stays the live pages' alias, as when mapped.
    return mremap(from, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, to) == to;
}

bool Privatization::move_runs_out() {
    if (moved_in_ == kNone) return true;
    for (const Piece& run : remapped_)
        if (!move_pages(run.live, slot(moved_in_) + run.offset, run.bytes)) return false;
    moved_in_ = kNone;
    return true;
}

void Privatization::stop_moving() {
    // Every image lives in the memory file: mapping it whole again over the slots drops what
    // was moved there (the live runs are mapped over by map_runs).
    move_runs_ = false;
    moved_in_ = kNone;
    if (mmap(slots_, reserved_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED, slot_file_, 0) == slots_)
        return;
    std::fprintf(stderr, "xsim: cannot map the simulated ranks' copies of the globals again: %s\n", std::strerror(errno));
    std::abort();
}

void Privatization::map_runs(std::size_t index) {
    if (move_runs_) {
        bool moved = move_runs_out();
        for (std::size_t i = 0; moved && i < remapped_.size(); ++i) {
            const Piece& run = remapped_[i];
            if (move_pages(slot(index) + run.offset, run.live, run.bytes)) continue;
            // The runs moved so far go back (the rest were not moved): then mapped.
            for (std::size_t j = 0; j < i; ++j)
                move_pages(remapped_[j].live, slot(index) + remapped_[j].offset, remapped_[j].bytes);
            moved = false;
        }
        if (moved) {
            moved_in_ = index;
            return;
        }
        stop_moving();  // mremap refused (a kernel without it, no more map areas): mapped from now on
    }
    const auto base = static_cast<std::size_t>(slot(index) - slots_);
    for (const Piece& run : remapped_) {
        void* at = mmap(run.live, run.bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, slot_file_,
                        static_cast<off_t>(base + run.offset));
        if (at == run.live) continue;
        // MAP_FIXED that fails may leave the range unmapped: no image can be trusted.
        std::fprintf(stderr, "xsim: cannot map simulated rank %zu's copy of %zu bytes of globals at %p: %s\n", index,
                     run.bytes, static_cast<void*>(run.live), std::strerror(errno));
        std::abort();
    }
}

void Privatization::give_startup_image(std::size_t index) {
    for (const std::vector<Piece>* list : {&copies_, &remapped_})
        for (const Piece& r : *list) std::memcpy(slot(index) + r.offset, snapshot_ + r.offset, r.bytes);
    mark_saved(index);
}

void* Privatization::view_slow(void* p, std::size_t bytes, std::size_t index) {
    char* c = static_cast<char*>(p);
    for (const Piece& q : pieces_) {
        if (c < q.live || c + bytes > q.live + q.bytes) continue;
        // xsim writes there (or reads what it wrote before) in rank `index`'s slot, so those
        // pages are switched from now on.
        note_written(c, bytes);
        // A rank that never ran gets its slot now, from the start-up image.
        if (!saved(index)) give_startup_image(index);
        return slot(index) + q.offset + (c - q.live);
    }
    for (const auto& library : loaded_libraries_)
        if (library->may_hold(p)) return library->view(p, bytes, index);
    return p;  // not privatized (or straddling two segments: left as is)
}

namespace {
// Candidates (runs left copied) are sampled at one switch in kSampleEvery, and decided on once
// kSamplesToDecide samples of them were taken.
constexpr std::size_t kSampleEvery = 4, kSamplesToDecide = 4;

double clock_us() {
    struct timespec ts {};
    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);  // the C library's is the virtual clock
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}
}  // namespace

void Privatization::sample_candidates() {
    const std::size_t page = WrittenPages::page_bytes();
    const char* out = slot(loaded_);
    for (Candidate& c : candidates_) {
        if (c.settled) continue;
        const std::size_t offset = [&] {
            for (const Piece& q : pieces_)
                if (c.live >= q.live && c.live < q.live + q.bytes) return q.offset + static_cast<std::size_t>(c.live - q.live);
            return kNone;
        }();
        if (offset == kNone) continue;
        for (std::size_t at = 0; at + page <= c.bytes; at += page) {
            ++c.sampled_pages;
            // Pages the run bridges that no one wrote are not switched (their slot copies are
            // not the image): unchanged.
            if (written_pages_.written(c.live + at) && std::memcmp(c.live + at, out + offset + at, page) != 0)
                ++c.changed_pages;
        }
    }
}

void Privatization::decide_candidates() {
    const std::size_t page = WrittenPages::page_bytes();
    for (Candidate& c : candidates_) {
        const double pages = static_cast<double>(c.bytes / page);
        if (c.settled || c.sampled_pages < kSamplesToDecide * static_cast<std::size_t>(pages)) continue;
        c.settled = true;
        // Pages touched per turn: twice those changed (a page read after a remap costs as
        // much as one written, on a host where that costs at all), at least one.
        const double touched = std::max(1.0, 2.0 * pages * static_cast<double>(c.changed_pages) /
                                                 static_cast<double>(c.sampled_pages));
        if (remap_cost_.move_us + touched * remap_cost_.touch_page_us < pages * copy_page_us_) {
            promoted_.push_back({c.live, c.bytes, 0});
            promotion_due_ = true;
        }
    }
}

void Privatization::exchange(std::size_t index) {
    if (pin_guard_) [[unlikely]]
        pin_guard_(pin_context_, loaded_, index);
    if (written_pages_.watching()) note_written();
    if (promotion_due_) [[unlikely]] {
        promotion_due_ = false;
        update_copies();  // the promoted runs are remapped from this switch on
    }
    const bool sampling = !candidates_.empty() && loaded_ != kNone && saved(loaded_) && !candidates_settled() &&
                          ++switches_ % kSampleEvery == 0;
    if (sampling) [[unlikely]]
        sample_candidates();
    // Its remapped runs are mapped from its slot: a rank that never ran gets one now.
    if (!saved(index) && !remapped_.empty()) give_startup_image(index);
    // A rank that never ran starts from the start-up image (its slot stays untouched).
    // (index != loaded_: switch_to, so marking loaded_'s slot saved below does not change this.)
    const char* in = saved(index) ? slot(index) : snapshot_;
    const double copy_start = sampling ? clock_us() : 0;
    if (loaded_ != kNone) {
        // One pass, each piece out then in: a switch of a small image (a C program's few
        // globals, in 5 to 10 pieces) is mostly loop overhead, paid once instead of twice.
        char* out = slot(loaded_);
        for (const Piece& piece : copies_) {
            const Piece p = piece;  // in registers: the copies' char stores may alias copies_
            copy_small(out + p.offset, p.live, p.bytes);
            copy_small(p.live, in + p.offset, p.bytes);
        }
        mark_saved(loaded_);
    } else {
        for (const Piece& p : copies_) copy_small(p.live, in + p.offset, p.bytes);
    }
    if (sampling) [[unlikely]] {
        const std::size_t pages = (bytes_of(copies_) + WrittenPages::page_bytes() - 1) / WrittenPages::page_bytes();
        if (pages) copy_page_us_ = (clock_us() - copy_start) / static_cast<double>(pages);
        decide_candidates();
    }
    if (!remapped_.empty()) map_runs(index);
    loaded_ = index;
    for (const auto& library : loaded_libraries_) library->switch_to(index);
}

}  // namespace xsim::runtime
