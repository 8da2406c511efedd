! RANDOM_NUMBER and RANDOM_SEED are per rank, as in a real run where each rank is a process:
! every rank seeds with a seed of its own (PUT), then draws scalars of kinds 4 and 8 and an
! array with a barrier after each draw (the other ranks draw in between), and takes the
! state back (GET). Then it seeds again with the same seed and draws the same without
! barriers: the values and the state must be the same, and the ranks with equal seeds
! (rank mod 2) must have drawn the same numbers.
program random_numbers
  use mpi
  use test_check
  implicit none
  integer :: rank, size, ierr, n, i
  integer, allocatable :: seed(:), got(:), again(:)
  real :: single(3), single_again(3)
  double precision :: x(4), x_again(4), a(5), a_again(5), mine(4), partner(4)
  integer :: status(MPI_STATUS_SIZE)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call random_seed(size=n)
  allocate(seed(n), got(n), again(n))
  seed = [(1000 * i + mod(rank, 2), i = 1, n)]

  call random_seed(put=seed)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  do i = 1, 4
    call random_number(x(i))
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  do i = 1, 3
    call random_number(single(i))
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  call random_number(a)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call random_seed(get=got)

  call random_seed(put=seed)
  do i = 1, 4
    call random_number(x_again(i))
  end do
  do i = 1, 3
    call random_number(single_again(i))
  end do
  call random_number(a_again)
  call random_seed(get=again)
  call check('random_numbers_f90', all(x == x_again), 'scalar real(8) draws across barriers', rank)
  call check('random_numbers_f90', all(single == single_again), 'scalar real(4) draws across barriers', rank)
  call check('random_numbers_f90', all(a == a_again), 'array draw across barriers', rank)
  call check('random_numbers_f90', all(got == again), 'RANDOM_SEED(GET) after the draws', rank)

  ! Ranks 0 and 2 seeded alike: the same numbers.
  mine = x
  if (size >= 3) then
    if (rank == 2) call MPI_Send(mine, 4, MPI_DOUBLE_PRECISION, 0, 7, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
      call MPI_Recv(partner, 4, MPI_DOUBLE_PRECISION, 2, 7, MPI_COMM_WORLD, status, ierr)
      call check('random_numbers_f90', all(partner == mine), 'equal seeds, equal numbers (ranks 0 and 2)', rank)
    end if
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A,I0,A)', 'PASS random_numbers_f90 (', size, ' ranks)'
  call MPI_Finalize(ierr)
end program random_numbers
