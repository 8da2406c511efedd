! Open MPI's persistent collectives from Fortran (`use mpi`, the mpix_*_init_ entry points, and
! MPIX_ALLTOALLW_INIT, whose INTEGER datatypes are converted by hand): an allreduce, a
! broadcast, an alltoallw and a barrier initialized once and started several times with new
! input (MPI_START, then MPI_STARTALL in reverse order on odd ranks), results checked,
! requests inactive after completion, then freed. Rank 0 prints PASS.
program persistent
  use mpi
  use test_check
  implicit none
  integer :: rank, n, ierr, i, k, reqs(4), order(4)
  ! The buffers change behind the compiler's back (in MPI_START and MPI_WAIT, which do not
  ! name them): VOLATILE, or -O3 keeps them in registers (MPI-4.0 section 19.1.17).
  integer, volatile :: x(2), y(2), b(3)
  integer, allocatable, volatile :: sbuf(:), rbuf(:)
  integer, allocatable :: counts(:), displs(:), types(:)
  logical :: flag

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_COMM_SIZE(MPI_COMM_WORLD, n, ierr)
  allocate(sbuf(n), rbuf(n), counts(n), displs(n), types(n))
  counts = 1
  types = MPI_INTEGER
  do i = 1, n
    displs(i) = (i - 1) * 4  ! bytes
  end do

  call MPIX_ALLREDUCE_INIT(x, y, 2, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(1), ierr)
  call check('persistent', ierr == MPI_SUCCESS, 'MPIX_ALLREDUCE_INIT', rank)
  call MPIX_BCAST_INIT(b, 3, MPI_INTEGER, n - 1, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(2), ierr)
  call MPIX_ALLTOALLW_INIT(sbuf, counts, displs, types, rbuf, counts, displs, types, MPI_COMM_WORLD, &
                           MPI_INFO_NULL, reqs(3), ierr)
  call check('persistent', ierr == MPI_SUCCESS, 'MPIX_ALLTOALLW_INIT', rank)
  call MPIX_BARRIER_INIT(MPI_COMM_WORLD, MPI_INFO_NULL, reqs(4), ierr)

  do k = 0, 5
    x = (/ rank + k, 2 * k /)
    y = -1
    b = -1
    if (rank == n - 1) b = (/ k, k + 1, k + 2 /)
    do i = 1, n
      sbuf(i) = 1000 * rank + i + k
    end do
    rbuf = -1
    if (k < 3) then
      do i = 1, 4
        call MPI_START(reqs(i), ierr)
        call MPI_WAIT(reqs(i), MPI_STATUS_IGNORE, ierr)
        call check('persistent', reqs(i) /= MPI_REQUEST_NULL, 'the request freed at completion', rank)
      end do
    else
      do i = 1, 4
        order(i) = reqs(i)
        if (mod(rank, 2) == 1) order(i) = reqs(5 - i)
      end do
      call MPI_STARTALL(4, order, ierr)
      call MPI_WAITALL(4, order, MPI_STATUSES_IGNORE, ierr)
    end if
    call check('persistent', y(1) == n * (n - 1) / 2 + n * k .and. y(2) == 2 * k * n, 'allreduce', rank)
    call check('persistent', all(b == (/ k, k + 1, k + 2 /)), 'bcast', rank)
    do i = 1, n
      call check('persistent', rbuf(i) == 1000 * (i - 1) + rank + 1 + k, 'alltoallw', rank)
    end do
  end do
  do i = 1, 4
    call MPI_TEST(reqs(i), flag, MPI_STATUS_IGNORE, ierr)
    call check('persistent', flag .and. reqs(i) /= MPI_REQUEST_NULL, 'MPI_TEST of an inactive request', rank)
    call MPI_REQUEST_FREE(reqs(i), ierr)
    call check('persistent', reqs(i) == MPI_REQUEST_NULL, 'MPI_REQUEST_FREE', rank)
  end do
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A)', 'PASS persistent'
  call MPI_FINALIZE(ierr)
end program
