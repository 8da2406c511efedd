// A free-list pool for the fixed-size objects of the hot path (messages, requests):
// after warm-up, allocating one is a pointer pop, never a system call.
#pragma once
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace xsim {

template <class T>
class Pool {
public:
    Pool() = default;
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;
    ~Pool() {
        for (Slot* chunk : chunks_) ::operator delete(chunk, std::align_val_t{alignof(Slot)});
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
        return new (slot->storage) T(std::forward<Args>(args)...);
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
    static constexpr std::size_t kChunk = 1024;
    void grow() {
        // Aligned as the object asks (a line-aligned message stays on its own lines).
        Slot* chunk = static_cast<Slot*>(::operator new(sizeof(Slot) * kChunk, std::align_val_t{alignof(Slot)}));
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
