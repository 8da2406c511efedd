! A `use mpi` program: nonblocking exchange with MPI_WAITALL and a status array (and
! MPI_STATUSES_IGNORE), MPI_WAITANY, a matched probe (MPI_MPROBE, MPI_IMRECV, MPI_IMPROBE, MPI_MRECV),
! a send from MPI_BOTTOM with an absolute address, communicator split/dup/free and names, groups, a Cartesian topology,
! a vector datatype, attributes with Fortran callbacks, MPI_TAG_UB, CHARACTER results, a Fortran error handler, MPI_ERRORS_RETURN and
! MPI_ERROR_STRING, and the command line a rank sees (no -xsim-* options).
module checks
  use mpi
  implicit none
  integer :: handled_comm = -1, handled_code = MPI_SUCCESS, deleted = 0
contains
  ! Attribute callbacks: a copy adds extra_state, a delete counts.
  subroutine add_extra(oldcomm, keyval, extra, value_in, value_out, flag, ierror)
    integer :: oldcomm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra, value_in, value_out
    logical :: flag
    value_out = value_in + extra
    flag = .true.
    ierror = MPI_SUCCESS
  end subroutine
  subroutine count_delete(comm, keyval, value, extra, ierror)
    integer :: comm, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: value, extra
    deleted = deleted + 1
    ierror = MPI_SUCCESS
  end subroutine

  ! A Fortran error handler: records which communicator failed and how.
  subroutine record_error(comm, code)
    integer :: comm, code
    handled_comm = comm
    handled_code = code
  end subroutine

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: rank, ierr
    if (ok) return
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    print '(A,A,A,I0)', 'FAIL module_f90 ', what, ' on rank ', rank
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine
end module

program module_program
  use mpi
  use checks
  implicit none
  integer :: rank, n, ierr, left, right, i, idx, flag_int
  integer :: requests(4), statuses(MPI_STATUS_SIZE, 4), status(MPI_STATUS_SIZE)
  integer :: from_left, from_right, half, sub, subrank, subsize, dup, cmp
  integer :: world_group, first_group, first_size, cart, vec, src, dst
  integer :: dims(1), matrix(3, 4), row(4), errclass, namelen, arglen
  integer(kind=MPI_ADDRESS_KIND) :: tag_ub, address(1)
  integer :: mine, got, absolute, handler, watched, key_plus, key_dup, copy, msg
  integer(kind=MPI_ADDRESS_KIND) :: value
  logical :: periods(1), found
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  character(len=MPI_MAX_OBJECT_NAME) :: name
  character(len=MPI_MAX_ERROR_STRING) :: message
  character(len=256) :: arg
  double precision :: t

  call MPI_Init(ierr)
  call check(ierr == MPI_SUCCESS, 'init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, n, ierr)
  left = mod(rank - 1 + n, n)
  right = mod(rank + 1, n)

  do i = 1, command_argument_count()
    call get_command_argument(i, arg, arglen)
    call check(arg(1:5) /= '-xsim', 'command line still holds ' // trim(arg))
  end do
  call check(command_argument_count() == 1, 'command line')
  call get_command_argument(1, arg)
  call check(trim(arg) == 'app-arg', 'application argument')

  ! Nonblocking exchange with both neighbours.
  call MPI_Irecv(from_left, 1, MPI_INTEGER, left, 1, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Irecv(from_right, 1, MPI_INTEGER, right, 2, MPI_COMM_WORLD, requests(2), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 1, MPI_COMM_WORLD, requests(3), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, left, 2, MPI_COMM_WORLD, requests(4), ierr)
  call MPI_Waitall(4, requests, statuses, ierr)
  call check(all(requests == MPI_REQUEST_NULL), 'waitall requests')
  call check(from_left == left .and. from_right == right, 'waitall values')
  call check(statuses(MPI_SOURCE, 1) == left .and. statuses(MPI_TAG, 2) == 2, 'waitall statuses')

  call MPI_Irecv(from_left, 1, MPI_INTEGER, left, 5, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 5, MPI_COMM_WORLD, requests(2), ierr)
  call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
  call check(all(requests(1:2) == MPI_REQUEST_NULL) .and. from_left == left, 'waitall, statuses ignored')

  ! A matched probe: MPI_MPROBE takes the message from the left, MPI_IMRECV receives it
  ! (the message handle becomes MPI_MESSAGE_NULL), MPI_IMPROBE of nobody gives MPI_MESSAGE_NO_PROC.
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Mprobe(left, 8, MPI_COMM_WORLD, msg, status, ierr)
  call check(ierr == MPI_SUCCESS .and. msg /= MPI_MESSAGE_NULL .and. status(MPI_SOURCE) == left, 'MPI_MPROBE')
  call MPI_Imrecv(from_left, 1, MPI_INTEGER, msg, requests(2), ierr)
  call check(msg == MPI_MESSAGE_NULL, 'MPI_IMRECV message handle')
  call MPI_Waitall(2, requests, MPI_STATUSES_IGNORE, ierr)
  call check(from_left == left, 'MPI_IMRECV value')
  call MPI_Improbe(MPI_PROC_NULL, 8, MPI_COMM_WORLD, found, msg, status, ierr)
  call check(found .and. msg == MPI_MESSAGE_NO_PROC, 'MPI_IMPROBE of MPI_PROC_NULL')
  call MPI_Mrecv(got, 1, MPI_INTEGER, msg, MPI_STATUS_IGNORE, ierr)
  call check(msg == MPI_MESSAGE_NULL, 'MPI_MRECV of MPI_MESSAGE_NO_PROC')

  ! MPI_BOTTOM plus a datatype holding the absolute address of `mine`.
  mine = 7 * rank
  call MPI_Get_address(mine, address(1), ierr)
  call MPI_Type_create_struct(1, (/ 1 /), address, (/ MPI_INTEGER /), absolute, ierr)
  call MPI_Type_commit(absolute, ierr)
  call MPI_Sendrecv(MPI_BOTTOM, 1, absolute, right, 6, got, 1, MPI_INTEGER, left, 6, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(got == 7 * left, 'MPI_BOTTOM')
  call MPI_Type_free(absolute, ierr)

  call MPI_Irecv(from_left, 1, MPI_INTEGER, left, 3, MPI_COMM_WORLD, requests(1), ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, right, 3, MPI_COMM_WORLD, ierr)
  call MPI_Waitany(1, requests, idx, status, ierr)
  call check(idx == 1 .and. requests(1) == MPI_REQUEST_NULL .and. from_left == left, 'waitany')

  ! Halves of the world: even and odd ranks.
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_Comm_rank(half, subrank, ierr)
  call MPI_Comm_size(half, subsize, ierr)
  call check(subrank == rank / 2 .and. subsize == (n + 1 - mod(rank, 2)) / 2, 'split')
  call MPI_Allreduce(1, sub, 1, MPI_INTEGER, MPI_SUM, half, ierr)
  call check(sub == subsize, 'allreduce on split')
  call MPI_Comm_dup(half, dup, ierr)
  call MPI_Comm_compare(half, dup, cmp, ierr)
  call check(cmp == MPI_CONGRUENT .and. dup /= half, 'dup')
  call MPI_Comm_set_name(dup, 'halves copy', ierr)
  call MPI_Comm_get_name(dup, name, namelen, ierr)
  call check(name == 'halves copy' .and. namelen == 11, 'comm name')
  call MPI_Comm_free(dup, ierr)
  call check(dup == MPI_COMM_NULL, 'comm_free')
  call MPI_Comm_free(half, ierr)

  ! The group of the first ceil(n/2) world ranks. The world's group is one object shared by
  ! the ranks of a process: the barrier lets others free their handle before this one is used.
  call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
  if (mod(rank, 2) == 0) call MPI_Group_free(world_group, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (mod(rank, 2) == 0) call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
  call MPI_Group_range_incl(world_group, 1, reshape((/ 0, (n - 1) / 2, 1 /), (/ 3, 1 /)), first_group, ierr)
  call MPI_Group_size(first_group, first_size, ierr)
  call check(first_size == (n + 1) / 2, 'group size')
  call MPI_Group_free(first_group, ierr)
  call MPI_Group_free(world_group, ierr)
  call check(first_group == MPI_GROUP_NULL .and. world_group == MPI_GROUP_NULL, 'group_free')

  ! A periodic ring as a Cartesian topology.
  dims(1) = n
  periods(1) = .true.
  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, .false., cart, ierr)
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(src == left .and. dst == right, 'cart_shift')
  call MPI_Comm_free(cart, ierr)

  ! Row 2 of a 3 x 4 matrix (strided: Fortran stores columns) sent as a vector type.
  do i = 1, 4
    matrix(:, i) = (/ 10 * i + 1, 10 * i + 2, 10 * i + 3 /) + 1000 * rank
  end do
  call MPI_Type_vector(4, 1, 3, MPI_INTEGER, vec, ierr)
  call MPI_Type_commit(vec, ierr)
  call MPI_Sendrecv(matrix(2, 1), 1, vec, right, 4, row, 4, MPI_INTEGER, left, 4, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Type_free(vec, ierr)
  call check(vec == MPI_DATATYPE_NULL, 'type_free')
  call check(all(row == (/ 12, 22, 32, 42 /) + 1000 * left), 'vector type')

  ! Attributes with Fortran callbacks and with the predefined MPI_COMM_DUP_FN.
  call MPI_Comm_create_keyval(add_extra, count_delete, key_plus, 10_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, key_dup, 0_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, watched, ierr)
  call MPI_Comm_set_attr(watched, key_plus, 42_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_set_attr(watched, key_dup, 7_MPI_ADDRESS_KIND, ierr)
  call MPI_Comm_dup(watched, copy, ierr)
  call MPI_Comm_get_attr(copy, key_plus, value, found, ierr)
  call check(found .and. value == 52, 'attribute copied by a Fortran callback')
  call MPI_Comm_get_attr(copy, key_dup, value, found, ierr)
  call check(found .and. value == 7, 'attribute copied by MPI_COMM_DUP_FN')
  call MPI_Comm_free(copy, ierr)
  call MPI_Comm_free(watched, ierr)
  call check(deleted == 2, 'Fortran delete callback')
  call MPI_Comm_free_keyval(key_plus, ierr)
  call MPI_Comm_free_keyval(key_dup, ierr)
  call check(key_plus == MPI_KEYVAL_INVALID, 'free_keyval')

  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, found, ierr)
  call check(found .and. tag_ub >= 32767, 'MPI_TAG_UB')
  call MPI_Get_processor_name(host, namelen, ierr)
  call check(host(1:9) == 'xsim-node' .and. namelen == len_trim(host), 'processor name')

  ! A Fortran error handler on a duplicate of the world sees that communicator's INTEGER.
  call MPI_Comm_dup(MPI_COMM_WORLD, watched, ierr)
  call MPI_Comm_create_errhandler(record_error, handler, ierr)
  call MPI_Comm_set_errhandler(watched, handler, ierr)
  call MPI_Errhandler_free(handler, ierr)
  call check(handler == MPI_ERRHANDLER_NULL, 'errhandler_free')
  call MPI_Send(rank, 1, MPI_INTEGER, -7, 0, watched, ierr)
  call MPI_Error_class(handled_code, errclass, flag_int)
  call check(handled_comm == watched .and. errclass == MPI_ERR_RANK .and. ierr /= MPI_SUCCESS, 'Fortran errhandler')
  call MPI_Comm_free(watched, ierr)

  ! Errors come back as codes once MPI_ERRORS_RETURN is set.
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Send(rank, 1, MPI_INTEGER, n + 5, 0, MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, errclass, flag_int)
  call check(errclass == MPI_ERR_RANK, 'MPI_ERR_RANK')
  call MPI_Error_string(ierr, message, namelen, flag_int)
  call check(namelen > 0 .and. len_trim(message) == namelen, 'error string')

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t = MPI_Wtime()
  if (rank == 0) then
    print '(A,I0,A,F18.12)', 'VTIME module_f90 ranks ', n, ' time ', t
    print '(A)', 'PASS module_f90'
  end if
  call MPI_Finalize(ierr)
end program
