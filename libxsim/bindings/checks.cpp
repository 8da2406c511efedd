#include "libxsim/bindings/checks.hpp"

#include <string>

#include "libxsim/mpi/datatype.hpp"

namespace xsim::checks {

int comm(CallScope& s, MPI_Comm handle, const Comm** out) {
    *out = resolve_comm(handle);
    if (*out) return MPI_SUCCESS;
    return s.fail(nullptr, MPI_ERR_COMM, handle == MPI_COMM_NULL ? "MPI_COMM_NULL is not a communicator"
                                                                 : "invalid communicator handle");
}

int buffer(CallScope& s, const Comm* c, const void* buf, int count, MPI_Datatype type, p2p::Buffer* out) {
    if (count < 0) return s.fail(c, MPI_ERR_COUNT, "negative count " + std::to_string(count));
    TypeLayout layout;
    switch (check_type(type, &layout)) {
        case TypeCheck::Ok: break;
        case TypeCheck::Null: return s.fail(c, MPI_ERR_TYPE, "MPI_DATATYPE_NULL or an invalid datatype");
        case TypeCheck::Uncommitted: return s.fail(c, MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
    }
    out->buf = buf;
    out->count = count;
    out->type = type;
    out->bytes = layout.size * static_cast<std::uint64_t>(count);
    out->derived = !layout.predefined;
    // A null buffer is fine where data of its size never moves (-xsim-payload), and as
    // MPI_BOTTOM with a derived type of absolute addresses (its data does not start at 0).
    const bool bottom = !layout.predefined && layout.true_lb != 0;
    if (!buf && out->bytes > 0 && !bottom) {
        if (s.engine.options().payload.carries(out->bytes))
            return s.fail(c, MPI_ERR_BUFFER, "null buffer for " + std::to_string(out->bytes) + " bytes");
        out->carry = p2p::Carry::Never;  // nowhere to put data, should a shorter message bring some
    }
    return MPI_SUCCESS;
}

int peer(CallScope& s, const Comm* c, int rank, bool any_source) {
    if (rank == MPI_PROC_NULL || (any_source && rank == MPI_ANY_SOURCE)) return MPI_SUCCESS;
    if (rank < 0 || rank >= c->peer_size())
        return s.fail(c, MPI_ERR_RANK, "invalid rank " + std::to_string(rank) +
                                           (c->is_inter() ? " (remote group size " : " (communicator size ") +
                                           std::to_string(c->peer_size()) + ")");
    return MPI_SUCCESS;
}

int tag(CallScope& s, const Comm* c, int t, bool any_tag) {
    if (any_tag && t == MPI_ANY_TAG) return MPI_SUCCESS;
    if (t < 0 || t > kTagUpperBound) return s.fail(c, MPI_ERR_TAG, "invalid tag " + std::to_string(t));
    return MPI_SUCCESS;
}

int pointer(CallScope& s, const Comm* c, const void* p, const char* what) {
    if (p) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_ARG, std::string("null pointer for ") + what);
}

}  // namespace xsim::checks
