! One-sided communication from Fortran (`use mpi`): MPI_WIN_CREATE over an array, puts around
! a ring in a fence epoch, MPI_WIN_ALLOCATE (BASEPTR through C_F_POINTER), MPI_WIN_GET_ATTR's
! INTEGER values, a get and an accumulate under locks, MPI_FETCH_AND_OP tickets under
! MPI_WIN_LOCK_ALL, MPI_RGET with MPI_WAIT, an error handler written in Fortran
! (MPI_WIN_CREATE_ERRHANDLER: called with the window and the code of a lock of a rank that does
! not exist), MPI_WIN_FREE giving MPI_WIN_NULL, and window attributes of a keyval made by
! MPI_WIN_CREATE_KEYVAL with a Fortran delete callback (MPICH's f90/rma/winattrf90: the calls
! were stubs), whose values MPI_WIN_GET_ATTR returns as set.
module rma_attributes
  implicit none
  integer :: deleted = 0  ! per rank, like every global
contains
  subroutine count_delete(win, keyval, value, extra, ierror)
    use mpi
    integer :: win, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: value, extra
    deleted = deleted + int(value) + int(extra)
    ierror = MPI_SUCCESS
  end subroutine
end module rma_attributes

program rma
  use mpi
  use rma_attributes
  use, intrinsic :: iso_c_binding
  use test_check
  implicit none
  integer :: rank, nranks, ierr, win, win2, next, prev, request, handler, error_class
  logical :: flag
  integer, asynchronous :: slots(4)
  integer :: got
  integer(kind=MPI_ADDRESS_KIND) :: disp, attr, bytes, baseptr
  integer, pointer, asynchronous :: mem(:)
  integer :: one, ticket, tickets, keyval

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, nranks, ierr)
  next = mod(rank + 1, nranks)
  prev = mod(rank + nranks - 1, nranks)

  ! A ring of puts in a fence epoch.
  slots = -1
  bytes = 4 * 4
  call MPI_WIN_CREATE(slots, bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call check('rma', ierr == MPI_SUCCESS, 'MPI_WIN_CREATE', rank)
  call MPI_WIN_FENCE(0, win, ierr)
  disp = 1
  call MPI_PUT(rank, 1, MPI_INTEGER, next, disp, 1, MPI_INTEGER, win, ierr)
  call MPI_WIN_FENCE(0, win, ierr)
  call MPI_F_SYNC_REG(slots)
  call check('rma', slots(2) == prev, 'put in a fence epoch', rank)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, attr, flag, ierr)
  call check('rma', flag .and. attr == 16, 'MPI_WIN_SIZE is 16', rank)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, attr, flag, ierr)
  call check('rma', attr == 4, 'MPI_WIN_DISP_UNIT is 4', rank)
  call MPI_WIN_FREE(win, ierr)
  call check('rma', win == MPI_WIN_NULL, 'MPI_WIN_FREE gives MPI_WIN_NULL', rank)

  ! Memory of MPI_WIN_ALLOCATE, reached through BASEPTR.
  bytes = 4 * 2
  call MPI_WIN_ALLOCATE(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, baseptr, win2, ierr)
  call c_f_pointer(transfer(baseptr, c_null_ptr), mem, [2])
  mem = [1000 + rank, 0]
  call MPI_WIN_GET_ATTR(win2, MPI_WIN_CREATE_FLAVOR, attr, flag, ierr)
  call check('rma', attr == MPI_WIN_FLAVOR_ALLOCATE, 'MPI_WIN_CREATE_FLAVOR', rank)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  disp = 0
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, next, 0, win2, ierr)
  call MPI_GET(got, 1, MPI_INTEGER, next, disp, 1, MPI_INTEGER, win2, ierr)
  call MPI_WIN_UNLOCK(next, win2, ierr)
  call check('rma', got == 1000 + next, 'get under a shared lock', rank)
  ! Tickets: everyone adds 1 to rank 0's second slot, each getting a distinct old value.
  one = 1
  disp = 1
  call MPI_WIN_LOCK_ALL(0, win2, ierr)
  call MPI_FETCH_AND_OP(one, ticket, MPI_INTEGER, 0, disp, MPI_SUM, win2, ierr)
  call MPI_WIN_FLUSH_ALL(win2, ierr)
  call MPI_RGET(got, 1, MPI_INTEGER, prev, 0_MPI_ADDRESS_KIND, 1, MPI_INTEGER, win2, request, ierr)
  call MPI_WAIT(request, MPI_STATUS_IGNORE, ierr)
  call check('rma', request == MPI_REQUEST_NULL .and. got == 1000 + prev, 'MPI_RGET', rank)
  call MPI_WIN_UNLOCK_ALL(win2, ierr)
  call MPI_ALLREDUCE(ticket, tickets, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check('rma', tickets == nranks * (nranks - 1) / 2, 'distinct tickets', rank)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  call MPI_F_SYNC_REG(mem)
  if (rank == 0) call check('rma', mem(2) == nranks, 'counter', rank)
  ! A Fortran error handler on the window.
  call MPI_WIN_CREATE_ERRHANDLER(note_error, handler, ierr)
  call check('rma', ierr == MPI_SUCCESS, 'MPI_WIN_CREATE_ERRHANDLER', rank)
  call MPI_WIN_SET_ERRHANDLER(win2, handler, ierr)
  call MPI_WIN_LOCK(MPI_LOCK_SHARED, nranks, 0, win2, ierr)
  call MPI_ERROR_CLASS(handled_code, error_class, ierr)
  call check('rma', handled_handle == win2 .and. error_class == MPI_ERR_RANK, &
             'the Fortran error handler saw the window and MPI_ERR_RANK', rank)
  call MPI_ERRHANDLER_FREE(handler, ierr)
  ! An attribute of the program's keyval: its value comes back; deleting it and freeing the
  ! window each call the delete callback once (value + extra state = 7 + 100, then 9 + 100).
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, count_delete, keyval, 100_MPI_ADDRESS_KIND, ierr)
  call check('rma', ierr == MPI_SUCCESS, 'MPI_WIN_CREATE_KEYVAL', rank)
  call MPI_WIN_SET_ATTR(win2, keyval, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_GET_ATTR(win2, keyval, attr, flag, ierr)
  call check('rma', ierr == MPI_SUCCESS .and. flag .and. attr == 7, 'MPI_WIN_GET_ATTR of the program''s keyval', rank)
  call MPI_WIN_DELETE_ATTR(win2, keyval, ierr)
  call check('rma', ierr == MPI_SUCCESS .and. deleted == 107, 'MPI_WIN_DELETE_ATTR called the delete callback', rank)
  call MPI_WIN_GET_ATTR(win2, keyval, attr, flag, ierr)
  call check('rma', .not. flag, 'a deleted attribute is gone', rank)
  call MPI_WIN_SET_ATTR(win2, keyval, 9_MPI_ADDRESS_KIND, ierr)
  call MPI_WIN_FREE(win2, ierr)
  call check('rma', deleted == 107 + 109, 'MPI_WIN_FREE called the delete callback', rank)
  call MPI_WIN_FREE_KEYVAL(keyval, ierr)
  call check('rma', ierr == MPI_SUCCESS .and. keyval == MPI_KEYVAL_INVALID, 'MPI_WIN_FREE_KEYVAL', rank)

  if (rank == 0) write(*, '(A)') 'PASS rma'
  call MPI_FINALIZE(ierr)
end program rma
