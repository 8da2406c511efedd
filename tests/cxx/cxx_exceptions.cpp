/* cxx_exceptions: C++ in simulated ranks. Run with many ranks per real process.
 * - Per-rank std::vector, std::map and std::string built before a barrier (every other
 *   rank of the process runs meanwhile) are intact after it.
 * - Exceptions thrown and caught inside a rank while it calls MPI inside the catch block
 *   (so the other ranks throw and catch their own in between): the caught object, `throw;`,
 *   std::current_exception and a nested try/catch see this rank's exception; a destructor
 *   that calls MPI during unwinding sees std::uncaught_exceptions() == 1 before and after.
 *   Even and odd ranks take different paths, so catch blocks of different depths interleave.
 * - Every rank's answers are summed and checked against their closed form. */
#include <mpi.h>

#include <exception>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "xsim_test.h"

namespace {

struct RankError : std::runtime_error {
    explicit RankError(int rank) : std::runtime_error("error of rank " + std::to_string(rank)), rank(rank) {}
    int rank;
};

std::string expected_text(int rank) { return "error of rank " + std::to_string(rank); }

void containers(xt_t* t) {
    std::vector<int> v(static_cast<size_t>(t->rank % 17 + 1), t->rank);
    std::map<int, std::string> m;
    for (int k = 0; k < 5; ++k) m[t->rank * 10 + k] = "rank" + std::to_string(t->rank) + "-" + std::to_string(k);
    std::string s(static_cast<size_t>(t->rank % 7 + 40), static_cast<char>('a' + t->rank % 26));
    MPI_Barrier(MPI_COMM_WORLD);
    XT_CHECK(t, v.size() == static_cast<size_t>(t->rank % 17 + 1), "vector has %zu elements", v.size());
    for (int x : v) XT_CHECK(t, x == t->rank, "vector element %d", x);
    XT_CHECK(t, m.size() == 5 && m.begin()->first == t->rank * 10, "map changed");
    for (const auto& [key, value] : m)
        XT_CHECK(t, value == "rank" + std::to_string(t->rank) + "-" + std::to_string(key - t->rank * 10),
                 "map[%d] = '%s'", key, value.c_str());
    XT_CHECK(t, s == std::string(static_cast<size_t>(t->rank % 7 + 40), static_cast<char>('a' + t->rank % 26)),
             "string changed to '%s'", s.c_str());
}

// Calls a collective from its destructor: during unwinding on every rank.
struct BarrierOnUnwind {
    xt_t* t;
    ~BarrierOnUnwind() {
        const int before = std::uncaught_exceptions();
        MPI_Barrier(MPI_COMM_WORLD);
        const int after = std::uncaught_exceptions();
        XT_CHECK(t, before == 1 && after == 1, "uncaught_exceptions() %d before MPI_Barrier, %d after", before, after);
    }
};

// Returns what this rank observed, summed by the caller: rank + 1 per correct observation.
long exceptions(xt_t* t) {
    long seen = 0;
    try {
        BarrierOnUnwind guard{t};
        throw RankError(t->rank);
    } catch (const RankError& e) {
        MPI_Barrier(MPI_COMM_WORLD);  // the other ranks throw, catch and switch meanwhile
        XT_CHECK(t, e.rank == t->rank && e.what() == expected_text(t->rank), "caught '%s'", e.what());
        std::exception_ptr current = std::current_exception();
        if (t->rank % 2 == 0) {
            // Even ranks: a nested exception handled across an MPI call, then the outer one again.
            try {
                throw 1000 + t->rank;
            } catch (int inner) {
                int sum = 0;
                MPI_Allreduce(&inner, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
                XT_CHECK(t, inner == 1000 + t->rank, "nested catch got %d", inner);
                seen += sum;
            }
        } else {
            int sum = 0, one = 1;
            MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);  // matches the even ranks'
            seen += sum;
        }
        try {
            throw;  // rethrows this rank's exception, whatever the other ranks caught meanwhile
        } catch (const RankError& again) {
            XT_CHECK(t, again.rank == t->rank, "throw; rethrew rank %d's exception", again.rank);
            if (again.rank == t->rank) seen += t->rank + 1;
        }
        try {
            std::rethrow_exception(current);
        } catch (const RankError& again) {
            XT_CHECK(t, again.rank == t->rank, "current_exception held rank %d's exception", again.rank);
            if (again.rank == t->rank) seen += t->rank + 1;
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    XT_CHECK(t, std::uncaught_exceptions() == 0 && !std::current_exception(), "an exception is still active");
    return seen;
}

}  // namespace

int main(int argc, char** argv) {
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "cxx_exceptions");
    containers(t);
    long mine = exceptions(t), total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    // Per rank: 2 (rank + 1) for the rethrows, plus the Allreduce's result: even ranks
    // sum 1000 + r over even r and add 1 per odd rank, odd ranks both reduce the same.
    const long p = t->size, evens = (p + 1) / 2, odds = p / 2;
    const long allreduce = 1000 * evens + 2 * (evens * (evens - 1) / 2) + odds;
    const long want = 2 * (p * (p + 1) / 2) + p * allreduce;
    XT_CHECK(t, total == want, "answers sum to %ld, expected %ld", total, want);
    if (t->rank == 0) std::printf("ANSWER %ld\n", total);
    return xt_finish(t, nullptr);
}
