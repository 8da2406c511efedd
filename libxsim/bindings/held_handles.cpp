#include "libxsim/bindings/held_handles.hpp"

#include "libxsim/mpi/datatype.hpp"

namespace xsim {

HeldHandles::~HeldHandles() {
    for (MPI_Datatype t : types_) release_type(t);
    if (op_ != MPI_OP_NULL) release_op(op_);
}

void HeldHandles::type(MPI_Datatype type) {
    if (type == MPI_DATATYPE_NULL) return;
    TypeLayout layout;
    if (!type_layout(type, &layout) || layout.predefined) return;
    retain_type(type);
    types_.push_back(type);
}

void HeldHandles::blocks(const colls::Blocks& b, int n) {
    if (!b.types) return type(b.type);
    for (int i = 0; i < n; ++i) type(b.types[i]);
}

void HeldHandles::op(MPI_Op op) {
    if (op == MPI_OP_NULL || predefined_op(op) || op_ != MPI_OP_NULL) return;
    retain_op(op);
    op_ = op;
}

}  // namespace xsim
