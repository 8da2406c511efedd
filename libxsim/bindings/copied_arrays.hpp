// The counts, displacements and datatypes arrays of a nonblocking collective, copied at the
// call. MPI asks the caller to keep them until completion, but Open MPI (and MPICH) read
// them only while the call builds its schedule, and programs rely on it: mpi4py 3.1.4's
// Iallgatherv and Ireduce_scatter free theirs when the call returns. xsim's algorithms read
// them as the collective progresses, so the request owns copies (O(group size) per call,
// as the real libraries' schedules are).
#pragma once
#include <mpi.h>

#include <vector>

#include "libxsim/colls/buffers.hpp"

namespace xsim {

class CopiedArrays {
public:
    // Points b's arrays (blocks 0..n-1) at copies this object owns.
    void copy(colls::Blocks& b, int n);
    // A copy of n ints (null stays null).
    const int* copy(const int* ints, int n);

private:
    template <class T>
    const T* own(std::vector<std::vector<T>>& store, const T* data, int n);

    // Moving these moves the inner vectors, whose data stays where it is.
    std::vector<std::vector<int>> ints_;
    std::vector<std::vector<MPI_Aint>> aints_;
    std::vector<std::vector<MPI_Datatype>> types_;
};

}  // namespace xsim
