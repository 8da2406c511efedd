// The C++ exceptions a simulated rank is handling, kept per rank. libstdc++ keeps, per
// thread, the stack of caught exceptions whose catch blocks are still running and the count
// of exceptions in flight (__cxa_get_globals(): {caughtExceptions, uncaughtExceptions}).
// Simulated ranks are fibers on one thread: a rank that calls MPI (and so switches fibers)
// inside a catch block, or in a destructor run during unwinding, would leave its exception
// on the record that the next rank's `throw;`, std::current_exception, std::uncaught_exceptions
// or end of catch then uses. So the record is swapped at every fiber switch.
//
// Memory: only a rank switched out while handling an exception has a saved record (16
// bytes in a map); every other switch reads the thread's record, finds it empty, and is done.
#pragma once
#include <cstddef>
#include <unordered_map>

namespace xsim::runtime {

// libstdc++'s per-thread record (unwind-cxx.h, __cxa_eh_globals; x86-64 and AArch64 layout).
struct CxxExceptionGlobals {
    void* caught = nullptr;    // __cxa_exception* caughtExceptions
    unsigned int uncaught = 0;  // uncaughtExceptions
    bool empty() const { return caught == nullptr && uncaught == 0; }
};

class CxxExceptionState {
public:
    // Installs local rank `index`'s record on the thread (before its fiber resumes)...
    void switch_in(std::size_t index);
    // ...and takes it back once the fiber suspended or finished, leaving the thread's empty.
    void switch_out(std::size_t index);
    std::size_t saved_ranks() const { return saved_.size(); }

private:
    std::unordered_map<std::size_t, CxxExceptionGlobals> saved_;
};

// Swaps a rank's record in for the lifetime of one fiber resume (Engine::run_fiber).
class CxxExceptionScope {
public:
    CxxExceptionScope(CxxExceptionState& state, std::size_t index) : state_(state), index_(index) {
        state_.switch_in(index_);
    }
    ~CxxExceptionScope() { state_.switch_out(index_); }
    CxxExceptionScope(const CxxExceptionScope&) = delete;
    CxxExceptionScope& operator=(const CxxExceptionScope&) = delete;

private:
    CxxExceptionState& state_;
    std::size_t index_;
};

}  // namespace xsim::runtime
