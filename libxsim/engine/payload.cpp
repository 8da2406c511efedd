#include "libxsim/engine/payload.hpp"

#include <cstdlib>
#include <new>

#include "pdes/huge_pages.hpp"

namespace xsim {
namespace {

constexpr int kClasses = 11;                  // 64 B .. 64 KiB
constexpr std::uint64_t kSmallest = 64;

struct FreeBlock { FreeBlock* next; };
FreeBlock* g_free[kClasses] = {};

int size_class(std::uint64_t bytes) {
    std::uint64_t size = kSmallest;
    for (int c = 0; c < kClasses; ++c, size <<= 1)
        if (bytes <= size) return c;
    return -1;  // large: straight from malloc, or huge pages (large_block)
}

// Payloads of 2 MiB and more (rendezvous data, large eager limits) are mapped in huge pages:
// each one is new memory, touched once by the pack, and 4 KiB pages would cost one fault
// every 4 KiB (10-15 us each on the machines we measure on) where this costs one per 2 MiB.
bool large_block(std::uint64_t bytes) { return bytes >= kHugePageBytes; }

}  // namespace

void acquire_payload(Message* m) {
    m->has_payload = true;
    if (m->bytes == 0) { m->payload = nullptr; return; }
    if (m->bytes <= Message::kInlinePayload) {
        m->payload = m->inline_payload;
        return;
    }
    const int c = size_class(m->bytes);
    if (c >= 0 && g_free[c]) {
        FreeBlock* b = g_free[c];
        g_free[c] = b->next;
        __builtin_prefetch(g_free[c], 1);  // usually cold at scale; needed by the next acquire
        m->payload = reinterpret_cast<char*>(b);
        return;
    }
    const std::uint64_t size = c >= 0 ? (kSmallest << c) : m->bytes;
    m->payload = static_cast<char*>(large_block(size) ? map_huge(size) : std::malloc(size));
    if (!m->payload) throw std::bad_alloc();
}

void release_payload_buffer(char* buffer, std::uint64_t bytes) {
    const int c = size_class(bytes);
    if (c >= 0) {
        auto* b = reinterpret_cast<FreeBlock*>(buffer);
        b->next = g_free[c];
        g_free[c] = b;
    } else if (large_block(bytes)) {
        unmap_huge(buffer, bytes);
    } else {
        std::free(buffer);
    }
}

void release_payload(Message* m) {
    if (!m->payload) return;
    if (m->payload != m->inline_payload) release_payload_buffer(m->payload, m->bytes);
    m->payload = nullptr;
    m->has_payload = false;
}

char* take_payload(Message* m) {
    char* buffer = m->payload;
    m->payload = nullptr;
    m->has_payload = false;
    return buffer;
}

}  // namespace xsim
