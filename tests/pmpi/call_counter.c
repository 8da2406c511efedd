/* A minimal PMPI tool, as mpiP or a user's wrapper library is: it defines MPI_X, counts the
 * call and forwards to PMPI_X. Its counters are plain globals, so under xsim every simulated
 * rank has its own (privatization), like a tool in a real MPI process. It reads the time
 * only through PMPI_Wtime. pmpi_counter_report() hands the counts to the test program. */
#include <mpi.h>
#include <string.h>

enum { kInit, kFinalize, kSend, kRecv, kIsend, kWait, kAllreduce, kBarrier, kWtime, kTypeCreateHvector, kCalls };
static const char* const kNames[kCalls] = {"MPI_Init", "MPI_Finalize", "MPI_Send", "MPI_Recv", "MPI_Isend",
                                           "MPI_Wait", "MPI_Allreduce", "MPI_Barrier", "MPI_Wtime",
                                           "MPI_Type_create_hvector"};
static long counts[kCalls];
static int rank_at_init = -1;      /* the rank PMPI_Comm_rank gave the tool */
static double time_at_init = -1;   /* PMPI_Wtime right after PMPI_Init */

int MPI_Init(int* argc, char*** argv) {
    ++counts[kInit];
    const int rc = PMPI_Init(argc, argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank_at_init);
    time_at_init = PMPI_Wtime();
    return rc;
}
int MPI_Finalize(void) {
    ++counts[kFinalize];
    return PMPI_Finalize();
}
int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    ++counts[kSend];
    return PMPI_Send(buf, count, type, dest, tag, comm);
}
int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
    ++counts[kRecv];
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}
int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* req) {
    ++counts[kIsend];
    return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}
int MPI_Wait(MPI_Request* req, MPI_Status* status) {
    ++counts[kWait];
    return PMPI_Wait(req, status);
}
int MPI_Allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
    ++counts[kAllreduce];
    return PMPI_Allreduce(in, out, count, type, op, comm);
}
int MPI_Barrier(MPI_Comm comm) {
    ++counts[kBarrier];
    return PMPI_Barrier(comm);
}
double MPI_Wtime(void) {
    ++counts[kWtime];
    return PMPI_Wtime();
}
int MPI_Type_create_hvector(int count, int length, MPI_Aint stride, MPI_Datatype old, MPI_Datatype* out) {
    ++counts[kTypeCreateHvector];
    return PMPI_Type_create_hvector(count, length, stride, old, out);
}

/* The count of the call named `name` (-1: not wrapped), and what the tool saw at MPI_Init. */
long pmpi_counter_report(const char* name, int* rank, double* init_time) {
    *rank = rank_at_init;
    *init_time = time_at_init;
    for (int i = 0; i < kCalls; ++i)
        if (strcmp(name, kNames[i]) == 0) return counts[i];
    return -1;
}
