// The MPI profiling interface (MPI-4.1 section 15.2): every binding is defined under its
// PMPI_ name, and the MPI_ name is a weak alias of it, as MPI libraries do. A tool (mpiP,
// Score-P, Caliper, a user's wrapper linked before -lxsim or preloaded) defines MPI_X, does
// its work and calls PMPI_X, which is the simulation. Bindings that call one another use the
// PMPI_ names, so a tool sees only the application's calls.
//
//   XSIM_MPI_ALIAS(Send)
//   int PMPI_Send(const void* buf, ...) { ... }
#pragma once

#define XSIM_MPI_ALIAS_PRAGMA(text) _Pragma(#text)
#define XSIM_MPI_ALIAS(name) XSIM_MPI_ALIAS_PRAGMA(weak MPI_##name = PMPI_##name)
// Open MPI's extensions (MPIX_X, profiled as PMPIX_X: <mpi-ext.h>).
#define XSIM_MPIX_ALIAS(name) XSIM_MPI_ALIAS_PRAGMA(weak MPIX_##name = PMPIX_##name)
