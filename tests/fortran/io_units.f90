! Fortran I/O units are per rank, as in a real run where each rank is a process: every rank
! opens unit 10 to a file of its own and keeps it open while the others do the same, asks
! INQUIRE about it, flushes it and reads it back. Then every other rank sends its standard
! output to a file of its own (OPEN(6, FILE=...), as Quantum ESPRESSO's ranks but the first
! send it to /dev/null), PRINTs into it and reads that back after CLOSE(6), which returns
! it to the shared stream; rank 1 also closes its standard output (CLOSE(6)). Through all
! this rank 0's PASS line must still reach stdout.
! The first argument is a prefix for the files (each test gets its own).
program io_units
  use mpi
  use test_check
  implicit none
  integer :: rank, size, ierr, first, second, ios
  character(len=256) :: prefix, mine, named
  logical :: opened

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call get_command_argument(1, prefix)
  write(mine, '(A,I0,A)') trim(prefix), rank, '.txt'

  open(unit=10, file=trim(mine), status='replace', action='readwrite', iostat=ios)
  call check('io_units_f90', ios == 0, 'open', rank)
  write(10, '(I0)') rank
  call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! every rank has its unit 10 open now
  inquire(unit=10, opened=opened, name=named)
  call check('io_units_f90', opened, 'inquire opened', rank)
  call check('io_units_f90', index(named, trim(mine)) > 0, 'inquire name', rank)
  write(10, '(I0)') 100 * rank
  call flush(10)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  rewind(10)
  read(10, *, iostat=ios) first
  call check('io_units_f90', ios == 0 .and. first == rank, 'first value read back', rank)
  read(10, *, iostat=ios) second
  call check('io_units_f90', ios == 0 .and. second == 100 * rank, 'second value read back', rank)
  close(10, status='delete')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  inquire(unit=10, opened=opened)
  call check('io_units_f90', .not. opened, 'closed', rank)

  write(named, '(A,I0,A)') trim(prefix), rank, '.stdout'
  if (rank > 0) then
    open(unit=6, file=trim(named), status='replace', iostat=ios)
    call check('io_units_f90', ios == 0, 'open of unit 6 to a file', rank)
    print '(A,I0)', 'own standard output of rank ', rank
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)  ! the others' unit 6 is their file now
  if (rank > 0) then
    close(6)
    open(unit=11, file=trim(named), status='old', iostat=ios)
    mine = ''
    read(11, '(A)', iostat=ios) mine
    call check('io_units_f90', ios == 0 .and. mine == 'own standard output of rank ' // char(48 + mod(rank, 10)) &
               .or. rank >= 10, 'what the rank printed into its unit 6 file', rank)
    close(11, status='delete')
  end if
  if (rank == 1) close(6)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A,I0,A)', 'PASS io_units_f90 (', size, ' ranks)'
  call MPI_Finalize(ierr)
end program io_units
