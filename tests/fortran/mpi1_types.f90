! The MPI-1 datatype calls take default INTEGERs where C and their MPI-2 replacements take
! MPI_Aint / INTEGER(KIND=MPI_ADDRESS_KIND) (MPI-2.2 section A.5.2; found by MPICH's
! f77/datatype/hindex1f): MPI_TYPE_HINDEXED's and MPI_TYPE_STRUCT's displacements,
! MPI_TYPE_HVECTOR's stride are read as INTEGERs, MPI_TYPE_EXTENT, _LB, _UB and MPI_ADDRESS
! write one INTEGER (the INTEGERs beside it are left alone), and a result that does not fit
! (an address above 2**31, as those of a rank's stack are) is MPI_ERR_ARG, not a truncated
! value (Open MPI 4.1 truncates it: that check fails natively). mpif.h, as the programs that
! still call these use.
program mpi1_types
  use test_check
  implicit none
  include 'mpif.h'
  integer :: rank, ierr, intsize, dblsize, i, t, position, psize, cls
  integer :: displs(10), counts(10), lens(2), types(2), sdispls(2)
  integer :: inbuf(10), outbuf(10), packbuf(100)
  integer :: box(3)  ! box(2) is the result; box(1) and box(3) must stay as they were
  integer :: local
  integer(kind=MPI_ADDRESS_KIND) :: wide

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  call MPI_TYPE_SIZE(MPI_INTEGER, intsize, ierr)
  call MPI_TYPE_SIZE(MPI_DOUBLE_PRECISION, dblsize, ierr)

  ! MPI_TYPE_HINDEXED: ten INTEGERs in reverse order, packed and unpacked.
  do i = 1, 10
    displs(i) = (10 - i) * intsize
    counts(i) = 1
    inbuf(i) = i
    outbuf(i) = -i
  end do
  call MPI_TYPE_HINDEXED(10, counts, displs, MPI_INTEGER, t, ierr)
  call check('mpi1_types', ierr == MPI_SUCCESS, 'MPI_TYPE_HINDEXED', rank)
  call MPI_TYPE_COMMIT(t, ierr)
  call MPI_PACK_SIZE(1, t, MPI_COMM_WORLD, psize, ierr)
  call check('mpi1_types', psize == 10 * intsize, 'MPI_PACK_SIZE of the hindexed type', rank)
  position = 0
  call MPI_PACK(inbuf, 1, t, packbuf, 100 * intsize, position, MPI_COMM_WORLD, ierr)
  call check('mpi1_types', ierr == MPI_SUCCESS .and. position == 10 * intsize, 'MPI_PACK', rank)
  position = 0
  call MPI_UNPACK(packbuf, 10 * intsize, position, outbuf, 10, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, 10
    call check('mpi1_types', outbuf(i) == 11 - i, 'hindexed displacements read as INTEGERs', rank)
  end do
  box = (/ 111, -1, 333 /)
  call MPI_TYPE_EXTENT(t, box(2), ierr)
  call check('mpi1_types', ierr == MPI_SUCCESS .and. box(2) == 10 * intsize, 'MPI_TYPE_EXTENT', rank)
  call check('mpi1_types', box(1) == 111 .and. box(3) == 333, 'MPI_TYPE_EXTENT wrote beyond its INTEGER', rank)
  call MPI_TYPE_FREE(t, ierr)

  ! MPI_TYPE_HVECTOR: 3 INTEGERs, a stride of 2 INTEGERs in bytes: lb 0, ub = extent 5 INTEGERs.
  call MPI_TYPE_HVECTOR(3, 1, 2 * intsize, MPI_INTEGER, t, ierr)
  call MPI_TYPE_COMMIT(t, ierr)
  box = (/ 111, -1, 333 /)
  call MPI_TYPE_EXTENT(t, box(2), ierr)
  call check('mpi1_types', box(2) == 5 * intsize, 'MPI_TYPE_HVECTOR stride read as an INTEGER', rank)
  box = (/ 111, -1, 333 /)
  call MPI_TYPE_LB(t, box(2), ierr)
  call check('mpi1_types', ierr == MPI_SUCCESS .and. box(2) == 0, 'MPI_TYPE_LB', rank)
  call check('mpi1_types', box(1) == 111 .and. box(3) == 333, 'MPI_TYPE_LB wrote beyond its INTEGER', rank)
  box = (/ 111, -1, 333 /)
  call MPI_TYPE_UB(t, box(2), ierr)
  call check('mpi1_types', ierr == MPI_SUCCESS .and. box(2) == 5 * intsize, 'MPI_TYPE_UB', rank)
  call check('mpi1_types', box(1) == 111 .and. box(3) == 333, 'MPI_TYPE_UB wrote beyond its INTEGER', rank)
  call MPI_TYPE_FREE(t, ierr)

  ! MPI_TYPE_STRUCT: an INTEGER at 0 and a DOUBLE PRECISION at 2 doubles: extent 3 doubles.
  lens = (/ 1, 1 /)
  sdispls = (/ 0, 2 * dblsize /)
  types = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /)
  call MPI_TYPE_STRUCT(2, lens, sdispls, types, t, ierr)
  call check('mpi1_types', ierr == MPI_SUCCESS, 'MPI_TYPE_STRUCT', rank)
  box = (/ 111, -1, 333 /)
  call MPI_TYPE_EXTENT(t, box(2), ierr)
  call check('mpi1_types', box(2) == 3 * dblsize, 'MPI_TYPE_STRUCT displacements read as INTEGERs', rank)
  call MPI_TYPE_FREE(t, ierr)

  ! MPI_ADDRESS: the address if it fits in an INTEGER, else MPI_ERR_ARG and nothing written.
  call MPI_COMM_SET_ERRHANDLER(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_GET_ADDRESS(local, wide, ierr)
  box = (/ 111, -1, 333 /)
  call MPI_ADDRESS(local, box(2), ierr)
  if (wide >= -2_MPI_ADDRESS_KIND**31 .and. wide < 2_MPI_ADDRESS_KIND**31) then
    call check('mpi1_types', ierr == MPI_SUCCESS .and. box(2) == wide, 'MPI_ADDRESS of a low address', rank)
  else
    call MPI_ERROR_CLASS(ierr, cls, i)
    call check('mpi1_types', ierr /= MPI_SUCCESS .and. cls == MPI_ERR_ARG, &
               'MPI_ADDRESS of an address above 2**31 is not MPI_ERR_ARG', rank)
    call check('mpi1_types', box(2) == -1, 'MPI_ADDRESS stored a truncated address', rank)
  end if
  call check('mpi1_types', box(1) == 111 .and. box(3) == 333, 'MPI_ADDRESS wrote beyond its INTEGER', rank)

  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A)', 'PASS mpi1_types'
  call MPI_FINALIZE(ierr)
end program mpi1_types
