! PARPACK (Debian's libparpack2-dev, unmodified) under xsim: the symmetric reverse-communication
! driver of the ARPACK users' guide (pdsaupd, then pdseupd for the Ritz vectors) on the 1-D
! Laplacian tridiag(-1, 2, -1) of order 64, its rows in contiguous blocks over the ranks (as
! PARPACK's pdsdrv1 example distributes its rows). PARPACK's norms and orthogonalizations are
! MPI_Allreduce calls of its own; the product is a halo exchange with MPI_Sendrecv. The four
! largest eigenvalues must be 2 - 2 cos(k pi / 65), k = 64..61, and every Ritz pair's residual
! || A x - lambda x || (computed here, across the ranks) small; natively the same at any
! number of processes up to 64.
program parpack_laplacian
  use mpi
  use test_check
  implicit none
  integer, parameter :: n = 64, nev = 4, ncv = 20, maxnloc = 64
  integer, parameter :: lworkl = ncv * (ncv + 8)
  double precision, parameter :: pi = 3.14159265358979323846d0
  integer :: rank, size, ierr, nloc, ido, info, iparam(11), ipntr(11), j, k, nconv
  double precision :: v(maxnloc, ncv), workl(lworkl), workd(3 * maxnloc), d(ncv, 2)
  double precision :: resid(maxnloc), ax(maxnloc), tol, sigma, exact, rnorm, xnorm
  logical :: select(ncv)
  character(len=1) :: bmat
  character(len=2) :: which
  double precision, external :: pdnorm2

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  nloc = n / size
  if (rank < mod(n, size)) nloc = nloc + 1

  bmat = 'I'
  which = 'LA'
  tol = 0d0
  info = 0
  ido = 0
  iparam = 0
  iparam(1) = 1      ! exact shifts
  iparam(3) = 300    ! maximum number of Arnoldi update iterations
  iparam(7) = 1      ! mode 1: A x = lambda x
  do
    call pdsaupd(MPI_COMM_WORLD, ido, bmat, nloc, which, nev, tol, resid, ncv, v, maxnloc, &
                 iparam, ipntr, workd, workl, lworkl, info)
    if (ido /= -1 .and. ido /= 1) exit
    call laplacian(workd(ipntr(1)), workd(ipntr(2)))
  end do
  call check('parpack_laplacian', info == 0, 'pdsaupd returned info 0', rank)

  call pdseupd(MPI_COMM_WORLD, .true., 'All', select, d, v, maxnloc, sigma, bmat, nloc, which, &
               nev, tol, resid, ncv, v, maxnloc, iparam, ipntr, workd, workl, lworkl, ierr)
  call check('parpack_laplacian', ierr == 0, 'pdseupd returned 0', rank)
  nconv = iparam(5)
  call check('parpack_laplacian', nconv == nev, 'all four Ritz values converged', rank)

  do j = 1, nconv
    ! pdseupd gives the wanted values in ascending order: the largest, n, last.
    k = n - nconv + j
    exact = 2d0 - 2d0 * cos(k * pi / (n + 1))
    if (rank == 0) print '(A,I0,A,F18.14,A,F18.14)', 'lambda_', k, ' = ', d(j, 1), ' exact ', exact
    call check('parpack_laplacian', abs(d(j, 1) - exact) < 1d-10, 'eigenvalue as 2 - 2 cos(k pi/65)', rank)
    call laplacian(v(1, j), ax)
    ax(1:nloc) = ax(1:nloc) - d(j, 1) * v(1:nloc, j)
    rnorm = pdnorm2(MPI_COMM_WORLD, nloc, ax, 1)
    xnorm = pdnorm2(MPI_COMM_WORLD, nloc, v(1, j), 1)
    call check('parpack_laplacian', abs(xnorm - 1d0) < 1d-10, 'Ritz vector of norm 1 across the ranks', rank)
    call check('parpack_laplacian', rnorm < 1d-9, 'residual of the Ritz pair across the ranks', rank)
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(A,I0,A,I0,A)', 'PASS parpack_laplacian (', size, ' ranks, ', iparam(3), &
                                        ' Arnoldi iterations)'
  call MPI_Finalize(ierr)

contains

  ! y = A x on this rank's rows; the neighbours' boundary values by MPI_Sendrecv.
  subroutine laplacian(x, y)
    double precision, intent(in) :: x(*)
    double precision, intent(out) :: y(*)
    double precision :: left, right
    integer :: lower, upper, status(MPI_STATUS_SIZE), i
    lower = rank - 1
    upper = rank + 1
    if (lower < 0) lower = MPI_PROC_NULL
    if (upper >= size) upper = MPI_PROC_NULL
    left = 0d0
    right = 0d0
    call MPI_Sendrecv(x(nloc), 1, MPI_DOUBLE_PRECISION, upper, 1, left, 1, MPI_DOUBLE_PRECISION, &
                      lower, 1, MPI_COMM_WORLD, status, ierr)
    call MPI_Sendrecv(x(1), 1, MPI_DOUBLE_PRECISION, lower, 2, right, 1, MPI_DOUBLE_PRECISION, &
                      upper, 2, MPI_COMM_WORLD, status, ierr)
    do i = 1, nloc
      y(i) = 2d0 * x(i)
      if (i > 1) then
        y(i) = y(i) - x(i - 1)
      else
        y(i) = y(i) - left
      end if
      if (i < nloc) then
        y(i) = y(i) - x(i + 1)
      else
        y(i) = y(i) - right
      end if
    end do
  end subroutine
end program parpack_laplacian
