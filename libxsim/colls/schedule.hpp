// How a collective algorithm runs. An algorithm is a coroutine (Steps) over a Context:
// it posts the messages of one round (ctx.send / ctx.recv), then `co_await ctx.round()`
// hands them to the executor, which resumes it once they have all completed; between
// rounds it combines and copies data. The coroutine frame holds the algorithm's state
// (O(1) beyond its scratch buffers), so the same code can be driven by a blocking caller
// (run_blocking: wait on the rank's fiber) or, for nonblocking collectives, by the
// completion of the round's requests (collective_call.hpp; README.md, "Driven calls").
// Coroutine frames come from a size-class pool (frame_pool.hpp), not from the heap.
#pragma once
#include <mpi.h>

#include <coroutine>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libxsim/colls/buffers.hpp"
#include "libxsim/colls/collective_kind.hpp"
#include "libxsim/colls/frame_pool.hpp"
#include "libxsim/engine/engine.hpp"

namespace xsim::colls {

class Steps {
public:
    struct promise_type {
        Steps get_return_object() { return Steps{std::coroutine_handle<promise_type>::from_promise(*this)}; }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_always final_suspend() noexcept { return {}; }
        void return_void() {}
        void unhandled_exception() { std::terminate(); }
        static void* operator new(std::size_t bytes) { return frame_allocate(bytes); }
        static void operator delete(void* frame, std::size_t bytes) { frame_release(frame, bytes); }
    };
    Steps() = default;
    explicit Steps(std::coroutine_handle<promise_type> h) : handle_(h) {}
    Steps(Steps&& other) noexcept : handle_(std::exchange(other.handle_, {})) {}
    Steps& operator=(Steps&& other) noexcept {
        if (this != &other) {
            if (handle_) handle_.destroy();
            handle_ = std::exchange(other.handle_, {});
        }
        return *this;
    }
    Steps(const Steps&) = delete;
    Steps& operator=(const Steps&) = delete;
    ~Steps() {
        if (handle_) handle_.destroy();
    }
    // Runs to the end of the next round; false once the algorithm has finished.
    bool resume() {
        handle_.resume();
        return !handle_.done();
    }

private:
    std::coroutine_handle<promise_type> handle_;
};

// A message of the current round.
struct Transfer {
    Request* request;
    int peer;              // communicator rank
    std::uint64_t bytes;   // receive: the size the peer must send
    bool receive;
    std::uint32_t signature;   // receive: the signature the message must carry
};

// How a call is made: by every member, blocking or nonblocking (each takes the next number
// of the communicator's collective_sequence() for its tag), or by a few members only (the
// leaders of MPI_Intercomm_create over the peer communicator: they must not advance the
// members' shared count, and use kLeadersTag; they make one such exchange at a time).
enum class CallForm : std::uint8_t { Blocking, Nonblocking, Leaders };
constexpr int kLeadersTag = -2;  // never a sequence tag (those are >= 0)

// Text that is almost always empty, in one pointer: a call's error message (set only when
// the ranks disagree about a collective) would otherwise take 32 bytes of every call's
// state, one more cache line per round at scale (collective_call.hpp).
class RareText {
public:
    RareText() = default;
    RareText& operator=(std::string text) {
        text_ = std::make_unique<std::string>(std::move(text));
        return *this;
    }
    operator const std::string&() const { return text_ ? *text_ : empty(); }

private:
    static const std::string& empty() {
        static const std::string nothing;
        return nothing;
    }
    std::unique_ptr<std::string> text_;
};

// One rank's part in one collective call, from the rank's clock at construction. The fields
// are ordered by size so that none pads: a driven call (collective_call.hpp) holds this and
// is cold at every round's message at scale, so each line it spans costs a miss.
class Context {
public:
    Context(Engine& engine, Rank& me, const Comm& comm, CollKind kind, int root,
            CallForm form = CallForm::Blocking);

    Engine& engine;
    Rank& me;
    const Comm& comm;
    const int rank;        // in comm
    const int size;
    // Which of this call's data moves (-xsim-payload; set per call by call_payload.hpp,
    // before the algorithm is chosen): `payload` (below) false: none, buffers may be null
    // and scratch is not allocated; otherwise a block or message moves its data when
    // carries() its size (all of them, except in calls decided block by block).
    std::uint64_t carry_below;
    bool carries(std::uint64_t bytes) const { return bytes < carry_below; }
    bool carries(const Block& b) const { return carries(b.bytes); }
    // Virtual time of this rank's part: messages are posted at it. The executor keeps it:
    // the rank's clock for a blocking call, the collective's own progress for a
    // nonblocking one (independent of what the owner computes meanwhile).
    SimTime now;
    // The critical path of `now` (engine/critical_path.hpp), what messages are posted along:
    // the rank's for a blocking caller (run_blocking), the call's own for a driven call.
    const CriticalPath* from;
    // A driven call's receive request that an earlier round completed (end_round keeps one),
    // which the next receive posts again (p2p::start_driven_recv); the call frees it when it
    // ends (collective_call.cpp).
    Request* spare_receive = nullptr;
    // Wait states (engine/wait_states.hpp): the kind of waiting the call can cause this rank
    // (`wait_kind`, below: None for the root of Bcast/Scatter(v), non-roots of Reduce/
    // Gather(v)), and the latest entry known so far (the rank's own if it counts, merged
    // from each round's messages and sent on with the next round's).
    WaitStamp stamp;
    const std::uint32_t signature;   // kind, root and form, checked by receivers
    const int tag;                   // this call's number on the communicator
    int error_class = MPI_SUCCESS;
    const CollKind kind;
    const bool nonblocking;
    bool payload;
    // Messages move their data whatever -xsim-payload says (xsim's own data, such as the
    // colors and keys of MPI_Comm_split); local steps still follow `payload`.
    bool carries_data = false;
    // The executor is told of each message's completion (CollectiveCall) rather than waiting
    // for them (run_blocking): an eager send, complete when posted, needs no request then
    // (p2p::start_send_unless_eager).
    bool told_of_completions = false;
    const WaitKind wait_kind;

private:
    bool sent_untracked_ = false;  // this round made an eager send without a request (with the flags: no padding)

public:
    // What the ranks disagreed about, when error_class is set (check_round).
    RareText error;

    void send(int peer, const Block& data) { send(peer, data, signature); }
    void recv(int peer, const Block& data) { recv(peer, data, signature); }
    // The blocks of "v" and "w" layouts may be empty: such a block is no message (the peer
    // skips it too).
    void send_unless_empty(int peer, const Block& data) {
        if (data.bytes > 0) send(peer, data);
    }
    void recv_unless_empty(int peer, const Block& data) {
        if (data.bytes > 0) recv(peer, data);
    }
    // Messages told apart by a key in the signature's root bits (keyed collectives: several
    // messages between one pair of ranks, each for a particular block; they arrive in the
    // order they were sent, and receives are posted in the same order).
    void send_keyed(int peer, const Block& data, int key) {
        send(peer, data, collective_signature(kind, key, nonblocking));
    }
    void recv_keyed(int peer, const Block& data, int key) {
        recv(peer, data, collective_signature(kind, key, nonblocking));
    }
    void send_bytes(int peer, const void* buf, std::uint64_t bytes);
    void recv_bytes(int peer, void* buf, std::uint64_t bytes);
    // On an intercommunicator (intercomm_collectives.cpp): messages within the caller's own
    // group, `peer` a local rank. They go over the internal intracommunicator Comm::local, on
    // its point-to-point context (no user message can use it), with this call's tag.
    void send_local(int peer, const Block& data) { send_on(*comm.local, comm.local->context, peer, data, signature); }
    void recv_local(int peer, const Block& data) { recv_on(*comm.local, comm.local->context, peer, data, signature); }
    // Adds modeled time to this rank's part (analytic algorithms).
    void delay(SimTime t) { delay_ += t; }

    // `co_await ctx.round()`: complete every message posted since the last round.
    struct RoundAwaiter {
        bool nothing_posted;
        bool await_ready() const noexcept { return nothing_posted; }
        void await_suspend(std::coroutine_handle<>) const noexcept {}
        void await_resume() const noexcept {}
    };
    // A round of eager sends only posted no transfer, but is a round all the same (it ends,
    // with its delay, before the next step).
    RoundAwaiter round() const { return RoundAwaiter{pending_.empty() && !sent_untracked_}; }

    // Executor side.
    using TransferList = std::vector<Transfer, FrameAllocator<Transfer>>;
    TransferList& pending() { return pending_; }
    SimTime take_delay() { return std::exchange(delay_, 0); }
    // Ends the round's record of eager sends made without a request (end_round).
    void forget_untracked_sends() { sent_untracked_ = false; }
    const void* last_send_buffer() const { return last_send_buffer_; }
    // After the round being posted, the steps write `buf` first (say, the result into a
    // user buffer on the rank's cold stack): the engine prefetches it instead of what the
    // round sent from. Call after the round's sends.
    void resume_on(const void* buf) { last_send_buffer_ = buf; }
    // Checks the completed round (tags, sizes, truncation); false with error_class/error
    // set when the ranks disagree about the collective.
    bool check_round();

private:
    void send(int peer, const Block& data, std::uint32_t message_signature) {
        send_on(comm, comm.collective_context(), peer, data, message_signature);
    }
    void recv(int peer, const Block& data, std::uint32_t message_signature) {
        recv_on(comm, comm.collective_context(), peer, data, message_signature);
    }
    // A message on `lane` (this call's communicator, or an intercommunicator's local one)
    // and its context `lane_context`.
    void send_on(const Comm& lane, std::uint32_t lane_context, int peer, const Block& data,
                 std::uint32_t message_signature);
    void recv_on(const Comm& lane, std::uint32_t lane_context, int peer, const Block& data,
                 std::uint32_t message_signature);
    // Fields, not a Transfer: one built on the stack and copied into the list was read back
    // 16 bytes at a time before its field stores had retired (a failed store forwarding: the
    // load held 2% of the samples of a ring_allreduce profile, in send and in recv each).
    void post(Request* request, int peer, std::uint64_t bytes, bool receive, std::uint32_t signature);
    // A receive of the round got the message it expected (collective, size, no truncation).
    static bool arrived_as_expected(const Transfer& t) {
        const Request& r = *t.request;
        return r.status_signature == t.signature && r.status_error == MPI_SUCCESS && r.status_bytes == t.bytes;
    }
    // Sets error_class/error for a receive that did not; returns false.
    [[gnu::cold, gnu::noinline]] bool refuse_round(const Transfer& t);
    TransferList pending_;
    SimTime delay_ = 0;
    const void* last_send_buffer_ = nullptr;
};

// The executor's part after a round's requests are all decided, `done` the latest completion
// (or the round's start): checks the round, frees its requests, moves `now` past it and
// the modeled delay. Returns false (error_class/error set) when the ranks disagree.
bool end_round(Context& ctx, SimTime done);

// Runs `steps` to the end on the calling rank's fiber. Returns MPI_SUCCESS, or an error
// class with ctx.error describing what the ranks disagreed about.
int run_blocking(Context& ctx, Steps steps);

}  // namespace xsim::colls

// Runs another algorithm's steps as part of the current one (same context and tag).
#define XSIM_CO_RUN(ctx, steps) \
    for (::xsim::colls::Steps xsim_sub_ = (steps); xsim_sub_.resume();) co_await (ctx).round()
