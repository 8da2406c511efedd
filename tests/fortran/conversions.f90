! What xsim's Fortran layer converts keeps MPI's semantics and Open MPI's conventions
! (found by MPICH's f08 tests):
!  - CHARACTER inputs lose their leading blanks as well as their trailing ones
!    (MPI_INFO_SET(info, ' key one ', ' value ') stores 'key one' = 'value');
!  - MPI_INFO_GET of a missing key leaves VALUE as it was (FLAG false);
!  - a call returning one status leaves its MPI_ERROR field alone (MPI_SENDRECV, MPI_RECV,
!    MPI_WAIT, MPI_WAITANY, MPI_PROBE: "message-passing calls do not modify the value of the
!    error code field", MPI-4.0 section 3.2.5; Open MPI 4.1's own Fortran MPI_SENDRECV and
!    MPI_WAIT set it to 0, so this program fails natively there);
!  - MPI_TYPE_CREATE_F90_INTEGER/REAL/COMPLEX give types that carry SELECTED_*_KIND data;
!  - MPI_COMM_CALL_ERRHANDLER hands a Fortran handler the code itself (one of MPI_ADD_ERROR_CODE);
!  - MPI_GREQUEST_START takes Fortran query/free/cancel subroutines and EXTRA_STATE.
module conversions_handler
  use mpi
  implicit none
  integer :: seen_code = -1, freed = 0, cancels = 0
contains
  subroutine remember(comm, code)
    integer :: comm, code
    seen_code = code
  end subroutine
  ! Generalized request callbacks: the status says which request (its extra state) answered.
  subroutine query(extra, status, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: status(MPI_STATUS_SIZE), ierror
    call MPI_STATUS_SET_ELEMENTS(status, MPI_INTEGER, 3, ierror)
    call MPI_STATUS_SET_CANCELLED(status, .false., ierror)
    status(MPI_SOURCE) = int(extra)
    status(MPI_TAG) = 77
    ierror = MPI_SUCCESS
  end subroutine
  subroutine release(extra, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    integer :: ierror
    freed = freed + int(extra)
    extra = -1  ! the program's own EXTRA_STATE variable (as Open MPI and MPICH pass it)
    ierror = MPI_SUCCESS
  end subroutine
  subroutine cancel(extra, complete, ierror)
    integer(kind=MPI_ADDRESS_KIND) :: extra
    logical :: complete
    integer :: ierror
    if (complete) cancels = cancels + 100
    cancels = cancels + 1
    ierror = MPI_SUCCESS
  end subroutine
end module conversions_handler

program conversions
  use mpi
  use test_check
  use conversions_handler
  implicit none
  integer, parameter :: ik = selected_int_kind(9), rk = selected_real_kind(15, 300)
  integer :: rank, n, ierr, info, status(MPI_STATUS_SIZE), request, requests(1), idx, right, left
  integer :: f90_int, f90_real, f90_complex, own_class, own_code, handler, dup
  integer(kind=ik) :: isent, igot
  ! volatile: free_fn writes it behind the compiler's back (MPI keeps its address)
  integer(kind=MPI_ADDRESS_KIND), volatile :: extra
  real(kind=rk) :: rsum
  complex(kind=rk) :: csent, cgot
  character(len=20) :: value, key
  logical :: flag
  double precision :: t

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, n, ierr)
  right = mod(rank + 1, n)
  left = mod(rank - 1 + n, n)

  call MPI_INFO_CREATE(info, ierr)
  call MPI_INFO_SET(info, '  key one ', '  value  ', ierr)
  value = 'unchanged'
  call MPI_INFO_GET(info, 'key one', len(value), value, flag, ierr)
  call check('conversions', flag .and. value == 'value', 'info key and value without blanks', rank)
  call MPI_INFO_GET_NTHKEY(info, 0, key, ierr)
  call check('conversions', key == 'key one', 'info nthkey', rank)
  value = 'unchanged'
  call MPI_INFO_GET(info, 'missing', len(value), value, flag, ierr)
  call check('conversions', .not. flag .and. value == 'unchanged', 'info_get of a missing key keeps VALUE', rank)
  call MPI_INFO_FREE(info, ierr)

  status(MPI_ERROR) = 12345
  call MPI_SENDRECV(rank, 1, MPI_INTEGER, right, 1, idx, 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, status, ierr)
  call check('conversions', status(MPI_ERROR) == 12345 .and. status(MPI_SOURCE) == left, &
             'sendrecv keeps status(MPI_ERROR)', rank)
  call MPI_ISEND(rank, 1, MPI_INTEGER, right, 2, MPI_COMM_WORLD, request, ierr)
  call MPI_PROBE(left, 2, MPI_COMM_WORLD, status, ierr)
  call check('conversions', status(MPI_ERROR) == 12345, 'probe keeps status(MPI_ERROR)', rank)
  call MPI_RECV(idx, 1, MPI_INTEGER, left, 2, MPI_COMM_WORLD, status, ierr)
  call check('conversions', status(MPI_ERROR) == 12345 .and. idx == left, 'recv keeps status(MPI_ERROR)', rank)
  call MPI_WAIT(request, status, ierr)
  call check('conversions', status(MPI_ERROR) == 12345, 'wait keeps status(MPI_ERROR)', rank)
  call MPI_IRECV(isent, 1, MPI_INTEGER, left, 3, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_SEND(rank, 1, MPI_INTEGER, right, 3, MPI_COMM_WORLD, ierr)
  call MPI_WAITANY(1, requests, idx, status, ierr)
  call check('conversions', status(MPI_ERROR) == 12345 .and. idx == 1, 'waitany keeps status(MPI_ERROR)', rank)

  call MPI_TYPE_CREATE_F90_INTEGER(9, f90_int, ierr)
  call check('conversions', ierr == MPI_SUCCESS, 'type_create_f90_integer', rank)
  isent = 1000000000_ik + rank
  call MPI_SENDRECV(isent, 1, f90_int, right, 4, igot, 1, f90_int, left, 4, MPI_COMM_WORLD, status, ierr)
  call check('conversions', igot == 1000000000_ik + left, 'f90 integer exchange', rank)
  call MPI_TYPE_CREATE_F90_REAL(15, 300, f90_real, ierr)
  call MPI_ALLREDUCE(real(rank, rk) * 0.5_rk, rsum, 1, f90_real, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check('conversions', abs(rsum - 0.25_rk * n * (n - 1)) < 1e-9_rk, 'f90 real allreduce', rank)
  call MPI_TYPE_CREATE_F90_COMPLEX(15, 300, f90_complex, ierr)
  csent = cmplx(rank, -rank, kind=rk)
  call MPI_SENDRECV(csent, 1, f90_complex, right, 5, cgot, 1, f90_complex, left, 5, MPI_COMM_WORLD, status, ierr)
  call check('conversions', cgot == cmplx(left, -left, kind=rk), 'f90 complex exchange', rank)

  call MPI_ADD_ERROR_CLASS(own_class, ierr)
  call MPI_ADD_ERROR_CODE(own_class, own_code, ierr)
  call MPI_COMM_DUP(MPI_COMM_WORLD, dup, ierr)
  call MPI_COMM_CREATE_ERRHANDLER(remember, handler, ierr)
  call MPI_COMM_SET_ERRHANDLER(dup, handler, ierr)
  call MPI_COMM_CALL_ERRHANDLER(dup, own_code, ierr)
  call check('conversions', seen_code == own_code, 'call_errhandler hands over the code', rank)
  call MPI_ERRHANDLER_FREE(handler, ierr)
  call MPI_COMM_FREE(dup, ierr)

  extra = 40 + rank
  call MPI_GREQUEST_START(query, release, cancel, extra, request, ierr)
  call MPI_CANCEL(request, ierr)
  call MPI_GREQUEST_COMPLETE(request, ierr)
  call MPI_WAIT(request, status, ierr)
  call MPI_GET_COUNT(status, MPI_INTEGER, idx, ierr)
  call check('conversions', ierr == MPI_SUCCESS .and. request == MPI_REQUEST_NULL .and. status(MPI_SOURCE) == 40 + rank &
             .and. status(MPI_TAG) == 77 .and. idx == 3, 'generalized request status from the Fortran query', rank)
  call check('conversions', freed == 40 + rank .and. cancels == 1 .and. extra == -1, &
             'generalized request free and cancel', rank)

  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  t = MPI_WTIME()
  if (rank == 0) then
    print '(A,I0,A,F18.12)', 'VTIME conversions ranks ', n, ' time ', t
    print '(A)', 'PASS conversions'
  end if
  call MPI_FINALIZE(ierr)
end program
