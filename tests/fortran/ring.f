C     FORTRAN 77 ring with include 'mpif.h': a token travels once round MPI_COMM_WORLD,
C     each rank adding its number; then a MPI_SENDRECV shift checks the status fields.
      PROGRAM RING
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER RANK, NPROCS, IERR, TOKEN, LEFT, RIGHT, EXPECT, GOT
      INTEGER STATUS(MPI_STATUS_SIZE), COUNT
      DOUBLE PRECISION T
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      LEFT = MOD(RANK - 1 + NPROCS, NPROCS)
      RIGHT = MOD(RANK + 1, NPROCS)
      IF (RANK .EQ. 0) THEN
         TOKEN = 0
         CALL MPI_SEND(TOKEN, 1, MPI_INTEGER, RIGHT, 7,
     &                 MPI_COMM_WORLD, IERR)
         CALL MPI_RECV(TOKEN, 1, MPI_INTEGER, LEFT, 7,
     &                 MPI_COMM_WORLD, STATUS, IERR)
         EXPECT = NPROCS * (NPROCS - 1) / 2
         IF (TOKEN .NE. EXPECT) THEN
            PRINT '(A,I0,A,I0)', 'FAIL ring_f77 token ', TOKEN,
     &            ' expected ', EXPECT
            CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
         ENDIF
      ELSE
         CALL MPI_RECV(TOKEN, 1, MPI_INTEGER, LEFT, 7,
     &                 MPI_COMM_WORLD, STATUS, IERR)
         TOKEN = TOKEN + RANK
         CALL MPI_SEND(TOKEN, 1, MPI_INTEGER, RIGHT, 7,
     &                 MPI_COMM_WORLD, IERR)
      ENDIF
      IF (STATUS(MPI_SOURCE) .NE. LEFT .OR. STATUS(MPI_TAG) .NE. 7) THEN
         PRINT '(A,I0)', 'FAIL ring_f77 status on rank ', RANK
         CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      ENDIF
C     Shift right: every rank receives its left neighbour's number.
      CALL MPI_SENDRECV(RANK, 1, MPI_INTEGER, RIGHT, 9, GOT, 1,
     &                  MPI_INTEGER, LEFT, 9, MPI_COMM_WORLD, STATUS,
     &                  IERR)
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, COUNT, IERR)
      IF (GOT .NE. LEFT .OR. COUNT .NE. 1) THEN
         PRINT '(A,I0)', 'FAIL ring_f77 sendrecv on rank ', RANK
         CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      ENDIF
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      T = MPI_WTIME()
      IF (RANK .EQ. 0) THEN
         PRINT '(A,I0,A,F18.12)', 'VTIME ring_f77 ranks ', NPROCS,
     &         ' time ', T
         PRINT '(A)', 'PASS ring_f77'
      ENDIF
      CALL MPI_FINALIZE(IERR)
      END
