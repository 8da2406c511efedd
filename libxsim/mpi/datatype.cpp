#include "libxsim/mpi/datatype.hpp"

#include <cstring>
#include <unordered_map>
#include <utility>
#include <vector>

#include "libxsim/mpi/process_objects.hpp"
#include "libxsim/mpi/real_mpi.hpp"
#include "pdes/small_copy.hpp"

namespace xsim {
namespace {

// The current process's tables (process_objects.hpp); only the simulation thread calls these.
std::unordered_map<MPI_Datatype, TypeLayout>& predefined_layouts() { return process_objects().predefined_layouts; }

bool in_memory_order(MPI_Datatype type, int depth);

// Size and extents of a type, from the _x forms: a type of 2 GiB or more has no int size
// (MPI_Type_size gives MPI_UNDEFINED).
struct Shape {
    MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
    // Its data fills [lb, lb + extent) with nothing left out.
    bool solid() const { return extent == size && true_extent == size && true_lb == lb; }
};
Shape shape_of(MPI_Datatype type) {
    Shape s;
    real_mpi.Type_size_x(type, &s.size);
    real_mpi.Type_get_extent_x(type, &s.lb, &s.extent);
    real_mpi.Type_get_true_extent_x(type, &s.true_lb, &s.true_extent);
    return s;
}

// True when the type map of `type` lists its bytes front to back, block after block with no
// gap: only then may an element whose size, extent and true extent agree be moved with one
// memcpy. (A struct of an int at 0 and an int at -4 has all three equal to 8, yet packs its
// second int first.) Decided from the constructors (MPI_Type_get_contents), exactly; the
// kinds not analysed (subarray, darray) say false, and packing by the real library is
// always right.
bool in_memory_order(MPI_Datatype type, int depth) {
    int ni = 0, na = 0, nt = 0, combiner = 0;
    if (real_mpi.Type_get_envelope(type, &ni, &na, &nt, &combiner) != MPI_SUCCESS) return false;
    if (combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL || combiner == MPI_COMBINER_F90_COMPLEX ||
        combiner == MPI_COMBINER_F90_INTEGER)
        return true;
    if (depth > 32) return false;
    std::vector<int> ints(static_cast<std::size_t>(ni));
    std::vector<MPI_Aint> addrs(static_cast<std::size_t>(na));
    std::vector<MPI_Datatype> types(static_cast<std::size_t>(nt));
    if (real_mpi.Type_get_contents(type, ni, na, nt, ints.data(), addrs.data(), types.data()) != MPI_SUCCESS)
        return false;
    // Blocks of `count` elements of t at byte `at` (t's lb added) must follow each other, and
    // t must be solid and in order itself. All blocks but a struct's share one t: it is
    // asked about once, not once per block.
    bool ordered = true, started = false;
    MPI_Aint end = 0;
    MPI_Datatype asked = MPI_DATATYPE_NULL;
    Shape t_shape;
    bool t_ok = false;
    auto block = [&](MPI_Datatype t, MPI_Aint count, MPI_Aint at, bool at_in_elements) {
        if (!ordered || count == 0) return;
        if (t != asked) {
            asked = t;
            t_shape = shape_of(t);
            t_ok = t_shape.solid() && in_memory_order(t, depth + 1);
        }
        if (!t_ok) {
            ordered = false;
            return;
        }
        const auto extent = static_cast<MPI_Aint>(t_shape.extent);
        const MPI_Aint start = (at_in_elements ? at * extent : at) + static_cast<MPI_Aint>(t_shape.lb);
        if (started && start != end) ordered = false;
        started = true;
        end = start + count * extent;
    };
    switch (combiner) {
        case MPI_COMBINER_DUP:
        case MPI_COMBINER_RESIZED: ordered = in_memory_order(types[0], depth + 1); break;
        case MPI_COMBINER_CONTIGUOUS: block(types[0], ints[0], 0, true); break;
        case MPI_COMBINER_VECTOR:
            for (int i = 0; i < ints[0]; ++i) block(types[0], ints[1], static_cast<MPI_Aint>(i) * ints[2], true);
            break;
        case MPI_COMBINER_HVECTOR:
            for (int i = 0; i < ints[0]; ++i) block(types[0], ints[1], i * addrs[0], false);
            break;
        case MPI_COMBINER_INDEXED:
            for (int i = 0; i < ints[0]; ++i) block(types[0], ints[1 + i], ints[1 + ints[0] + i], true);
            break;
        case MPI_COMBINER_HINDEXED:
            for (int i = 0; i < ints[0]; ++i) block(types[0], ints[1 + i], addrs[static_cast<std::size_t>(i)], false);
            break;
        case MPI_COMBINER_INDEXED_BLOCK:
            for (int i = 0; i < ints[0]; ++i) block(types[0], ints[1], ints[2 + i], true);
            break;
        case MPI_COMBINER_HINDEXED_BLOCK:
            for (int i = 0; i < ints[0]; ++i) block(types[0], ints[1], addrs[static_cast<std::size_t>(i)], false);
            break;
        case MPI_COMBINER_STRUCT:
            for (int i = 0; i < ints[0]; ++i)
                block(types[static_cast<std::size_t>(i)], ints[1 + i], addrs[static_cast<std::size_t>(i)], false);
            break;
        default: ordered = false;  // subarray, darray: packed by the real library
    }
    // Derived types Type_get_contents returns are new handles (MPI-4 section 5.1.13).
    for (MPI_Datatype t : types) {
        int tni = 0, tna = 0, tnt = 0, tc = 0;
        if (real_mpi.Type_get_envelope(t, &tni, &tna, &tnt, &tc) == MPI_SUCCESS && tc != MPI_COMBINER_NAMED)
            real_mpi.Type_free(&t);
    }
    return ordered;
}

// The real library frees `type` now: its handle may name another type next.
int really_free(MPI_Datatype type) {
    ProcessObjects& objects = process_objects();
    objects.derived_types.erase(type);
    if (objects.last_derived.type == type) objects.last_derived = {};
    return real_mpi.Type_free(&type);
}

// The entry of a derived type already used, or null.
DerivedType* find_derived(ProcessObjects& objects, MPI_Datatype type) {
    if (objects.last_derived.type == type) return objects.last_derived.entry;
    auto it = objects.derived_types.find(type);
    if (it == objects.derived_types.end()) return nullptr;
    objects.last_derived = {type, &it->second};
    return &it->second;
}

void query_layout(MPI_Datatype type, TypeLayout* out) {
    const Shape shape = shape_of(type);
    out->size = static_cast<std::uint64_t>(shape.size);
    out->extent = static_cast<MPI_Aint>(shape.extent);
    out->true_lb = static_cast<MPI_Aint>(shape.true_lb);
    out->contiguous =
        shape.size == 0 || (shape.true_extent == shape.size && shape.extent == shape.size && in_memory_order(type, 0));
}

// find_predefined after the type found last: the slots indexed by the handle, then the map (out
// of line, so that the callers' fast path saves no register).
[[gnu::noinline]] const TypeLayout* find_predefined_again(ProcessObjects& objects, MPI_Datatype type) {
    const auto handle = reinterpret_cast<std::uintptr_t>(type);
    auto& recent = objects.recent_layouts[((handle >> 6) ^ (handle >> 9)) % objects.recent_layouts.size()];
    if (recent.type != type) {
        auto it = objects.predefined_layouts.find(type);
        if (it == objects.predefined_layouts.end()) return nullptr;
        recent = {type, &it->second};
    }
    objects.last_layout = recent;
    return recent.layout;
}

// The layout of `type` when it is the predefined type found last, else null.
inline const TypeLayout* found_last(const ProcessObjects& objects, MPI_Datatype type) {
    return objects.last_layout.type == type ? objects.last_layout.layout : nullptr;
}

// predefined_layout, inlined into this file's callers: the predefined type found last first (a
// collective's rounds and a halo exchange's messages ask for one type again and again). An
// empty entry holds MPI_DATATYPE_NULL and no layout: the right answer for it too.
inline const TypeLayout* find_predefined(MPI_Datatype type) {
    ProcessObjects& objects = process_objects();
    if (const TypeLayout* known = found_last(objects, type)) return known;
    return find_predefined_again(objects, type);
}

}  // namespace

const TypeLayout* predefined_layout(MPI_Datatype type) { return find_predefined(type); }

TypeCheck check_type(MPI_Datatype type, TypeLayout* out) {
    if (type == MPI_DATATYPE_NULL) return TypeCheck::Null;
    ProcessObjects& objects = process_objects();
    // The type found last, predefined or derived, before any map.
    const TypeLayout* known = found_last(objects, type);
    if (!known && objects.last_derived.type == type) known = &objects.last_derived.entry->layout;
    if (!known) known = find_predefined_again(objects, type);
    // A committed derived type used before: every message with it comes here, and asking the
    // real library again (an envelope, a pack of nothing, sizes and extents) made a message
    // with a vector type a third slower (bench/RESULTS.md, "Session 42").
    if (!known)
        if (const DerivedType* derived = find_derived(objects, type)) known = &derived->layout;
    if (known) {
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
    objects.derived_types.emplace(type, DerivedType{*out, {}});
    return TypeCheck::Ok;
}

void retain_type(MPI_Datatype type) {
    ProcessObjects& objects = process_objects();
    DerivedType* derived = find_derived(objects, type);
    if (!derived) {  // every caller checked the type first, which made its entry
        TypeLayout layout;
        if (!type_layout(type, &layout) || layout.predefined) return;
        derived = find_derived(objects, type);
    }
    ++derived->uses.operations;
}

void release_type(MPI_Datatype type) {
    DerivedType* derived = find_derived(process_objects(), type);
    if (!derived || --derived->uses.operations > 0) return;
    const int frees = std::exchange(derived->uses.deferred_frees, 0);
    for (int i = 0; i < frees; ++i) really_free(type);  // the first forgets the entry
}

int free_type(MPI_Datatype type) {
    if (DerivedType* derived = find_derived(process_objects(), type); derived && derived->uses.operations > 0) {
        ++derived->uses.deferred_frees;
        return MPI_SUCCESS;
    }
    return really_free(type);
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

// pack_data and unpack_data of anything but the contiguous predefined type found last.
[[gnu::noinline]] void pack_any(const void* buf, int count, MPI_Datatype type, char* out, std::uint64_t bytes) {
    TypeLayout derived;
    const TypeLayout& layout = layout_for_data(type, derived);
    if (layout.contiguous) {
        copy_small(out, static_cast<const char*>(buf) + layout.true_lb, bytes);
        return;
    }
    int position = 0;
    real_mpi.Pack(buf, count, type, out, static_cast<int>(bytes), &position, MPI_COMM_SELF);
}

[[gnu::noinline]] void unpack_any(const char* in, std::uint64_t bytes, void* buf, int count, MPI_Datatype type) {
    TypeLayout derived;
    const TypeLayout& layout = layout_for_data(type, derived);
    if (layout.contiguous) {
        copy_small(static_cast<char*>(buf) + layout.true_lb, in, bytes);
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

}  // namespace

// Most messages carry a contiguous predefined type, the one found last: copied here, and the
// rest in pack_any and unpack_any (their calls are tail calls, and the fast path saves no register).
void pack_data(const void* buf, int count, MPI_Datatype type, char* out, std::uint64_t bytes) {
    if (bytes == 0) return;
    if (const TypeLayout* known = found_last(process_objects(), type); known && known->contiguous)
        return copy_small(out, static_cast<const char*>(buf) + known->true_lb, bytes);
    pack_any(buf, count, type, out, bytes);
}

void unpack_data(const char* in, std::uint64_t bytes, void* buf, int count, MPI_Datatype type) {
    if (bytes == 0) return;
    if (const TypeLayout* known = found_last(process_objects(), type); known && known->contiguous)
        return copy_small(static_cast<char*>(buf) + known->true_lb, in, bytes);
    unpack_any(in, bytes, buf, count, type);
}

void copy_data(const void* send_buf, int send_count, MPI_Datatype send_type, std::uint64_t bytes,
               void* recv_buf, int recv_count, MPI_Datatype recv_type) {
    if (bytes == 0) return;
    TypeLayout derived_send, derived_recv;
    const TypeLayout& s = layout_for_data(send_type, derived_send);
    const TypeLayout& r = layout_for_data(recv_type, derived_recv);
    if (s.contiguous && r.contiguous) {
        copy_small(static_cast<char*>(recv_buf) + r.true_lb, static_cast<const char*>(send_buf) + s.true_lb,
                   bytes);
        return;
    }
    std::vector<char> staging(bytes);
    pack_data(send_buf, send_count, send_type, staging.data(), bytes);
    unpack_data(staging.data(), bytes, recv_buf, recv_count, recv_type);
}

}  // namespace xsim
