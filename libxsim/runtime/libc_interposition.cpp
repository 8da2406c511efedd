// Per-rank C library state. Called from a simulated rank's application code, getopt,
// getopt_long, getopt_long_only, strtok, rand, srand, random, srandom, initstate, setstate and
// the rand48 family (drand48, erand48, lrand48, nrand48, mrand48, jrand48, srand48, seed48,
// lcong48) keep their
// state per rank; called from anywhere else (xsim, the real MPI library, other threads) they
// are the C library's own functions. (Unseeded drand48 draws the same sequence on every rank
// of a native run; LLNL Quicksilver places its domains with it, and ranks sharing one state
// disagreed about the decomposition. MACSio keeps one state array per data stream and switches
// between them with initstate/setstate around random(): with the C library's one current state
// shared by the ranks of a process, a rank's random() drew from the state another rank set,
// and setstate saved its position into another rank's freed array, corrupting the heap.)
//
// getopt: glibc keeps its position inside an argument ("-abc") and its permutation bounds in
// a hidden static that only a restart (optind = 0) resets. A rank's first call starts a
// fresh parse; when another rank parsed in between, the rank's own calls so far are
// replayed silently (opterr = 0) to rebuild that hidden position, so interleaved parses
// give each rank exactly the options a lone parse would. The four globals themselves are
// privatized with the program's data (libc_private_segments), so each rank reads its own
// optind and optarg between calls.
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libxsim/engine/call_scope.hpp"
#include "libxsim/engine/engine.hpp"
#include "libxsim/runtime/next_function.hpp"
#include "libxsim/rank_state/libc_rank_state.hpp"

extern "C" void* __libc_stack_end;  // the loader's pointer into the process's stack

using namespace xsim;
using runtime::next_function;
using runtime::LibcState;

namespace xsim::runtime {

std::vector<Segment> libc_private_segments() {
    return {{reinterpret_cast<char*>(&optind), sizeof optind, "getopt's optind"},
            {reinterpret_cast<char*>(&opterr), sizeof opterr, "getopt's opterr"},
            {reinterpret_cast<char*>(&optopt), sizeof optopt, "getopt's optopt"},
            {reinterpret_cast<char*>(&optarg), sizeof optarg, "getopt's optarg"},
            // Each rank's points into its own stack (own_stack.hpp, set_rank_stack_end).
            {reinterpret_cast<char*>(&__libc_stack_end), sizeof __libc_stack_end, "the loader's __libc_stack_end"}};
}

}  // namespace xsim::runtime

namespace {

// The state of the simulated rank running application code, or null.
LibcState* rank_state() {
    const Rank* rank = application_rank();
    return rank ? &g_engine->libc_state_of(*rank) : nullptr;
}

enum class GetoptKind { Short, Long, LongOnly };

struct GetoptCall {
    GetoptKind kind;
    int argc;
    char* const* argv;
    const char* optstring;
    const struct option* longopts;
    int* longindex;

    int run() const {
        using Short = int (*)(int, char* const*, const char*);
        using Long = int (*)(int, char* const*, const char*, const struct option*, int*);
        static const Short real_getopt = next_function<Short>("getopt");
        static const Long real_long = next_function<Long>("getopt_long");
        static const Long real_long_only = next_function<Long>("getopt_long_only");
        switch (kind) {
        case GetoptKind::Short: return real_getopt(argc, argv, optstring);
        case GetoptKind::Long: return real_long(argc, argv, optstring, longopts, longindex);
        case GetoptKind::LongOnly: return real_long_only(argc, argv, optstring, longopts, longindex);
        }
        return -1;
    }
};

int per_rank_getopt(const GetoptCall& call) {
    LibcState* s = rank_state();
    if (!s) return call.run();
    runtime::LibcRankState& table = g_engine->libc_state();
    const std::size_t index = g_engine->local_index(*g_engine->current());
    if (table.getopt_owner != index) {
        // Without privatized globals the rank's optind and opterr are only in its record.
        if (!g_engine->privatization().active() && s->getopt_started) {
            optind = s->getopt_optind;
            opterr = s->getopt_opterr;
        }
        if (!s->getopt_started) {
            // A fresh parse, unless the rank itself moved optind past argv[1] (visible only
            // when optind is privatized; otherwise it is another rank's leftover).
            if (optind <= 1 || !g_engine->privatization().active()) optind = 0;
        } else if (optind == s->getopt_optind && optind != 0) {
            // Mid-parse: replay this rank's calls so far to rebuild glibc's hidden position.
            const int keep_opterr = opterr;
            const int calls = s->getopt_calls;
            optind = 0;
            opterr = 0;
            for (int i = 0; i < calls; ++i) call.run();
            opterr = keep_opterr;
            if (optind != s->getopt_optind) optind = s->getopt_optind;  // argv was permuted meanwhile
        }
        table.getopt_owner = index;
    }
    if (optind == 0) s->getopt_calls = 0;  // (re)start
    s->getopt_started = true;
    const int c = call.run();
    ++s->getopt_calls;
    s->getopt_optind = optind;
    s->getopt_opterr = opterr;
    return c;
}

struct random_data* rank_random(LibcState& s) {
    if (!s.random) {
        s.random = std::make_unique<runtime::RandomState>();
        // glibc's own generator starts as if seeded with 1.
        initstate_r(1, s.random->state, sizeof s.random->state, &s.random->data);
    }
    return &s.random->data;
}

// The rand48 generator of the rank running application code, or null.
struct drand48_data* rank_rand48() {
    LibcState* s = rank_state();
    if (!s) return nullptr;
    if (!s->rand48) s->rand48 = std::make_unique<struct drand48_data>();  // zeroed, as glibc's before first use
    return s->rand48.get();
}

// A draw of the rand48 family: the reentrant form on the rank's generator when a rank's code
// asks, else the C library's own function.
template <class Value, class OnRank, class Real>
Value draw48(OnRank on_rank, Real real_draw) {
    if (struct drand48_data* d = rank_rand48()) {
        Value value{};
        on_rank(d, &value);
        return value;
    }
    return real_draw();
}

}  // namespace

extern "C" {

int getopt(int argc, char* const* argv, const char* optstring) __THROW {
    return per_rank_getopt({GetoptKind::Short, argc, argv, optstring, nullptr, nullptr});
}

int getopt_long(int argc, char* const* argv, const char* optstring, const struct option* longopts,
                int* longindex) __THROW {
    return per_rank_getopt({GetoptKind::Long, argc, argv, optstring, longopts, longindex});
}

int getopt_long_only(int argc, char* const* argv, const char* optstring, const struct option* longopts,
                     int* longindex) __THROW {
    return per_rank_getopt({GetoptKind::LongOnly, argc, argv, optstring, longopts, longindex});
}

char* strtok(char* s, const char* delim) __THROW {
    if (LibcState* state = rank_state()) return strtok_r(s, delim, &state->strtok_save);
    static const auto f = next_function<char* (*)(char*, const char*)>("strtok");
    return f(s, delim);
}

int rand(void) __THROW {
    if (LibcState* state = rank_state()) {
        int32_t value = 0;
        random_r(rank_random(*state), &value);
        return value;
    }
    static const auto f = next_function<int (*)()>("rand");
    return f();
}

void srand(unsigned int seed) __THROW {
    if (LibcState* state = rank_state()) {
        srandom_r(seed, rank_random(*state));
        return;
    }
    static const auto f = next_function<void (*)(unsigned int)>("srand");
    f(seed);
}

long int random(void) __THROW {
    if (LibcState* state = rank_state()) {
        int32_t value = 0;
        random_r(rank_random(*state), &value);
        return value;
    }
    static const auto f = next_function<long int (*)()>("random");
    return f();
}

void srandom(unsigned int seed) __THROW {
    if (LibcState* state = rank_state()) {
        srandom_r(seed, rank_random(*state));
        return;
    }
    static const auto f = next_function<void (*)(unsigned int)>("srandom");
    f(seed);
}

// initstate and setstate switch the generator that rand and random draw from to the caller's
// state array, returning the previous one (a pointer to the word before the previous state, as
// glibc's, which a later setstate accepts); the rank's own generator, so another rank's
// random() is not affected.
char* initstate(unsigned int seed, char* state, size_t size) __THROW {
    if (LibcState* rank = rank_state()) {
        struct random_data* data = rank_random(*rank);
        char* previous = reinterpret_cast<char*>(data->state - 1);
        return initstate_r(seed, state, size, data) == -1 ? nullptr : previous;
    }
    static const auto f = next_function<char* (*)(unsigned int, char*, size_t)>("initstate");
    return f(seed, state, size);
}

char* setstate(char* state) __THROW {
    if (LibcState* rank = rank_state()) {
        struct random_data* data = rank_random(*rank);
        char* previous = reinterpret_cast<char*>(data->state - 1);
        return setstate_r(state, data) == -1 ? nullptr : previous;
    }
    static const auto f = next_function<char* (*)(char*)>("setstate");
    return f(state);
}

double drand48(void) __THROW {
    static const auto f = next_function<double (*)()>("drand48");
    return draw48<double>([](drand48_data* d, double* v) { drand48_r(d, v); }, [] { return f(); });
}

double erand48(unsigned short xsubi[3]) __THROW {
    static const auto f = next_function<double (*)(unsigned short*)>("erand48");
    return draw48<double>([=](drand48_data* d, double* v) { erand48_r(xsubi, d, v); }, [=] { return f(xsubi); });
}

long int lrand48(void) __THROW {
    static const auto f = next_function<long int (*)()>("lrand48");
    return draw48<long int>([](drand48_data* d, long int* v) { lrand48_r(d, v); }, [] { return f(); });
}

long int nrand48(unsigned short xsubi[3]) __THROW {
    static const auto f = next_function<long int (*)(unsigned short*)>("nrand48");
    return draw48<long int>([=](drand48_data* d, long int* v) { nrand48_r(xsubi, d, v); }, [=] { return f(xsubi); });
}

long int mrand48(void) __THROW {
    static const auto f = next_function<long int (*)()>("mrand48");
    return draw48<long int>([](drand48_data* d, long int* v) { mrand48_r(d, v); }, [] { return f(); });
}

long int jrand48(unsigned short xsubi[3]) __THROW {
    static const auto f = next_function<long int (*)(unsigned short*)>("jrand48");
    return draw48<long int>([=](drand48_data* d, long int* v) { jrand48_r(xsubi, d, v); }, [=] { return f(xsubi); });
}

void srand48(long int seed) __THROW {
    if (struct drand48_data* d = rank_rand48()) {
        srand48_r(seed, d);
        return;
    }
    static const auto f = next_function<void (*)(long int)>("srand48");
    f(seed);
}

unsigned short* seed48(unsigned short seed16v[3]) __THROW {
    if (struct drand48_data* d = rank_rand48()) {
        seed48_r(seed16v, d);
        return d->__old_x;  // what glibc returns: the previous state, kept in the generator
    }
    static const auto f = next_function<unsigned short* (*)(unsigned short*)>("seed48");
    return f(seed16v);
}

void lcong48(unsigned short param[7]) __THROW {
    if (struct drand48_data* d = rank_rand48()) {
        lcong48_r(param, d);
        return;
    }
    static const auto f = next_function<void (*)(unsigned short*)>("lcong48");
    f(param);
}

}  // extern "C"
