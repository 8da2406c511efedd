// A free-list pool for the fixed-size objects of the hot path (messages, requests):
// after warm-up, allocating one is a pointer pop, never a system call.
#pragma once
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

#include "pdes/huge_pages.hpp"

namespace xsim {

template <class T>
class Pool {
public:
    Pool() = default;
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    ~Pool() {
        for (Slot* chunk : chunks_) unmap_huge(chunk, kChunkBytes);
    }
    template <class... Args>
    T* make(Args&&... args) {
        if (!free_) grow();
        Slot* slot = free_;
        free_ = slot->next;
        // The free list is in release order, which at scale is far from allocation order:
        // the next slot is usually cold. Fetch it now, while this one is in use.
        __builtin_prefetch(free_, 1);
        ++live_;
        // Default-initialized when no arguments are given: T's member initializers, field by
        // field (so every member of a pooled type has one). `T()` would first zero the whole
        // object, which compiles to a `rep stos` whose start-up cost showed in every send.
        if constexpr (sizeof...(Args) == 0) return new (slot->storage) T;
        else return new (slot->storage) T(std::forward<Args>(args)...);
    }
    void destroy(T* object) {
        object->~T();
        Slot* slot = reinterpret_cast<Slot*>(object);
        slot->next = free_;
        free_ = slot;
        --live_;
    }
    std::size_t live() const { return live_; }
    // Called on the scheduler's stack before a rank runs: makes sure `n` objects can be made
    // without growing, so a rank (whose stack may be 2 KiB) rarely reaches operator new.
    void keep_spare(std::size_t n) {
        while (chunks_.size() * kChunk - live_ < n) grow();
    }

private:
    union Slot {
        Slot* next;
        alignas(T) unsigned char storage[sizeof(T)];
    };
    // One huge page per chunk (pdes/huge_pages.hpp): the free list soon hands the slots out
    // in an order unrelated to their addresses, and with 4 KiB pages nearly every message
    // read was a TLB miss. The chunk is 2 MiB-aligned, so each slot is aligned as T asks (a
    // line-aligned message stays on its own lines).
    static constexpr std::size_t kChunkBytes = kHugePageBytes;
    static constexpr std::size_t kChunk = kChunkBytes / sizeof(Slot);
    void grow() {
        Slot* chunk = static_cast<Slot*>(map_huge(kChunkBytes));
        if (!chunk) throw std::bad_alloc();
        chunks_.push_back(chunk);
        for (std::size_t i = 0; i < kChunk; ++i) {
            chunk[i].next = free_;
            free_ = &chunk[i];
        }
    }
    Slot* free_ = nullptr;
    std::vector<Slot*> chunks_;
    std::size_t live_ = 0;
};

}  // namespace xsim
