/* cxx_bindings: a C++ program built the usual way, with mpicxx and Open MPI's C++ bindings
 * (no OMPI_SKIP_MPICXX: libmpi_cxx and its static constructors, which call MPI_Initialized
 * before main, are linked in).
 * - A static constructor of the program itself (run by each rank before its main, as by each
 *   process natively) calls the functions the standard allows before MPI_Init: MPI_Initialized and
 *   MPI_Finalized (both false), MPI_Get_version, MPI_Get_library_version, MPI_Error_class
 *   and MPI_Error_string. Every rank then checks what it recorded.
 * - Each rank uses MPI:: bindings (Init, COMM_WORLD.Get_rank/Get_size, Allreduce, Bcast,
 *   Is_initialized, Finalize, Is_finalized) mixed with C calls, and checks the answers.
 * - A static destructor (when each rank ends) prints
 *   "STATIC_DTOR initialized <f> finalized <f>": both 1, the rank having finalized. */
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "xsim_test.h"

namespace {

struct BeforeMain {
    int initialized = -1, finalized = -1, version = 0, subversion = 0, class_of_comm = -1;
    int constructions = 0;
    char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    char comm_error[MPI_MAX_ERROR_STRING] = {};
    BeforeMain() {
        ++constructions;
        int len = 0;
        MPI_Initialized(&initialized);
        MPI_Finalized(&finalized);
        MPI_Get_version(&version, &subversion);
        MPI_Get_library_version(library, &len);
        MPI_Error_class(MPI_ERR_COMM, &class_of_comm);
        MPI_Error_string(MPI_ERR_COMM, comm_error, &len);
    }
    ~BeforeMain() {
        int i = -1, f = -1;
        MPI_Initialized(&i);
        MPI_Finalized(&f);
        std::printf("STATIC_DTOR initialized %d finalized %d\n", i, f);
        std::fflush(stdout);
    }
};
const BeforeMain before_main;

}  // namespace

int main(int argc, char** argv) {
    xt_t xt, *t = &xt;
    int flag = -1;
    MPI_Initialized(&flag);
    /* Checked after init, where failures can be reported. */
    const int initialized_before_init = flag;
    MPI::Init(argc, argv);
    t->name = "cxx_bindings";
    t->errors = 0;
    t->rank = MPI::COMM_WORLD.Get_rank();
    t->size = MPI::COMM_WORLD.Get_size();
    int c_rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &c_rank);
    XT_CHECK(t, c_rank == t->rank, "MPI::COMM_WORLD.Get_rank() %d, MPI_Comm_rank %d", t->rank, c_rank);
    const char* expect = std::getenv("XSIM_TEST_EXPECT_SIZE");
    if (expect && *expect) XT_CHECK(t, std::atoi(expect) == t->size, "size %d, expected %s", t->size, expect);

    XT_CHECK(t, before_main.constructions == 1, "static constructor ran %d times", before_main.constructions);
    XT_CHECK(t, before_main.initialized == 0, "MPI_Initialized before main gave %d", before_main.initialized);
    XT_CHECK(t, before_main.finalized == 0, "MPI_Finalized before main gave %d", before_main.finalized);
    XT_CHECK(t, before_main.version == MPI_VERSION && before_main.subversion == MPI_SUBVERSION,
             "MPI_Get_version before main gave %d.%d", before_main.version, before_main.subversion);
    XT_CHECK(t, std::strlen(before_main.library) > 0, "MPI_Get_library_version before main gave nothing");
    XT_CHECK(t, before_main.class_of_comm == MPI_ERR_COMM, "MPI_Error_class before main gave %d",
             before_main.class_of_comm);
    XT_CHECK(t, std::strstr(before_main.comm_error, "MPI_ERR_COMM") != nullptr,
             "MPI_Error_string before main gave '%s'", before_main.comm_error);
    XT_CHECK(t, initialized_before_init == 0, "MPI_Initialized in main before MPI::Init gave %d",
             initialized_before_init);
    XT_CHECK(t, MPI::Is_initialized(), "MPI::Is_initialized() is false after MPI::Init");
    XT_CHECK(t, !MPI::Is_finalized(), "MPI::Is_finalized() is true before MPI::Finalize");

    /* Sum of ranks, and a string broadcast from the last rank, through the C++ bindings. */
    int mine = t->rank, sum = 0;
    MPI::COMM_WORLD.Allreduce(&mine, &sum, 1, MPI::INT, MPI::SUM);
    XT_CHECK(t, sum == t->size * (t->size - 1) / 2, "Allreduce(SUM) gave %d", sum);
    char word[32] = {};
    if (t->rank == t->size - 1) std::snprintf(word, sizeof word, "from-%d", t->rank);
    MPI::COMM_WORLD.Bcast(word, sizeof word, MPI::CHAR, t->size - 1);
    XT_CHECK(t, std::string(word) == "from-" + std::to_string(t->size - 1), "Bcast gave '%s'", word);
    double local = 0.5 * t->rank, largest = -1;
    MPI_Allreduce(&local, &largest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    XT_CHECK(t, largest == 0.5 * (t->size - 1), "MPI_Allreduce(MAX) gave %g", largest);

    /* xt_finish tallies errors, prints PASS from rank 0 and calls MPI_Finalize. */
    const int code = xt_finish(t, nullptr);
    if (!MPI::Is_finalized()) {
        std::printf("FAIL cxx_bindings: rank %d: MPI::Is_finalized() is false after MPI_Finalize\n", t->rank);
        return 1;
    }
    return code;
}
