#include "libxsim/engine/engine.hpp"

#include <alloca.h>
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include <pthread.h>
#include <unistd.h>

#include "libxsim/engine/payload.hpp"
#include "libxsim/mpi/process_objects.hpp"
#include "libxsim/engine/stack_guard.hpp"
#include "libxsim/mpi/real_mpi.hpp"

namespace xsim {

Engine* g_engine = nullptr;

namespace {
thread_local bool t_simulation_thread = false;
}  // namespace

void mark_simulation_thread() { t_simulation_thread = true; }
bool on_simulation_thread() { return t_simulation_thread; }

Engine::Engine(Options options, Placement placement, std::unique_ptr<net::Machine> machine)
    : objects_(std::make_unique<ProcessObjects>()),
      current_objects_(std::make_unique<CurrentObjects>(*objects_)),
      options_(std::move(options)),
      placement_(placement),
      machine_(std::move(machine)) {
    static const int fork_noted = pthread_atfork(nullptr, nullptr, &note_fork_in_child);  // in_forked_child()
    (void)fork_noted;
    const int base = placement_.world_size / placement_.processes;
    const int extra = placement_.world_size % placement_.processes;
    count_ = base + (placement_.process < extra ? 1 : 0);
    first_ = placement_.process * base + std::min(placement_.process, extra);
    slots_.set_ranks(static_cast<std::size_t>(count_));
    world_.kind = CommKind::World;
    world_.context = kWorldContext;
    world_.size = placement_.world_size;
    world_.name = "MPI_COMM_WORLD";
    self_.kind = CommKind::Self;
    self_.context = kSelfContext;
    self_.size = 1;
    self_.name = "MPI_COMM_SELF";
    if (!options_.profile_path.empty()) profile_ = std::make_unique<CallProfile>(count_);
    if (!options_.commmatrix_path.empty())
        matrix_ = std::make_unique<CommCounts>(*machine_, placement_.world_size, options_.commmatrix_limit);
}

Engine::~Engine() = default;

int Engine::process_of(int world) const {
    const int base = placement_.world_size / placement_.processes;
    const int extra = placement_.world_size % placement_.processes;
    const int big = extra * (base + 1);  // ranks held by the larger blocks
    return world < big ? world / (base + 1) : extra + (world - big) / base;
}

std::int64_t Engine::run(MainFunction main, int argc, char** argv, char** envp, ProcessLink& link,
                         OutboundEvents* outbound) {
    if (!message_handler_) throw std::logic_error("Engine::run: no message handler (set_message_handler) was set");
    CurrentObjects running(*objects_);  // this engine's MPI objects, whichever engine was made last
    main_ = main;
    argc_ = argc;
    argv_ = argv;
    envp_ = envp;
    outbound_ = outbound;
    ranks_.reset(static_cast<std::size_t>(count_));
    stacks_.reserve(static_cast<std::size_t>(count_), options_.stack_bytes);
    note_stack_guards(stacks_.guards(), stacks_.stack_bytes(), placement_.process);
    queue_.set_order(ProcessingOrder::for_latency(
        machine_->network->min_latency(),
        options_.order == EventOrderOption::Cells && !machine_->network->arrival_depends_on_call_order()));
    queue_.reserve(static_cast<std::size_t>(count_) + 1024);
    live_ = count_;
    // Every rank starts at time 0; pushed in rank order, the heap needs no reordering.
    for (int i = 0; i < count_; ++i) {
        Rank& r = ranks_[i];
        r.world = first_ + i;
        schedule_run(r, 0);
    }
    ConservativeLoop loop(queue_, link, machine_->network->min_latency());
    ProgressLine progress(options_.progress, placement_.process, count_);
    loop_ = &loop;
    progress_ = &progress;
    const std::int64_t unfinished = loop.run(*this);
    windows_ = loop.windows();
    progress.finish();
    loop_ = nullptr;
    progress_ = nullptr;
    return unfinished;
}

namespace {

// Asks for every cache line of [p, p + bytes), for writing, when `bytes` is known only at run
// time (a rank's stack frames; objects of fixed size go through prefetch_span below).
// Four lines a turn, from the last line down: the loop's add, compare and branch cost about
// three instructions per line when paid for each (28 lines per resumed rank in ring_allreduce).
// The last turn may ask for up to three lines below `p`: on a stack, the deeper frames of the
// next call, which it writes anyway.
void prefetch_lines_for_write(const void* p, std::size_t bytes) {
    if (bytes == 0) return;
    const auto begin = reinterpret_cast<std::uintptr_t>(p);
    const char* at = reinterpret_cast<const char*>((begin + bytes - 1) & ~std::uintptr_t{63});  // the last line
    for (std::size_t turns = (((begin + bytes - 1) >> 6) - (begin >> 6) + 4) / 4; turns > 0; --turns, at -= 256) {
        __builtin_prefetch(at, 1);
        __builtin_prefetch(at - 64, 1);
        __builtin_prefetch(at - 128, 1);
        __builtin_prefetch(at - 192, 1);
    }
}

// Marks a function that only prefetches as having an effect: the compiler, which may prove
// such a function pure when it sees its body (-fno-semantic-interposition, LTO), would
// otherwise drop calls whose result is unused, and with them the prefetches.
inline void keep_prefetching() { asm volatile(""); }

// One prefetch of each line `at + 64 * Line`, unrolled. A function, not a lambda: GCC 12
// proved a lambda made only of prefetches pure and dropped it (keep_prefetching).
template <int ForWrite, std::size_t... Line>
[[gnu::always_inline]] inline void prefetch_each(const char* at, std::index_sequence<Line...>) {
    keep_prefetching();
    (__builtin_prefetch(at + 64 * Line, ForWrite), ...);
}

// Asks for every line of the `Bytes` bytes at `p`, with one prefetch instruction per line and
// no loop: the engine asks for some 25 lines per message, and a loop over them
// (compare, branch, add) cost three instructions more per line, about 4% of a message's.
// Line-aligned objects (a message, a request, a rank) need no prefetch of their last byte.
template <std::size_t Bytes, int ForWrite, bool LineAligned>
[[gnu::always_inline]] inline void prefetch_span(const void* p) {
    const char* at = static_cast<const char*>(p);
    prefetch_each<ForWrite>(at, std::make_index_sequence<(Bytes + 63) / 64>{});
    if constexpr (!LineAligned) __builtin_prefetch(at + Bytes - 1, ForWrite);  // the line it ends in
}

// An object of type T, or its first `Bytes` bytes.
template <class T, std::size_t Bytes = sizeof(T), int ForWrite = 0>
[[gnu::always_inline]] inline void prefetch_object(const T* object) {
    static_assert(alignof(T) == 64 && Bytes % 64 == 0, "a line-aligned object, whole lines of it");
    prefetch_span<Bytes, ForWrite, true>(object);
}

void prefetch_message(const Message* m) { prefetch_object(m); }

}  // namespace

// The first receive posted by the local receiver of `m` (the one a collective's message
// matches), or null.
const Request* Engine::first_posted_receive(const Message& m) const {
    return is_local(m.dst) ? ranks_[m.dst - first_].posted.head : nullptr;
}

// The next event's memory is almost always cold at 10^5+ ranks (thousands of other ranks
// ran since it was last touched). Asking for it now overlaps those cache and TLB misses
// with the processing of the current event instead of stalling on them one by one.
void Engine::prefetch(const Event& next) const {
    keep_prefetching();
    if (event_class(next.key.order) == EventClass::Message) {
        const auto* m = static_cast<const Message*>(next.object);
        prefetch_message(m);  // already asked for unless it came from the heap
        // The call was asked for in prefetch_ahead; now the buffer its steps resume on.
        if (const Request* q = first_posted_receive(*m); q && q->parent_call)
            if (const void* hint = q->parent_call->resume_hint()) __builtin_prefetch(hint, 1);
        return;
    }
    prefetch_object(static_cast<const Rank*>(next.object));
    const auto local = static_cast<std::size_t>(next.owner - static_cast<std::uint32_t>(first_));
    prefetch_resume_frames(local);
}

// The frames a resumed fiber of local rank `local` returns through: from where it suspended
// up to main.
void Engine::prefetch_resume_frames(std::size_t local) const {
    keep_prefetching();
    prefetch_lines_for_write(stacks_.top(local) - resume_bytes_, resume_bytes_);
}

// Deeper lookahead for message events, in stages some events apart so that each stage
// reads only what an earlier stage has already asked for: the message, then its receiver,
// then the receiver's first posted receive (and first unexpected message), then the
// collective call that receive belongs to (colls/collective_call.hpp); for a rank that runs
// soon, its rank, then its first unexpected message, then its stack's top line.
void Engine::prefetch_ahead() const {
    keep_prefetching();
    constexpr std::size_t s = 2;  // events between stages (1 and 3 measured no better)
    auto message_at = [&](std::size_t k) -> const Message* {
        const Event* e = queue_.peek(k);
        return e && event_class(e->key.order) == EventClass::Message ? static_cast<const Message*>(e->object) : nullptr;
    };
    if (const Event* e = queue_.peek(4 * s)) {
        if (event_class(e->key.order) == EventClass::Message) prefetch_message(static_cast<const Message*>(e->object));
        else if (event_class(e->key.order) == EventClass::RankRun)
            prefetch_object<Rank, kRankMessageBytes>(static_cast<const Rank*>(e->object));
    }
    if (const Event* e = queue_.peek(3 * s)) {
        if (event_class(e->key.order) == EventClass::Message) {
            if (const auto* m = static_cast<const Message*>(e->object); is_local(m->dst))
                prefetch_object<Rank, kRankMessageBytes>(&ranks_[m->dst - first_]);
        } else if (event_class(e->key.order) == EventClass::RankRun) {
            // Once clocks drift apart, a rank that runs late finds its partners' messages
            // waiting (long cold); its next receive or collective round looks at them first.
            prefetch_first_unexpected(*static_cast<const Rank*>(e->object));
        }
    }
    if (const Event* e = queue_.peek(2 * s)) {
        if (event_class(e->key.order) == EventClass::Message) {
            const auto* m = static_cast<const Message*>(e->object);
            if (const Request* q = first_posted_receive(*m)) prefetch_object<Request, sizeof(Request), 1>(q);
            if (m->payload) __builtin_prefetch(m->payload);
            // The round this message ends posts the next round's receive, which looks at
            // the messages waiting first (the same line of the rank as its posted receives).
            if (is_local(m->dst)) prefetch_first_unexpected(ranks_[m->dst - first_]);
        } else if (event_class(e->key.order) == EventClass::RankRun) {
            // A rank that runs soon: the top line of its stack, so that the page walk to its
            // stack page (one page per rank, 1 MiB apart by default) is done before prefetch()
            // asks for the frames it resumes through.
            const auto local = static_cast<std::size_t>(e->owner - static_cast<std::uint32_t>(first_));
            __builtin_prefetch(stacks_.top(local) - 64, 1);
            privatization_.prefetch(local);  // its globals' slot, which the switch reads first
        }
    }
    if (const Message* m = message_at(s)) {
        if (const Request* q = first_posted_receive(*m)) {
            if (q->parent_call) {
                prefetch_span<kCompletionTargetPrefetchBytes, 1, false>(q->parent_call);
            } else {
                // A receive of the application's: its rank usually resumes right after the
                // message (in cells its run event is made then, too late to be seen ahead), and
                // the message ends its wait (the rank's lines past kRankMessageBytes).
                const auto local = static_cast<std::size_t>(m->dst - first_);
                // The data lands in its buffer (often on the rank's stack, cold at scale).
                if (m->has_payload && q->carries_data) __builtin_prefetch(q->buf, 1);
                prefetch_resume_frames(local);
                prefetch_span<sizeof(Rank) - kRankMessageBytes, 0, true>(reinterpret_cast<const char*>(&ranks_[local]) +
                                                                         kRankMessageBytes);
            }
        }
    }
}

// The first message waiting for a receive of `rank`, whose envelope a receive it posts
// compares first.
void Engine::prefetch_first_unexpected(const Rank& rank) const {
    if (const Message* m = rank.unexpected.head) prefetch_message(m);
}

void Engine::note_suspend_depth(const Rank& rank) {
    const char* top = stacks_.top(local_index(rank));
    const auto depth = static_cast<std::size_t>(top - static_cast<const char*>(__builtin_frame_address(0)));
    resume_bytes_ = std::min<std::size_t>(depth + 768, 4096);  // + the next call's deeper frames
}

void Engine::process(const Event& event) {
    ++stats_.events;
    if (const Event* next = queue_.peek(0)) prefetch(*next);
    prefetch_ahead();
    progress_->tick(event.key.time, live_);
    if (event_class(event.key.order) == EventClass::Message) {
        message_handler_(*this, static_cast<Message*>(event.object));
        return;
    }
    Rank& rank = *static_cast<Rank*>(event.object);
    if (rank.wake_time != event.key.time || rank.state == RankState::Finished) return;  // superseded
    rank.wake_time = kNever;
    rank.clock = std::max(rank.clock, event.key.time);
    run_fiber(rank);
}

namespace {
// What one rank's run may make before the scheduler runs again, in the common case (an
// all-to-all on a large communicator makes more, and grows on the rank's stack).
constexpr std::size_t kSpareBeforeRun = 256;
}  // namespace

void Engine::run_fiber(Rank& rank) {
    const bool first_start = !rank.fiber.prepared();
    const std::size_t index = local_index(rank);
    if (first_start) {
        stacks_.populate_top(index);
        rank.fiber.prepare(stacks_.top(index), stacks_.stack_bytes(), &Engine::rank_entry, &rank);
    }
    current_ = &rank;  // inside_xsim_ is still true: the switch below is xsim's work
    rank.state = RankState::Running;
    ++stats_.context_switches;
    const runtime::CxxExceptionScope exceptions(exceptions_, index);
    privatization_.switch_to(index);  // before resume: not measured compute
    // Growth of the pools and the queue happens here, on the scheduler's stack: a rank's
    // stack may be 2 KiB, too little for malloc growing the heap (sysmalloc, mmap).
    messages_.keep_spare(kSpareBeforeRun);
    requests_.keep_spare(kSpareBeforeRun);
    queue_.keep_room(kSpareBeforeRun);
    // A fiber is resumed where it suspended, inside xsim; a new one enters the application.
    // Only now: a C library call that libxsim interposes made by the switch above (the
    // written-page poll's getrusage) must not count as the rank's own, which would charge the
    // rank its compute since a last exit it never had (the whole compute clock: uptime).
    inside_xsim_ = !first_start;
    rank.fiber.resume();
    current_ = nullptr;
    inside_xsim_ = true;
    if (rank.fiber.finished()) stacks_.retire(index);
}

namespace {
// A rank's argument vector, pointers and strings, is copied onto its stack while it takes at
// most this many bytes and an eighth of the stack, else onto the heap; but where only its
// strings do not fit (-xsim-stack 2k with long arguments), the pointers alone go on the stack
// and the strings stay shared, so that a small stack costs no heap per rank. Below
// kSmallestStackForArgvStrings only the pointers are copied: 2 KiB is the least that
// ring_allreduce's calls need, with about 50 bytes to spare (a 48-byte path failed there).
constexpr std::size_t kArgvBytesOnStack = 1536;
constexpr std::size_t kSmallestStackForArgvStrings = 4096;

// Copies argv[0..argc), null-terminated like the original, into `into` (room for the pointers
// and, with `strings`, the strings after them), returning the copy.
char** copy_argv(int argc, char* const* argv, char* into, bool strings) {
    auto** copy = reinterpret_cast<char**>(into);
    char* text = into + (static_cast<std::size_t>(argc) + 1) * sizeof(char*);
    for (int i = 0; i < argc; ++i) {
        if (!strings) {
            copy[i] = argv[i];
            continue;
        }
        const std::size_t length = std::strlen(argv[i]) + 1;
        copy[i] = static_cast<char*>(std::memcpy(text, argv[i], length));
        text += length;
    }
    copy[argc] = nullptr;
    return copy;
}

std::size_t argv_string_bytes(int argc, char* const* argv) {
    std::size_t bytes = 0;
    for (int i = 0; i < argc; ++i) bytes += std::strlen(argv[i]) + 1;
    return bytes;
}
}  // namespace

void Engine::rank_entry(void* arg) {
    Rank& rank = *static_cast<Rank*>(arg);
    Engine& engine = *g_engine;
    engine.stacks_.arm(static_cast<std::size_t>(rank.world - engine.first_));  // its guard pages
    // Stacks that share pages have no guard: guard words at the bottom instead (stack_guard.hpp).
    if (uses_stack_canary(engine.stacks_.stack_bytes()))
        write_stack_canary(engine.stacks_.usable_bottom(static_cast<std::size_t>(rank.world - engine.first_)));
    // The stack is not prefaulted for measured compute: the pages a rank's MPI calls reach are
    // first touched inside xsim (after enter() read the clock), so only a page that the
    // application's own code reaches deeper than any of its calls is charged, once. Touching
    // 6 KiB here for every rank cost a page per rank (4 KiB of 9.4 at 2^20 ranks).
    rank.last_exit_ns = engine.compute_clock_ns();
    // The rank's own argument vector, pointers and strings, as each process has natively:
    // programs rearrange theirs (R's start-up removes the options it has processed from argv,
    // getopt permutes it) and write into the strings (strtok on "64x64x64"), which other
    // ranks must not see. On the rank's stack while it is short (most are), so it costs no
    // memory once the rank ends.
    const std::size_t stack = engine.stacks_.stack_bytes();
    const std::size_t on_stack = std::min(kArgvBytesOnStack, stack / 8);
    const std::size_t pointers = (static_cast<std::size_t>(engine.argc_) + 1) * sizeof(char*);
    const std::size_t whole = pointers + argv_string_bytes(engine.argc_, engine.argv_);
    const bool strings_fit = whole <= on_stack && stack >= kSmallestStackForArgvStrings;
    const bool own_strings = strings_fit || pointers > on_stack;  // see kArgvBytesOnStack
    const std::size_t bytes = own_strings ? whole : pointers;
    std::vector<char> long_argv;
    char* storage =
        bytes <= on_stack ? static_cast<char*>(alloca(bytes)) : (long_argv.resize(bytes), long_argv.data());
    char** argv = copy_argv(engine.argc_, engine.argv_, storage, own_strings);
    for (ProgramConstructor construct : engine.constructors_) construct(engine.argc_, argv, engine.envp_);
    const int code = engine.main_(engine.argc_, argv, engine.envp_);
    engine.finish_rank(rank, code);
}

void Engine::finish_rank(Rank& rank, int exit_code) {
    if (in_forked_child()) [[unlikely]]
        end_forked_child(rank, exit_code);
    // What the rank's code registered to run at exit (atexit, destructors of its function-local
    // statics: runtime/exit_interposition.cpp) runs now, still as application code on its own
    // globals, as its own process's exit would run it; before the check for MPI_Finalize,
    // which one of them may call (atexit(MPI_Finalize): IQ-TREE).
    if (suspend_guard_) [[unlikely]]
        suspend_guard_(*this, rank, "exit");
    libc_state_.run_exit_handlers(local_index(rank));
    inside_xsim_ = true;
    if (rank.phase == MpiPhase::Initialized) {
        abort_run(1, "simulated rank " + std::to_string(rank.world) +
                         " returned from main without calling MPI_Finalize",
                  RunEnd::Exit);
    }
    rank.exit_code = exit_code;
    rank.state = RankState::Finished;
    forget_predefined_comm_state(rank);
    --live_;
    rank.fiber.finish();
}

void Engine::end_forked_child(Rank& rank, int exit_code) {
    libc_state_.run_exit_handlers(local_index(rank));
    std::fflush(nullptr);
    ::_exit(exit_code);
}

void Engine::enter(Rank& rank, const char* call) {
    inside_xsim_ = true;
    rank.current_call = call;
    check_stack(rank, call);
    if (options_.compute == ComputeMode::Measured) {
        const std::int64_t now = compute_clock_ns();
        const SimTime measured = (now - rank.last_exit_ns) * 1000;  // ns -> ps
        if (measured > 0) {
            const SimTime charged = machine_->processor->measured_compute(rank.world, measured, rank.clock);
            rank.clock += charged;
            rank.path.compute += charged;
        }
    }
    split_enter(rank.split, rank.clock, call);
    if (observer_) [[unlikely]]
        observer_->on_enter(rank, call);
}

namespace {

// Out of line, so that the check on every MPI entry keeps a small frame (small stacks).
[[noreturn, gnu::cold, gnu::noinline]] void report_stack_overflow(Engine& engine, int world, std::size_t stack_bytes,
                                                                  const char* call, bool canary_hit) {
    char how[160], text[480];
    if (canary_hit) std::snprintf(how, sizeof how, "the guard words at its bottom were overwritten; found in %s", call);
    else std::snprintf(how, sizeof how, "detected in %s", call);
    format_stack_overflow(text, sizeof text, world, stack_bytes, stack_origin(stack_bytes, engine.options().stack_given),
                          how);
    engine.abort_run(1, text);
}

}  // namespace

void Engine::check_stack(Rank& rank, const char* call) {
    const char* depth = static_cast<const char*>(__builtin_frame_address(0));
    const char* bottom = stacks_.usable_bottom(local_index(rank));
    const bool canary_hit = uses_stack_canary(stacks_.stack_bytes()) && !stack_canary_intact(bottom);
    if (depth >= bottom + stack_safety_margin(stacks_.stack_bytes()) && !canary_hit) return;
    report_stack_overflow(*this, rank.world, stacks_.stack_bytes(), call, canary_hit);
}

namespace {

[[noreturn, gnu::cold, gnu::noinline]] void report_time_limit(Engine& engine, const Rank& rank) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "simulated rank %d: virtual time passed xsim's limit of %.0f seconds (2^62 ps, about 53 days) "
                  "in %s; later times cannot be represented",
                  rank.world, kTimeLimitSeconds, rank.current_call ? rank.current_call : "its compute");
    engine.abort_run(1, text);
}

}  // namespace

void Engine::leave(Rank& rank) {
    // Every duration is capped at kTimeLimit, so a clock below it plus one more cannot
    // have wrapped: checking here, once per call, catches it before it is used.
    if (rank.clock >= kTimeLimit) [[unlikely]]
        report_time_limit(*this, rank);
    if (profile_ && rank.split.depth == 1) [[unlikely]]
        record_profile(rank);
    if (observer_) [[unlikely]]
        observer_->on_leave(rank);
    split_leave(rank.split, rank.clock);
    if (options_.compute == ComputeMode::Measured) rank.last_exit_ns = compute_clock_ns();
    inside_xsim_ = false;
}

void Engine::record_profile(const Rank& rank) {
    const TimeSplit& s = rank.split;
    const SimTime spent = rank.clock > s.call_start ? rank.clock - s.call_start : 0;
    profile_->record(rank.world - first_, s.call, spent, std::min(s.call_wait, spent), s.call_bytes);
}

void Engine::schedule_run(Rank& rank, SimTime t) {
    t = std::max(t, rank.clock);
    if (t >= rank.wake_time) return;  // an earlier run is already pending
    rank.wake_time = t;
    queue_.push(run_event(rank, t));
}

Event Engine::run_event(Rank& rank, SimTime t) {
    const auto world = static_cast<std::uint32_t>(rank.world);
    return {{t, event_order(EventClass::RankRun, world, 0)}, &rank, world};
}

void Engine::block(Rank& rank) {
    rank.state = RankState::Blocked;
    note_suspend_depth(rank);
    rank.fiber.suspend();
    // Resumed by run_fiber: state is Running again and the clock is the wake time.
}

void Engine::catch_up(Rank& rank) {
    // In cells (pdes/processing_order.hpp) a rank runs on to the end of its cell.
    const bool earlier_pending = queue_.maybe_pending_before(run_event(rank, rank.clock));
    const bool beyond_window = loop_ && rank.clock >= loop_->window_end();
    if (!earlier_pending && !beyond_window) return;
    schedule_run(rank, rank.clock);
    rank.state = RankState::Ready;
    note_suspend_depth(rank);
    rank.fiber.suspend();
}

void Engine::free_request(Request* r) {
    delete r->collective;
    if (r->holds_comm) unref(r->comm);
    if (r->holds_type) release_type(r->type);
    r->magic = 0;
    requests_.destroy(r);
}

void Engine::free_message(Message* m) {
    release_payload(m);
    messages_.destroy(m);
}

void Engine::emit(Message* m) {
    if (is_local(m->dst)) {
        enqueue(m);
        return;
    }
    ++stats_.remote_events;
    outbound_->post(process_of(m->dst), *m);
    free_message(m);
}

void Engine::accept_remote(Message* m) { enqueue(m); }

void Engine::enqueue(Message* m) {
    // An analytic collective's data for this process only stores it (moves no clock) and
    // must be there before any rank that needs it completes, at or after its time
    // (colls/README.md, "Between real processes"): in cells it goes before every rank's
    // events of its cell, as owner 0.
    const std::uint32_t owner = m->kind == MessageKind::CollectiveData ? 0 : static_cast<std::uint32_t>(m->dst);
    queue_.push({{m->time, event_order(EventClass::Message, static_cast<std::uint32_t>(m->src), m->seq)}, m, owner});
}

void Engine::abort_run(int exit_code, const std::string& why, RunEnd end) {
    std::fprintf(stderr, "xsim: %s\n", why.c_str());
    std::fflush(stderr);
    std::fflush(stdout);
    run_abnormal_end_hook(end, exit_code, why.c_str());
    real_mpi.Abort(MPI_COMM_WORLD, exit_code);
    std::_Exit(exit_code);
}

SimTime Engine::latest_clock() const {
    SimTime latest = 0;
    for (int i = 0; i < count_; ++i) latest = std::max(latest, ranks_[i].clock);
    return latest;
}

std::vector<const Rank*> Engine::unfinished_ranks() const {
    std::vector<const Rank*> out;
    for (int i = 0; i < count_; ++i)
        if (ranks_[i].state != RankState::Finished) out.push_back(&ranks_[i]);
    return out;
}

}  // namespace xsim
