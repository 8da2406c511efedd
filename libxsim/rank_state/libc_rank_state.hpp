// C library state that programs treat as per process but that must be per simulated rank:
// getopt's parse position, strtok's save pointer, the generators of rand()/random() and of
// the rand48 family and of Fortran's RANDOM_NUMBER, the exit handlers the rank's own code
// registered, its thread-specific data keys, and how long it slept. The interposers
// (runtime/libc_interposition.cpp, runtime/exit_interposition.cpp) keep it here, one small
// record per rank that uses it, allocated on first use.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <utility>
#include <vector>

#include "libxsim/rank_state/privatization.hpp"

namespace xsim::runtime {

// glibc's rand()/random() generator: TYPE_3, 128 bytes of state, seed 1 until srand; initstate
// and setstate point `data` at a state array of the rank's program (and back here).
struct RandomState {
    struct random_data data {};
    char state[128] = {};
};

// An exit handler (atexit, the destructor of a function-local static) that the rank's code
// registered for an object or function of its own: called with `arg` when the rank ends.
// `dso_handle` is the registering object's (__cxa_finalize runs those of one library: the
// rank's last dlclose of it).
struct ExitHandler {
    void (*function)(void*);
    void* arg;
    void* dso_handle = nullptr;
};

// gfortran's RANDOM_NUMBER generator of a rank (fortran/random_numbers.cpp): zeroed, as the
// block libgfortran allocates for a new thread; room for any gfortran's state (xoshiro256**
// takes 40 bytes, the xorshift1024* of gfortran 7 and 8 takes 144).
struct FortranRandomState {
    alignas(16) unsigned char bytes[256] = {};
};

struct LibcState {
    // getopt: calls since the rank's parse (re)started and where it left optind (replayed
    // to rebuild glibc's hidden position when another rank parsed in between).
    int getopt_calls = 0;
    int getopt_optind = 1;
    int getopt_opterr = 1;
    bool getopt_started = false;
    char* strtok_save = nullptr;
    std::unique_ptr<RandomState> random;  // only for ranks that call rand/random/srand
    // drand48, lrand48, srand48, ...: zero, as glibc's own state before the first call.
    std::unique_ptr<struct drand48_data> rand48;
    std::unique_ptr<FortranRandomState> fortran_random;  // only for ranks of Fortran programs that draw
    std::vector<ExitHandler> exit_handlers;  // in the order registered
    // pthread_setspecific's values of the keys the rank's code created (few: a linear search).
    std::vector<std::pair<unsigned, const void*>> thread_specific;
};

// The block pthread_getspecific answers with, whatever the key, while a rank is inside
// libgfortran's random-number intrinsics (fortran/random_numbers.cpp), or null. Per thread:
// only the simulation thread's calls are the rank's.
inline thread_local void* t_fortran_generator = nullptr;

// The pthread keys that ranks' code creates (runtime/thread_specific_interposition.cpp): not
// the C library's, of which a process has 1,024 (PTHREAD_KEYS_MAX) and which every rank of
// the Python interpreter takes one or two of. Numbers from kFirst on, never reused.
class ThreadSpecificKeys {
public:
    static constexpr unsigned kFirst = 1u << 30;
    static bool is_ours(unsigned key) { return key >= kFirst; }
    unsigned create() {
        live_.push_back(true);
        return kFirst + static_cast<unsigned>(live_.size() - 1);
    }
    bool live(unsigned key) const { return is_ours(key) && key - kFirst < live_.size() && live_[key - kFirst]; }
    void remove(unsigned key) { live_[key - kFirst] = false; }

private:
    std::vector<bool> live_;
};

class LibcRankState {
public:
    static constexpr std::size_t kNone = ~std::size_t{0};

    // The record of local rank `index` of `ranks`.
    LibcState& of(std::size_t index, std::size_t ranks) {
        if (states_.empty()) states_.resize(ranks);
        std::unique_ptr<LibcState>& s = states_[index];
        if (!s) s = std::make_unique<LibcState>();
        return *s;
    }
    // The virtual time local rank `index` has spent in sleep, usleep and nanosleep (ps): its
    // CPU clocks leave it out. One dense array for all ranks, made at the first sleep (the
    // skeleton apps sleep on every rank: no record per rank for it).
    std::int64_t slept(std::size_t index) const { return index < slept_.size() ? slept_[index] : 0; }
    void add_sleep(std::size_t index, std::size_t ranks, std::int64_t duration) {
        if (slept_.empty()) slept_.resize(ranks);
        slept_[index] += duration;
    }
    // Calls local rank `index`'s exit handlers, last registered first (and those they
    // register meanwhile), as its own process's exit would; forgets them.
    void run_exit_handlers(std::size_t index) {
        if (index >= states_.size() || !states_[index]) return;
        std::vector<ExitHandler>& handlers = states_[index]->exit_handlers;
        while (!handlers.empty()) {
            const ExitHandler h = handlers.back();
            handlers.pop_back();
            h.function(h.arg);
        }
    }
    // Calls local rank `index`'s exit handlers registered with `dso_handle` (a library the rank
    // closes), last registered first, as __cxa_finalize does; forgets them. Returns how many ran.
    std::size_t run_exit_handlers_of(std::size_t index, const void* dso_handle) {
        if (index >= states_.size() || !states_[index] || !dso_handle) return 0;
        std::vector<ExitHandler>& handlers = states_[index]->exit_handlers;
        std::size_t ran = 0;
        for (std::size_t i = handlers.size(); i-- > 0;) {
            if (i >= handlers.size() || handlers[i].dso_handle != dso_handle) continue;
            const ExitHandler h = handlers[i];
            handlers.erase(handlers.begin() + static_cast<std::ptrdiff_t>(i));
            h.function(h.arg);  // may register more (appended: after `i`, not visited)
            ++ran;
        }
        return ran;
    }
    // The rank whose parse glibc's hidden getopt position belongs to.
    std::size_t getopt_owner = kNone;
    ThreadSpecificKeys keys;

private:
    std::vector<std::unique_ptr<LibcState>> states_;
    std::vector<std::int64_t> slept_;
};

// getopt's four globals (optind, opterr, optopt, optarg) where the C library and the program
// use them, and the loader's __libc_stack_end (a rank's points into its own stack):
// privatized with the program's globals, so each rank reads its own values.
std::vector<Segment> libc_private_segments();

}  // namespace xsim::runtime
