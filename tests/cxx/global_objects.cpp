/* global_objects: C++ globals whose constructors allocate (a std::vector with contents, a
 * std::string longer than its inline buffer, a std::map), each rank then growing them with
 * its own values. Each rank constructs its own copy, as each process does natively: built
 * once and copied to the ranks, every rank's copy would point at one heap buffer, freed by
 * the first rank to grow it (and again by every rank's destructor: a double free). The same
 * for the globals of a shared library of the program's (global_objects_library.cpp), whose
 * constructors the loader has run once for the real process before xsim starts. */
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

// global_objects_library.cpp
int library_constructions();
void library_set_rank(int rank);
int library_rank();
long library_table_sum();
int library_name_of_rank();

int main(int argc, char** argv) {
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "global_objects");
    XT_CHECK(t, g_constructions == 1, "this rank's globals were constructed %d times", g_constructions);
    XT_CHECK(t, g_table.size() == 3 && g_index.size() == 2, "the globals start with %zu and %zu entries",
             g_table.size(), g_index.size());
    XT_CHECK(t, library_constructions() == 1, "this rank's library globals were constructed %d times",
             library_constructions());
    XT_CHECK(t, library_rank() == -1 && library_table_sum() == 15, "the library's globals start at %d and %ld",
             library_rank(), library_table_sum());
    library_set_rank(t->rank);
    for (int i = 0; i < 100; ++i) g_table.push_back(t->rank);  // reallocates: frees the constructed buffer
    g_name += " of rank " + std::to_string(t->rank);
    g_index[t->rank + 2] = std::to_string(t->rank);
    MPI_Barrier(MPI_COMM_WORLD);  // every rank has grown its globals
    XT_CHECK(t, library_rank() == t->rank, "the library holds rank number %d", library_rank());
    XT_CHECK(t, library_table_sum() == 15 + 50L * t->rank && library_name_of_rank() == t->rank,
             "the library's table sums to %ld, its name of the rank is %d", library_table_sum(), library_name_of_rank());
    long sum = 0;
    for (int v : g_table) sum += v;
    XT_CHECK(t, sum == 6 + 100L * t->rank, "the table sums to %ld, expected %ld", sum, 6 + 100L * t->rank);
    XT_CHECK(t, g_name == "a name longer than the string's inline buffer of rank " + std::to_string(t->rank),
             "the name is '%s'", g_name.c_str());
    XT_CHECK(t, g_index.size() == 3 && g_index.at(t->rank + 2) == std::to_string(t->rank),
             "the index has %zu entries", g_index.size());
    return xt_finish(t, nullptr);
}
