#include "libxsim/rank_state/load_image.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "libxsim/rank_state/elf_file.hpp"
#include "libxsim/rank_state/privatization.hpp"

namespace xsim::runtime {
namespace {

#ifndef SHT_RELR
#define SHT_RELR 19
#endif

// The words a RELR section relocates (SHT_RELR: an address, then bitmaps of the 63 words
// after the last one named).
void relr_targets(const Elf64_Xword* entries, std::size_t n, std::vector<std::uint64_t>& out) {
    std::uint64_t where = 0;
    for (std::size_t i = 0; i < n; ++i) {
        Elf64_Xword e = entries[i];
        if ((e & 1) == 0) {
            out.push_back(e);
            where = e + 8;
            continue;
        }
        for (std::uint64_t k = 0; (e >>= 1) != 0; ++k)
            if (e & 1) out.push_back(where + k * 8);
        where += 63 * 8;
    }
}

}  // namespace

std::string reset_to_load_image(const std::string& path, std::uintptr_t bias) {
    const MappedFile file(path);
    if (!file.error().empty()) return file.error();
    const unsigned char* image = file.image();
    const ElfData d = parse_elf_data(image, file.size());
    if (!d.error.empty()) return d.error;
    const auto* eh = reinterpret_cast<const Elf64_Ehdr*>(image);  // parse_elf_data checked the headers
    const auto* sections = reinterpret_cast<const Elf64_Shdr*>(image + eh->e_shoff);
    // Every word the loader wrote (relocated) in the file's data.
    std::vector<std::uint64_t> relocated;
    for (int i = 0; i < eh->e_shnum; ++i) {
        const Elf64_Shdr& s = sections[i];
        if (s.sh_offset + s.sh_size > file.size()) continue;
        if (s.sh_type == SHT_RELA) {
            const auto* rela = reinterpret_cast<const Elf64_Rela*>(image + s.sh_offset);
            for (std::size_t r = 0; r < s.sh_size / sizeof(Elf64_Rela); ++r)
                if (ELF64_R_TYPE(rela[r].r_info) != R_X86_64_NONE) relocated.push_back(rela[r].r_offset);
        } else if (s.sh_type == SHT_REL) {
            const auto* rel = reinterpret_cast<const Elf64_Rel*>(image + s.sh_offset);
            for (std::size_t r = 0; r < s.sh_size / sizeof(Elf64_Rel); ++r)
                if (ELF64_R_TYPE(rel[r].r_info) != R_X86_64_NONE) relocated.push_back(rel[r].r_offset);
        } else if (s.sh_type == SHT_RELR) {
            relr_targets(reinterpret_cast<const Elf64_Xword*>(image + s.sh_offset), s.sh_size / sizeof(Elf64_Xword),
                         relocated);
        }
    }
    std::sort(relocated.begin(), relocated.end());
    for (const Range& r : d.data) {
        // The relocated words of the range, live, to put back over the file's bytes.
        struct Word {
            std::uint64_t at;
            unsigned char bytes[8];
        };
        std::vector<Word> kept;
        for (auto it = std::lower_bound(relocated.begin(), relocated.end(), r.begin >= 7 ? r.begin - 7 : 0);
             it != relocated.end() && *it < r.end; ++it) {
            Word w{*it, {}};
            std::memcpy(w.bytes, reinterpret_cast<const void*>(bias + *it), 8);
            kept.push_back(w);
        }
        for (int i = 0; i < eh->e_shnum; ++i) {
            const Elf64_Shdr& s = sections[i];
            if (!is_program_data(s)) continue;
            const std::uint64_t lo = std::max<std::uint64_t>(r.begin, s.sh_addr);
            const std::uint64_t hi = std::min<std::uint64_t>(r.end, s.sh_addr + s.sh_size);
            if (lo >= hi) continue;
            auto* live = reinterpret_cast<unsigned char*>(bias + lo);
            if (s.sh_type == SHT_NOBITS) {
                std::memset(live, 0, hi - lo);
            } else {
                const std::uint64_t from = s.sh_offset + (lo - s.sh_addr);
                if (from + (hi - lo) > file.size()) return path + ": section data out of the file";
                std::memcpy(live, image + from, hi - lo);
            }
        }
        // Words that straddle the range's edges keep only their bytes inside it.
        for (const Word& w : kept)
            for (std::uint64_t b = 0; b < 8; ++b)
                if (w.at + b >= r.begin && w.at + b < r.end)
                    *reinterpret_cast<unsigned char*>(bias + w.at + b) = w.bytes[b];
    }
    return {};
}

}  // namespace xsim::runtime
