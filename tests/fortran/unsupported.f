C     A Fortran call xsim does not simulate must stop the run, naming the call.
      PROGRAM UNSUP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR
      CALL MPI_INIT(IERR)
      CALL MPI_FILE_DELETE('xsim-no-such-file', MPI_INFO_NULL, IERR)
      PRINT '(A)', 'PASS unsupported_f'
      CALL MPI_FINALIZE(IERR)
      END
