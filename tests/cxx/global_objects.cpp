/* global_objects: C++ globals whose constructors allocate (a std::vector with contents, a
 * std::string longer than its inline buffer, a std::map), each rank then growing them with
 * its own values. Each rank constructs its own copy, as each process does natively: built
 * once and copied to the ranks, every rank's copy would point at one heap buffer, freed by
 * the first rank to grow it (and again by every rank's destructor: a double free). */
#include <mpi.h>

#include <map>
#include <string>
#include <vector>

#include "xsim_test.h"

std::vector<int> g_table = {1, 2, 3};
std::string g_name = "a name longer than the string's inline buffer";
std::map<int, std::string> g_index = {{0, "zero"}, {1, "one"}};
int g_constructions = 0;
struct Counted {
    Counted() { ++g_constructions; }
} g_counted;

int main(int argc, char** argv) {
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "global_objects");
    XT_CHECK(t, g_constructions == 1, "this rank's globals were constructed %d times", g_constructions);
    XT_CHECK(t, g_table.size() == 3 && g_index.size() == 2, "the globals start with %zu and %zu entries",
             g_table.size(), g_index.size());
    for (int i = 0; i < 100; ++i) g_table.push_back(t->rank);  // reallocates: frees the constructed buffer
    g_name += " of rank " + std::to_string(t->rank);
    g_index[t->rank + 2] = std::to_string(t->rank);
    MPI_Barrier(MPI_COMM_WORLD);  // every rank has grown its globals
    long sum = 0;
    for (int v : g_table) sum += v;
    XT_CHECK(t, sum == 6 + 100L * t->rank, "the table sums to %ld, expected %ld", sum, 6 + 100L * t->rank);
    XT_CHECK(t, g_name == "a name longer than the string's inline buffer of rank " + std::to_string(t->rank),
             "the name is '%s'", g_name.c_str());
    XT_CHECK(t, g_index.size() == 3 && g_index.at(t->rank + 2) == std::to_string(t->rank),
             "the index has %zu entries", g_index.size());
    return xt_finish(t, nullptr);
}
