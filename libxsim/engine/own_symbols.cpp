#include "libxsim/engine/own_symbols.hpp"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#if XSIM_HAVE_LIBIBERTY
// libiberty.h declares basename() unless told the C library does (C++'s string.h overloads it).
#define HAVE_DECL_BASENAME 1
#include <libiberty/demangle.h>
#endif

namespace xsim {
namespace {

constexpr unsigned char kNativeClass = __ELF_NATIVE_CLASS == 64 ? ELFCLASS64 : ELFCLASS32;

// The symbol table of the object holding xsim's code, mapped once per process by
// load_own_symbols (start-up) and only read afterwards, by the fault handler.
struct OwnSymbols {
    bool loaded = false;                 // load_own_symbols ran
    const void* object_base = nullptr;   // dladdr's dli_fbase of xsim's object
    std::uintptr_t bias = 0;             // the object's load bias (l_addr), added to st_value
    const ElfW(Sym)* symbols = nullptr;  // null when `missing` says why
    std::size_t count = 0;
    const char* strings = nullptr;
    std::size_t strings_size = 0;
    char missing[400] = "";
};
OwnSymbols g_own;

// Why there is no table ("no symbol table (.symtab), the file was stripped"; "<path> could not
// be opened" when the file is not the one the crash report names).
void set_missing(const char* path, const char* why) {
    std::snprintf(g_own.missing, sizeof g_own.missing, "%s%s%s", path ? path : "", path ? " " : "", why);
}

bool read_at(int fd, void* to, std::size_t bytes, off_t offset) {
    auto* out = static_cast<char*>(to);
    while (bytes > 0) {
        const ssize_t got = pread(fd, out, bytes, offset);
        if (got <= 0) return false;
        out += got;
        bytes -= static_cast<std::size_t>(got);
        offset += got;
    }
    return true;
}

// Reads the section headers of `path` and maps its .symtab and the string table it names.
void map_symbol_table(int fd, const char* path) {
    struct stat st{};
    ElfW(Ehdr) header{};
    if (fstat(fd, &st) != 0 || !read_at(fd, &header, sizeof header, 0) ||
        std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != kNativeClass) {
        set_missing(nullptr, "not an ELF file of this machine's class");
        return;
    }
    const auto file_size = static_cast<std::uint64_t>(st.st_size);
    if (header.e_shoff == 0 || header.e_shnum == 0 || header.e_shentsize != sizeof(ElfW(Shdr)) ||
        header.e_shoff > file_size || header.e_shnum > (file_size - header.e_shoff) / sizeof(ElfW(Shdr))) {
        set_missing(nullptr, "no section headers");
        return;
    }
    std::vector<ElfW(Shdr)> sections(header.e_shnum);
    if (!read_at(fd, sections.data(), sections.size() * sizeof(ElfW(Shdr)), static_cast<off_t>(header.e_shoff))) {
        set_missing(path, "could not be read");
        return;
    }
    const ElfW(Shdr)* symtab = nullptr;
    for (const auto& section : sections)
        if (section.sh_type == SHT_SYMTAB) symtab = &section;
    if (!symtab) {
        set_missing(nullptr, "no symbol table (.symtab), the file was stripped");
        return;
    }
    const ElfW(Shdr)* strtab = symtab->sh_link < sections.size() ? &sections[symtab->sh_link] : nullptr;
    const auto within = [&](const ElfW(Shdr)& s) { return s.sh_offset <= file_size && s.sh_size <= file_size - s.sh_offset; };
    if (!strtab || strtab->sh_type != SHT_STRTAB || strtab->sh_size == 0 || symtab->sh_entsize != sizeof(ElfW(Sym)) ||
        !within(*symtab) || !within(*strtab)) {
        set_missing(nullptr, "a malformed symbol table");
        return;
    }
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const std::uint64_t low = std::min(symtab->sh_offset, strtab->sh_offset) / page * page;
    const std::uint64_t high = std::max(symtab->sh_offset + symtab->sh_size, strtab->sh_offset + strtab->sh_size);
    void* mapped = mmap(nullptr, high - low, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(low));
    if (mapped == MAP_FAILED) {
        set_missing(path, "could not be mapped");
        return;
    }
    const char* at = static_cast<const char*>(mapped);
    g_own.symbols = reinterpret_cast<const ElfW(Sym)*>(at + (symtab->sh_offset - low));
    g_own.count = symtab->sh_size / sizeof(ElfW(Sym));
    g_own.strings = at + (strtab->sh_offset - low);
    g_own.strings_size = strtab->sh_size;
}

// Appends to a fixed buffer, keeping a terminating NUL; says when something did not fit.
struct Text {
    char* out;
    std::size_t size;  // bytes of `out`, the NUL included
    std::size_t used = 0;
    bool cut = false;
    void append(const char* s, std::size_t n) {
        const std::size_t room = size - 1 - used;
        if (n > room) {
            n = room;
            cut = true;
        }
        std::memcpy(out + used, s, n);
        used += n;
        out[used] = '\0';
    }
};

#if XSIM_HAVE_LIBIBERTY
void append_demangled(const char* s, std::size_t n, void* text) { static_cast<Text*>(text)->append(s, n); }

// The allocation-free demangler keeps its work on the stack: arrays of two components and one
// substitution per byte of the mangled name, then the printer's recursion. Demangle only on
// the signal stack (whose room is known) with this much left.
bool room_to_demangle(std::size_t mangled_bytes) {
    stack_t now{};
    // The kernel's answer (libxsim's sigaltstack gives a rank the one it set itself).
    if (syscall(SYS_sigaltstack, nullptr, &now) != 0 || !(now.ss_flags & SS_ONSTACK)) return false;
    const auto here = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
    const auto low = reinterpret_cast<std::uintptr_t>(now.ss_sp);
    if (here <= low || here - low > now.ss_size) return false;
    const std::size_t per_byte = 4 * sizeof(struct demangle_component) + sizeof(void*);
    return here - low >= 32 * 1024 + per_byte * mangled_bytes;
}
#endif

// `name` demangled into `text` when it is a C++ name and that is possible here; else as is.
void append_name(Text& text, const char* name, std::size_t length) {
#if XSIM_HAVE_LIBIBERTY
    if (length > 2 && name[0] == '_' && name[1] == 'Z' && room_to_demangle(length)) {
        Text demangled{text.out + text.used, text.size - text.used};
        if (cplus_demangle_v3_callback(name, DMGL_PARAMS | DMGL_ANSI, append_demangled, &demangled)) {
            text.used += demangled.used;
            text.cut = demangled.cut;
            return;
        }
        text.out[text.used] = '\0';
    }
#endif
    text.append(name, length);
}

}  // namespace

void load_own_symbols() {
    if (g_own.loaded) return;
    Dl_info where{};
    link_map* object = nullptr;
    if (!dladdr1(reinterpret_cast<void*>(&load_own_symbols), &where, reinterpret_cast<void**>(&object),
                 RTLD_DL_LINKMAP) ||
        !object) {
        set_missing(nullptr, "xsim's object is not known to the loader");
        g_own.loaded = true;
        return;
    }
    g_own.object_base = where.dli_fbase;
    g_own.bias = object->l_addr;
    // The executable (xsim linked statically, as in the unit tests) has an empty name.
    const char* path = object->l_name && *object->l_name ? object->l_name : "/proc/self/exe";
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) set_missing(path, "could not be opened");
    else {
        map_symbol_table(fd, path);
        close(fd);
    }
    g_own.loaded = true;
}

bool own_symbols_demangled() { return XSIM_HAVE_LIBIBERTY != 0; }

OwnCode name_own_code(const void* pc, const void* object_base, char* out, std::size_t size) {
    if (size == 0) return OwnCode::Other;
    out[0] = '\0';
    if (!g_own.loaded || !pc || !object_base || object_base != g_own.object_base) return OwnCode::Other;
    Text text{out, size};
    if (!g_own.symbols) {
        text.append(g_own.missing, std::strlen(g_own.missing));
        return OwnCode::NoSymbolTable;
    }
    const auto at = reinterpret_cast<std::uintptr_t>(pc);
    // A function that code of its own translation unit calls also has a local alias at its
    // address, NAME.localalias (GCC, -fno-semantic-interposition); which of the two the table
    // lists first depends on what else that translation unit holds (a unity batch: top-level
    // CMakeLists.txt). The function's own name is the one reported; the alias only if there
    // is nothing else.
    static constexpr char kLocalAlias[] = ".localalias";
    constexpr std::size_t kLocalAliasLength = sizeof kLocalAlias - 1;
    const ElfW(Sym)* found = nullptr;
    const ElfW(Sym)* alias = nullptr;
    for (std::size_t i = 0; i < g_own.count && !found; ++i) {
        const ElfW(Sym)& s = g_own.symbols[i];
        const int type = ELF64_ST_TYPE(s.st_info);  // the same as ELF32_ST_TYPE
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || s.st_shndx == SHN_UNDEF || s.st_size == 0) continue;
        const std::uintptr_t start = g_own.bias + s.st_value;
        if (!(at >= start && at - start < s.st_size && s.st_name < g_own.strings_size)) continue;
        const char* name = g_own.strings + s.st_name;
        const std::size_t length = strnlen(name, g_own.strings_size - s.st_name);
        if (length > kLocalAliasLength &&
            std::memcmp(name + length - kLocalAliasLength, kLocalAlias, kLocalAliasLength) == 0) {
            if (!alias) alias = &s;
        } else {
            found = &s;
        }
    }
    if (!found) found = alias;
    if (!found) return OwnCode::Unnamed;
    const char* name = g_own.strings + found->st_name;
    const std::size_t length = strnlen(name, g_own.strings_size - found->st_name);
    if (length == 0 || length == g_own.strings_size - found->st_name) return OwnCode::Unnamed;  // unterminated
    char offset[32];
    const int offset_bytes =
        std::snprintf(offset, sizeof offset, "+0x%zx", static_cast<std::size_t>(at - (g_own.bias + found->st_value)));
    // The name gets what the offset leaves, "..." marking a cut.
    const std::size_t reserve = static_cast<std::size_t>(offset_bytes) + 1;
    if (size > reserve + 3) {
        Text name_text{out, size - reserve};
        append_name(name_text, name, length);
        if (name_text.cut) std::memcpy(out + name_text.used - 3, "...", 3);
        text.used = name_text.used;
    }
    text.append(offset, static_cast<std::size_t>(offset_bytes));
    return OwnCode::Named;
}

}  // namespace xsim
