// The one xsim object of a real process: it hosts a contiguous block of simulated ranks
// as fibers, orders everything they do by virtual time, and owns the machine model.
// Everything else (p2p protocol, bindings, reports) works through it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libxsim/mpi/comm.hpp"
#include "libxsim/engine/call_profile.hpp"
#include "libxsim/engine/comm_counts.hpp"
#include "libxsim/engine/comm_rank_state.hpp"
#include "libxsim/engine/event_observer.hpp"
#include "libxsim/engine/host_clock.hpp"
#include "libxsim/engine/layer_state.hpp"
#include "libxsim/mpi/datatype.hpp"
#include "libxsim/engine/message.hpp"
#include "libxsim/engine/options.hpp"
#include "libxsim/engine/pool.hpp"
#include "libxsim/engine/progress.hpp"
#include "libxsim/engine/rank.hpp"
#include "libxsim/engine/rank_slots.hpp"
#include "libxsim/engine/run_end.hpp"
#include "libxsim/engine/request.hpp"
#include "libxsim/rank_state/cxx_exception_state.hpp"
#include "libxsim/rank_state/libc_rank_state.hpp"
#include "libxsim/rank_state/privatization.hpp"
#include "netmodels/machine.hpp"
#include "pdes/conservative_loop.hpp"
#include "pdes/event_queue.hpp"
#include "pdes/huge_pages.hpp"
#include "pdes/stack_arena.hpp"

namespace xsim {

using MainFunction = int (*)(int, char**, char**);
// One entry of the executable's init array (runtime/program_constructors.hpp).
using ProgramConstructor = void (*)(int, char**, char**);

struct ProcessObjects;   // libxsim/mpi/process_objects.hpp
class CurrentObjects;

struct RunStats {
    std::uint64_t messages = 0;          // user-level point-to-point messages sent
    std::uint64_t bytes = 0;             // their payload bytes
    std::uint64_t internal_messages = 0; // messages of collectives' algorithms
    std::uint64_t rma_operations = 0;    // one-sided operations started (rma/operations.hpp)
    std::uint64_t rma_bytes = 0;         // the data they moved (origin to target, or fetched)
    std::uint64_t remote_events = 0;     // events shipped to other real processes
    std::uint64_t context_switches = 0;
    std::uint64_t events = 0;
    SimTime max_finalize_time = 0;       // largest clock at MPI_Finalize
};

class OutboundEvents {
public:
    virtual ~OutboundEvents() = default;
    // Takes an event for a rank of another process (serializes it; the caller frees it). It
    // may take the message's payload buffer instead of copying it (leaving `payload` null),
    // and then frees it itself once sent.
    virtual void post(int process, Message& message) = 0;
};

class Engine final : public EventSink {
public:
    struct Placement {
        int world_size = 1;
        int process = 0;
        int processes = 1;
    };
    Engine(Options options, Placement placement, std::unique_ptr<net::Machine> machine);
    ~Engine() override;

    // Runs `main` once per local simulated rank; returns the number of ranks (over all
    // processes) left unfinished, i.e. > 0 on deadlock.
    std::int64_t run(MainFunction main, int argc, char** argv, char** envp, ProcessLink& link,
                     OutboundEvents* outbound);

    // Placement: ranks are spread in contiguous blocks, the first (N mod P) blocks one larger.
    int world_size() const { return placement_.world_size; }
    int process_of(int world) const;
    // One unsigned compare: a world rank below first_ wraps around to a large offset.
    bool is_local(int world) const {
        return static_cast<unsigned>(world) - static_cast<unsigned>(first_) < static_cast<unsigned>(count_);
    }
    Rank& local(int world) { return ranks_[world - first_]; }
    int first_local() const { return first_; }
    int local_count() const { return count_; }
    // `rank`'s place among this process's ranks: its index into per-rank state.
    std::size_t local_index(const Rank& rank) const { return static_cast<std::size_t>(rank.world - first_); }
    // What `rank` keeps while it waits in a blocking collective (rank_slots.hpp), or null.
    char* blocking_slot(const Rank& rank) { return slots_.slot(local_index(rank)); }
    const Placement& placement() const { return placement_; }

    const Options& options() const { return options_; }
    // The order the queue hands out events in (-xsim-order; time with link contention).
    const ProcessingOrder& processing_order() const { return queue_.order(); }
    // The host clock measured compute reads (-xsim-compute-clock); read on leaving and entering xsim.
    std::int64_t compute_clock_ns() {
        return options_.compute_clock == ComputeClock::Thread ? cpu_clock_.now_ns() : host_clock_ns();
    }
    // The thread clock (for the run report: whether it detects preemption).
    const ThreadCpuClock& thread_cpu_clock() const { return cpu_clock_; }
    net::Machine& machine() { return *machine_; }
    RunStats& stats() { return stats_; }
    // Synchronization windows so far (the same in every process), also after the run.
    std::uint64_t windows() const { return loop_ ? loop_->windows() : windows_; }
    // Per-call counters of the local ranks, null unless -xsim-profile was given.
    const CallProfile* profile() const { return profile_.get(); }
    // Wait states of the local ranks by call and kind, and blame of other processes' ranks.
    WaitStateLog& wait_log() { return wait_log_; }
    // Message counts by sender and receiver, null unless -xsim-commmatrix was given.
    CommCounts* comm_matrix() { return matrix_.get(); }
    const Comm& world_comm() const { return world_; }
    const Comm& self_comm() const { return self_; }
    // Per-rank globals (index = world rank - first_local()) and per-rank C library state.
    runtime::Privatization& privatization() { return privatization_; }
    runtime::LibcRankState& libc_state() { return libc_state_; }
    runtime::LibcState& libc_state_of(const Rank& rank) {
        return libc_state_.of(local_index(rank), static_cast<std::size_t>(count_));
    }
    // The program's main, whose ranks run() runs (null before run()).
    MainFunction application_main() const { return main_; }
    // The executable's static constructors, which each rank runs, with its globals loaded and
    // as application code, before main (set before run()).
    void set_program_constructors(std::vector<ProgramConstructor> constructors) {
        constructors_ = std::move(constructors);
    }
    // Runs constructors as the loader would: with the program's argument vector and environment.
    void run_constructors(const std::vector<ProgramConstructor>& constructors) const {
        for (ProgramConstructor construct : constructors) construct(argc_, argv_, envp_);
    }
    // The MPI objects' state of this process (keyvals, context ids, groups, datatypes...),
    // current from construction to destruction and while run() runs (process_objects.hpp).
    ProcessObjects& objects() { return *objects_; }
    // The state of a layer above the engine (layer_state.hpp), null until that layer makes it.
    std::unique_ptr<LayerState>& layer_slot(LayerSlot slot) { return layer_states_[static_cast<std::size_t>(slot)]; }

    // The rank whose fiber is running, or null in the scheduler.
    Rank* current() const { return current_; }
    // The same field, for a monitoring thread's atomic reads (runtime/watchdog).
    Rank* const& current_rank_field() const { return current_; }
    // True while a simulated rank executes application code (not xsim itself).
    bool in_application() const { return current_ && !inside_xsim_; }

    // What traces the run (event_observer.hpp), or null; set before run() by whoever owns it.
    EventObserver* observer() const { return observer_; }
    void set_observer(EventObserver* observer) { observer_ = observer; }

    // Entry to and exit from xsim on behalf of the running rank (see CallScope).
    void enter(Rank& rank, const char* call);
    void leave(Rank& rank);

    // Scheduling, from inside a rank's fiber.
    // Makes `rank` run again at time `t` (or its clock, if later).
    void schedule_run(Rank& rank, SimTime t);
    // Suspends the running rank until a run event for it is processed.
    void block(Rank& rank);
    // Called before the running rank ends (finish_rank), while set: the rank has an OpenMP
    // parallel region open (runtime/openmp_interposition.cpp), whose worker threads read the
    // rank's globals and stack. The guard ends the run if the region has worker threads;
    // null outside regions. (A switch to another rank is caught where its globals would be
    // loaded, Privatization::set_pin, off the path of blocking calls.) `call` is "exit".
    using SuspendGuard = void (*)(Engine& engine, Rank& rank, const char* call);
    void set_suspend_guard(SuspendGuard guard) { suspend_guard_ = guard; }
    SuspendGuard suspend_guard() const { return suspend_guard_; }
    // Before a call observes other ranks' actions (test, probe, any-of waits): waits until
    // every event up to the rank's clock has been processed, here and in other processes.
    void catch_up(Rank& rank);

    // Events.
    Message* new_message() { return messages_.make(); }
    // A message event of `kind` from rank `from` (with its next sequence number, which orders
    // its events of equal time) to world rank `dst`, due at `time`; the caller sets the rest.
    Message* new_event(MessageKind kind, Rank& from, int dst, SimTime time) {
        Message* m = messages_.make();
        m->kind = kind;
        m->src = from.world;
        m->dst = dst;
        m->time = time;
        m->seq = from.seq++;
        return m;
    }
    void free_message(Message* m);
    void emit(Message* m);                // to a local rank or another process
    void accept_remote(Message* m);       // from another process (ProcessLink::exchange)
    Request* new_request() { return requests_.make(); }
    // A request that refers to a communicator keeps it alive (MPI_Comm_free may come first).
    void attach_comm(Request* r, const Comm& c) {
        r->comm = &c;
        ref(c);
        r->holds_comm = true;
    }
    // Releases a request (and a nonblocking collective's state and references with it).
    void free_request(Request* r);

    // Ends the whole run (all real processes) after printing `why` and saving what this
    // process has (run_end.hpp: report, regions, marked with `end`); never returns.
    [[noreturn]] void abort_run(int exit_code, const std::string& why, RunEnd end = RunEnd::Error);

    // A simulated rank that calls fork() leaves a copy of this whole real process in the
    // child: a plain process, not an MPI process (osu_latency_mp's children sleep and return
    // from main without MPI). True in such a child; asked when a rank ends or exits. A
    // pthread_atfork handler notes the fork: no system call per rank (a rank's getpid() is
    // its own virtual one anyway: runtime/process_id_interposition.cpp).
    static bool in_forked_child() { return forked_child_; }
    // Ends a fork()ed child as its own exit would natively: the rank's exit handlers run,
    // stdio is flushed, the child exits with `exit_code`. Nothing of the simulation (report,
    // MPI_Abort of the run, the real library's teardown) runs in it.
    [[noreturn]] void end_forked_child(Rank& rank, int exit_code);

    // What processes message events (the point-to-point protocol, p2p::handle_event), set
    // by whoever builds the engine before run(): the engine knows events, fibers and clocks
    // and calls the layers above only through this handler and CompletionTarget.
    using MessageHandler = void (*)(Engine& engine, Message* message);
    void set_message_handler(MessageHandler handler) { message_handler_ = handler; }
    // What processes the message kinds of layers above the protocol, which the protocol hands
    // over: MessageKind::CollectiveData, the analytic collectives' data sent between real
    // processes (colls/spanning_exchange.hpp), MessageKind::Rma, one-sided operations
    // (rma/operations.hpp), and MessageKind::FilePointer, shared file pointers
    // (io/shared_pointer.hpp).
    void set_layer_handler(MessageKind kind, MessageHandler handler) { layer_handlers_[layer_index(kind)] = handler; }
    MessageHandler layer_handler(MessageKind kind) const { return layer_handlers_[layer_index(kind)]; }

    // EventSink
    void process(const Event& event) override;
    std::int64_t live_ranks() const override { return live_; }

    // Ends the running rank's fiber as finished with `exit_code` (return from main, exit()).
    [[noreturn]] void finish_current_rank(int exit_code) { finish_rank(*current_, exit_code); }

    // For fault reports: whether `address` lies past the end of `rank`'s stack (in its
    // guard pages, a stack or guard below it, or the guard zone under the first stack).
    bool beyond_stack(const Rank& rank, const void* address) const {
        const char* p = static_cast<const char*>(address);
        return stacks_.contains(p) && p < stacks_.usable_bottom(local_index(rank));
    }
    // For fault reports: whether the running `rank`'s stack pointer `sp` lies under its
    // stack, i.e. it overflowed, however far past its guard the faulting frame reached.
    bool stack_pointer_below(const Rank& rank, const void* sp) const {
        return static_cast<const char*>(sp) < stacks_.usable_bottom(local_index(rank));
    }
    // The stack `rank`'s code runs on: its lowest usable address and one past its highest
    // (what pthread_getattr_np tells the rank about its own thread).
    char* stack_bottom(const Rank& rank) const { return stacks_.usable_bottom(local_index(rank)); }
    char* stack_top(const Rank& rank) const { return stacks_.top(local_index(rank)); }
    // For fault reports: whether `sp` lies on `rank`'s own stack (its code runs there; xsim's
    // scheduler, switching to it, does not).
    bool on_own_stack(const Rank& rank, const void* sp) const {
        const char* p = static_cast<const char*>(sp);
        return p >= stack_bottom(rank) && p < stack_top(rank);
    }
    // The simulated rank whose stack the guard pages holding `address` lie under, or -1.
    int guarded_rank(const void* address) const {
        const long index = stacks_.guard_owner(address);
        return index < 0 ? -1 : first_ + static_cast<int>(index);
    }

    SimTime latest_clock() const;   // the largest clock of the local ranks
    std::vector<const Rank*> unfinished_ranks() const;

private:
    static void rank_entry(void* arg);
    void run_fiber(Rank& rank);
    void check_stack(Rank& rank, const char* call);
    [[noreturn]] void finish_rank(Rank& rank, int exit_code);
    void enqueue(Message* m);  // a message event for a local receiver
    static Event run_event(Rank& rank, SimTime t);  // `rank` runs at `t`
    void prefetch(const Event& next) const;
    void prefetch_resume_frames(std::size_t local) const;
    void prefetch_ahead() const;
    void prefetch_first_unexpected(const Rank& rank) const;
    const Request* first_posted_receive(const Message& m) const;
    [[gnu::noinline]] void note_suspend_depth(const Rank& rank);
    [[gnu::noinline]] void record_profile(const Rank& rank);

    // First, so that they outlive everything the engine frees (communicators, requests).
    std::unique_ptr<ProcessObjects> objects_;
    std::unique_ptr<CurrentObjects> current_objects_;
    std::unique_ptr<LayerState> layer_states_[kLayerSlots];
    Options options_;
    Placement placement_;
    std::unique_ptr<net::Machine> machine_;
    int first_ = 0;
    int count_ = 0;
    HugeArray<Rank> ranks_;
    StackArena stacks_;
    RankSlots slots_;
    EventQueue queue_;
    ConservativeLoop* loop_ = nullptr;
    std::uint64_t windows_ = 0;  // the loop's count once it has ended
    ProgressLine* progress_ = nullptr;
    OutboundEvents* outbound_ = nullptr;
    MessageHandler message_handler_ = nullptr;
    EventObserver* observer_ = nullptr;     // -xsim-trace only
    static constexpr std::size_t layer_index(MessageKind kind) {
        return static_cast<std::size_t>(kind) - static_cast<std::size_t>(MessageKind::CollectiveData);
    }
    MessageHandler layer_handlers_[3] = {nullptr, nullptr, nullptr};  // CollectiveData, Rma, FilePointer
    Pool<Message> messages_;
    Pool<Request> requests_;
    Comm world_;
    Comm self_;
    RunStats stats_;
    std::unique_ptr<CallProfile> profile_;  // -xsim-profile only
    WaitStateLog wait_log_;                 // wait_states.hpp (always on)
    std::unique_ptr<CommCounts> matrix_;     // -xsim-commmatrix only
    runtime::CxxExceptionState exceptions_;  // C++ exceptions being handled by suspended ranks
    Rank* current_ = nullptr;
    bool inside_xsim_ = true;  // false only while a rank's own code runs (run_fiber to enter)
    static inline bool forked_child_ = false;  // in_forked_child()
    static void note_fork_in_child() { forked_child_ = true; }
    SuspendGuard suspend_guard_ = nullptr;  // set while a rank has an OpenMP region open
    // Opens its perf event only when measured compute reads it (the engine is made on the
    // simulation thread, whose scheduling it watches).
    ThreadCpuClock cpu_clock_{options_.reads_thread_clock()};
    runtime::Privatization privatization_;
    runtime::LibcRankState libc_state_;
    std::size_t resume_bytes_ = 1024;  // stack bytes a resumed rank touches (see prefetch)
    std::int64_t live_ = 0;
    // The application's main and its argument vector (shared by all ranks).
    MainFunction main_ = nullptr;
    std::vector<ProgramConstructor> constructors_;
    int argc_ = 0;
    char** argv_ = nullptr;
    char** envp_ = nullptr;
};

// Hidden, as real_mpi and the current ProcessObjects: read on every message, each by a direct
// load rather than through the GOT (libxsim's data otherwise stays preemptible).
[[gnu::visibility("hidden")]] extern Engine* g_engine;

// The engine's instance of an upper layer's state (a LayerState with a static kSlot),
// made on first use.
template <class State>
State& layer_state(Engine& engine) {
    std::unique_ptr<LayerState>& slot = engine.layer_slot(State::kSlot);
    if (!slot) slot = std::make_unique<State>();
    return static_cast<State&>(*slot);
}

// True on the thread that runs the simulation (its fibers and scheduler); set by
// mark_simulation_thread() at start-up. Interposed C library calls from any other thread
// are passed to the real functions.
void mark_simulation_thread();
bool on_simulation_thread();

}  // namespace xsim
