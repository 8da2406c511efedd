// The pending events of one real process, first in the processing order first
// (processing_order.hpp): a calendar of cells when the order has cells (cell_calendar.hpp),
// otherwise time order through sorted runs and a radix heap (time_order_queue.hpp). Both pop
// in exactly the order of one heap; they differ in what each push and pop costs.
#pragma once
#include <cstdint>

#include "pdes/cell_calendar.hpp"
#include "pdes/processing_order.hpp"
#include "pdes/time_order_queue.hpp"

namespace xsim {

class EventQueue {
public:
    static constexpr std::size_t kWindow = TimeOrderQueue::kWindow;  // peek(k) for k below it

    // Only while empty.
    void set_order(const ProcessingOrder& order) {
        order_ = order;
        time_order_.set_order(order);
        if (order.cells()) cells_.set_order(order);
    }
    const ProcessingOrder& order() const { return order_; }

    bool empty() const { return order_.cells() ? cells_.empty() : time_order_.empty(); }
    std::size_t size() const { return order_.cells() ? cells_.size() : time_order_.size(); }
    // No pending event is earlier: the first pending event's time, or the start of its cell;
    // kNever when none is pending.
    SimTime next_time() const { return order_.cells() ? cells_.next_time() : time_order_.next_time(); }
    // True when a pending event comes before `e`. In cells also, at times, when none does but
    // the next cell has not been sorted yet: then waiting one's turn costs time, not results.
    bool maybe_pending_before(const Event& e) const {
        return order_.cells() ? cells_.maybe_pending_before(e) : time_order_.maybe_pending_before(e);
    }
    // The k-th next pending event (0: the next), or null; for prefetching. Events pushed later
    // may come before it. In time order exact for k < kWindow; in cells within the cell being
    // popped only (cell_calendar.hpp).
    const Event* peek(std::size_t k) const { return order_.cells() ? cells_.peek(k) : time_order_.peek(k); }

    void reserve(std::size_t n) {
        if (order_.cells()) cells_.reserve(n);
        else time_order_.reserve(n);
    }
    // Called on the scheduler's stack before a rank runs: room for `n` more pushes, so that a
    // push from a rank's (possibly 2 KiB) stack rarely grows a vector through malloc.
    void keep_room(std::size_t n) {
        if (order_.cells()) cells_.keep_room(n);
        else time_order_.keep_room(n);
    }

    void push(const Event& e) {
        if (order_.cells()) cells_.push(e);
        else time_order_.push(e);
    }
    // Only when !empty().
    Event pop() { return order_.cells() ? cells_.pop() : time_order_.pop(); }

private:
    ProcessingOrder order_;
    CellCalendar cells_;
    TimeOrderQueue time_order_;
};

}  // namespace xsim
