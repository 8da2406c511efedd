! A `use mpi_f08` program: the Fortran 2008 bindings (derived-type handles, TYPE(MPI_Status),
! optional IERROR, CHARACTER lengths passed as INTEGER values, LOGICAL results, procedure
! arguments) reach xsim's entry points and compute what MPI says. Each check aborts with a
! FAIL line naming it; rank 0 prints VTIME and PASS at the end.
module f08_ops
  use mpi_f08
  use, intrinsic :: iso_c_binding, only : c_ptr, c_f_pointer
  implicit none
contains
  ! A user reduction (MPI_User_function of mpi_f08): the larger of each pair, kept commutative.
  subroutine larger(invec, inoutvec, len, datatype)
    type(c_ptr), value :: invec, inoutvec
    integer :: len
    type(MPI_Datatype) :: datatype
    integer, pointer :: a(:), b(:)
    call c_f_pointer(invec, a, [len])
    call c_f_pointer(inoutvec, b, [len])
    b = max(a, b)
  end subroutine
end module f08_ops

program f08
  use mpi_f08
  use f08_ops
  implicit none
  integer :: rank, n, right, left, x, y, count, i, namelen, ierr, sums(3), got(2)
  integer, allocatable :: all(:)
  type(MPI_Status) :: status, statuses(2)
  type(MPI_Request) :: requests(2)
  type(MPI_Comm) :: half, dup
  type(MPI_Op) :: op
  type(MPI_Datatype) :: pair
  logical :: flag
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  double precision :: t

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  if (ierr /= MPI_SUCCESS) call fail('MPI_Comm_size ierror')
  right = mod(rank + 1, n)
  left = mod(rank - 1 + n, n)

  ! Blocking exchange around a ring; the status names the sender and the tag.
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, right, 7, y, 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, status)
  call MPI_Get_count(status, MPI_INTEGER, count)
  if (y /= left .or. status%MPI_SOURCE /= left .or. status%MPI_TAG /= 7 .or. count /= 1) call fail('sendrecv')

  ! Nonblocking, completed together, with an array of statuses.
  call MPI_Irecv(got(1), 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, requests(1))
  call MPI_Isend(rank * 10, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, requests(2))
  call MPI_Waitall(2, requests, statuses)
  if (got(1) /= left * 10 .or. statuses(1)%MPI_SOURCE /= left) call fail('isend/irecv/waitall')
  if (requests(1) /= MPI_REQUEST_NULL .or. requests(2) /= MPI_REQUEST_NULL) call fail('waitall requests')

  ! LOGICAL results: probe until the message is there, test a request to completion.
  call MPI_Isend(rank + 100, 1, MPI_INTEGER, right, 9, MPI_COMM_WORLD, requests(1))
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(left, 9, MPI_COMM_WORLD, flag, status)
  end do
  if (status%MPI_SOURCE /= left) call fail('iprobe status')
  call MPI_Recv(x, 1, MPI_INTEGER, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
  if (x /= left + 100) call fail('recv after iprobe')
  flag = .false.
  do while (.not. flag)
    call MPI_Test(requests(1), flag, MPI_STATUS_IGNORE)
  end do

  ! Collectives, MPI_IN_PLACE, a user operation given as a procedure.
  sums = [rank, 1, 2 * rank]
  call MPI_Allreduce(MPI_IN_PLACE, sums, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  if (sums(1) /= n * (n - 1) / 2 .or. sums(2) /= n .or. sums(3) /= n * (n - 1)) call fail('allreduce in place')
  x = 0
  if (rank == 0) x = 42
  call MPI_Bcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
  if (x /= 42) call fail('bcast')
  allocate(all(n))
  call MPI_Allgather(rank * rank, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD)
  do i = 1, n
    if (all(i) /= (i - 1) * (i - 1)) call fail('allgather')
  end do
  call MPI_Op_create(larger, .true., op)
  call MPI_Allreduce(mod(rank * 7, n), x, 1, MPI_INTEGER, op, MPI_COMM_WORLD)
  if (x /= maxval([(mod(i * 7, n), i = 0, n - 1)])) call fail('user op')
  call MPI_Op_free(op)
  if (op /= MPI_OP_NULL) call fail('op_free')

  ! Communicators: split in halves, duplicate, names (CHARACTER in and out).
  call MPI_Comm_split(MPI_COMM_WORLD, merge(0, 1, rank < n / 2), rank, half)
  call MPI_Allreduce(1, x, 1, MPI_INTEGER, MPI_SUM, half)
  if (x /= merge(n / 2, n - n / 2, rank < n / 2)) call fail('comm_split')
  call MPI_Comm_dup(half, dup)
  call MPI_Comm_set_name(dup, 'half of the ranks')
  call MPI_Comm_get_name(dup, name, namelen)
  if (name /= 'half of the ranks' .or. namelen /= 17) call fail('comm_set_name/get_name')
  call MPI_Comm_free(dup)
  call MPI_Comm_free(half)
  if (half /= MPI_COMM_NULL) call fail('comm_free')
  call MPI_Get_processor_name(host, namelen)
  if (namelen < 1 .or. len_trim(host) /= namelen) call fail('get_processor_name')

  ! A derived datatype of two INTEGERs.
  call MPI_Type_contiguous(2, MPI_INTEGER, pair)
  call MPI_Type_commit(pair)
  got = [rank, -rank]
  call MPI_Sendrecv_replace(got, 1, pair, right, 10, left, 10, MPI_COMM_WORLD, status)
  call MPI_Get_count(status, pair, count)
  if (any(got /= [left, -left]) .or. count /= 1) call fail('datatype pair')
  call MPI_Type_free(pair)

  call MPI_Barrier(MPI_COMM_WORLD)
  t = MPI_Wtime()
  if (rank == 0) then
    print '(A,I0,A,F18.12)', 'VTIME f08 ranks ', n, ' time ', t
    print '(A)', 'PASS f08'
  end if
  call MPI_Finalize()

contains
  subroutine fail(what)
    character(len=*), intent(in) :: what
    write(0, '(A,A,A,I0)') 'FAIL f08 ', what, ' on rank ', rank
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end subroutine
end program
