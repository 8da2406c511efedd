#include "pdes/conservative_loop.hpp"

namespace xsim {

std::int64_t ConservativeLoop::run(EventSink& sink) {
    const bool solo = link_.process_count() == 1;
    for (;;) {
        const auto agreed = link_.exchange(queue_.next_time(), sink.live_ranks());
        if (agreed.next_time == kNever) return agreed.live;
        ++windows_;
        // Alone, nothing can arrive from elsewhere: the window is unbounded. In cells
        // (processing_order.hpp) it ends at a cell's start, so that the events it holds come
        // first in the queue; next_time is a cell's start too, and a cell is no longer than
        // the lookahead, so every window holds at least that cell.
        window_end_ = (solo || agreed.next_time > kNever - lookahead_)
                          ? kNever
                          : queue_.order().cell_start(agreed.next_time + lookahead_);
        // window_end_ is a cell's start (or kNever), so comparing the first event's cell start
        // with it is comparing its time.
        if (window_end_ == kNever) {
            // Every pending event is inside (event times stay below kTimeLimit): only emptiness
            // to ask, not the first event's cell start (a product and a compare per event).
            while (!queue_.empty()) sink.process(queue_.pop());
        } else {
            while (queue_.next_time() < window_end_) sink.process(queue_.pop());
        }
    }
}

}  // namespace xsim
