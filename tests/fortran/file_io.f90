! MPI-IO from Fortran (use mpi): every rank writes NB blocks of B integers through a view
! that interleaves the ranks (a resized vector filetype, displacement rank * B integers)
! with MPI_FILE_WRITE_AT_ALL, reads the next rank's blocks through that rank's view with
! MPI_FILE_SET_VIEW + MPI_FILE_READ, then rank 0 reads the whole file with MPI_FILE_READ_AT
! on a plain view and checks every value; an error handler written in Fortran
! (MPI_FILE_CREATE_ERRHANDLER) is called with the file and the code of a read at a negative
! offset. Argument: the file's name.
program file_io
  use mpi
  use test_check
  implicit none
  integer, parameter :: B = 3, NB = 4
  integer :: handler, error_class
  integer :: rank, nranks, ierr, fh, blocktype, filetype, next, i, k, count
  integer :: status(MPI_STATUS_SIZE)
  integer :: mine(B * NB), theirs(B * NB)
  integer, allocatable :: whole(:)
  integer(kind=MPI_OFFSET_KIND) :: disp, fsize
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent
  character(len=512) :: name

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  call get_command_argument(1, name)
  do k = 0, NB - 1
    do i = 1, B
      mine(k * B + i) = rank * 10000 + k * 100 + i
    end do
  end do

  call MPI_File_open(MPI_COMM_WORLD, trim(name), MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call check('file_io', ierr == MPI_SUCCESS, 'MPI_FILE_OPEN', rank)
  call MPI_File_set_size(fh, 0_MPI_OFFSET_KIND, ierr)
  call MPI_Type_contiguous(B, MPI_INTEGER, blocktype, ierr)
  lb = 0
  extent = int(nranks, MPI_ADDRESS_KIND) * B * 4
  call MPI_Type_create_resized(blocktype, lb, extent, filetype, ierr)
  call MPI_Type_commit(filetype, ierr)
  disp = int(rank, MPI_OFFSET_KIND) * B * 4
  call MPI_File_set_view(fh, disp, MPI_INTEGER, filetype, 'native', MPI_INFO_NULL, ierr)
  call check('file_io', ierr == MPI_SUCCESS, 'MPI_FILE_SET_VIEW', rank)
  call MPI_File_write_at_all(fh, 0_MPI_OFFSET_KIND, mine, B * NB, MPI_INTEGER, status, ierr)
  call check('file_io', ierr == MPI_SUCCESS, 'MPI_FILE_WRITE_AT_ALL', rank)
  call MPI_Get_count(status, MPI_INTEGER, count, ierr)
  call check('file_io', count == B * NB, 'MPI_GET_COUNT of the write', rank)
  call MPI_File_sync(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_File_sync(fh, ierr)

  next = mod(rank + 1, nranks)
  disp = int(next, MPI_OFFSET_KIND) * B * 4
  call MPI_File_set_view(fh, disp, MPI_INTEGER, filetype, 'native', MPI_INFO_NULL, ierr)
  theirs = -1
  call MPI_File_read(fh, theirs, B * NB, MPI_INTEGER, status, ierr)
  call check('file_io', ierr == MPI_SUCCESS, 'MPI_FILE_READ', rank)
  do k = 0, NB - 1
    do i = 1, B
      call check('file_io', theirs(k * B + i) == next * 10000 + k * 100 + i, 'the next rank''s blocks', rank)
    end do
  end do
  call MPI_File_get_size(fh, fsize, ierr)
  call check('file_io', fsize == int(nranks, MPI_OFFSET_KIND) * B * NB * 4, 'MPI_FILE_GET_SIZE', rank)

  ! MPI_FILE_SET_VIEW is collective (it resets the shared file pointer): every rank.
  call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL, ierr)
  if (rank == 0) then
    allocate(whole(nranks * B * NB))
    call MPI_File_read_at(fh, 0_MPI_OFFSET_KIND, whole, nranks * B * NB, MPI_INTEGER, status, ierr)
    do k = 0, nranks * NB - 1
      do i = 1, B
        call check('file_io', whole(k * B + i) == mod(k, nranks) * 10000 + (k / nranks) * 100 + i, &
                   'the file''s contents', rank)
      end do
    end do
  end if
  call MPI_File_create_errhandler(note_error, handler, ierr)
  call check('file_io', ierr == MPI_SUCCESS, 'MPI_FILE_CREATE_ERRHANDLER', rank)
  call MPI_File_set_errhandler(fh, handler, ierr)
  call MPI_File_read_at(fh, -1_MPI_OFFSET_KIND, theirs, 1, MPI_INTEGER, status, ierr)
  call MPI_Error_class(handled_code, error_class, ierr)
  call check('file_io', handled_handle == fh .and. error_class == MPI_ERR_ARG, &
             'the Fortran error handler saw the file and MPI_ERR_ARG', rank)
  call MPI_Errhandler_free(handler, ierr)
  call MPI_File_close(fh, ierr)
  call check('file_io', ierr == MPI_SUCCESS .and. fh == MPI_FILE_NULL, 'MPI_FILE_CLOSE', rank)
  call MPI_Type_free(filetype, ierr)
  call MPI_Type_free(blocktype, ierr)
  if (rank == 0) print '(A)', 'PASS file_io'
  call MPI_Finalize(ierr)
end program file_io
