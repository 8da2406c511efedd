// A fiber is a suspended execution context on a stack of the StackArena, switched with
// Boost.Context's fcontext primitives (a register save/restore, ~10 ns, no system call).
// The scheduler resumes a fiber; the fiber suspends back to the scheduler.
#pragma once
#include <boost/context/detail/fcontext.hpp>

#include <cstddef>

namespace xsim {

namespace ctx = boost::context::detail;

class Fiber {
public:
    using Entry = void (*)(void* arg);

    // Prepares the fiber to run entry(arg) on [stack_top - stack_bytes, stack_top).
    void prepare(char* stack_top, std::size_t stack_bytes, Entry entry, void* arg);
    bool prepared() const { return context_ != nullptr; }

    // Scheduler side: runs the fiber until it suspends or finishes.
    void resume();
    // Fiber side: gives control back to the scheduler that resumed it.
    void suspend();
    // Fiber side, last call of a finished fiber: never returns.
    [[noreturn]] void finish();
    bool finished() const { return finished_; }

private:
    static void trampoline(ctx::transfer_t from);
    ctx::fcontext_t context_ = nullptr;   // this fiber, while suspended
    ctx::fcontext_t caller_ = nullptr;    // the scheduler, while this fiber runs
    Entry entry_ = nullptr;
    void* arg_ = nullptr;
    bool finished_ = false;
};

}  // namespace xsim
