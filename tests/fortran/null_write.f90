! null_write: rank 1 writes through a null pointer. gfortran's runtime asks for its own
! SIGSEGV handler (its backtrace, on by default), which would end the process by the signal
! without xsim's report: xsim keeps its own, which names the rank and writes the run report.
program null_write
  use mpi
  implicit none
  integer :: ierr, rank
  integer, pointer :: nowhere => null()
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 1) nowhere = 1
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  print '(a)', 'FAIL null_write: rank passed the barrier'
  call MPI_Finalize(ierr)
end program null_write
