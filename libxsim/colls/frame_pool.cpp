#include "libxsim/colls/frame_pool.hpp"

#include <cstdint>
#include <new>

namespace xsim::colls {
namespace {

constexpr std::size_t kGranule = 64;
constexpr std::size_t kClasses = 32;  // pooled up to 2 KiB; larger blocks are rare
// Every block starts with this much header (keeps the block 16-byte aligned).
constexpr std::size_t kHeader = 16;
// A slot's header is zero while it is free (a fresh slot is zero).
enum class Source : std::uint64_t { FreeSlot = 0, Pool = 0x706f6f6c, Heap = 0x68656170, Arena = 0x6172656e,
                                    Slot = 0x736c6f74 };

struct FreeBlock {
    FreeBlock* next;
};

FreeBlock* g_free[kClasses] = {};
CallArena* g_arena = nullptr;

std::size_t class_of(std::size_t bytes) { return (bytes + kGranule - 1) / kGranule; }

void* with_header(void* raw, Source source) {
    *static_cast<Source*>(raw) = source;
    return static_cast<char*>(raw) + kHeader;
}

}  // namespace

char* CallArena::take(std::size_t bytes) {
    const std::size_t rounded = (bytes + 15) & ~std::size_t{15};
    if (static_cast<std::size_t>(end_ - next_) < rounded) return nullptr;
    char* p = next_;
    next_ += rounded;
    return p;
}

ArenaScope::ArenaScope(CallArena& arena) : previous_(g_arena) { g_arena = &arena; }
ArenaScope::~ArenaScope() { g_arena = previous_; }

void* frame_allocate(std::size_t bytes, bool arena_ok) {
    const std::size_t total = bytes + kHeader;
    if (g_arena && arena_ok)
        if (char* p = g_arena->take(total)) return with_header(p, Source::Arena);
    const std::size_t c = class_of(total);
    if (c >= kClasses) return with_header(::operator new(total), Source::Heap);
    if (FreeBlock* b = g_free[c]) {
        g_free[c] = b->next;
        return with_header(b, Source::Pool);
    }
    return with_header(::operator new(c * kGranule), Source::Pool);
}

void* frame_in_slot(char* slot, std::size_t slot_bytes, std::size_t bytes) {
    if (!slot || bytes + kHeader > slot_bytes || *reinterpret_cast<Source*>(slot) != Source::FreeSlot) return nullptr;
    return with_header(slot, Source::Slot);
}

void frame_release(void* block, std::size_t bytes) {
    if (!block) return;
    char* raw = static_cast<char*>(block) - kHeader;
    switch (*reinterpret_cast<Source*>(raw)) {
        case Source::Arena: return;
        case Source::Slot: *reinterpret_cast<Source*>(raw) = Source::FreeSlot; return;
        case Source::FreeSlot: return;  // not reached: a free slot is not a block
        case Source::Heap: ::operator delete(raw); return;
        case Source::Pool: break;
    }
    const std::size_t c = class_of(bytes + kHeader);
    auto* b = reinterpret_cast<FreeBlock*>(raw);
    b->next = g_free[c];
    g_free[c] = b;
}

}  // namespace xsim::colls
