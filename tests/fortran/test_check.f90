! The failure report of the Fortran test programs: a FAIL line naming the program, the check
! and the rank on standard error, then MPI_Abort (the harness sees both); and an error handler
! that notes what it was called with (for MPI_x_CREATE_ERRHANDLER: a communicator, window or
! file handle and the error code), in module variables: per rank, like every global.
module test_check
  implicit none
  integer :: handled_handle = -1, handled_code = -1
contains
  subroutine note_error(handle, code)
    integer :: handle, code
    handled_handle = handle
    handled_code = code
  end subroutine

  subroutine check(program_name, ok, what, rank)
    use mpi
    character(len=*), intent(in) :: program_name, what
    logical, intent(in) :: ok
    integer, intent(in) :: rank
    integer :: e
    if (ok) return
    write(0, '(A,A,A,A,A,I0)') 'FAIL ', program_name, ' ', what, ' on rank ', rank
    call MPI_Abort(MPI_COMM_WORLD, 1, e)
  end subroutine
end module test_check
