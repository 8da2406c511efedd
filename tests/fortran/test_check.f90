! The failure report of the Fortran test programs: a FAIL line naming the program, the check
! and the rank on standard error, then MPI_Abort (the harness sees both).
module test_check
  implicit none
contains
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
