! The specific procedures behind `use mpi`'s generic names, and the address functions, are
! xsim's (found by MPICH's f90/misc/sizeof2, f90/misc/alloc_mem, f77/rma/aintf; they were
! stubs that stopped the run):
!  - MPI_SIZEOF (mpi_sizeof_<type>_scalar_/_r<n>_): the bytes of one element, as Open MPI
!    answers (a CHARACTER is 1 whatever its length; COMPLEX(REAL32) is 8);
!  - MPI_ALLOC_MEM and MPI_WIN_ALLOCATE with a TYPE(C_PTR) BASEPTR (mpi_alloc_mem_cptr_, ...),
!    and MPI_WIN_SHARED_QUERY's;
!  - MPI_AINT_ADD and MPI_AINT_DIFF.
program module_specifics
  use mpi
  use test_check
  use iso_c_binding
  use iso_fortran_env, only: int8, int16, int64, real32, real64
  implicit none
  integer :: rank, ierr, s, win, disp_unit
  integer(int8) :: i1(3)
  integer(int16) :: i2
  integer(int64) :: i8(2, 2)
  real(real32) :: r4
  real(real64) :: r8(4)
  complex(real32) :: c4
  complex(real64) :: c8
  logical :: l
  character(len=5) :: ch
  type(c_ptr) :: p, q
  integer, pointer :: ints(:)
  integer(kind=MPI_ADDRESS_KIND) :: base, other, bytes

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)

  call MPI_SIZEOF(i1, s, ierr)
  call check('module_specifics', ierr == MPI_SUCCESS .and. s == 1, 'MPI_SIZEOF(INTEGER(INT8) array)', rank)
  call MPI_SIZEOF(i2, s, ierr)
  call check('module_specifics', s == 2, 'MPI_SIZEOF(INTEGER(INT16))', rank)
  call MPI_SIZEOF(i8, s, ierr)
  call check('module_specifics', s == 8, 'MPI_SIZEOF(INTEGER(INT64) rank-2 array)', rank)
  call MPI_SIZEOF(r4, s, ierr)
  call check('module_specifics', s == 4, 'MPI_SIZEOF(REAL(REAL32))', rank)
  call MPI_SIZEOF(r8, s, ierr)
  call check('module_specifics', s == 8, 'MPI_SIZEOF(REAL(REAL64) array)', rank)
  call MPI_SIZEOF(c4, s, ierr)
  call check('module_specifics', s == 8, 'MPI_SIZEOF(COMPLEX(REAL32))', rank)
  call MPI_SIZEOF(c8, s, ierr)
  call check('module_specifics', s == 16, 'MPI_SIZEOF(COMPLEX(REAL64))', rank)
  call MPI_SIZEOF(l, s, ierr)
  call check('module_specifics', s == 4, 'MPI_SIZEOF(LOGICAL)', rank)
  call MPI_SIZEOF(ch, s, ierr)
  call check('module_specifics', s == 1, 'MPI_SIZEOF(CHARACTER(LEN=5))', rank)

  ! MPI_ALLOC_MEM into a C_PTR: memory the rank can use, freed by MPI_FREE_MEM.
  bytes = 10 * 4
  call MPI_ALLOC_MEM(bytes, MPI_INFO_NULL, p, ierr)
  call check('module_specifics', ierr == MPI_SUCCESS .and. c_associated(p), 'MPI_ALLOC_MEM (C_PTR)', rank)
  call c_f_pointer(p, ints, (/ 10 /))
  ints = rank
  call check('module_specifics', sum(ints) == 10 * rank, 'the memory of MPI_ALLOC_MEM', rank)
  call MPI_FREE_MEM(ints, ierr)
  call check('module_specifics', ierr == MPI_SUCCESS, 'MPI_FREE_MEM', rank)

  ! MPI_WIN_ALLOCATE into a C_PTR, and MPI_WIN_SHARED_QUERY's on a shared window of one rank.
  call MPI_WIN_ALLOCATE(bytes, 4, MPI_INFO_NULL, MPI_COMM_WORLD, p, win, ierr)
  call check('module_specifics', ierr == MPI_SUCCESS .and. c_associated(p), 'MPI_WIN_ALLOCATE (C_PTR)', rank)
  call MPI_WIN_FREE(win, ierr)
  call MPI_WIN_ALLOCATE_SHARED(bytes, 4, MPI_INFO_NULL, MPI_COMM_SELF, p, win, ierr)
  call check('module_specifics', ierr == MPI_SUCCESS .and. c_associated(p), 'MPI_WIN_ALLOCATE_SHARED (C_PTR)', rank)
  call MPI_WIN_SHARED_QUERY(win, 0, other, disp_unit, q, ierr)
  call check('module_specifics', ierr == MPI_SUCCESS .and. c_associated(p, q) .and. other == bytes &
             .and. disp_unit == 4, 'MPI_WIN_SHARED_QUERY (C_PTR)', rank)
  call MPI_WIN_FREE(win, ierr)

  call MPI_GET_ADDRESS(i8(2, 2), base, ierr)
  call MPI_GET_ADDRESS(i8(1, 1), other, ierr)
  call check('module_specifics', MPI_AINT_DIFF(base, other) == 3 * 8, 'MPI_AINT_DIFF', rank)
  call check('module_specifics', MPI_AINT_ADD(other, 24_MPI_ADDRESS_KIND) == base, 'MPI_AINT_ADD', rank)

  call MPI_BARRIER(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A)', 'PASS module_specifics'
  call MPI_FINALIZE(ierr)
end program module_specifics
