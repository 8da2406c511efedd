// Persistent collectives (MPI-4.0 section 6.13; Open MPI 4.1 declares them as
// MPIX_<Coll>_init in <mpi-ext.h>). The init call checks its arguments as the nonblocking
// call does (collectives.cpp, neighbor_collectives.cpp: the same helpers, called with
// Form::PersistentInit) and makes an inactive persistent request (RequestKind::Collective)
// whose target is a Definition: the checked arguments, copies of their arrays, holds on their
// derived datatypes and user op, for the request's whole life (MPI-4.0 6.13: the arrays may
// not change until the request is freed; the handles may be freed before), and a
// communicator of its own. MPI_Start / MPI_Startall run the collective again into the same
// request (colls::start_again), as the nonblocking call would start it; completion makes the
// request inactive (requests::retire), ready for the next start.
//
// Matching: only the init calls are ordered like collectives; the ranks may start different
// persistent collectives in different orders (MPI-4.0 6.13 gives no order to the starts), so
// a start cannot take the next call number of the application's communicator. Each init
// derives a communicator of its own instead (colls private_copy: a context from the parent's
// creation counter, which every member advances alike at the init, no message), and the n-th
// start is the n-th call there, the same on every member.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <utility>

#include "libxsim/bindings/copied_arrays.hpp"
#include "libxsim/bindings/held_handles.hpp"
#include "libxsim/colls/collective_call.hpp"
#include "libxsim/engine/call_scope.hpp"

namespace xsim::pcoll {

// How a collective binding was called: blocking; nonblocking (`request` receives the
// started request); the init of a persistent collective (`request` receives the inactive
// persistent request, `info` is the init's info argument).
enum class Form : std::uint8_t { Blocking, Nonblocking, PersistentInit };
struct Call {
    Form form = Form::Blocking;
    MPI_Request* request = nullptr;
    MPI_Info info = MPI_INFO_NULL;
};
inline Call nonblocking(MPI_Request* request) { return {Form::Nonblocking, request, MPI_INFO_NULL}; }
inline Call persistent(MPI_Request* request, MPI_Info info) { return {Form::PersistentInit, request, info}; }

// The checks of what only the nonblocking and persistent forms pass: a request pointer, and
// for an init an info object (MPI_INFO_NULL or a live one; its hints may be ignored, MPI-4.0
// section 10).
int check_request(CallScope& s, const Comm* c, const Call& call);

// What a persistent collective request runs at each start; owned by the request
// (Request::collective, released with it), it owns the call of the latest start.
class Definition : public CompletionTarget {
public:
    explicit Definition(Comm* own) : own_(own) {}
    Definition(const Definition&) = delete;
    Definition& operator=(const Definition&) = delete;
    ~Definition() override;

    // The call's messages point to the call, never to this.
    void child_decided(Engine&, Request*) override {}
    const void* resume_hint() const override { return running_ ? running_->resume_hint() : nullptr; }
    const std::string& error() const override;

    // Starts the collective again into `request`, its inactive persistent request.
    void start(Engine& engine, Rank& me, Request* request);

protected:
    // The call of one start, or null when the request is complete at once (nothing moves).
    virtual colls::CollectiveCall* begin(Engine& engine, Rank& me, Request* request) = 0;
    Comm* own_;  // the definition's own communicator (see above)

private:
    colls::CollectiveCall* running_ = nullptr;
    std::string no_error_;  // error() before the first start
};

// A collective in which no data moves on any rank (the nonblocking call returns a complete
// request): every start completes at once.
class EmptyDefinition final : public Definition {
public:
    using Definition::Definition;

protected:
    colls::CollectiveCall* begin(Engine& engine, Rank& me, Request* request) override;
};

// A collective with arguments of type Args, pointing into `keep` and into the copies of
// their arrays; `prepare` (may be null) refreshes what the arguments hold of the buffers'
// contents before each start (an all-to-all's MPI_IN_PLACE copy of the receive buffer).
template <class Args, class Keep>
class DefinitionOf final : public Definition {
public:
    using Prepare = void (*)(Engine&, const Comm&, Args&, Keep&);
    DefinitionOf(Comm* own, const colls::Collective<Args>& table, int root, const Args& args, Keep&& keep,
                 Prepare prepare)
        : Definition(own), table_(table), root_(root), args_(args), keep_(std::move(keep)), prepare_(prepare) {}

    Args& args() { return args_; }
    CopiedArrays& arrays() { return arrays_; }
    HeldHandles& handles() { return handles_; }

protected:
    colls::CollectiveCall* begin(Engine& engine, Rank& me, Request* request) override {
        if (prepare_) prepare_(engine, *own_, args_, keep_);
        return colls::start_again(table_, engine, me, *own_, root_, args_, request);
    }

private:
    const colls::Collective<Args>& table_;
    int root_;
    Args args_;
    Keep keep_;
    CopiedArrays arrays_;
    HeldHandles handles_;
    Prepare prepare_;
};

// The communicator a persistent collective initialized on `comm` runs on (see above).
Comm* own_comm(Rank& me, const Comm& comm);

// The inactive persistent request of an init on `comm` (the collective `kind`, with `root`
// as its signature holds it), which takes over `definition`.
MPI_Request persistent_request(CallScope& s, const Comm& comm, colls::CollKind kind, int root, Definition* definition);

}  // namespace xsim::pcoll
