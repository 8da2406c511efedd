! Collectives through include 'mpif.h' (free form): bcast, reduce, allreduce (also in
! place), gather, alltoall, scan, a reduction with a Fortran MPI_OP_CREATE function, and
! nonblocking ones completed by MPI_TESTALL, MPI_WAITSOME and MPI_TESTANY.
! Every value is checked against its closed form.
subroutine fail(what, rank)
  implicit none
  include 'mpif.h'
  character(len=*), intent(in) :: what
  integer, intent(in) :: rank
  integer :: ierr
  print '(A,A,A,I0)', 'FAIL collectives_f ', what, ' on rank ', rank
  call MPI_ABORT(MPI_COMM_WORLD, 1, ierr)
end subroutine

! A user reduction on INTEGERs: a op b = a + b + 1 (associative and commutative).
subroutine plus_one(invec, inoutvec, len, datatype)
  implicit none
  include 'mpif.h'
  integer :: len, datatype, i
  integer :: invec(len), inoutvec(len)
  if (datatype /= MPI_INTEGER) stop 'plus_one: wrong datatype handle'
  do i = 1, len
    inoutvec(i) = invec(i) + inoutvec(i) + 1
  end do
end subroutine

program collectives
  implicit none
  include 'mpif.h'
  external plus_one
  integer :: rank, n, ierr, i, j, op, expect
  integer :: params(3), total, ranksum, requests(2), outcount, indices(2), idx, sums(2)
  logical :: done
  double precision :: x, xmax
  integer, allocatable :: gathered(:), sendbuf(:), recvbuf(:)
  double precision :: t

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, n, ierr)

  params = 0
  if (rank == 0) params = (/ 17, -3, 2026 /)
  call MPI_BCAST(params, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (any(params /= (/ 17, -3, 2026 /))) call fail('bcast', rank)

  call MPI_REDUCE(rank, total, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. total /= n * (n - 1) / 2) call fail('reduce', rank)

  x = dble(rank) + 0.5d0
  call MPI_ALLREDUCE(x, xmax, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (xmax /= dble(n - 1) + 0.5d0) call fail('allreduce', rank)

  ranksum = rank + 1
  call MPI_ALLREDUCE(MPI_IN_PLACE, ranksum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (ranksum /= n * (n + 1) / 2) call fail('allreduce in place', rank)

  allocate(gathered(n), sendbuf(n), recvbuf(n))
  call MPI_GATHER(rank * 2, 1, MPI_INTEGER, gathered, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    do i = 1, n
      if (gathered(i) /= (i - 1) * 2) call fail('gather', rank)
    end do
  end if

  ! Block j goes to rank j-1 and carries (sender, receiver).
  do j = 1, n
    sendbuf(j) = rank * 100000 + (j - 1)
  end do
  call MPI_ALLTOALL(sendbuf, 1, MPI_INTEGER, recvbuf, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do j = 1, n
    if (recvbuf(j) /= (j - 1) * 100000 + rank) call fail('alltoall', rank)
  end do

  call MPI_SCAN(1, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= rank + 1) call fail('scan', rank)

  ! n ones combined by n - 1 applications of the Fortran function: 2n - 1.
  call MPI_OP_CREATE(plus_one, .true., op, ierr)
  call MPI_REDUCE(1, total, 1, MPI_INTEGER, op, 0, MPI_COMM_WORLD, ierr)
  expect = 2 * n - 1
  if (rank == 0 .and. total /= expect) call fail('user op', rank)
  call MPI_OP_FREE(op, ierr)
  if (op /= MPI_OP_NULL) call fail('op_free', rank)

  ! Two nonblocking collectives at once, polled until both are done.
  params = 0
  if (rank == n - 1) params = (/ 5, 6, 7 /)
  call MPI_IBCAST(params, 3, MPI_INTEGER, n - 1, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_IALLREDUCE(rank, sums(1), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, requests(2), ierr)
  done = .false.
  do while (.not. done)
    call MPI_TESTALL(2, requests, done, MPI_STATUSES_IGNORE, ierr)
  end do
  if (any(params /= (/ 5, 6, 7 /)) .or. sums(1) /= n * (n - 1) / 2) call fail('ibcast/iallreduce', rank)
  if (any(requests /= MPI_REQUEST_NULL)) call fail('testall requests', rank)

  call MPI_IALLREDUCE(1, sums(1), 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_IBARRIER(MPI_COMM_WORLD, requests(2), ierr)
  total = 0
  do while (total < 2)
    call MPI_WAITSOME(2, requests, outcount, indices, MPI_STATUSES_IGNORE, ierr)
    if (outcount < 1 .or. any(indices(1:outcount) < 1) .or. any(indices(1:outcount) > 2)) &
      call fail('waitsome indices', rank)
    total = total + outcount
  end do
  call MPI_WAITSOME(2, requests, outcount, indices, MPI_STATUSES_IGNORE, ierr)
  if (outcount /= MPI_UNDEFINED .or. sums(1) /= n) call fail('waitsome', rank)
  call MPI_TESTANY(2, requests, idx, done, MPI_STATUS_IGNORE, ierr)
  if (.not. done .or. idx /= MPI_UNDEFINED) call fail('testany on null requests', rank)

  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  t = MPI_WTIME()
  if (rank == 0) then
    print '(A,I0,A,F18.12)', 'VTIME collectives_f ranks ', n, ' time ', t
    print '(A)', 'PASS collectives_f'
  end if
  call MPI_FINALIZE(ierr)
end program
