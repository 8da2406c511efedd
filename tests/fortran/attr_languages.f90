! Attributes across languages (MPI-4.0 section 19.3.7), C and Fortran in one program
! (attr_languages_c.c is the C half), on communicators, windows and datatypes:
! - set in Fortran, read in Fortran: the value (MPI_ATTR_GET: truncated to INTEGER;
!   MPI_ATTR_PUT's INTEGER sign-extended); read in C: a pointer to the value (MPICH's
!   f90/attr/fandcattrf90 faulted here);
! - set in C, read in C: the pointer; in Fortran: the address (MPI_ATTR_GET: truncated);
! - delete callbacks get the value in their language (replacing, deleting, freeing);
! - MPI_COMM_DUP / MPI_TYPE_DUP: Fortran and C MPI_*_DUP_FN, a Fortran copy callback that
!   adds one, MPI_COMM_NULL_COPY_FN; the copy keeps the language of the attribute;
! - predefined attributes: MPI_TAG_UB, MPI_WTIME_IS_GLOBAL, MPI_WIN_BASE, MPI_WIN_SIZE,
!   MPI_WIN_DISP_UNIT as each language sees them;
! - an attribute on the predefined MPI_INTEGER is each rank's own.
module attr_callbacks
  use mpi
  implicit none
  integer :: f_deletes = 0, f_copies = 0  ! per rank, like every global
  integer(kind=MPI_ADDRESS_KIND) :: f_deleted(16)
contains
  subroutine f_copy_plus_one(old, keyval, extra, value_in, value_out, flag, ierror)
    integer :: old, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: extra, value_in, value_out
    logical :: flag
    value_out = value_in + 1
    flag = .true.
    f_copies = f_copies + 1
    ierror = MPI_SUCCESS
  end subroutine

  subroutine f_delete(handle, keyval, value, extra, ierror)
    integer :: handle, keyval, ierror
    integer(kind=MPI_ADDRESS_KIND) :: value, extra
    f_deletes = f_deletes + 1
    f_deleted(f_deletes) = value
    ierror = MPI_SUCCESS
  end subroutine

  logical function deleted(value)
    integer(kind=MPI_ADDRESS_KIND), intent(in) :: value
    deleted = any(f_deleted(1:f_deletes) == value)
  end function
end module attr_callbacks

module c_half
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    subroutine c_create_keyvals(dup_key, null_key, win_key, type_key) bind(C, name='c_create_keyvals')
      import :: c_int
      integer(c_int), intent(out) :: dup_key, null_key, win_key, type_key
    end subroutine
    subroutine c_free_keyvals(dup_key, null_key, win_key, type_key) bind(C, name='c_free_keyvals')
      import :: c_int
      integer(c_int), value :: dup_key, null_key, win_key, type_key
    end subroutine
    integer(c_intptr_t) function c_target_address(value) bind(C, name='c_target_address')
      import :: c_intptr_t
      integer(c_intptr_t), value :: value
    end function
    integer(c_int) function c_truncated(value) bind(C, name='c_truncated')
      import :: c_int, c_intptr_t
      integer(c_intptr_t), value :: value
    end function
    integer(c_int) function c_set(kind, handle, key) bind(C, name='c_set')
      import :: c_int
      integer(c_int), value :: kind, handle, key
    end function
    integer(c_int) function c_get(kind, handle, key, deref, pointer, pointee) bind(C, name='c_get')
      import :: c_int, c_intptr_t
      integer(c_int), value :: kind, handle, key, deref
      integer(c_intptr_t), intent(out) :: pointer, pointee
    end function
    subroutine c_deleted(pointer, pointee, count) bind(C, name='c_deleted')
      import :: c_int, c_intptr_t
      integer(c_intptr_t), intent(out) :: pointer, pointee
      integer(c_int), intent(out) :: count
    end subroutine
  end interface
  integer(c_int), parameter :: K_COMM = 0, K_WIN = 1, K_TYPE = 2, AS_AINT = 0, AS_INT = 1, NO_DEREF = 2
end module c_half

program attr_languages
  use mpi
  use attr_callbacks
  use c_half
  use test_check
  implicit none
  character(len=*), parameter :: me = 'attr_languages'
  integer :: rank, ierr, comm1, comm2, win, t1, t2, ivalue, cdeletes, before
  integer :: fk_dup, fk_dup2, fk_plus, fk_null, fk_win, fk_type, ck_dup, ck_null, ck_win, ck_type
  integer(kind=MPI_ADDRESS_KIND), parameter :: extra = 0
  integer(kind=MPI_ADDRESS_KIND) :: big, value, addr, p, p2, pointee, base
  integer :: buffer(4)
  logical :: flag

  call MPI_INIT(ierr)
  call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
  big = 2_MPI_ADDRESS_KIND**40 + rank  ! does not fit a default INTEGER

  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, f_delete, fk_dup, extra, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_DUP_FN, f_delete, fk_dup2, extra, ierr)
  call MPI_COMM_CREATE_KEYVAL(f_copy_plus_one, f_delete, fk_plus, extra, ierr)
  call MPI_COMM_CREATE_KEYVAL(MPI_COMM_NULL_COPY_FN, f_delete, fk_null, extra, ierr)
  call MPI_WIN_CREATE_KEYVAL(MPI_WIN_NULL_COPY_FN, f_delete, fk_win, extra, ierr)
  call MPI_TYPE_CREATE_KEYVAL(MPI_TYPE_DUP_FN, f_delete, fk_type, extra, ierr)
  call c_create_keyvals(ck_dup, ck_null, ck_win, ck_type)
  call MPI_COMM_DUP(MPI_COMM_WORLD, comm1, ierr)

  ! Set in Fortran: Fortran reads the value, MPI-1 the truncated value, C a pointer to it.
  call MPI_COMM_SET_ATTR(comm1, fk_dup, big, ierr)
  call MPI_COMM_GET_ATTR(comm1, fk_dup, value, flag, ierr)
  call check(me, ierr == MPI_SUCCESS .and. flag .and. value == big, 'Fortran reads its value', rank)
  call MPI_ATTR_GET(comm1, fk_dup, ivalue, flag, ierr)
  call check(me, flag .and. ivalue == rank, 'MPI_ATTR_GET truncates to INTEGER', rank)
  call check(me, c_get(K_COMM, comm1, fk_dup, AS_AINT, p, pointee) == 1, 'C finds the Fortran attribute', rank)
  call check(me, pointee == big .and. p /= big, 'C reads a pointer to the Fortran value', rank)

  ! Set in C: C reads its pointer, Fortran the address, MPI-1 the truncated address.
  addr = c_target_address(555_MPI_ADDRESS_KIND + rank)
  call check(me, c_set(K_COMM, comm1, ck_dup) == MPI_SUCCESS, 'C sets an attribute', rank)
  call MPI_COMM_GET_ATTR(comm1, ck_dup, value, flag, ierr)
  call check(me, flag .and. value == addr, 'Fortran reads a C attribute as its address', rank)
  call MPI_ATTR_GET(comm1, ck_dup, ivalue, flag, ierr)
  call check(me, flag .and. ivalue == c_truncated(addr), 'MPI_ATTR_GET reads the truncated address', rank)
  call check(me, c_get(K_COMM, comm1, ck_dup, AS_AINT, p, pointee) == 1, 'C finds its attribute', rank)
  call check(me, p == addr .and. pointee == 555 + rank, 'C reads its own pointer', rank)
  ! Replaced from Fortran (MPI-1, a negative INTEGER): C's delete callback gets C's pointer.
  call MPI_ATTR_PUT(comm1, ck_dup, -77, ierr)
  call c_deleted(p, pointee, cdeletes)
  call check(me, cdeletes == 1 .and. p == addr .and. pointee == 555 + rank, &
             'replacing calls the C delete callback with the C pointer', rank)
  call MPI_COMM_GET_ATTR(comm1, ck_dup, value, flag, ierr)
  call check(me, flag .and. value == -77, 'MPI_ATTR_PUT sign-extends', rank)
  call check(me, c_get(K_COMM, comm1, ck_dup, AS_AINT, p, pointee) == 1 .and. pointee == -77, &
             'C reads a pointer to the MPI_ATTR_PUT value', rank)
  ! Set in C on a Fortran keyval, and the other copy callbacks.
  call check(me, c_set(K_COMM, comm1, fk_dup2) == MPI_SUCCESS, 'C sets a Fortran keyval''s attribute', rank)
  call MPI_ATTR_PUT(comm1, fk_plus, -5, ierr)
  call MPI_COMM_SET_ATTR(comm1, fk_null, 9_MPI_ADDRESS_KIND, ierr)
  call MPI_COMM_SET_ATTR(comm1, ck_null, 10_MPI_ADDRESS_KIND, ierr)

  ! The copies keep each attribute's language.
  call MPI_COMM_DUP(comm1, comm2, ierr)
  call MPI_COMM_GET_ATTR(comm2, fk_dup, value, flag, ierr)
  call check(me, flag .and. value == big, 'Fortran MPI_COMM_DUP_FN copies the value', rank)
  call check(me, c_get(K_COMM, comm2, fk_dup, AS_AINT, p2, pointee) == 1 .and. pointee == big, &
             'C reads a pointer to the copied value', rank)
  call c_get_check(comm1, fk_dup, p)
  call check(me, p2 /= p, 'the copy is stored apart', rank)
  call MPI_COMM_GET_ATTR(comm2, ck_dup, value, flag, ierr)
  call check(me, flag .and. value == -77, 'C MPI_COMM_DUP_FN keeps a Fortran value', rank)
  call check(me, c_get(K_COMM, comm2, ck_dup, AS_AINT, p, pointee) == 1 .and. pointee == -77, &
             'C reads the copied Fortran value through a pointer', rank)
  call MPI_COMM_GET_ATTR(comm2, fk_dup2, value, flag, ierr)
  call check(me, flag .and. value == addr, 'Fortran MPI_COMM_DUP_FN keeps a C pointer', rank)
  call check(me, c_get(K_COMM, comm2, fk_dup2, AS_AINT, p, pointee) == 1 .and. p == addr .and. &
             pointee == 555 + rank, 'C reads the copied C pointer', rank)
  call MPI_COMM_GET_ATTR(comm2, fk_plus, value, flag, ierr)
  call check(me, flag .and. value == -4 .and. f_copies == 1, 'the Fortran copy callback got the value', rank)
  call MPI_COMM_GET_ATTR(comm2, fk_null, value, flag, ierr)
  call check(me, .not. flag, 'MPI_COMM_NULL_COPY_FN (Fortran) copies nothing', rank)
  call MPI_COMM_GET_ATTR(comm2, ck_null, value, flag, ierr)
  call check(me, .not. flag, 'MPI_COMM_NULL_COPY_FN (C) copies nothing', rank)

  ! Freeing the copy: each delete callback gets the value in its language.
  call MPI_COMM_FREE(comm2, ierr)
  call check(me, f_deletes == 3 .and. deleted(big) .and. deleted(addr) .and. deleted(-4_MPI_ADDRESS_KIND), &
             'the Fortran delete callback got values (and the C pointer as its address)', rank)
  call c_deleted(p, pointee, cdeletes)
  call check(me, cdeletes == 2 .and. pointee == -77 .and. p /= addr, &
             'the C delete callback got a pointer to the Fortran value', rank)
  call MPI_COMM_DELETE_ATTR(comm1, fk_null, ierr)
  call check(me, f_deletes == 4 .and. f_deleted(4) == 9, 'MPI_COMM_DELETE_ATTR gives Fortran the value', rank)
  call MPI_COMM_FREE(comm1, ierr)
  call c_deleted(p, pointee, cdeletes)
  call check(me, f_deletes == 7 .and. cdeletes == 4 .and. deleted(-5_MPI_ADDRESS_KIND), &
             'MPI_COMM_FREE deletes them all', rank)

  ! Predefined communicator attributes: C a pointer to the int, Fortran the int.
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_TAG_UB, value, flag, ierr)
  call check(me, flag .and. value >= 32767, 'Fortran MPI_TAG_UB', rank)
  call check(me, c_get(K_COMM, MPI_COMM_WORLD, MPI_TAG_UB, AS_INT, p, pointee) == 1 .and. pointee == value, &
             'C MPI_TAG_UB points to the same value', rank)
  call MPI_ATTR_GET(MPI_COMM_WORLD, MPI_TAG_UB, ivalue, flag, ierr)
  call check(me, flag .and. ivalue == value, 'MPI_ATTR_GET MPI_TAG_UB', rank)
  call MPI_COMM_GET_ATTR(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, value, flag, ierr)
  call check(me, c_get(K_COMM, MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, AS_INT, p, pointee) == 1 .and. &
             pointee == value .and. (value == 0 .or. value == 1), 'MPI_WTIME_IS_GLOBAL in both languages', rank)

  ! Windows: user attributes of both languages and the predefined ones.
  call MPI_WIN_CREATE(buffer, 16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  call MPI_WIN_SET_ATTR(win, fk_win, 3000_MPI_ADDRESS_KIND + rank, ierr)
  call MPI_WIN_GET_ATTR(win, fk_win, value, flag, ierr)
  call check(me, flag .and. value == 3000 + rank, 'Fortran reads its window attribute', rank)
  call check(me, c_get(K_WIN, win, fk_win, AS_AINT, p, pointee) == 1 .and. pointee == 3000 + rank, &
             'C reads a pointer to the Fortran window attribute', rank)
  addr = c_target_address(666_MPI_ADDRESS_KIND + rank)
  call check(me, c_set(K_WIN, win, ck_win) == MPI_SUCCESS, 'C sets a window attribute', rank)
  call MPI_WIN_GET_ATTR(win, ck_win, value, flag, ierr)
  call check(me, flag .and. value == addr, 'Fortran reads the C window attribute as its address', rank)
  call MPI_GET_ADDRESS(buffer, base, ierr)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_BASE, value, flag, ierr)
  call check(me, flag .and. value == base, 'Fortran MPI_WIN_BASE is the address', rank)
  call check(me, c_get(K_WIN, win, MPI_WIN_BASE, NO_DEREF, p, pointee) == 1 .and. p == base, &
             'C MPI_WIN_BASE is the base pointer', rank)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_SIZE, value, flag, ierr)
  call check(me, flag .and. value == 16, 'Fortran MPI_WIN_SIZE', rank)
  call check(me, c_get(K_WIN, win, MPI_WIN_SIZE, AS_AINT, p, pointee) == 1 .and. pointee == 16, &
             'C MPI_WIN_SIZE points to the size', rank)
  call MPI_WIN_GET_ATTR(win, MPI_WIN_DISP_UNIT, value, flag, ierr)
  call check(me, flag .and. value == 4, 'Fortran MPI_WIN_DISP_UNIT', rank)
  call check(me, c_get(K_WIN, win, MPI_WIN_DISP_UNIT, AS_INT, p, pointee) == 1 .and. pointee == 4, &
             'C MPI_WIN_DISP_UNIT points to the int', rank)
  before = f_deletes
  call MPI_WIN_FREE(win, ierr)
  call c_deleted(p, pointee, cdeletes)
  call check(me, f_deletes == before + 1 .and. f_deleted(f_deletes) == 3000 + rank .and. cdeletes == 5 .and. &
             p == addr .and. pointee == 666 + rank, 'MPI_WIN_FREE: each delete callback in its language', rank)

  ! Datatypes: MPI_TYPE_DUP keeps the language; the predefined MPI_INTEGER's attribute is the rank's.
  call MPI_TYPE_CONTIGUOUS(2, MPI_INTEGER, t1, ierr)
  call MPI_TYPE_SET_ATTR(t1, fk_type, 4000_MPI_ADDRESS_KIND + rank, ierr)
  addr = c_target_address(777_MPI_ADDRESS_KIND + rank)
  call check(me, c_set(K_TYPE, t1, ck_type) == MPI_SUCCESS, 'C sets a datatype attribute', rank)
  call MPI_TYPE_DUP(t1, t2, ierr)
  call MPI_TYPE_GET_ATTR(t2, fk_type, value, flag, ierr)
  call check(me, flag .and. value == 4000 + rank, 'MPI_TYPE_DUP_FN (Fortran) copies the value', rank)
  call check(me, c_get(K_TYPE, t2, fk_type, AS_AINT, p, pointee) == 1 .and. pointee == 4000 + rank, &
             'C reads a pointer to the copied datatype value', rank)
  call MPI_TYPE_GET_ATTR(t2, ck_type, value, flag, ierr)
  call check(me, flag .and. value == addr, 'MPI_TYPE_DUP_FN (C) copies the pointer', rank)
  call check(me, c_get(K_TYPE, t2, ck_type, AS_AINT, p, pointee) == 1 .and. p == addr .and. &
             pointee == 777 + rank, 'C reads the copied pointer', rank)
  call MPI_TYPE_SET_ATTR(MPI_INTEGER, fk_type, 100_MPI_ADDRESS_KIND + rank, ierr)
  call MPI_BARRIER(MPI_COMM_WORLD, ierr)  ! the other ranks of this process have set theirs
  call MPI_TYPE_GET_ATTR(MPI_INTEGER, fk_type, value, flag, ierr)
  call check(me, flag .and. value == 100 + rank, 'an attribute on MPI_INTEGER is the rank''s own', rank)
  call check(me, c_get(K_TYPE, MPI_INTEGER, fk_type, AS_AINT, p, pointee) == 1 .and. pointee == 100 + rank, &
             'C reads the rank''s MPI_INTEGER attribute', rank)
  before = f_deletes
  call MPI_TYPE_DELETE_ATTR(MPI_INTEGER, fk_type, ierr)
  call check(me, f_deletes == before + 1 .and. f_deleted(f_deletes) == 100 + rank, &
             'MPI_TYPE_DELETE_ATTR gives Fortran the value', rank)
  call MPI_TYPE_FREE(t2, ierr)
  call c_deleted(p, pointee, cdeletes)
  call check(me, f_deletes == before + 2 .and. f_deleted(f_deletes) == 4000 + rank .and. cdeletes == 6 .and. &
             p == addr, 'MPI_TYPE_FREE: each delete callback in its language', rank)
  call MPI_TYPE_FREE(t1, ierr)
  call check(me, f_deletes == before + 3, 'freeing the original deletes its own', rank)
  call c_deleted(p, pointee, cdeletes)
  call check(me, cdeletes == 7 .and. pointee == 777 + rank, 'the original''s C attribute deleted', rank)

  call MPI_COMM_FREE_KEYVAL(fk_dup, ierr)
  call MPI_COMM_FREE_KEYVAL(fk_dup2, ierr)
  call MPI_COMM_FREE_KEYVAL(fk_plus, ierr)
  call MPI_COMM_FREE_KEYVAL(fk_null, ierr)
  call MPI_WIN_FREE_KEYVAL(fk_win, ierr)
  call MPI_TYPE_FREE_KEYVAL(fk_type, ierr)
  call check(me, ierr == MPI_SUCCESS .and. fk_type == MPI_KEYVAL_INVALID, 'MPI_TYPE_FREE_KEYVAL', rank)
  call c_free_keyvals(ck_dup, ck_null, ck_win, ck_type)
  if (rank == 0) write(*, '(A)') 'PASS attr_languages'
  call MPI_FINALIZE(ierr)

contains
  subroutine c_get_check(handle, key, pointer)
    integer, intent(in) :: handle, key
    integer(kind=MPI_ADDRESS_KIND), intent(out) :: pointer
    integer(kind=MPI_ADDRESS_KIND) :: ignored
    call check(me, c_get(K_COMM, handle, key, AS_AINT, pointer, ignored) == 1, 'C finds the attribute', rank)
  end subroutine
end program attr_languages
