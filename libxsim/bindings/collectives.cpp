// MPI collective bindings, blocking, nonblocking (MPI_Ibcast, ...) and persistent
// (MPIX_Bcast_init, ...: persistent_collective.hpp): validate (communicator, root, counts,
// datatypes, op, buffers, MPI_IN_PLACE where the standard allows it, a send buffer that is
// not the receive buffer), return early when no data moves, then run the collective
// (colls::run picks the algorithm) or start it (colls::start, the same algorithm driven by
// its messages' completions; the request is returned at once). Arguments that MPI calls
// significant only at the root are checked only there. Every helper takes `how`
// (pcoll::Call): the blocking call, the nonblocking one and its MPI_Request*, or the
// persistent init (whose checks are the nonblocking call's; dispatch defines what each
// MPI_Start runs).
#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI: the MPIX_*_init declarations these definitions must match
#endif
#endif

#include <climits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "libxsim/bindings/checks.hpp"
#include "libxsim/bindings/copied_arrays.hpp"
#include "libxsim/bindings/held_handles.hpp"
#include "libxsim/bindings/persistent_collective.hpp"
#include "libxsim/bindings/profiling_alias.hpp"
#include "libxsim/bindings/reduction_ops.hpp"
#include "libxsim/colls/collective_call.hpp"
#include "libxsim/colls/entry.hpp"
#include "libxsim/mpi/datatype.hpp"

using namespace xsim;
using namespace xsim::colls;

namespace {

bool in_place(const void* buf) { return buf == MPI_IN_PLACE; }

int root_in_range(CallScope& s, const Comm* c, int root) {
    if (root >= 0 && root < c->size) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_ROOT, "invalid root " + std::to_string(root) + " (communicator size " +
                                       std::to_string(c->size) + ")");
}

// The root argument on an intercommunicator: MPI_ROOT (the root), MPI_PROC_NULL (the other
// members of its group) or the root's rank in the remote group (the receiving group).
int inter_root_in_range(CallScope& s, const Comm* c, int root) {
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < c->peer_size())) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_ROOT, "invalid root " + std::to_string(root) +
                                       " on an intercommunicator (MPI_ROOT, MPI_PROC_NULL or a rank of the "
                                       "remote group, whose size is " + std::to_string(c->peer_size()) + ")");
}

// Scan and Exscan, which MPI does not define on intercommunicators.
int refuse_inter(CallScope& s, const Comm* c) {
    return s.fail(c, MPI_ERR_COMM, std::string(s.call) + " is not defined on an intercommunicator");
}

// What not_in_place names on an intercommunicator, where no buffer may be MPI_IN_PLACE.
constexpr const char* kIntercommCall = "a collective on an intercommunicator";

int not_in_place(CallScope& s, const Comm* c, const void* buf, const char* which) {
    if (!in_place(buf)) return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_BUFFER, std::string("MPI_IN_PLACE is not allowed for ") + which + " here");
}

// One buffer as both the input and the output of a call is erroneous (MPI-4.0 section
// 2.5.1 "no aliasing of arguments"; MPI_IN_PLACE is how a rank shares them): a send buffer
// that is the receive buffer, or the rank's own block of it (`own`, for the gathers and
// scatters, or null), where data moves, is MPI_ERR_BUFFER, as MPICH reports it, not a
// result computed over data the call overwrites. MPI_BOTTOM (null) for both is legitimate
// with datatypes of absolute addresses. The reductions accept one element aliased, as Open MPI
// does (it refuses aliasing from two elements on): programs written for it pass `&x` twice,
// and xsim reads the element before it writes the result.
int not_aliased(CallScope& s, const Comm* c, const void* sendbuf, const void* recvbuf, const void* own, bool moves) {
    if (!moves || sendbuf == nullptr || in_place(sendbuf) || (sendbuf != recvbuf && sendbuf != own))
        return MPI_SUCCESS;
    return s.fail(c, MPI_ERR_BUFFER,
                  "the send and the receive buffer are the same (aliased arguments); pass MPI_IN_PLACE as the "
                  "send buffer to use one buffer");
}

// count, datatype and buffer of one block.
int block(CallScope& s, const Comm* c, const void* buf, int count, MPI_Datatype type, Block* out) {
    p2p::Buffer b;
    if (int e = checks::buffer(s, c, buf, count, type, &b)) return e;
    *out = Block{const_cast<void*>(buf), count, type, b.bytes};
    return MPI_SUCCESS;
}

// Bytes in one element of a valid datatype.
std::uint64_t type_size_of(MPI_Datatype type) {
    TypeLayout layout;
    return type_layout(type, &layout) ? layout.size : 0;
}

// Per-rank counts and displacements of a v/w collective (and datatypes for w).
int arrays(CallScope& s, const Comm* c, const void* buf, const int* counts, const int* displs,
           const MPI_Datatype* types, MPI_Datatype type) {
    if (int e = checks::pointer(s, c, counts, "counts")) return e;
    if (int e = checks::pointer(s, c, displs, "displacements")) return e;
    if (!types) {
        Block ignored;
        if (int e = block(s, c, buf, 0, type, &ignored)) return e;
    }
    // A null buffer is fine where no block's data moves (-xsim-payload; decided by block
    // size: colls/call_payload.hpp).
    const PayloadPolicy& payload = s.engine.options().payload;
    const std::uint64_t type_size = types ? 0 : type_size_of(type);
    bool moves = false;
    for (int i = 0; i < c->peer_size(); ++i) {  // an intercommunicator's buffers: a block per remote rank
        if (counts[i] < 0) return s.fail(c, MPI_ERR_COUNT, "negative count " + std::to_string(counts[i]));
        std::uint64_t bytes = type_size * static_cast<std::uint64_t>(counts[i]);
        if (types) {
            Block b;
            // byte displacements: from MPI_BOTTOM, addresses (mark_bottom)
            if (int e = block(s, c, address_at(buf, displs[i]), counts[i], types[i], &b)) return e;
            bytes = b.bytes;
        }
        moves = moves || (bytes > 0 && payload.carries(bytes));
    }
    // A null buffer is MPI_BOTTOM only with a type of absolute addresses (each w block was
    // checked above); the blocks then sit at their displacements from address 0 (mark_bottom).
    if (moves && !buf && !types && !absolute_type(type)) return s.fail(c, MPI_ERR_BUFFER, "null buffer");
    return MPI_SUCCESS;
}

// A buffer of a block per rank (per remote rank on an intercommunicator): `count` elements
// each, or, `varying`, counts[i] at displs[i] (checked by arrays()).
int many_blocks(CallScope& s, const Comm* c, const void* buf, int count, const int* counts, const int* displs,
                MPI_Datatype type, bool varying, Blocks* out) {
    if (varying) {
        if (int e = arrays(s, c, buf, counts, displs, nullptr, type)) return e;
        *out = varying_blocks(buf, counts, displs, type);
    } else {
        Block one;
        if (int e = block(s, c, buf, count, type, &one)) return e;
        *out = uniform_blocks(buf, count, type);
    }
    mark_bottom(*out, buf, c->peer_size());
    return MPI_SUCCESS;
}

// The derived types and user op a nonblocking call's arguments use (held_handles.hpp).
void hold(HeldHandles&, const Comm&, const BarrierArgs&) {}
void hold(HeldHandles& h, const Comm&, const BcastArgs& a) { h.type(a.data.type); }
void hold(HeldHandles& h, const Comm&, const ReduceArgs& a) {
    h.type(a.type);
    h.op(a.op);
}
void hold(HeldHandles& h, const Comm& c, const RootedArgs& a) {
    h.type(a.mine.type);
    if (a.blocks.known()) h.blocks(a.blocks, c.peer_size());  // the root's (a block per remote rank)
}
void hold(HeldHandles& h, const Comm& c, const AllgatherArgs& a) {
    h.type(a.mine.type);
    h.blocks(a.recv, c.peer_size());
}
void hold(HeldHandles& h, const Comm& c, const AlltoallArgs& a) {
    h.blocks(a.send, c.peer_size());
    h.blocks(a.recv, c.peer_size());
}
void hold(HeldHandles& h, const Comm&, const ReduceScatterArgs& a) {
    h.type(a.type);
    h.op(a.op);
}

// The caller's arrays a nonblocking call's arguments point to, replaced by copies
// (copied_arrays.hpp: the caller may free them when the call returns).
void copy_arrays(CopiedArrays&, const Comm&, BarrierArgs&) {}
void copy_arrays(CopiedArrays&, const Comm&, BcastArgs&) {}
void copy_arrays(CopiedArrays&, const Comm&, ReduceArgs&) {}
void copy_arrays(CopiedArrays& arrays, const Comm& c, RootedArgs& a) { arrays.copy(a.blocks, c.peer_size()); }
void copy_arrays(CopiedArrays& arrays, const Comm& c, AllgatherArgs& a) { arrays.copy(a.recv, c.peer_size()); }
void copy_arrays(CopiedArrays& arrays, const Comm& c, AlltoallArgs& a) {
    arrays.copy(a.send, c.peer_size());
    arrays.copy(a.recv, c.peer_size());
}
void copy_arrays(CopiedArrays& arrays, const Comm& c, ReduceScatterArgs& a) {
    a.counts = arrays.copy(a.counts, c.size);  // the local group's counts, also across groups
}

template <class Keep>
struct KeptWithArrays {
    Keep keep;
    CopiedArrays arrays;
};

// Nonblocking: starts the collective and returns its request; `keep` is storage `args`
// points into, kept with the request until it is freed, with copies of the caller's arrays
// and the datatypes and op `args` use (MPI_Type_free / MPI_Op_free may come before that).
// Not inlined into dispatch: its locals would enlarge every blocking call's frame on the
// rank's stack (ring_allreduce at -xsim-stack 2k overflowed).
template <class Args, class Keep>
[[gnu::noinline]] MPI_Request start_nonblocking(CallScope& s, const Comm* c, const Collective<Args>& table, int root,
                                                const Args& args, Keep&& keep) {
    Args own = args;
    CopiedArrays arrays;
    copy_arrays(arrays, *c, own);
    KeptWithHandles<KeptWithArrays<std::remove_reference_t<Keep>>> kept{{std::move(keep), std::move(arrays)}, {}};
    hold(kept.handles, *c, own);
    return request_handle(colls::start(table, s.engine, s.rank, *c, root, own, std::move(kept)));
}

// What a persistent collective refreshes before each start: nothing, but for an
// all-to-all with MPI_IN_PLACE, the copy of the receive buffer it sends from (the buffer's
// contents may change between starts).
struct InPlaceCopy;
template <class Args, class Keep>
void refresh(Engine&, const Comm&, Args&, Keep&) {}
void refresh(Engine& engine, const Comm& c, AlltoallArgs& a, InPlaceCopy& copy);

// Persistent init: the definition of what every start runs (persistent_collective.hpp),
// with copies of the caller's arrays and holds on the datatypes and op, like
// start_nonblocking's, for the life of the request.
template <class Args, class Keep>
[[gnu::noinline]] MPI_Request define_persistent(CallScope& s, const Comm* c, const Collective<Args>& table, int root,
                                                const Args& args, Keep&& keep) {
    using Kept = std::remove_reference_t<Keep>;
    auto* d = new pcoll::DefinitionOf<Args, Kept>(
        pcoll::own_comm(s.rank, *c), table, root, args, std::move(keep),
        [](Engine& engine, const Comm& own, Args& a, Kept& k) { refresh(engine, own, a, k); });
    copy_arrays(d->arrays(), *c, d->args());
    hold(d->handles(), *c, d->args());
    return pcoll::persistent_request(s, *c, table.kind, root, d);
}

// Blocking: runs the collective. Nonblocking: start_nonblocking. Persistent init:
// define_persistent.
template <class Args, class Keep = NothingKept>
int dispatch(CallScope& s, const Comm* c, const Collective<Args>& table, int root, const Args& args,
             const pcoll::Call& how, Keep&& keep = {}) {
    if (c->is_inter()) root = 0;  // MPI_ROOT, MPI_PROC_NULL or a remote rank: not one signature
    if (how.form == pcoll::Form::Nonblocking) {
        *how.request = start_nonblocking(s, c, table, root, args, std::forward<Keep>(keep));
        return MPI_SUCCESS;
    }
    if (how.form == pcoll::Form::PersistentInit) {
        *how.request = define_persistent(s, c, table, root, args, std::forward<Keep>(keep));
        return MPI_SUCCESS;
    }
    std::string why;
    const int rc = colls::run(table, s.engine, s.rank, *c, root, args, &why);
    return rc == MPI_SUCCESS ? MPI_SUCCESS : s.fail(c, rc, why);
}

// A call in which no data moves on any rank: nothing to do (no message, no sequence
// number: every rank knows). A nonblocking call still returns a request, complete; a
// persistent one a request whose every start completes at once.
int nothing_moves(CallScope& s, const Comm* c, CollKind kind, const pcoll::Call& how) {
    if (how.form == pcoll::Form::Nonblocking)
        *how.request = request_handle(colls::start_empty(s.engine, s.rank, *c, kind));
    else if (how.form == pcoll::Form::PersistentInit)
        *how.request =
            pcoll::persistent_request(s, *c, kind, 0, new pcoll::EmptyDefinition(pcoll::own_comm(s.rank, *c)));
    return MPI_SUCCESS;
}

// The checks shared by Reduce, Allreduce, Scan and Exscan; fills *a except root.
int reduction(CallScope& s, const Comm* c, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type,
              MPI_Op op, bool needs_recvbuf, ReduceArgs* a) {
    if (int e = not_in_place(s, c, recvbuf, "the receive buffer")) return e;
    Block in, out;
    a->in_place = in_place(sendbuf);
    if (int e = block(s, c, a->in_place ? recvbuf : sendbuf, count, type, &in)) return e;
    if (needs_recvbuf)
        if (int e = block(s, c, recvbuf, count, type, &out)) return e;
    if (int e = checks::op(s, c, op, type, &a->commutative)) return e;
    a->sendbuf = in.buf;
    a->recvbuf = recvbuf;
    a->count = count;
    a->type = type;
    a->op = op;
    a->bytes = in.bytes;
    return MPI_SUCCESS;
}

int reduce_or_scan(const char* call, const Collective<ReduceArgs>& table, const void* sendbuf, void* recvbuf, int count,
                   MPI_Datatype type, MPI_Op op, MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    ReduceArgs a;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    if (c->is_inter()) {
        if (table.kind != CollKind::Allreduce) return refuse_inter(scope, c);  // no scans across groups
        if (int e = not_in_place(scope, c, sendbuf, kIntercommCall)) return e;
        if (int e = reduction(scope, c, sendbuf, recvbuf, count, type, op, true, &a)) return e;
        if (int e = not_aliased(scope, c, sendbuf, recvbuf, nullptr, a.bytes > 0 && count > 1)) return e;
        return dispatch(scope, c, table, 0, a, how);
    }
    if (int e = reduction(scope, c, sendbuf, recvbuf, count, type, op, true, &a)) return e;
    if (int e = not_aliased(scope, c, sendbuf, recvbuf, nullptr, a.bytes > 0 && count > 1)) return e;
    if (a.bytes == 0) return nothing_moves(scope, c, table.kind, how);
    return dispatch(scope, c, table, 0, a, how);
}

// Gather and Scatter: `rooted` is the root's many-block buffer, `own` this rank's block
// (MPI_IN_PLACE allowed at the root only).
int rooted(const char* call, const Collective<RootedArgs>& table, const void* rooted_buf, int rooted_count,
           MPI_Datatype rooted_type, const int* counts, const int* displs, const void* own_buf, int own_count,
           MPI_Datatype own_type, int root, MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    RootedArgs a;
    a.root = root;
    // The v forms by their kind, not by a null array (a null one is an error, MPI_ERR_ARG).
    const bool varying = table.kind == CollKind::Gatherv || table.kind == CollKind::Scatterv;
    if (c->is_inter()) {
        if (int e = inter_root_in_range(scope, c, root)) return e;
        if (root == MPI_ROOT) {
            if (int e = not_in_place(scope, c, rooted_buf, kIntercommCall)) return e;
            if (int e = many_blocks(scope, c, rooted_buf, rooted_count, counts, displs, rooted_type, varying, &a.blocks))
                return e;
        } else if (root != MPI_PROC_NULL) {
            if (int e = not_in_place(scope, c, own_buf, kIntercommCall)) return e;
            if (int e = block(scope, c, own_buf, own_count, own_type, &a.mine)) return e;
        }
        return dispatch(scope, c, table, root, a, how);
    }
    if (int e = root_in_range(scope, c, root)) return e;
    const bool at_root = c->rank_of(scope.rank) == root;
    if (at_root) {
        if (int e = not_in_place(scope, c, rooted_buf, "the root's buffer of all blocks")) return e;
        if (int e = many_blocks(scope, c, rooted_buf, rooted_count, counts, displs, rooted_type, varying, &a.blocks))
            return e;
        a.in_place = in_place(own_buf);
    } else if (int e = not_in_place(scope, c, own_buf, "a rank other than the root")) {
        return e;
    }
    if (a.in_place) a.mine = a.blocks.block(root);
    else if (int e = block(scope, c, own_buf, own_count, own_type, &a.mine)) return e;
    if (at_root)
        if (int e = not_aliased(scope, c, own_buf, rooted_buf, a.blocks.at(root), a.mine.bytes > 0)) return e;
    // Equal blocks, all empty: every rank knows. (With counts, only the root knows.)
    if (table.kind != CollKind::Gatherv && table.kind != CollKind::Scatterv && a.mine.bytes == 0)
        return nothing_moves(scope, c, table.kind, how);
    return dispatch(scope, c, table, root, a, how);
}

int allgather(const char* call, const Collective<AllgatherArgs>& table, const void* sendbuf, int sendcount,
              MPI_Datatype sendtype, void* recvbuf, int recvcount, const int* counts, const int* displs,
              MPI_Datatype recvtype, MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    if (int e = not_in_place(scope, c, recvbuf, "the receive buffer")) return e;
    AllgatherArgs a;
    const bool variable = table.kind == CollKind::Allgatherv;  // not a null counts array: that is an error
    if (c->is_inter()) {
        if (int e = not_in_place(scope, c, sendbuf, kIntercommCall)) return e;
        if (int e = many_blocks(scope, c, recvbuf, recvcount, counts, displs, recvtype, variable, &a.recv)) return e;
        if (int e = block(scope, c, sendbuf, sendcount, sendtype, &a.mine)) return e;
        if (a.mine.count > 0 && c->size > INT_MAX / a.mine.count)
            return scope.fail(c, MPI_ERR_COUNT, "the group's blocks exceed INT_MAX elements");
        return dispatch(scope, c, table, 0, a, how);
    }
    if (int e = many_blocks(scope, c, recvbuf, recvcount, counts, displs, recvtype, variable, &a.recv)) return e;
    const int me = c->rank_of(scope.rank);
    a.in_place = in_place(sendbuf);
    if (a.in_place) a.mine = a.recv.block(me);
    else if (int e = block(scope, c, sendbuf, sendcount, sendtype, &a.mine)) return e;
    if (int e = not_aliased(scope, c, sendbuf, recvbuf, a.recv.at(me), a.mine.bytes > 0)) return e;
    if (!variable && a.recv.bytes_of(0) == 0) return nothing_moves(scope, c, table.kind, how);
    return dispatch(scope, c, table, 0, a, how);
}

// All-to-all: with MPI_IN_PLACE the data to send is packed aside first (what the rank
// holds anyway), described as byte blocks.
struct InPlaceCopy {
    std::vector<char> bytes;
    std::vector<int> counts, displs;
};

// Only blocks whose data moves (-xsim-payload, by block size as colls/call_payload.hpp
// decides all-to-alls) are copied; the others keep their size and point at offset 0.
void pack_receive_buffer(const PayloadPolicy& payload, const Blocks& recv, int size, InPlaceCopy* copy, Blocks* send);

void refresh(Engine& engine, const Comm& c, AlltoallArgs& a, InPlaceCopy& copy) {
    if (copy.counts.empty()) return;  // the call's send buffer was not MPI_IN_PLACE
    pack_receive_buffer(engine.options().payload, a.recv, c.size, &copy, &a.send);
}

void pack_receive_buffer(const PayloadPolicy& payload, const Blocks& recv, int size, InPlaceCopy* copy,
                         Blocks* send) {
    std::uint64_t total = 0;
    copy->counts.resize(static_cast<std::size_t>(size));
    copy->displs.resize(static_cast<std::size_t>(size));
    for (int i = 0; i < size; ++i) {
        const bool moves = payload.carries(recv.bytes_of(i));
        copy->displs[static_cast<std::size_t>(i)] = moves ? static_cast<int>(total) : 0;
        copy->counts[static_cast<std::size_t>(i)] = static_cast<int>(recv.bytes_of(i));
        if (moves) total += recv.bytes_of(i);
    }
    copy->bytes.resize(total);
    for (int i = 0; i < size && total > 0; ++i)
        if (payload.carries(recv.bytes_of(i)))
            pack_block(true, recv.block(i), copy->bytes.data() + copy->displs[static_cast<std::size_t>(i)]);
    if (recv.uniform()) *send = uniform_blocks(copy->bytes.data(), static_cast<int>(recv.bytes_of(0)), MPI_BYTE);
    else *send = varying_blocks(copy->bytes.data(), copy->counts.data(), copy->displs.data(), MPI_BYTE);
}

int alltoall(const char* call, const Collective<AlltoallArgs>& table, const void* sendbuf, int sendcount,
             const int* sendcounts, const int* sdispls, MPI_Datatype sendtype, const MPI_Datatype* sendtypes,
             void* recvbuf, int recvcount, const int* recvcounts, const int* rdispls, MPI_Datatype recvtype,
             const MPI_Datatype* recvtypes, MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    if (int e = not_in_place(scope, c, recvbuf, "the receive buffer")) return e;
    AlltoallArgs a;
    // By kind: a null counts, displacements or datatypes array is an error (MPI_ERR_ARG).
    const bool typed = table.kind == CollKind::Alltoallw;
    const bool variable = typed || table.kind == CollKind::Alltoallv;
    auto describe = [&](const void* buf, int count, const int* counts, const int* displs, MPI_Datatype type,
                        const MPI_Datatype* types, Blocks* out) {
        if (!variable) {
            Block one;
            if (int e = block(scope, c, buf, count, type, &one)) return e;
            *out = uniform_blocks(buf, count, type);
            mark_bottom(*out, buf, c->peer_size());
            return MPI_SUCCESS;
        }
        if (typed)
            if (int e = checks::pointer(scope, c, types, "datatypes")) return e;
        if (int e = arrays(scope, c, buf, counts, displs, types, type)) return e;
        *out = typed ? typed_blocks(buf, counts, displs, types) : varying_blocks(buf, counts, displs, type);
        mark_bottom(*out, buf, c->peer_size());
        return MPI_SUCCESS;
    };
    if (c->is_inter()) {  // a block for each remote rank
        if (int e = not_in_place(scope, c, sendbuf, kIntercommCall)) return e;
        if (int e = describe(recvbuf, recvcount, recvcounts, rdispls, recvtype, recvtypes, &a.recv)) return e;
        if (int e = describe(sendbuf, sendcount, sendcounts, sdispls, sendtype, sendtypes, &a.send)) return e;
        return dispatch(scope, c, table, 0, a, how);
    }
    if (int e = describe(recvbuf, recvcount, recvcounts, rdispls, recvtype, recvtypes, &a.recv)) return e;
    InPlaceCopy copy;
    if (in_place(sendbuf)) pack_receive_buffer(scope.engine.options().payload, a.recv, c->size, &copy, &a.send);
    else if (int e = describe(sendbuf, sendcount, sendcounts, sdispls, sendtype, sendtypes, &a.send)) return e;
    if (sendbuf == recvbuf) {
        bool moves = false;
        for (int i = 0; i < c->size && !moves; ++i) moves = a.send.bytes_of(i) > 0;
        if (int e = not_aliased(scope, c, sendbuf, recvbuf, nullptr, moves)) return e;
    }
    if (!variable && a.recv.bytes_of(0) == 0) return nothing_moves(scope, c, table.kind, how);
    return dispatch(scope, c, table, 0, a, how, std::move(copy));
}

int reduce_scatter(const char* call, const Collective<ReduceScatterArgs>& table, const void* sendbuf, void* recvbuf,
                   int block_count, const int* counts, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                   const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    if (int e = not_in_place(scope, c, recvbuf, "the receive buffer")) return e;
    ReduceScatterArgs a;
    std::vector<std::int64_t> offsets;
    if (table.kind == CollKind::ReduceScatter) {  // by kind: a null recvcounts is an error
        if (int e = checks::pointer(scope, c, counts, "recvcounts")) return e;
        offsets.resize(static_cast<std::size_t>(c->size) + 1);
        for (int i = 0; i < c->size; ++i) {
            if (counts[i] < 0) return scope.fail(c, MPI_ERR_COUNT, "negative count " + std::to_string(counts[i]));
            offsets[static_cast<std::size_t>(i) + 1] = offsets[static_cast<std::size_t>(i)] + counts[i];
        }
        a.counts = counts;
        a.offsets = offsets.data();
        a.total = offsets.back();
    } else {
        a.block = block_count;
        a.total = static_cast<std::int64_t>(block_count) * c->size;
    }
    if (a.total > INT_MAX) return scope.fail(c, MPI_ERR_COUNT, "more than INT_MAX elements in total");
    const int me = c->rank_of(scope.rank);
    Block in, out;
    const bool inplace = in_place(sendbuf);
    if (int e = block(scope, c, recvbuf, inplace ? static_cast<int>(a.total) : a.count_of(me), type, &out)) return e;
    if (int e = block(scope, c, inplace ? recvbuf : sendbuf, static_cast<int>(a.total), type, &in)) return e;
    if (int e = checks::op(scope, c, op, type, &a.commutative)) return e;
    if (int e = not_aliased(scope, c, sendbuf, recvbuf, nullptr, in.bytes > 0)) return e;
    a.sendbuf = in.buf;
    a.recvbuf = recvbuf;
    a.type = type;
    a.op = op;
    a.bytes = in.bytes;
    if (c->is_inter()) {  // counts describe the local group; both groups reduce `total` elements
        if (int e = not_in_place(scope, c, sendbuf, kIntercommCall)) return e;
        return dispatch(scope, c, table, 0, a, how, std::move(offsets));
    }
    if (in.bytes == 0) return nothing_moves(scope, c, table.kind, how);
    return dispatch(scope, c, table, 0, a, how, std::move(offsets));
}

}  // namespace

namespace {

int barrier(const char* call, MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    return dispatch(scope, c, barrier_table(), 0, BarrierArgs{}, how);
}

int bcast(const char* call, void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    BcastArgs a;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    if (c->is_inter()) {
        if (int e = inter_root_in_range(scope, c, root)) return e;
        if (root != MPI_PROC_NULL)  // the buffer of the root group's other members is not significant
            if (int e = block(scope, c, buf, count, type, &a.data)) return e;
        a.root = root;
        return dispatch(scope, c, bcast_table(), root, a, how);
    }
    if (int e = root_in_range(scope, c, root)) return e;
    if (int e = block(scope, c, buf, count, type, &a.data)) return e;
    if (a.data.bytes == 0) return nothing_moves(scope, c, CollKind::Bcast, how);
    a.root = root;
    return dispatch(scope, c, bcast_table(), root, a, how);
}

int reduce(const char* call, const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
           MPI_Comm comm, const pcoll::Call& how) {
    XSIM_BEGIN_INITIALIZED(call);
    const Comm* c = nullptr;
    ReduceArgs a;
    if (int e = checks::comm(scope, comm, &c)) return e;
    if (int e = pcoll::check_request(scope, c, how)) return e;
    if (c->is_inter()) {
        if (int e = inter_root_in_range(scope, c, root)) return e;
        // The root receives (recvbuf), the other group sends (sendbuf), the root's group
        // otherwise passes nothing significant.
        if (root != MPI_PROC_NULL) {
            if (int e = not_in_place(scope, c, sendbuf, kIntercommCall)) return e;
            if (int e = root == MPI_ROOT ? reduction(scope, c, recvbuf, recvbuf, count, type, op, true, &a)
                                         : reduction(scope, c, sendbuf, recvbuf, count, type, op, false, &a))
                return e;
        }
        a.root = root;
        return dispatch(scope, c, reduce_table(), root, a, how);
    }
    if (int e = root_in_range(scope, c, root)) return e;
    const bool at_root = c->rank_of(scope.rank) == root;
    if (!at_root)
        if (int e = not_in_place(scope, c, sendbuf, "a rank other than the root")) return e;
    if (int e = reduction(scope, c, sendbuf, recvbuf, count, type, op, at_root, &a)) return e;
    if (at_root)
        if (int e = not_aliased(scope, c, sendbuf, recvbuf, nullptr, a.bytes > 0 && count > 1)) return e;
    if (a.bytes == 0) return nothing_moves(scope, c, CollKind::Reduce, how);
    a.root = root;
    return dispatch(scope, c, reduce_table(), root, a, how);
}

}  // namespace

extern "C" {

XSIM_MPI_ALIAS(Barrier)
int PMPI_Barrier(MPI_Comm comm) { return barrier("MPI_Barrier", comm, pcoll::Call{}); }
XSIM_MPI_ALIAS(Ibarrier)
int PMPI_Ibarrier(MPI_Comm comm, MPI_Request* request) {
    return barrier("MPI_Ibarrier", comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Bcast)
int PMPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    return bcast("MPI_Bcast", buf, count, type, root, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Ibcast)
int PMPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request) {
    return bcast("MPI_Ibcast", buf, count, type, root, comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Reduce)
int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm) {
    return reduce("MPI_Reduce", sendbuf, recvbuf, count, type, op, root, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Ireduce)
int PMPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm,
                 MPI_Request* request) {
    return reduce("MPI_Ireduce", sendbuf, recvbuf, count, type, op, root, comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Allreduce)
int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return reduce_or_scan("MPI_Allreduce", allreduce_table(), sendbuf, recvbuf, count, type, op, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Iallreduce)
int PMPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    MPI_Request* request) {
    return reduce_or_scan("MPI_Iallreduce", allreduce_table(), sendbuf, recvbuf, count, type, op, comm,
                          pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Scan)
int PMPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return reduce_or_scan("MPI_Scan", scan_table(), sendbuf, recvbuf, count, type, op, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Iscan)
int PMPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
               MPI_Request* request) {
    return reduce_or_scan("MPI_Iscan", scan_table(), sendbuf, recvbuf, count, type, op, comm,
                          pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Exscan)
int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    return reduce_or_scan("MPI_Exscan", exscan_table(), sendbuf, recvbuf, count, type, op, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Iexscan)
int PMPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                 MPI_Request* request) {
    return reduce_or_scan("MPI_Iexscan", exscan_table(), sendbuf, recvbuf, count, type, op, comm,
                          pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Gather)
int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return rooted("MPI_Gather", gather_table(), recvbuf, recvcount, recvtype, nullptr, nullptr, sendbuf, sendcount,
                  sendtype, root, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Igather)
int PMPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
    return rooted("MPI_Igather", gather_table(), recvbuf, recvcount, recvtype, nullptr, nullptr, sendbuf, sendcount,
                  sendtype, root, comm, pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Gatherv)
int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return rooted("MPI_Gatherv", gatherv_table(), recvbuf, 0, recvtype, recvcounts, displs, sendbuf, sendcount,
                  sendtype, root, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Igatherv)
int PMPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
    return rooted("MPI_Igatherv", gatherv_table(), recvbuf, 0, recvtype, recvcounts, displs, sendbuf, sendcount,
                  sendtype, root, comm, pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Scatter)
int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return rooted("MPI_Scatter", scatter_table(), sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount,
                  recvtype, root, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Iscatter)
int PMPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
    return rooted("MPI_Iscatter", scatter_table(), sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf, recvcount,
                  recvtype, root, comm, pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Scatterv)
int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
    return rooted("MPI_Scatterv", scatterv_table(), sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount,
                  recvtype, root, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Iscatterv)
int PMPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                   void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request) {
    return rooted("MPI_Iscatterv", scatterv_table(), sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount,
                  recvtype, root, comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Allgather)
int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm) {
    return allgather("MPI_Allgather", allgather_table(), sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr,
                     nullptr, recvtype, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Iallgather)
int PMPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                    MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return allgather("MPI_Iallgather", allgather_table(), sendbuf, sendcount, sendtype, recvbuf, recvcount, nullptr,
                     nullptr, recvtype, comm, pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Allgatherv)
int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
    return allgather("MPI_Allgatherv", allgatherv_table(), sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts, displs,
                     recvtype, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Iallgatherv)
int PMPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                     const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return allgather("MPI_Iallgatherv", allgatherv_table(), sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Alltoall)
int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm) {
    return alltoall("MPI_Alltoall", alltoall_table(), sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr, recvbuf,
                    recvcount, nullptr, nullptr, recvtype, nullptr, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Ialltoall)
int PMPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request) {
    return alltoall("MPI_Ialltoall", alltoall_table(), sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr, recvbuf,
                    recvcount, nullptr, nullptr, recvtype, nullptr, comm, pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Alltoallv)
int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
    return alltoall("MPI_Alltoallv", alltoallv_table(), sendbuf, 0, sendcounts, sdispls, sendtype, nullptr, recvbuf, 0,
                    recvcounts, rdispls, recvtype, nullptr, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Ialltoallv)
int PMPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                    void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request* request) {
    return alltoall("MPI_Ialltoallv", alltoallv_table(), sendbuf, 0, sendcounts, sdispls, sendtype, nullptr, recvbuf, 0,
                    recvcounts, rdispls, recvtype, nullptr, comm, pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Alltoallw)
int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm) {
    return alltoall("MPI_Alltoallw", alltoallw_table(), sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Ialltoallw)
int PMPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                    void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request* request) {
    return alltoall("MPI_Ialltoallw", alltoallw_table(), sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes,
                    recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm, pcoll::nonblocking(request));
}

XSIM_MPI_ALIAS(Reduce_scatter)
int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                        MPI_Comm comm) {
    return reduce_scatter("MPI_Reduce_scatter", reduce_scatter_table(), sendbuf, recvbuf, 0, recvcounts, type, op, comm,
                          pcoll::Call{});
}
XSIM_MPI_ALIAS(Ireduce_scatter)
int PMPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                         MPI_Comm comm, MPI_Request* request) {
    return reduce_scatter("MPI_Ireduce_scatter", reduce_scatter_table(), sendbuf, recvbuf, 0, recvcounts, type, op,
                          comm, pcoll::nonblocking(request));
}
XSIM_MPI_ALIAS(Reduce_scatter_block)
int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm) {
    return reduce_scatter("MPI_Reduce_scatter_block", reduce_scatter_block_table(), sendbuf, recvbuf, recvcount,
                          nullptr, type, op, comm, pcoll::Call{});
}
XSIM_MPI_ALIAS(Ireduce_scatter_block)
int PMPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                               MPI_Comm comm, MPI_Request* request) {
    return reduce_scatter("MPI_Ireduce_scatter_block", reduce_scatter_block_table(), sendbuf, recvbuf, recvcount,
                          nullptr, type, op, comm, pcoll::nonblocking(request));
}

// Persistent collectives (persistent_collective.hpp): the nonblocking call's checks at
// the init, its collective at every MPI_Start.
XSIM_MPIX_ALIAS(Barrier_init)
int PMPIX_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return barrier("MPIX_Barrier_init", comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Bcast_init)
int PMPIX_Bcast_init(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Info info,
                     MPI_Request* request) {
    return bcast("MPIX_Bcast_init", buf, count, type, root, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Reduce_init)
int PMPIX_Reduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                      MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return reduce("MPIX_Reduce_init", sendbuf, recvbuf, count, type, op, root, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Allreduce_init)
int PMPIX_Allreduce_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                         MPI_Info info, MPI_Request* request) {
    return reduce_or_scan("MPIX_Allreduce_init", allreduce_table(), sendbuf, recvbuf, count, type, op, comm,
                          pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Scan_init)
int PMPIX_Scan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                    MPI_Info info, MPI_Request* request) {
    return reduce_or_scan("MPIX_Scan_init", scan_table(), sendbuf, recvbuf, count, type, op, comm,
                          pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Exscan_init)
int PMPIX_Exscan_init(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm,
                      MPI_Info info, MPI_Request* request) {
    return reduce_or_scan("MPIX_Exscan_init", exscan_table(), sendbuf, recvbuf, count, type, op, comm,
                          pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Gather_init)
int PMPIX_Gather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                      MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return rooted("MPIX_Gather_init", gather_table(), recvbuf, recvcount, recvtype, nullptr, nullptr, sendbuf,
                  sendcount, sendtype, root, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Gatherv_init)
int PMPIX_Gatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                       const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                       MPI_Request* request) {
    return rooted("MPIX_Gatherv_init", gatherv_table(), recvbuf, 0, recvtype, recvcounts, displs, sendbuf, sendcount,
                  sendtype, root, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Scatter_init)
int PMPIX_Scatter_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return rooted("MPIX_Scatter_init", scatter_table(), sendbuf, sendcount, sendtype, nullptr, nullptr, recvbuf,
                  recvcount, recvtype, root, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Scatterv_init)
int PMPIX_Scatterv_init(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                        void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                        MPI_Request* request) {
    return rooted("MPIX_Scatterv_init", scatterv_table(), sendbuf, 0, sendtype, sendcounts, displs, recvbuf, recvcount,
                  recvtype, root, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Allgather_init)
int PMPIX_Allgather_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return allgather("MPIX_Allgather_init", allgather_table(), sendbuf, sendcount, sendtype, recvbuf, recvcount,
                     nullptr, nullptr, recvtype, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Allgatherv_init)
int PMPIX_Allgatherv_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                          MPI_Info info, MPI_Request* request) {
    return allgather("MPIX_Allgatherv_init", allgatherv_table(), sendbuf, sendcount, sendtype, recvbuf, 0, recvcounts,
                     displs, recvtype, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Alltoall_init)
int PMPIX_Alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                        MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return alltoall("MPIX_Alltoall_init", alltoall_table(), sendbuf, sendcount, nullptr, nullptr, sendtype, nullptr,
                    recvbuf, recvcount, nullptr, nullptr, recvtype, nullptr, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Alltoallv_init)
int PMPIX_Alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                         void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return alltoall("MPIX_Alltoallv_init", alltoallv_table(), sendbuf, 0, sendcounts, sdispls, sendtype, nullptr,
                    recvbuf, 0, recvcounts, rdispls, recvtype, nullptr, comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Alltoallw_init)
int PMPIX_Alltoallw_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                         const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const int rdispls[],
                         const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return alltoall("MPIX_Alltoallw_init", alltoallw_table(), sendbuf, 0, sendcounts, sdispls, MPI_DATATYPE_NULL,
                    sendtypes, recvbuf, 0, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes, comm,
                    pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Reduce_scatter_init)
int PMPIX_Reduce_scatter_init(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype type, MPI_Op op,
                              MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return reduce_scatter("MPIX_Reduce_scatter_init", reduce_scatter_table(), sendbuf, recvbuf, 0, recvcounts, type, op,
                          comm, pcoll::persistent(request, info));
}

XSIM_MPIX_ALIAS(Reduce_scatter_block_init)
int PMPIX_Reduce_scatter_block_init(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype type, MPI_Op op,
                                    MPI_Comm comm, MPI_Info info, MPI_Request* request) {
    return reduce_scatter("MPIX_Reduce_scatter_block_init", reduce_scatter_block_table(), sendbuf, recvbuf, recvcount,
                          nullptr, type, op, comm, pcoll::persistent(request, info));
}

}  // extern "C"
