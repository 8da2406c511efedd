/* own_names_plugin: a C library built on MPI whose own functions are named like Fortran MPI
 * entry points in their no-underscore mangling (mpi_comm_rank, mpi_send, ...), as Rmpi names
 * the C routines R calls (its routine table holds their addresses). Natively they are its own:
 * libmpi exports no such names. See own_names.c. */
#include <mpi.h>

int mpi_comm_rank(int comm) { return 1000 + comm; }
int mpi_send(int value) { return 2000 + value; }
int pmpi_barrier(int value) { return 3000 + value; }

/* A routine table, as R_registerRoutines takes: data words relocated to the functions. */
struct routine {
    const char *name;
    int (*function)(int);
};
const struct routine plugin_routines[] = {
    {"mpi_comm_rank", mpi_comm_rank}, {"mpi_send", mpi_send}, {"pmpi_barrier", pmpi_barrier}, {0, 0}};

/* Calls through the library's own PLT/GOT, and its real MPI use (it is built on MPI). */
int plugin_call(int which, int value)
{
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (which == 0) return mpi_comm_rank(value);
    if (which == 1) return mpi_send(value);
    if (which == 2) return pmpi_barrier(value);
    return rank;
}
