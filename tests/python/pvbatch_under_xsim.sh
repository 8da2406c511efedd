#!/usr/bin/env bash
# ParaView's pvbatch as a user starts it under xsim: libxsim preloaded (pvbatch is linked
# against Open MPI, not relinked). The program of the end-to-end harness
# (../run_mpi_case.sh), which passes the -xsim- options first and the script after.
# usage: XSIM_TEST_PVBATCH=<pvbatch> XSIM_TEST_LIBXSIM=<libxsim.so> pvbatch_under_xsim.sh [arguments...]
LD_PRELOAD=$XSIM_TEST_LIBXSIM exec "$XSIM_TEST_PVBATCH" "$@"
