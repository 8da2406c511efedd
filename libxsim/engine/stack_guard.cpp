#include "libxsim/engine/stack_guard.hpp"

#include <dlfcn.h>
#include <link.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "libxsim/engine/engine.hpp"
#include "libxsim/engine/own_symbols.hpp"

namespace xsim {

void format_stack_size(char* out, std::size_t size, std::size_t bytes) {
    if (bytes % (1024 * 1024) == 0) std::snprintf(out, size, "%zu MiB", bytes >> 20);
    else if (bytes % 1024 == 0) std::snprintf(out, size, "%zu KiB", bytes >> 10);
    else std::snprintf(out, size, "%zu bytes", bytes);
}

void format_suggested_stack(char* out, std::size_t size, std::size_t stack_bytes) {
    const std::size_t kib = (stack_bytes * 4 + 1023) / 1024;
    if (kib % 1024 == 0) std::snprintf(out, size, "%zum", kib / 1024);
    else std::snprintf(out, size, "%zuk", kib);
}

void format_stack_overflow(char* out, std::size_t size, int world_rank, std::size_t stack_bytes, const char* origin,
                           const char* how) {
    char have[32], more[32];
    format_stack_size(have, sizeof have, stack_bytes);
    format_suggested_stack(more, sizeof more, stack_bytes);
    std::snprintf(out, size,
                  "stack overflow in simulated rank %d (%s): its stack of %s%s is used up; rerun with a larger "
                  "one, e.g. -xsim-stack %s",
                  world_rank, how, have, origin, more);
}

void write_stack_canary(char* bottom) {
    auto* words = reinterpret_cast<std::uint64_t*>(bottom);
    const std::uint64_t value = 0x5a17c0de5a17c0deULL ^ reinterpret_cast<std::uintptr_t>(bottom);
    for (std::size_t i = 0; i < kStackCanaryBytes / 8; ++i) words[i] = value;
}

void note_stack_guards(GuardPages guards, std::size_t stack_bytes, int process) {
    if (guards != GuardPages::ArenaOnly || is_small_stack(stack_bytes) || process != 0) return;
    std::fprintf(stderr,
                 "xsim: note: this kernel gives the fiber stacks no guard pages of their own (no MADV_GUARD_INSTALL, "
                 "and too many ranks for mprotect under vm.max_map_count); a rank that overflows its stack between "
                 "two MPI calls is detected only at its next MPI call, after it may have overwritten the stack of "
                 "the rank below it\n");
}

namespace {

// 256 KiB, most never touched: the fault handler's frames, and the demangler's arrays when it
// names a function of xsim's own (own_symbols: a few hundred bytes per byte of the name).
char g_signal_stack[256 * 1024];

// The C library's sigaction (libxsim interposes the program's: runtime/signal_interposition).
using SigactionFn = int (*)(int, const struct sigaction*, struct sigaction*);
SigactionFn g_real_sigaction = nullptr;
int call_real_sigaction(int signal, const struct sigaction* action, struct sigaction* old) {
    if (!g_real_sigaction) g_real_sigaction = reinterpret_cast<SigactionFn>(dlsym(RTLD_NEXT, "sigaction"));
    return g_real_sigaction(signal, action, old);
}

// The program's own SIGSEGV and SIGBUS actions, set while xsim's fault handler is installed
// (AMReX installs its backtrace handler with signal(SIGSEGV, ...) by default): kept here,
// not installed, so that xsim still sees an overflow of a rank's stack first; any other fault
// is handed to them. Per real process, as signal dispositions are natively per process.
ProgramFaultActions g_program_fault{};
bool g_fault_handler_installed = false;  // xsim's handler is installed
int fault_slot(int signal) { return signal == SIGSEGV ? 0 : signal == SIGBUS ? 1 : -1; }

void restore_default_and_raise(int signal) {
    struct sigaction dfl;
    std::memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    call_real_sigaction(signal, &dfl, nullptr);
    raise(signal);
}

// A fault that is not an overflow, when the program has a handler of its own for it: install
// the program's action for real and return; the faulting instruction runs again and the
// kernel calls the program's handler on the rank's stack, as natively. A signal sent (kill,
// raise) rather than raised by an instruction is sent again, to be delivered on return.
bool hand_fault_to_program(int signal, const siginfo_t* info) {
    const int slot = fault_slot(signal);
    if (slot < 0 || !g_program_fault.set[slot]) return false;
    const struct sigaction& program = g_program_fault.action[slot];
    if (!(program.sa_flags & SA_SIGINFO) && program.sa_handler == SIG_DFL) return false;
    call_real_sigaction(signal, &program, nullptr);
    g_fault_handler_installed = false;
    if (info->si_code <= 0) raise(signal);
    return true;
}

// The alternate signal stacks the program's ranks set up (sigaltstack), by local rank: recorded,
// not installed, so that xsim's own stays the simulation thread's; natively each process's.
std::vector<stack_t> g_program_alternate_stacks;

bool program_alternate_stack_set() {
    const Rank* rank = g_engine ? g_engine->current() : nullptr;
    if (!rank) return false;
    const auto local = g_engine->local_index(*rank);
    return local < g_program_alternate_stacks.size() && !(g_program_alternate_stacks[local].ss_flags & SS_DISABLE);
}

// An overflow of the running rank's stack, when the program's own handler for it asked for an
// alternate signal stack (SA_ONSTACK) and the program set one up (sigaltstack): natively the
// kernel runs that handler on the alternate stack, where it may recover, as Ruby's does
// (SystemStackError: it jumps back onto the rank's stack, to its innermost rescue). It runs
// here, on xsim's signal stack, with its mask; it returns only when it did not recover, and
// the overflow is then reported as before.
void run_program_overflow_handler(int signal, siginfo_t* info, void* ucontext) {
    const int slot = fault_slot(signal);
    if (slot < 0 || !g_program_fault.set[slot] || !program_alternate_stack_set()) return;
    const struct sigaction program = g_program_fault.action[slot];
    if (!(program.sa_flags & SA_ONSTACK)) return;
    sigset_t mask = program.sa_mask;
    if (!(program.sa_flags & SA_NODEFER)) sigaddset(&mask, signal);
    sigset_t before;
    pthread_sigmask(SIG_BLOCK, &mask, &before);
    if (program.sa_flags & SA_SIGINFO) {
        if (program.sa_sigaction) program.sa_sigaction(signal, info, ucontext);
    } else if (program.sa_handler != SIG_DFL && program.sa_handler != SIG_IGN) {
        program.sa_handler(signal);
    }
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

// ", at virtual time 0.000123000 s, last MPI call MPI_Send" for the running rank.
void rank_context(char* out, std::size_t size, const Rank& rank) {
    std::snprintf(out, size, " at virtual time %.9f s (last call: %s)", simtime_to_seconds(rank.clock),
                  rank.current_call ? rank.current_call : "none yet");
}

// The stack pointer, or the instruction pointer, when the signal came; null where unknown.
enum class Register { StackPointer, Instruction };
const void* interrupted(void* context, Register which) {
    const auto* uc = static_cast<const ucontext_t*>(context);
    const bool sp = which == Register::StackPointer;
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(uc->uc_mcontext.gregs[sp ? REG_RSP : REG_RIP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(sp ? uc->uc_mcontext.sp : uc->uc_mcontext.pc);
#else
    (void)uc;
    (void)sp;
    return nullptr;
#endif
}

// "; the faulting instruction is in /lib/x86_64-linux-gnu/libc.so.6 (strlen+0x1d)": which
// loaded object crashed tells a library's bug from the program's. The function is named only
// when the instruction lies inside an exported symbol's extent (dladdr alone names the nearest
// exported one before it, often another function). xsim's own functions, which libxsim does
// not export, are named from its symbol table (own_symbols). Code of GOTCHA, which wraps calls
// by rewriting the global offset tables all ranks of a process share, gets its remedy.
void describe_faulting_code(char* out, std::size_t size, const void* pc) {
    out[0] = '\0';
    Dl_info where{};
    void* entry = nullptr;  // the symbol's ElfW(Sym)
    if (!pc || !dladdr1(pc, &where, &entry, RTLD_DL_SYMENT) || !where.dli_fname) return;
    const auto* symbol = static_cast<const ElfW(Sym)*>(entry);
    const auto at = reinterpret_cast<std::uintptr_t>(pc);
    const auto start = reinterpret_cast<std::uintptr_t>(where.dli_saddr);
    const bool inside = where.dli_sname && symbol && at >= start && at < start + symbol->st_size;
    char function[360] = "";
    if (inside) std::snprintf(function, sizeof function, " (%s+0x%zx)", where.dli_sname, static_cast<std::size_t>(at - start));
    else {
        char own[320];
        switch (name_own_code(pc, where.dli_fbase, own, sizeof own)) {
        case OwnCode::Named: std::snprintf(function, sizeof function, " (%s)", own); break;
        case OwnCode::NoSymbolTable: std::snprintf(function, sizeof function, " (no function name: %s)", own); break;
        case OwnCode::Unnamed: std::snprintf(function, sizeof function, " (in no function of its symbol table)"); break;
        case OwnCode::Other: break;
        }
    }
    const bool gotcha = std::strstr(where.dli_fname, "gotcha") || (inside && std::strncmp(where.dli_sname, "gotcha_", 7) == 0);
    std::snprintf(out, size, "; the faulting instruction is in %s%s%s", *where.dli_fname ? where.dli_fname : "the executable",
                  function,
                  gotcha ? " (GOTCHA: a tool that wraps calls by rewriting the global offset tables, which the simulated "
                           "ranks of a real process share, set up by one rank only; build the tool with its PMPI "
                           "wrappers, e.g. Caliper with -DWITH_GOTCHA=OFF, or run one rank per real process)"
                         : "");
}

void on_fault(int signal, siginfo_t* info, void* ucontext) {
    // abort() while the run is already ending (the real library's abort path) adds nothing.
    if (signal == SIGABRT && abnormal_end_started()) restore_default_and_raise(signal);
    const char* what = signal == SIGSEGV ? "segmentation fault" : signal == SIGBUS ? "bus error" : "abort() (SIGABRT)";
    char text[600], code[800] = "";
    if (signal != SIGABRT) describe_faulting_code(code, sizeof code, interrupted(ucontext, Register::Instruction));
    const Rank* rank = g_engine ? g_engine->current() : nullptr;
    char context[160] = "";
    if (rank) rank_context(context, sizeof context, *rank);
    // The rank whose guard pages were hit: the running one when it overflowed its own
    // stack; when none is running, the stack the guard lies under.
    const int guarded = g_engine && signal != SIGABRT ? g_engine->guarded_rank(info->si_addr) : -1;
    // The running rank overflowed when the fault is under its stack, or when its stack
    // pointer is (a frame larger than the guard reaches past it, onto any address).
    const void* sp = interrupted(ucontext, Register::StackPointer);
    const bool overflowed = rank && (g_engine->beyond_stack(*rank, info->si_addr) ||
                                     (sp && g_engine->stack_pointer_below(*rank, sp)));
    const bool overflow = signal != SIGABRT && (overflowed || (!rank && guarded >= 0));
    if (!overflow && hand_fault_to_program(signal, info)) return;
    if (overflow && rank) run_program_overflow_handler(signal, info, ucontext);
    if (overflow) {
        char how[256], overflow[560];
        std::snprintf(how, sizeof how, "%s at %p, under its stack%s", what, info->si_addr, context);
        const Options& options = g_engine->options();
        format_stack_overflow(overflow, sizeof overflow, rank ? rank->world : guarded, options.stack_bytes,
                              stack_origin(options.stack_bytes, options.stack_given), how);
        std::snprintf(text, sizeof text, "%s", overflow);
    } else if (rank && sp && !g_engine->on_own_stack(*rank, sp)) {
        // Not on the rank's stack: most likely the scheduler's, xsim switching to the rank (its
        // globals, its exceptions), or a stack the program made itself (sigaltstack, its own
        // coroutines); no advice about the rank's stack size, which is not involved.
        std::snprintf(text, sizeof text,
                      "%s at address %p off simulated rank %d's stack%s: in xsim while switching to the rank (please "
                      "report it with the program that shows it), or on a stack the program made itself",
                      what, info->si_addr, rank->world, context);
    } else if (rank && signal == SIGABRT) {
        std::snprintf(text, sizeof text,
                      "%s in simulated rank %d%s: the program or the C library stopped it (for example on heap "
                      "corruption)",
                      what, rank->world, context);
    } else if (rank) {
        char have[32], where[96] = "";
        const Options& options = g_engine->options();
        format_stack_size(have, sizeof have, options.stack_bytes);
        if (guarded >= 0)
            std::snprintf(where, sizeof where, ", in the guard pages under simulated rank %d's stack", guarded);
        std::snprintf(text, sizeof text,
                      "%s in simulated rank %d at address %p%s%s (each rank has a stack of %s%s; rerun with a larger "
                      "-xsim-stack if it needs more)",
                      what, rank->world, info->si_addr, where, context, have,
                      stack_origin(options.stack_bytes, options.stack_given));
    } else if (signal == SIGABRT) {
        std::snprintf(text, sizeof text, "%s outside the simulated ranks", what);
    } else {
        std::snprintf(text, sizeof text, "%s outside the simulated ranks at address %p", what, info->si_addr);
    }
    (void)!write(STDERR_FILENO, "xsim: ", 6);
    (void)!write(STDERR_FILENO, text, std::strlen(text));
    (void)!write(STDERR_FILENO, code, std::strlen(code));
    (void)!write(STDERR_FILENO, "\n", 1);
    run_abnormal_end_hook(RunEnd::Signal, 128 + signal, text);
    // Let the default action end the process (and mpirun see it).
    restore_default_and_raise(signal);
}

// SIGINT or SIGTERM (from the user, or from mpirun ending the job): save what this
// process has, then die of the signal as before.
void on_stop(int signal) {
    const char* name = signal == SIGINT ? "SIGINT" : "SIGTERM";
    char why[200];
    std::snprintf(why, sizeof why, "real process %d stopped by %s at virtual time %.9f s",
                  g_engine ? g_engine->placement().process : -1, name,
                  g_engine ? simtime_to_seconds(g_engine->latest_clock()) : 0.0);
    if (run_abnormal_end_hook(RunEnd::Signal, 128 + signal, why)) {
        char text[400];
        std::snprintf(text, sizeof text, "xsim: %s; its run report (its ranks only) is in %s\n", why,
                      g_engine->options().report_path.c_str());
        (void)!write(STDERR_FILENO, text, std::strlen(text));
    }
    restore_default_and_raise(signal);
}

}  // namespace

Rank* application_rank();  // engine/call_scope.hpp, whose xsim::raise would hide the C library's here

// On the simulation thread, in a rank's code: a thread of the rank's own (one rank per process)
// sets its own alternate stack, as natively.
bool keeps_program_alternate_stack() { return g_fault_handler_installed && application_rank(); }

int program_alternate_stack(const stack_t* stack, stack_t* old) {
    const Rank* rank = application_rank();
#ifndef SS_AUTODISARM
    constexpr int SS_AUTODISARM = 1 << 31;  // Linux 4.7's flag; older C library headers lack it
#endif
    if (stack && ((stack->ss_flags & ~(SS_DISABLE | SS_AUTODISARM)) != 0)) {
        errno = EINVAL;
        return -1;
    }
    if (stack && !(stack->ss_flags & SS_DISABLE) && stack->ss_size < static_cast<std::size_t>(MINSIGSTKSZ)) {
        errno = ENOMEM;
        return -1;
    }
    auto& recorded = g_program_alternate_stacks;
    if (recorded.size() < static_cast<std::size_t>(g_engine->local_count())) {
        stack_t none{};
        none.ss_flags = SS_DISABLE;
        recorded.resize(static_cast<std::size_t>(g_engine->local_count()), none);
    }
    stack_t& mine = recorded[g_engine->local_index(*rank)];
    if (old) *old = mine;
    if (stack) {
        mine = *stack;
        if (mine.ss_flags & SS_DISABLE) {
            mine.ss_sp = nullptr;
            mine.ss_size = 0;
        }
    }
    return 0;
}

bool keeps_program_fault_action(int signal) { return g_fault_handler_installed && fault_slot(signal) >= 0; }

ProgramFaultActions recorded_program_fault_actions() { return g_program_fault; }
void restore_program_fault_actions(const ProgramFaultActions& saved) { g_program_fault = saved; }

void program_fault_action(int signal, const struct sigaction* action, struct sigaction* old) {
    const int slot = fault_slot(signal);
    if (old) {
        if (g_program_fault.set[slot]) *old = g_program_fault.action[slot];
        else {
            std::memset(old, 0, sizeof *old);
            old->sa_handler = SIG_DFL;
        }
    }
    if (action) {
        g_program_fault.action[slot] = *action;
        g_program_fault.set[slot] = true;
    }
}

void install_fault_handler() {
    load_own_symbols();
    stack_t alternate;
    alternate.ss_sp = g_signal_stack;
    alternate.ss_size = sizeof g_signal_stack;
    alternate.ss_flags = 0;
    syscall(SYS_sigaltstack, &alternate, nullptr);  // not libxsim's (a rank's own, recorded)
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    call_real_sigaction(SIGSEGV, &action, nullptr);
    call_real_sigaction(SIGBUS, &action, nullptr);
    call_real_sigaction(SIGABRT, &action, nullptr);
    g_fault_handler_installed = true;
    struct sigaction stop;
    std::memset(&stop, 0, sizeof stop);
    stop.sa_handler = on_stop;
    stop.sa_flags = SA_ONSTACK;
    sigfillset(&stop.sa_mask);
    call_real_sigaction(SIGINT, &stop, nullptr);
    call_real_sigaction(SIGTERM, &stop, nullptr);
}

}  // namespace xsim
