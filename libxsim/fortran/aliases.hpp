// The other names of a hand-written Fortran entry point mpi_<lower>_: every gfortran
// mangling (mpi_x__, mpi_x, MPI_X), the profiling forms (pmpi_...) and ompi_x_f, which the
// Fortran 2008 bindings call, as the generated ones have (generate_bindings.py). The
// hand-written calls take no CHARACTER argument, so ompi_x_f needs no other signature.
#pragma once

#define XSIM_FORTRAN_ALIAS(target, name) extern "C" decltype(target) name __attribute__((alias(#target)));
#define XSIM_FORTRAN_ALIASES(lower, UPPER)                \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, mpi_##lower##__)   \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, mpi_##lower)       \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, MPI_##UPPER)       \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, pmpi_##lower##_)   \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, pmpi_##lower##__)  \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, pmpi_##lower)      \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, PMPI_##UPPER)      \
    XSIM_FORTRAN_ALIAS(mpi_##lower##_, ompi_##lower##_f)

// The same for a hand-written entry point of Open MPI's MPIX_ extension, mpix_<lower>_.
#define XSIM_FORTRAN_X_ALIASES(lower, UPPER)                \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, mpix_##lower##__)   \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, mpix_##lower)       \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, MPIX_##UPPER)       \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, pmpix_##lower##_)   \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, pmpix_##lower##__)  \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, pmpix_##lower)      \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, PMPIX_##UPPER)      \
    XSIM_FORTRAN_ALIAS(mpix_##lower##_, ompix_##lower##_f)
