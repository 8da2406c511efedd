#include "libxsim/rma/target_layout.hpp"

#include <algorithm>
#include <vector>

#include "libxsim/mpi/datatype.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim::rma {

std::vector<ByteBlock> blocks_of(int count, MPI_Datatype type) {
    TypeLayout layout;
    if (count <= 0 || !type_layout(type, &layout) || layout.size == 0) return {};
    const std::uint64_t bytes = static_cast<std::uint64_t>(count) * layout.size;
    if (layout.contiguous) return {ByteBlock{layout.true_lb, bytes}};
    // A derived type's type map, read back through the real library's packing (no decoding
    // of constructors): pack a span whose every byte holds one byte of its own offset, once
    // per byte of the largest offset; packed byte i then spells where byte i came from.
    MPI_Aint true_lb = 0, true_extent = 0;
    real_mpi.Type_get_true_extent(type, &true_lb, &true_extent);
    const MPI_Aint stride = static_cast<MPI_Aint>(count - 1) * layout.extent;
    const MPI_Aint start = true_lb + std::min<MPI_Aint>(0, stride);
    const MPI_Aint span = true_extent + (stride < 0 ? -stride : stride);
    std::vector<unsigned char> plane(static_cast<std::size_t>(span));
    std::vector<unsigned char> packed(bytes);
    std::vector<std::int64_t> from(bytes, 0);
    for (int shift = 0; shift < 64 && (span - 1) >> shift != 0; shift += 8) {
        for (MPI_Aint i = 0; i < span; ++i) plane[static_cast<std::size_t>(i)] = static_cast<unsigned char>(i >> shift);
        pack_data(plane.data() - start, count, type, reinterpret_cast<char*>(packed.data()), bytes);
        for (std::uint64_t i = 0; i < bytes; ++i) from[i] |= static_cast<std::int64_t>(packed[i]) << shift;
    }
    std::vector<ByteBlock> blocks;
    for (std::uint64_t i = 0; i < bytes; ++i) {
        const std::int64_t at = from[i] + start;
        if (!blocks.empty() && blocks.back().offset + static_cast<std::int64_t>(blocks.back().bytes) == at)
            ++blocks.back().bytes;
        else
            blocks.push_back({at, 1});
    }
    return blocks;
}

namespace {

// The predefined types an accumulate may use (MPI-4.0 section 12.3.4: the types of the
// predefined reduction ops, and the pair types of MINLOC/MAXLOC), and the byte types.
const MPI_Datatype kTypes[] = {MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
            MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE,
            MPI_LONG_DOUBLE, MPI_WCHAR, MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T,
            MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_C_FLOAT_COMPLEX,
            MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
            MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX,
            MPI_DOUBLE_COMPLEX, MPI_LOGICAL, MPI_CHARACTER, MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_2INTEGER,
            MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8, MPI_REAL4, MPI_REAL8, MPI_PACKED};

const MPI_Op kOps[] = {MPI_SUM, MPI_MAX,  MPI_MIN,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                       MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};

}  // namespace

MPI_Datatype element_type(MPI_Datatype type) {
    if (predefined_layout(type)) return type;  // the common case, without asking the library
    int integers = 0, addresses = 0, types = 0, combiner = 0;
    if (real_mpi.Type_get_envelope(type, &integers, &addresses, &types, &combiner) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    if (combiner == MPI_COMBINER_NAMED) return type;
    std::vector<int> ints(static_cast<std::size_t>(integers));
    std::vector<MPI_Aint> addrs(static_cast<std::size_t>(addresses));
    std::vector<MPI_Datatype> inner(static_cast<std::size_t>(types));
    real_mpi.Type_get_contents(type, integers, addresses, types, ints.data(), addrs.data(), inner.data());
    MPI_Datatype common = MPI_DATATYPE_NULL;
    bool mixed = false;
    for (MPI_Datatype t : inner) {
        const MPI_Datatype e = element_type(t);
        if (common == MPI_DATATYPE_NULL) common = e;
        else if (e != common) mixed = true;
        int i = 0, a = 0, n = 0, c = 0;
        real_mpi.Type_get_envelope(t, &i, &a, &n, &c);
        if (c != MPI_COMBINER_NAMED) real_mpi.Type_free(&t);  // get_contents made a new handle
    }
    return mixed ? MPI_DATATYPE_NULL : common;
}

int predefined_type_index(MPI_Datatype type) {
    const auto it = std::find(std::begin(kTypes), std::end(kTypes), type);
    return it == std::end(kTypes) ? -1 : static_cast<int>(it - std::begin(kTypes));
}

MPI_Datatype predefined_type_at(int index) {
    return index >= 0 && index < static_cast<int>(std::size(kTypes)) ? kTypes[index] : MPI_DATATYPE_NULL;
}

int predefined_op_index(MPI_Op op) {
    const auto it = std::find(std::begin(kOps), std::end(kOps), op);
    return it == std::end(kOps) ? -1 : static_cast<int>(it - std::begin(kOps));
}

MPI_Op predefined_op_at(int index) {
    return index >= 0 && index < static_cast<int>(std::size(kOps)) ? kOps[index] : MPI_OP_NULL;
}

}  // namespace xsim::rma
