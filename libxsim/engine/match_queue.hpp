// An intrusive FIFO (posted receives, unexpected messages): two pointers per rank, no
// allocation. Items carry their own `next` link.
#pragma once

namespace xsim {

template <class T>
struct MatchQueue {
    T* head = nullptr;
    T* tail = nullptr;

    bool empty() const { return head == nullptr; }
    void push_back(T* item) {
        item->next = nullptr;
        if (tail) tail->next = item; else head = item;
        tail = item;
    }
    // Removes and returns the first item for which match(item) holds, or null.
    template <class Pred>
    T* take_first(Pred&& match) {
        T* prev = nullptr;
        for (T* it = head; it; prev = it, it = it->next) {
            if (!match(*it)) continue;
            unlink(prev, it);
            return it;
        }
        return nullptr;
    }
    template <class Pred>
    T* find_first(Pred&& match) const {
        for (T* it = head; it; it = it->next)
            if (match(*it)) return it;
        return nullptr;
    }
    bool remove(T* item) {
        T* prev = nullptr;
        for (T* it = head; it; prev = it, it = it->next) {
            if (it != item) continue;
            unlink(prev, it);
            return true;
        }
        return false;
    }

private:
    void unlink(T* prev, T* it) {
        (prev ? prev->next : head) = it->next;
        if (tail == it) tail = prev;
        it->next = nullptr;
    }
};

}  // namespace xsim
