/* global_objects_library: a shared library of the program's whose globals' constructors
 * allocate, as OpenFOAM's libOpenFOAM.so keeps the rank's number in a DynamicList its
 * constructor allocates (UPstream::myProcNo_). The loader constructs them once for the real
 * process; each rank must construct its own (as each process does natively), or every rank's
 * copy points at one heap buffer: every rank would read the number the last rank stored. */
#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace {

struct RankNumber {  // the number lives in a heap buffer the constructor allocates
    std::vector<int>* slot = new std::vector<int>(1, -1);
    ~RankNumber() {
        if ((*slot)[0] >= 0) std::printf("LIB_DTOR rank %d ok\n", (*slot)[0]);
        delete slot;
    }
};

int g_constructions = 0;
struct Counted {
    Counted() { ++g_constructions; }
} g_counted;
RankNumber g_rank_number;
std::vector<int> g_table = {4, 5, 6};
std::map<std::string, int> g_names = {{"four", 4}};

}  // namespace

int library_constructions() { return g_constructions; }
void library_set_rank(int rank) {
    (*g_rank_number.slot)[0] = rank;
    for (int i = 0; i < 50; ++i) g_table.push_back(rank);  // reallocates the constructed buffer
    g_names["rank"] = rank;
}
int library_rank() { return (*g_rank_number.slot)[0]; }
long library_table_sum() {
    long sum = 0;
    for (int v : g_table) sum += v;
    return sum;
}
int library_name_of_rank() { return g_names.size() == 2 ? g_names.at("rank") : -1; }
