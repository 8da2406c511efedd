#!/usr/bin/env bash
# Every Fortran entry point of Open MPI's libmpi_mpifh.so (each mangling: mpi_x_, mpi_x__,
# mpi_x, MPI_X, the pmpi_ forms, the mpix_ extensions and ompi_x_f, which the Fortran 2008
# bindings call) must be defined by libxsim.so, implemented or as a stub that stops the run;
# one left out would reach the real library and run unsimulated.
# usage: check_entry_points.sh NM LIBMPI_MPIFH LIBXSIM
set -u -o pipefail
[[ $# == 3 ]] || { sed -n '2,5p' "$0" >&2; exit 2; }
nm=$1 mpifh=$2 xsim=$3
names() { "$nm" -D --defined-only "$1" | awk '{ print $3 }' | grep -E '^p?mpix?_[a-z0-9_]+$|^P?MPIX?_[A-Z0-9_]+$|^ompix?_[a-z0-9_]+_f$' | sort -u; }
expected=$(names "$mpifh") || exit 2
[[ -n $expected ]] || { echo "check_entry_points: no entry points found in $mpifh" >&2; exit 2; }
missing=$(comm -23 <(echo "$expected") <(names "$xsim"))
if [[ -n $missing ]]; then
    echo "check_entry_points: libxsim.so lacks $(wc -l <<<"$missing") Fortran entry points of $mpifh:"
    head -20 <<<"$missing"
    exit 1
fi
echo "check_entry_points: all $(wc -l <<<"$expected") Fortran entry points of $mpifh are defined by libxsim.so"
