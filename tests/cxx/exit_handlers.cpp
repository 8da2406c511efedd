/* exit_handlers: what a rank's code registers to run at exit runs once per rank, on that
 * rank's globals, as once per process natively (LLNL Quicksilver: the destructor of a
 * function-local `static std::vector` ran once per rank on one vector, a double free).
 * Uses globals on purpose (per-rank globals are xsim's default).
 * - A function-local static object, constructed by each rank on first use, holds a vector
 *   filled with the rank's number; its destructor checks the vector and the order below.
 * - atexit(cleanup), registered after that construction (so it runs first, as exit runs
 *   handlers last registered first), checks a malloc'd buffer of the rank's, frees it.
 * Each rank's destructor prints "EXIT rank <r> ok" after MPI_Finalize (any mismatch a FAIL
 * line); the harness expects the line of the first and of the last rank. */
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "xsim_test.h"

namespace {

int g_rank = -1;
int* g_buffer = nullptr;
int g_cleanups = 0;  // cleanup() calls this rank has seen

struct RankTable {
    std::vector<int> values;
    RankTable() : values(1000, g_rank) {}
    ~RankTable() {
        bool same = g_cleanups == 1;
        for (int v : values) same = same && v == g_rank;
        if (same) std::printf("EXIT rank %d ok\n", g_rank);
        else std::printf("FAIL exit_handlers: rank %d's static destructor saw %zu values (first %d), %d cleanups\n",
                         g_rank, values.size(), values.empty() ? -1 : values.front(), g_cleanups);
        std::fflush(stdout);
    }
};

const RankTable& table() {
    static RankTable t;  // constructed by each rank on first use: its destructor is the rank's
    return t;
}

void cleanup() {
    ++g_cleanups;
    bool same = g_buffer != nullptr;
    for (int i = 0; same && i < 64; ++i) same = g_buffer[i] == g_rank;
    if (!same) std::printf("FAIL exit_handlers: rank %d's atexit cleanup saw buffer %p\n", g_rank, (void*)g_buffer);
    std::free(g_buffer);
    g_buffer = nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "exit_handlers");
    g_rank = t->rank;
    XT_CHECK(t, table().values.front() == t->rank, "the function-local static holds %d", table().values.front());
    g_buffer = static_cast<int*>(std::malloc(64 * sizeof(int)));
    for (int i = 0; i < 64; ++i) g_buffer[i] = t->rank;
    XT_CHECK(t, std::atexit(cleanup) == 0, "atexit failed");
    MPI_Barrier(MPI_COMM_WORLD);  // every rank has registered before any ends
    return xt_finish(t, nullptr);
}
