#include "libxsim/rank_state/cxx_exception_state.hpp"

#include <cxxabi.h>

#if defined(__ARM_EABI_UNWINDER__)
#error "ARM EABI's __cxa_eh_globals also holds propagatingExceptions: extend CxxExceptionGlobals"
#endif

namespace xsim::runtime {
namespace {

CxxExceptionGlobals& thread_globals() {
    return *reinterpret_cast<CxxExceptionGlobals*>(abi::__cxa_get_globals());
}

}  // namespace

void CxxExceptionState::switch_in(std::size_t index) {
    if (saved_.empty()) return;  // no rank is handling an exception: the thread's record is empty
    const auto it = saved_.find(index);
    if (it == saved_.end()) return;
    thread_globals() = it->second;
    saved_.erase(it);
}

void CxxExceptionState::switch_out(std::size_t index) {
    CxxExceptionGlobals& g = thread_globals();
    if (g.empty()) return;
    saved_[index] = g;
    g = CxxExceptionGlobals{};
}

}  // namespace xsim::runtime
