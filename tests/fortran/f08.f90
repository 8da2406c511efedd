! A `use mpi_f08` program: xsim has no Fortran 2008 bindings and must refuse it at start.
program f08
  use mpi_f08
  implicit none
  call MPI_Init()
  print '(A)', 'PASS f08'
  call MPI_Finalize()
end program
