// The C library's (or the next object's) definition of a function libxsim interposes, for
// the wrapper to call: dlsym(RTLD_NEXT), typed.
#pragma once
#include <dlfcn.h>

namespace xsim::runtime {

template <class F>
F next_function(const char* name) {
    return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace xsim::runtime
