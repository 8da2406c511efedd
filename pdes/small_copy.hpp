// memcpy for a few bytes, without the call: the hot paths copy many small blocks (a message's
// double or halo of ints, a rank's globals at every switch: an int here, a pointer of the C
// library's getopt there), where a call into the C library cost more than the copy.
#pragma once
#include <cstdint>
#include <cstring>

namespace xsim {

// Copies [s, s + n) for sizeof(Word) <= n <= 2 sizeof(Word): its first and its last Word,
// both loaded before either is stored, so that they cover the range between them.
template <class Word>
inline void copy_ends(char* d, const char* s, std::uint64_t n) {
    Word first, last;
    std::memcpy(&first, s, sizeof(Word));
    std::memcpy(&last, s + n - sizeof(Word), sizeof(Word));
    std::memcpy(d, &first, sizeof(Word));
    std::memcpy(d + n - sizeof(Word), &last, sizeof(Word));
}

// memcpy(to, from, n): loads of fixed size from 4 to 16 bytes, the C library's otherwise.
inline void copy_small(void* to, const void* from, std::uint64_t n) {
    auto* d = static_cast<char*>(to);
    const auto* s = static_cast<const char*>(from);
    if (n >= 8 && n <= 16) copy_ends<std::uint64_t>(d, s, n);
    else if (n >= 4 && n < 8) copy_ends<std::uint32_t>(d, s, n);
    else std::memcpy(d, s, n);
}

}  // namespace xsim
