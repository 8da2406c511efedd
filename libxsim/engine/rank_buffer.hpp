// A user buffer as its owner rank sees it (runtime/privatization.hpp): message data is
// moved to and from buffers outside the owner's fiber, and a buffer that is a privatized
// global must be the owner's copy, not whichever rank's image is loaded.
#pragma once
#include <mpi.h>

#include "libxsim/engine/engine.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::runtime {

inline void* rank_buffer(Engine& engine, const Rank& owner, const void* buf, int count, MPI_Datatype type) {
    void* p = const_cast<void*>(buf);
    Privatization& priv = engine.privatization();
    if (!priv.may_hold(p) || count <= 0) return p;
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    real_mpi.Type_get_extent(type, &lb, &extent);
    real_mpi.Type_get_true_extent(type, &true_lb, &true_extent);
    char* begin = static_cast<char*>(p) + true_lb;
    const auto bytes = static_cast<std::size_t>((count - 1) * extent + true_extent);
    char* seen = static_cast<char*>(priv.view(begin, bytes, engine.local_index(owner)));
    return seen - true_lb;
}

}  // namespace xsim::runtime
