// Fortran completion calls on arrays of requests: statuses are MPI_STATUS_SIZE columns
// (or MPI_STATUSES_IGNORE), indices are 1-based, and each INTEGER request is updated
// (MPI_REQUEST_NULL once completed, unchanged if persistent or still pending).
#include <mpi.h>

#include <vector>

#include "libxsim/fortran/aliases.hpp"
#include "libxsim/fortran/convert.hpp"

using namespace xsim::fortran;

namespace {

// The C side of one call: its requests and, unless ignored, room for `count` statuses.
struct Completion {
    Completion(const MPI_Fint* requests, MPI_Fint count, MPI_Fint* statuses)
        : n(count > 0 ? count : 0), c(requests_f2c(requests, n)), f_statuses(statuses),
          statuses(!statuses || is_statuses_ignore(statuses) ? 0 : static_cast<std::size_t>(n)) {}

    MPI_Status* c_statuses() { return f_statuses && !is_statuses_ignore(f_statuses) ? statuses.data() : MPI_STATUSES_IGNORE; }

    // Writes back every request, and statuses [0, how_many) to the given Fortran columns.
    void finish(MPI_Fint* requests, int how_many) {
        for (int i = 0; i < n; ++i) requests[i] = request_update(requests[i], c[static_cast<std::size_t>(i)]);
        if (statuses.empty()) return;
        for (int i = 0; i < how_many; ++i)
            store_status(f_statuses + static_cast<std::ptrdiff_t>(i) * kStatusSize, statuses[static_cast<std::size_t>(i)]);
    }

    int n;
    std::vector<MPI_Request> c;
    MPI_Fint* f_statuses;
    std::vector<MPI_Status> statuses;
};

MPI_Fint fortran_index(int c_index) { return c_index == MPI_UNDEFINED ? MPI_UNDEFINED : c_index + 1; }

}  // namespace

extern "C" {

void mpi_waitall_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* statuses, MPI_Fint* ierror) {
    Completion call(requests, *count, statuses);
    *ierror = PMPI_Waitall(call.n, call.c.data(), call.c_statuses());
    call.finish(requests, call.n);
}

void mpi_testall_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* flag, MPI_Fint* statuses, MPI_Fint* ierror) {
    Completion call(requests, *count, statuses);
    int done = 0;
    *ierror = PMPI_Testall(call.n, call.c.data(), &done, call.c_statuses());
    *flag = logical(done);
    call.finish(requests, done ? call.n : 0);
}

void mpi_waitany_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* status, MPI_Fint* ierror) {
    Completion call(requests, *count, nullptr);
    MPI_Status s = initial_status(status);
    int i = MPI_UNDEFINED;
    *ierror = PMPI_Waitany(call.n, call.c.data(), &i, status_arg(status, &s));
    call.finish(requests, 0);
    *index = fortran_index(i);
    store_status(status, s);
}

void mpi_testany_(const MPI_Fint* count, MPI_Fint* requests, MPI_Fint* index, MPI_Fint* flag, MPI_Fint* status,
                  MPI_Fint* ierror) {
    Completion call(requests, *count, nullptr);
    MPI_Status s = initial_status(status);
    int i = MPI_UNDEFINED, done = 0;
    *ierror = PMPI_Testany(call.n, call.c.data(), &i, &done, status_arg(status, &s));
    call.finish(requests, 0);
    *index = fortran_index(i);
    *flag = logical(done);
    if (done) store_status(status, s);
}

void mpi_waitsome_(const MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierror) {
    Completion call(requests, *incount, statuses);
    int out = MPI_UNDEFINED;
    *ierror = PMPI_Waitsome(call.n, call.c.data(), &out, indices, call.c_statuses());
    call.finish(requests, out == MPI_UNDEFINED ? 0 : out);
    for (int i = 0; out != MPI_UNDEFINED && i < out; ++i) ++indices[i];
    *outcount = out;
}

void mpi_testsome_(const MPI_Fint* incount, MPI_Fint* requests, MPI_Fint* outcount, MPI_Fint* indices,
                   MPI_Fint* statuses, MPI_Fint* ierror) {
    Completion call(requests, *incount, statuses);
    int out = MPI_UNDEFINED;
    *ierror = PMPI_Testsome(call.n, call.c.data(), &out, indices, call.c_statuses());
    call.finish(requests, out == MPI_UNDEFINED ? 0 : out);
    for (int i = 0; out != MPI_UNDEFINED && i < out; ++i) ++indices[i];
    *outcount = out;
}

}  // extern "C"

XSIM_FORTRAN_ALIASES(waitall, WAITALL)
XSIM_FORTRAN_ALIASES(testall, TESTALL)
XSIM_FORTRAN_ALIASES(waitany, WAITANY)
XSIM_FORTRAN_ALIASES(testany, TESTANY)
XSIM_FORTRAN_ALIASES(waitsome, WAITSOME)
XSIM_FORTRAN_ALIASES(testsome, TESTSOME)
