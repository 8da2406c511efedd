#include "libxsim/colls/frame_pool.hpp"

#include <new>

namespace xsim::colls {
namespace {

constexpr std::size_t kGranule = 64;
constexpr std::size_t kClasses = 32;  // pooled up to 2 KiB; larger frames are rare

struct FreeBlock {
    FreeBlock* next;
};

FreeBlock* g_free[kClasses] = {};

std::size_t class_of(std::size_t bytes) { return (bytes + kGranule - 1) / kGranule; }

}  // namespace

void* frame_allocate(std::size_t bytes) {
    const std::size_t c = class_of(bytes);
    if (c >= kClasses) return ::operator new(bytes);
    if (FreeBlock* b = g_free[c]) {
        g_free[c] = b->next;
        return b;
    }
    return ::operator new(c * kGranule);
}

void frame_release(void* block, std::size_t bytes) {
    const std::size_t c = class_of(bytes);
    if (c >= kClasses) {
        ::operator delete(block);
        return;
    }
    auto* b = static_cast<FreeBlock*>(block);
    b->next = g_free[c];
    g_free[c] = b;
}

}  // namespace xsim::colls
