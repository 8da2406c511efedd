C     A Fortran call xsim does not simulate must stop the run, naming the call.
      PROGRAM UNSUP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, CHILDREN
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SPAWN('child', MPI_ARGV_NULL, 1, MPI_INFO_NULL,
     &     0, MPI_COMM_SELF, CHILDREN, MPI_ERRCODES_IGNORE, IERR)
      PRINT '(A)', 'PASS unsupported_f'
      CALL MPI_FINALIZE(IERR)
      END
