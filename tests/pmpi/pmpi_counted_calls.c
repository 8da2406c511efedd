/* A PMPI tool layered over xsim (call_counter.c, linked before -lxsim or preloaded) sees
 * each simulated rank's own calls, gets simulated answers from PMPI_* (the simulated rank
 * from PMPI_Comm_rank, the virtual time from PMPI_Wtime), and sees only the application's
 * calls: MPI-1's MPI_Type_hvector, which xsim implements with MPI_Type_create_hvector,
 * does not show up as a call of the latter. */
#include <mpi.h>
#include <dlfcn.h>
#include <stdio.h>

#include "xsim.h"

/* The MPI-1 name Open MPI 4.1's mpi.h hides (libxsim still defines it). */
#undef MPI_Type_hvector
int MPI_Type_hvector(int count, int length, MPI_Aint stride, MPI_Datatype old, MPI_Datatype* out);

typedef long (*Report)(const char* name, int* rank, double* init_time);

static int failures = 0;
static void expect_count(Report report, int rank, const char* name, long expected) {
    int tool_rank;
    double init_time;
    const long got = report(name, &tool_rank, &init_time);
    if (got != expected) {
        printf("FAIL rank %d: the tool counted %ld calls of %s, expected %ld\n", rank, got, name, expected);
        ++failures;
    }
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Report report = (Report)dlsym(RTLD_DEFAULT, "pmpi_counter_report");
    if (!report) {
        printf("FAIL rank %d: the PMPI tool (call_counter) is not loaded\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    const int rounds = 3;
    for (int i = 0; i < rounds; ++i) {  /* a ring: Isend right, Recv from the left, Wait */
        int out = rank * 100 + i, in = -1;
        MPI_Request req;
        MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, i, MPI_COMM_WORLD, &req);
        MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (in != ((rank + size - 1) % size) * 100 + i) {
            printf("FAIL rank %d: ring round %d received %d\n", rank, i, in);
            ++failures;
        }
    }
    const int sends = rank % 2 == 0 && rank + 1 < size, receives = rank % 2 == 1;
    int pair = rank;
    if (sends) MPI_Send(&pair, 1, MPI_INT, rank + 1, 9, MPI_COMM_WORLD);
    if (receives) MPI_Recv(&pair, 1, MPI_INT, rank - 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long sum = 0, mine = rank;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (sum != (long)size * (size - 1) / 2) {
        printf("FAIL rank %d: allreduce gave %ld\n", rank, sum);
        ++failures;
    }
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Datatype a, b;
    MPI_Type_create_hvector(2, 1, 16, MPI_INT, &a);
    MPI_Type_hvector(2, 1, 16, MPI_INT, &b);  /* xsim's implementation, not a user call */
    PMPI_Type_free(&a);
    PMPI_Type_free(&b);

    /* The tool's MPI_Wtime is PMPI_Wtime: the rank's virtual clock, not the host's. */
    const double before = xsim_time();
    const double via_tool = MPI_Wtime();
    const double after = xsim_time();
    if (!(before <= via_tool && via_tool <= after)) {
        printf("FAIL rank %d: MPI_Wtime through the tool gave %.9f, the virtual clock read %.9f then %.9f\n", rank,
               via_tool, before, after);
        ++failures;
    }
    int tool_rank;
    double init_time;
    report("MPI_Init", &tool_rank, &init_time);
    if (tool_rank != rank) {
        printf("FAIL rank %d: PMPI_Comm_rank told the tool it is rank %d\n", rank, tool_rank);
        ++failures;
    }
    if (!(init_time >= 0 && init_time <= via_tool)) {
        printf("FAIL rank %d: PMPI_Wtime at MPI_Init gave %.9f, not a virtual time in [0, %.9f]\n", rank, init_time,
               via_tool);
        ++failures;
    }

    expect_count(report, rank, "MPI_Init", 1);
    expect_count(report, rank, "MPI_Finalize", 0);
    expect_count(report, rank, "MPI_Isend", rounds);
    expect_count(report, rank, "MPI_Wait", rounds);
    expect_count(report, rank, "MPI_Recv", rounds + receives);
    expect_count(report, rank, "MPI_Send", sends);
    expect_count(report, rank, "MPI_Allreduce", 1);
    expect_count(report, rank, "MPI_Barrier", 1);
    expect_count(report, rank, "MPI_Wtime", 1);
    expect_count(report, rank, "MPI_Type_create_hvector", 1);

    /* PMPI_Allreduce: the verdict is not one of the counted calls. */
    int all = 0;
    PMPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && all == 0) printf("PASS pmpi_counted_calls (%d ranks)\n", size);
    MPI_Finalize();
    return all == 0 ? 0 : 1;
}
