! A Fortran rank that overflows its stack must be reported as a stack overflow naming the
! rank, although gfortran's runtime installs its own SIGSEGV handler (-fbacktrace).
program stack_overflow
  implicit none
  include 'mpif.h'
  integer :: ierr, rank
  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  if (rank == 1) print *, deep(1)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A)', 'PASS stack_overflow_f'
  call MPI_FINALIZE(ierr)
contains
  ! About 4 KB of locals per level, 100,000 levels: far beyond any stack xsim gives a rank.
  recursive integer function deep(n) result(r)
    integer, intent(in) :: n
    integer :: pad(1000)
    pad = n
    if (n > 100000) then
      r = sum(pad)
    else
      r = deep(n + 1) + pad(7)
    end if
  end function
end program
