C     An INTEGER that names no communicator must be reported as an invalid communicator.
      PROGRAM BADH
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, N
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_SIZE(12345, N, IERR)
      PRINT '(A)', 'PASS bad_handle'
      CALL MPI_FINALIZE(IERR)
      END
