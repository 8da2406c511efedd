#include "libxsim/datatype.hpp"

#include <cstring>
#include <vector>

namespace xsim {

bool type_layout(MPI_Datatype type, TypeLayout* out) {
    if (type == MPI_DATATYPE_NULL) return false;
    int size = 0;
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    if (PMPI_Type_size(type, &size) != MPI_SUCCESS) return false;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    out->size = static_cast<std::uint64_t>(size);
    out->extent = extent;
    out->true_lb = true_lb;
    out->contiguous = size == 0 || (true_extent == size && extent == size);
    return true;
}

void pack_data(const void* buf, int count, MPI_Datatype type, char* out, std::uint64_t bytes) {
    if (bytes == 0) return;
    TypeLayout layout;
    type_layout(type, &layout);
    if (layout.contiguous) {
        std::memcpy(out, static_cast<const char*>(buf) + layout.true_lb, bytes);
        return;
    }
    int position = 0;
    PMPI_Pack(buf, count, type, out, static_cast<int>(bytes), &position, MPI_COMM_SELF);
}

void unpack_data(const char* in, std::uint64_t bytes, void* buf, int count, MPI_Datatype type) {
    if (bytes == 0) return;
    TypeLayout layout;
    type_layout(type, &layout);
    if (layout.contiguous) {
        std::memcpy(static_cast<char*>(buf) + layout.true_lb, in, bytes);
        return;
    }
    // Only whole elements are unpacked by PMPI_Unpack; a partial last element is what a
    // truncated message leaves, and MPI leaves the rest of the buffer undefined.
    const int whole = layout.size ? static_cast<int>(bytes / layout.size) : 0;
    int position = 0;
    PMPI_Unpack(in, static_cast<int>(bytes), &position, buf, whole < count ? whole : count, type,
                MPI_COMM_SELF);
}

void copy_data(const void* send_buf, int send_count, MPI_Datatype send_type, std::uint64_t bytes,
               void* recv_buf, int recv_count, MPI_Datatype recv_type) {
    if (bytes == 0) return;
    TypeLayout s, r;
    type_layout(send_type, &s);
    type_layout(recv_type, &r);
    if (s.contiguous && r.contiguous) {
        std::memcpy(static_cast<char*>(recv_buf) + r.true_lb,
                    static_cast<const char*>(send_buf) + s.true_lb, bytes);
        return;
    }
    std::vector<char> staging(bytes);
    pack_data(send_buf, send_count, send_type, staging.data(), bytes);
    unpack_data(staging.data(), bytes, recv_buf, recv_count, recv_type);
}

}  // namespace xsim
