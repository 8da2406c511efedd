#pragma once
// Fortran I/O units per simulated rank (io_units.cpp).

namespace xsim {

// The options a Fortran main program gave libgfortran (_gfortran_set_options): whether a
// file may be connected to several units (Fortran 2018) decides how OPEN treats a file
// that other ranks of the process have open.
void note_gfortran_options(int count, const int options[]);

}  // namespace xsim
