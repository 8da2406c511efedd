#include "libxsim/mpi/datatype.hpp"

#include <cstring>
#include <unordered_map>
#include <vector>

#include "libxsim/mpi/process_objects.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {
namespace {

// The current process's tables (process_objects.hpp); only the simulation thread calls these.
std::unordered_map<MPI_Datatype, TypeLayout>& predefined_layouts() { return process_objects().predefined_layouts; }
std::unordered_map<MPI_Datatype, PendingTypeUses>& pending_uses() { return process_objects().pending_type_uses; }

void query_layout(MPI_Datatype type, TypeLayout* out) {
    int size = 0;
    MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    real_mpi.Type_size(type, &size);
    real_mpi.Type_get_extent(type, &lb, &extent);
    real_mpi.Type_get_true_extent(type, &true_lb, &true_extent);
    out->size = static_cast<std::uint64_t>(size);
    out->extent = extent;
    out->true_lb = true_lb;
    out->contiguous = size == 0 || (true_extent == size && extent == size);
}

// predefined_layout, inlined into this file's callers (pack_data and unpack_data run for
// every message with data).
inline const TypeLayout* find_predefined(MPI_Datatype type) {
    ProcessObjects& objects = process_objects();
    const auto handle = reinterpret_cast<std::uintptr_t>(type);
    auto& recent = objects.recent_layouts[((handle >> 6) ^ (handle >> 9)) % objects.recent_layouts.size()];
    if (recent.type == type && type != MPI_DATATYPE_NULL) return recent.layout;
    auto it = objects.predefined_layouts.find(type);
    if (it == objects.predefined_layouts.end()) return nullptr;
    recent = {type, &it->second};
    return &it->second;
}

}  // namespace

const TypeLayout* predefined_layout(MPI_Datatype type) { return find_predefined(type); }

TypeCheck check_type(MPI_Datatype type, TypeLayout* out) {
    if (type == MPI_DATATYPE_NULL) return TypeCheck::Null;
    if (const TypeLayout* known = find_predefined(type)) {
        *out = *known;
        return TypeCheck::Ok;
    }
    auto& cache = predefined_layouts();
    int ints = 0, addrs = 0, types = 0, combiner = 0;
    if (real_mpi.Type_get_envelope(type, &ints, &addrs, &types, &combiner) != MPI_SUCCESS) return TypeCheck::Null;
    if (combiner == MPI_COMBINER_NAMED) {
        query_layout(type, out);
        out->predefined = true;
        cache.emplace(type, *out);
        return TypeCheck::Ok;
    }
    // Derived: the real library knows whether it was committed; packing nothing asks it
    // (Open MPI checks the datatype, including its committed flag, before anything else).
    char none = 0;
    int position = 0;
    if (real_mpi.Pack(nullptr, 0, type, &none, 0, &position, MPI_COMM_SELF) != MPI_SUCCESS) return TypeCheck::Uncommitted;
    query_layout(type, out);
    out->predefined = false;
    return TypeCheck::Ok;
}

void retain_type(MPI_Datatype type) { ++pending_uses()[type].operations; }

void release_type(MPI_Datatype type) {
    auto& uses = pending_uses();
    auto it = uses.find(type);
    if (it == uses.end() || --it->second.operations > 0) return;
    for (int i = 0; i < it->second.deferred_frees; ++i) {
        MPI_Datatype handle = type;
        real_mpi.Type_free(&handle);
    }
    uses.erase(it);
}

int free_type(MPI_Datatype type) {
    auto& uses = pending_uses();
    if (auto it = uses.find(type); it != uses.end()) {
        ++it->second.deferred_frees;
        return MPI_SUCCESS;
    }
    return real_mpi.Type_free(&type);
}

bool predefined_op(MPI_Op op) {
    static const MPI_Op predefined[] = {MPI_MAX,  MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                                        MPI_BOR,  MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    for (MPI_Op p : predefined)
        if (op == p) return true;
    return false;
}

void retain_op(MPI_Op op) {
    if (op != MPI_OP_NULL && !predefined_op(op)) ++process_objects().pending_op_uses[op].operations;
}

void release_op(MPI_Op op) {
    auto& uses = process_objects().pending_op_uses;
    auto it = uses.find(op);
    if (it == uses.end() || --it->second.operations > 0) return;
    for (int i = 0; i < it->second.deferred_frees; ++i) {
        MPI_Op handle = op;
        real_mpi.Op_free(&handle);
    }
    uses.erase(it);
}

int free_op(MPI_Op op) {
    auto& uses = process_objects().pending_op_uses;
    if (auto it = uses.find(op); it != uses.end()) {
        ++it->second.deferred_frees;
        return MPI_SUCCESS;
    }
    return real_mpi.Op_free(&op);
}

namespace {

// The layout pack/unpack/copy work from: the predefined cache's entry, read in place (every
// message with data comes here; copying the layout out showed in its profile), or `derived`
// filled in from the real library.
const TypeLayout& layout_for_data(MPI_Datatype type, TypeLayout& derived) {
    if (const TypeLayout* known = find_predefined(type)) return *known;
    type_layout(type, &derived);
    return derived;
}

}  // namespace

void pack_data(const void* buf, int count, MPI_Datatype type, char* out, std::uint64_t bytes) {
    if (bytes == 0) return;
    TypeLayout derived;
    const TypeLayout& layout = layout_for_data(type, derived);
    if (layout.contiguous) {
        std::memcpy(out, static_cast<const char*>(buf) + layout.true_lb, bytes);
        return;
    }
    int position = 0;
    real_mpi.Pack(buf, count, type, out, static_cast<int>(bytes), &position, MPI_COMM_SELF);
}

void unpack_data(const char* in, std::uint64_t bytes, void* buf, int count, MPI_Datatype type) {
    if (bytes == 0) return;
    TypeLayout derived;
    const TypeLayout& layout = layout_for_data(type, derived);
    if (layout.contiguous) {
        std::memcpy(static_cast<char*>(buf) + layout.true_lb, in, bytes);
        return;
    }
    const std::uint64_t whole = layout.size ? bytes / layout.size : 0;
    const int elements = whole < static_cast<std::uint64_t>(count) ? static_cast<int>(whole) : count;
    int position = 0;
    real_mpi.Unpack(in, static_cast<int>(bytes), &position, buf, elements, type, MPI_COMM_SELF);
    // A partial last element (fewer basic elements than a whole one, as MPI_Get_elements
    // then reports): PMPI_Unpack takes only whole elements, so pack the element as it is,
    // overlay the bytes that arrived, and unpack it back. Its other parts keep their values.
    const std::uint64_t rest = bytes - static_cast<std::uint64_t>(position);
    if (elements < count && rest > 0 && rest < layout.size) {
        char* element = static_cast<char*>(buf) + static_cast<MPI_Aint>(elements) * layout.extent;
        std::vector<char> staging(layout.size);
        int at = 0;
        real_mpi.Pack(element, 1, type, staging.data(), static_cast<int>(layout.size), &at, MPI_COMM_SELF);
        std::memcpy(staging.data(), in + position, rest);
        at = 0;
        real_mpi.Unpack(staging.data(), static_cast<int>(layout.size), &at, element, 1, type, MPI_COMM_SELF);
    }
}

void copy_data(const void* send_buf, int send_count, MPI_Datatype send_type, std::uint64_t bytes,
               void* recv_buf, int recv_count, MPI_Datatype recv_type) {
    if (bytes == 0) return;
    TypeLayout derived_send, derived_recv;
    const TypeLayout& s = layout_for_data(send_type, derived_send);
    const TypeLayout& r = layout_for_data(recv_type, derived_recv);
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
