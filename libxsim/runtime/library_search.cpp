#include "libxsim/runtime/library_search.hpp"

#include <dlfcn.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "libxsim/rank_state/elf_file.hpp"
#include "libxsim/rank_state/privatization.hpp"

namespace xsim::runtime {
namespace {

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

// A DT_RPATH/DT_RUNPATH value as directories, $ORIGIN expanded to `origin`.
std::vector<std::string> path_list(const std::string& value, const std::string& origin) {
    std::vector<std::string> dirs;
    std::size_t at = 0;
    while (at <= value.size()) {
        std::size_t end = value.find(':', at);
        if (end == std::string::npos) end = value.size();
        std::string dir = value.substr(at, end - at);
        at = end + 1;
        for (const char* token : {"${ORIGIN}", "$ORIGIN"})
            for (std::size_t p; (p = dir.find(token)) != std::string::npos;) dir.replace(p, std::strlen(token), origin);
        if (dir.find('$') != std::string::npos) continue;  // $LIB, $PLATFORM: not expanded here
        dirs.push_back(dir.empty() ? "." : dir);
    }
    return dirs;
}

// The directories of the executable's search information with one of `flags` (LA_SER_LIBPATH:
// LD_LIBRARY_PATH as the process started with; LA_SER_DEFAULT: the system directories).
std::vector<std::string> search_dirs(unsigned flags) {
    std::vector<std::string> dirs;
    using Open = void* (*)(const char*, int);
    static const auto real_open = reinterpret_cast<Open>(dlsym(RTLD_NEXT, "dlopen"));
    void* self = real_open ? real_open(nullptr, RTLD_LAZY | RTLD_NOLOAD) : nullptr;
    if (!self) return dirs;
    Dl_serinfo size{};
    if (dlinfo(self, RTLD_DI_SERINFOSIZE, &size) == 0 && size.dls_size >= sizeof(Dl_serinfo)) {
        std::vector<std::uint64_t> storage((size.dls_size + 7) / 8);
        auto* info = reinterpret_cast<Dl_serinfo*>(storage.data());
        info->dls_size = size.dls_size;
        info->dls_cnt = size.dls_cnt;
        if (dlinfo(self, RTLD_DI_SERINFO, info) == 0)
            for (unsigned i = 0; i < info->dls_cnt; ++i)
                if ((info->dls_serpath[i].dls_flags & flags) && info->dls_serpath[i].dls_name)
                    dirs.emplace_back(info->dls_serpath[i].dls_name);
    }
    return dirs;
}

// A loadable 64-bit ELF file at `path`.
bool loadable(const std::string& path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && dynamic_of_file_cached(path).readable;
}

std::string in_dirs(const std::string& name, const std::vector<std::string>& dirs) {
    for (const std::string& dir : dirs) {
        const std::string path = dir + "/" + name;
        if (loadable(path)) return path;
    }
    return {};
}

// /etc/ld.so.cache (the format of glibc 2.32 and later, "glibc-ld.so.cache1.1"): `name`'s file.
std::string in_cache(const std::string& name) {
    static const MappedFile cache("/etc/ld.so.cache");
    if (!cache.error().empty()) return {};
    static constexpr char kMagic[] = "glibc-ld.so.cache1.1";
    const unsigned char* image = cache.image();
    const std::size_t size = cache.size();
    const void* found = memmem(image, size, kMagic, sizeof kMagic - 1);
    if (!found) return {};
    const std::size_t header = static_cast<std::size_t>(static_cast<const unsigned char*>(found) - image);
    constexpr std::size_t kHeaderBytes = 48, kEntryBytes = 24;
    if (size - header < kHeaderBytes) return {};
    std::uint32_t count = 0;
    std::memcpy(&count, image + header + 20, sizeof count);
    if (count > (size - header - kHeaderBytes) / kEntryBytes) return {};
    const auto string_at = [&](std::uint32_t offset) -> const char* {
        if (offset >= size - header) return nullptr;
        const char* s = reinterpret_cast<const char*>(image + header + offset);
        return std::memchr(s, 0, size - header - offset) ? s : nullptr;
    };
    for (std::uint32_t i = 0; i < count; ++i) {
        std::uint32_t key = 0, value = 0;
        std::memcpy(&key, image + header + kHeaderBytes + i * kEntryBytes + 4, sizeof key);
        std::memcpy(&value, image + header + kHeaderBytes + i * kEntryBytes + 8, sizeof value);
        const char* k = string_at(key);
        const char* v = string_at(value);
        if (k && v && name == k && loadable(v)) return v;
    }
    return {};
}

}  // namespace

FileDynamic dynamic_of_file_cached(const std::string& path) {
    struct Entry {
        struct stat file;
        FileDynamic dynamic;
    };
    static std::mutex lock;  // ranks' OpenMP threads may open libraries too
    static std::map<std::string, Entry> cache;
    struct stat file;
    if (stat(path.c_str(), &file) != 0) return {};
    {
        const std::lock_guard<std::mutex> hold(lock);
        const auto it = cache.find(path);
        if (it != cache.end() && it->second.file.st_dev == file.st_dev && it->second.file.st_ino == file.st_ino &&
            it->second.file.st_size == file.st_size && it->second.file.st_mtim.tv_sec == file.st_mtim.tv_sec &&
            it->second.file.st_mtim.tv_nsec == file.st_mtim.tv_nsec)
            return it->second.dynamic;
    }
    FileDynamic dynamic = dynamic_of_file(path);
    const std::lock_guard<std::mutex> hold(lock);
    cache[path] = Entry{file, dynamic};
    return dynamic;
}

std::string find_library_file(const std::string& name, const std::string& from_path) {
    if (name.empty()) return {};
    if (name.find('/') != std::string::npos) return loadable(name) ? name : std::string();
    const std::string& exe = executable_path();
    const std::string from = from_path.empty() ? exe : from_path;
    const FileDynamic asking = dynamic_of_file_cached(from);
    std::string found;
    if (asking.runpath.empty()) {
        found = in_dirs(name, path_list(asking.rpath, directory_of(from)));
        if (found.empty() && from != exe) {
            const FileDynamic program = dynamic_of_file_cached(exe);
            if (program.runpath.empty()) found = in_dirs(name, path_list(program.rpath, directory_of(exe)));
        }
    }
    if (found.empty()) {
        static const std::vector<std::string> library_path = search_dirs(LA_SER_LIBPATH);
        found = in_dirs(name, library_path);
    }
    if (found.empty()) found = in_dirs(name, path_list(asking.runpath, directory_of(from)));
    if (found.empty()) found = in_cache(name);
    if (found.empty()) {
        static const std::vector<std::string> system = search_dirs(LA_SER_DEFAULT);
        found = in_dirs(name, system);
    }
    return found;
}

bool names_loaded_object(const std::string& name) {
    const std::vector<LoadedObject> loaded = loaded_object_names();
    return std::any_of(loaded.begin(), loaded.end(), [&](const LoadedObject& o) { return answers_to(o, name); });
}

std::string loaded_object_path_of(const void* address) {
    Dl_info where{};
    link_map* map = nullptr;
    if (!dladdr1(address, &where, reinterpret_cast<void**>(&map), RTLD_DL_LINKMAP) || !map || !map->l_name) return {};
    return map->l_name;  // empty for the executable
}

}  // namespace xsim::runtime
