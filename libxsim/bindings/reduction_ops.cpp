#include "libxsim/bindings/reduction_ops.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::checks {

int op(CallScope& s, const Comm* c, MPI_Op op, MPI_Datatype type, bool* commutative) {
    if (op == MPI_OP_NULL) return s.fail(c, MPI_ERR_OP, "MPI_OP_NULL is not an operation");
    int commute = 0;
    if (real_mpi.Op_commutative(op, &commute) != MPI_SUCCESS) return s.fail(c, MPI_ERR_OP, "invalid operation handle");
    // A zero-element local reduction makes the real library check the op against the type.
    if (real_mpi.Reduce_local(nullptr, nullptr, 0, type, op) != MPI_SUCCESS)
        return s.fail(c, MPI_ERR_OP, "the operation is not defined for this datatype");
    *commutative = commute != 0;
    return MPI_SUCCESS;
}

}  // namespace xsim::checks
