// Where an RMA operation's data lies in the target's window, described so that another real
// process can follow it: a derived datatype handle means nothing there, so the target
// datatype travels as its byte blocks (offset from the target address, length), in the
// order of its type map. Accumulates also need the predefined type the elements are made
// of and the op, which travel as indexes into the tables below (the same in every process).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <vector>

namespace xsim::rma {

struct ByteBlock {
    std::int64_t offset = 0;  // from the target address (base + disp * disp_unit)
    std::uint64_t bytes = 0;
};

// The blocks of `count` elements of `type` (committed), merged where they touch.
std::vector<ByteBlock> blocks_of(int count, MPI_Datatype type);

// The predefined type every element of `type` is built from (MPI: accumulate's origin and
// target types must consist of one predefined type), or MPI_DATATYPE_NULL when `type` mixes
// several. Pair types (MPI_2INT, MPI_DOUBLE_INT...) count as one, for MINLOC and MAXLOC.
MPI_Datatype element_type(MPI_Datatype type);

// Index of a predefined type or op in a table shared by all processes, -1 if not there.
int predefined_type_index(MPI_Datatype type);
MPI_Datatype predefined_type_at(int index);
int predefined_op_index(MPI_Op op);
MPI_Op predefined_op_at(int index);

}  // namespace xsim::rma
