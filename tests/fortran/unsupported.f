C     A Fortran call xsim does not simulate must stop the run, naming the call.
      PROGRAM UNSUP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR
      CALL MPI_INIT(IERR)
      CALL MPI_WIN_FENCE(0, 0, IERR)
      PRINT '(A)', 'PASS unsupported_f'
      CALL MPI_FINALIZE(IERR)
      END
