// The derived datatypes and the user op a nonblocking collective uses, held from its start
// until its request is freed: MPI_Type_free and MPI_Op_free may come first, and "any
// communication that is currently using this datatype [op] will complete normally"
// (MPI-4.0 sections 5.1.9 and 6.9.5). Moves with the collective's kept storage
// (colls::start's `keep`); releasing the last hold applies the deferred frees.
// Predefined types and ops are not held, so the common call allocates nothing here.
#pragma once
#include <mpi.h>

#include <vector>

#include "libxsim/colls/buffers.hpp"

namespace xsim {

class HeldHandles {
public:
    HeldHandles() = default;
    HeldHandles(HeldHandles&& other) noexcept : types_(std::move(other.types_)), op_(other.op_) {
        other.types_.clear();
        other.op_ = MPI_OP_NULL;
    }
    HeldHandles& operator=(HeldHandles&&) = delete;
    HeldHandles(const HeldHandles&) = delete;
    ~HeldHandles();

    void type(MPI_Datatype type);                       // held if derived
    void blocks(const colls::Blocks& blocks, int n);    // the types of blocks 0..n-1
    void op(MPI_Op op);                                 // held if user-defined

private:
    std::vector<MPI_Datatype> types_;
    MPI_Op op_ = MPI_OP_NULL;
};

// What a nonblocking collective keeps until its request is freed: the binding's storage
// the arguments point into, and the handles they use.
template <class Keep>
struct KeptWithHandles {
    Keep keep;
    HeldHandles handles;
};

}  // namespace xsim
