/* xsim.h: the optional xsim API for simulated MPI programs.
 * Nothing here is needed to run an MPI program under xsim; these calls let a program
 * (typically a skeleton / application model) talk to the simulator. Outside a simulation
 * (xsim not active) they do nothing and xsim_time() returns -1. */
#ifndef XSIM_H
#define XSIM_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the caller runs as a simulated rank, else 0. */
int xsim_active(void);
/* The calling rank's virtual time in seconds (as MPI_Wtime), or -1 outside a simulation. */
double xsim_time(void);
/* Modeled compute: advance the calling rank's clock by `seconds` of compute on the
 * simulated processor (OS noise of the processor model applies; speed scaling does not). */
void xsim_compute(double seconds);
/* Modeled compute of `flops` floating-point operations at the rank's processor rate. */
void xsim_compute_flops(double flops);

/* Named compute regions, for calibrating application models (see README, "Regions").
 * Enclose a compute phase (no MPI calls inside) with begin/end of the same name; regions
 * do not nest. With -xsim-regions-out FILE, xsim records the simulated time each region
 * took (mean over all calls of all ranks) and writes FILE; with -xsim-regions-in FILE,
 * xsim_region_end advances the rank's clock by the recorded mean instead of measuring.
 * An unknown name (replay), a nested or unbalanced call, or a bad name ends the run with
 * a message. Names: 1-128 printable characters, no space and no '#'. */
void xsim_region_begin(const char *name);
void xsim_region_end(const char *name);

/* MPI-4.0 calls that xsim implements for programs written against a newer MPI than the
 * one it runs on (Open MPI 4.1 lacks them). Declared when an older MPI's <mpi.h> was
 * included before this header; MPI-4.0 section 3.10.1. The request completes when both
 * the send and the receive have, and carries the receive's status. */
#if defined(MPI_VERSION) && MPI_VERSION < 4
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Request *request);
int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Request *request);
#endif

#ifdef __cplusplus
}
#endif

#endif /* XSIM_H */
