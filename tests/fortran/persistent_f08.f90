! Open MPI's persistent collectives from `use mpi_f08` (mpi_f08_ext's MPIX_*_init call xsim's
! ompix_*_init_f entry points): an allreduce and an alltoallw started several times with new
! input, checked, inactive after completion, freed. Rank 0 prints PASS.
program persistent_f08
  use mpi_f08
  use mpi_f08_ext
  implicit none
  integer :: rank, n, i, k
  ! Changed behind the compiler's back (MPI-4.0 section 19.1.17): VOLATILE.
  integer, volatile :: x, y
  integer, allocatable, volatile :: sbuf(:), rbuf(:)
  integer, allocatable :: counts(:), displs(:)
  type(MPI_Datatype), allocatable :: types(:)
  type(MPI_Request) :: reqs(2)
  logical :: flag

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n)
  allocate(sbuf(n), rbuf(n), counts(n), displs(n), types(n))
  counts = 1
  types = MPI_INTEGER
  do i = 1, n
    displs(i) = (i - 1) * 4  ! bytes
  end do
  call MPIX_Allreduce_init(x, y, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(1))
  call MPIX_Alltoallw_init(sbuf, counts, displs, types, rbuf, counts, displs, types, MPI_COMM_WORLD, &
                           MPI_INFO_NULL, reqs(2))
  do k = 0, 3
    x = 10 * rank + k
    do i = 1, n
      sbuf(i) = 1000 * rank + i + k
    end do
    rbuf = -1
    call MPI_Startall(2, reqs)
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
    if (y /= 10 * (n - 1) + k) call fail('allreduce')
    do i = 1, n
      if (rbuf(i) /= 1000 * (i - 1) + rank + 1 + k) call fail('alltoallw')
    end do
  end do
  do i = 1, 2
    call MPI_Test(reqs(i), flag, MPI_STATUS_IGNORE)
    if (.not. flag .or. reqs(i) == MPI_REQUEST_NULL) call fail('MPI_Test of an inactive request')
    call MPI_Request_free(reqs(i))
  end do
  call MPI_Barrier(MPI_COMM_WORLD)
  if (rank == 0) print '(A)', 'PASS persistent_f08'
  call MPI_Finalize()
contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    write(0, '(A,A,A,I0)') 'FAIL persistent_f08 ', what, ' on rank ', rank
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine
end program
