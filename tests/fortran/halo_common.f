C     FORTRAN 77 halo exchange that keeps all of its state in COMMON blocks, as classic
C     codes do: a periodic 1-D grid of NLOC points per rank, smoothed for NSTEP steps,
C     halos exchanged with MPI_SENDRECV. Rank 0 redoes the whole grid serially and compares
C     the global sum. COMMON lives in .bss: each simulated rank needs its own copy.
      PROGRAM HALO
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NLOC, NSTEP
      PARAMETER (NLOC = 8, NSTEP = 5)
      DOUBLE PRECISION U(0:NLOC+1), UNEW(NLOC)
      INTEGER RANK, NPROCS, LEFT, RIGHT
      COMMON /GRID/ U, UNEW
      COMMON /TOPO/ RANK, NPROCS, LEFT, RIGHT
      INTEGER IERR, I, STEP
      DOUBLE PRECISION LOCAL, TOTAL, SERIAL, T
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      LEFT = MOD(RANK - 1 + NPROCS, NPROCS)
      RIGHT = MOD(RANK + 1, NPROCS)
      DO 10 I = 1, NLOC
         U(I) = DBLE(MOD((RANK * NLOC + I) * 7, 13))
   10 CONTINUE
      DO 30 STEP = 1, NSTEP
         CALL EXCHANGE
         DO 20 I = 1, NLOC
            UNEW(I) = (U(I-1) + U(I) + U(I+1)) / 3.0D0
   20    CONTINUE
         DO 25 I = 1, NLOC
            U(I) = UNEW(I)
   25    CONTINUE
   30 CONTINUE
      LOCAL = 0.0D0
      DO 40 I = 1, NLOC
         LOCAL = LOCAL + U(I) * DBLE(RANK * NLOC + I)
   40 CONTINUE
      CALL MPI_REDUCE(LOCAL, TOTAL, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                0, MPI_COMM_WORLD, IERR)
      T = MPI_WTIME()
      IF (RANK .EQ. 0) THEN
         CALL SERIAL_SUM(NPROCS * NLOC, NSTEP, SERIAL)
         IF (ABS(TOTAL - SERIAL) .GT. 1.0D-9 * ABS(SERIAL)) THEN
            PRINT '(A,2F24.12)', 'FAIL halo_common sum ', TOTAL, SERIAL
            CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
         ENDIF
         PRINT '(A,I0,A,F18.12)', 'VTIME halo_common ranks ', NPROCS,
     &         ' time ', T
         PRINT '(A)', 'PASS halo_common'
      ENDIF
      CALL MPI_FINALIZE(IERR)
      END

C     Fills U(0) and U(NLOC+1) from the neighbours; everything it needs is in COMMON.
      SUBROUTINE EXCHANGE
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER NLOC
      PARAMETER (NLOC = 8)
      DOUBLE PRECISION U(0:NLOC+1), UNEW(NLOC)
      INTEGER RANK, NPROCS, LEFT, RIGHT
      COMMON /GRID/ U, UNEW
      COMMON /TOPO/ RANK, NPROCS, LEFT, RIGHT
      INTEGER IERR
      CALL MPI_SENDRECV(U(NLOC), 1, MPI_DOUBLE_PRECISION, RIGHT, 1,
     &                  U(0), 1, MPI_DOUBLE_PRECISION, LEFT, 1,
     &                  MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      CALL MPI_SENDRECV(U(1), 1, MPI_DOUBLE_PRECISION, LEFT, 2,
     &                  U(NLOC+1), 1, MPI_DOUBLE_PRECISION, RIGHT, 2,
     &                  MPI_COMM_WORLD, MPI_STATUS_IGNORE, IERR)
      END

C     The same smoothing on the whole periodic grid of N points, in one rank.
      SUBROUTINE SERIAL_SUM(N, NSTEP, SUM)
      IMPLICIT NONE
      INTEGER N, NSTEP, I, STEP
      DOUBLE PRECISION SUM
      DOUBLE PRECISION, ALLOCATABLE :: V(:), W(:)
      ALLOCATE(V(0:N+1), W(N))
      DO 10 I = 1, N
         V(I) = DBLE(MOD(I * 7, 13))
   10 CONTINUE
      DO 30 STEP = 1, NSTEP
         V(0) = V(N)
         V(N+1) = V(1)
         DO 20 I = 1, N
            W(I) = (V(I-1) + V(I) + V(I+1)) / 3.0D0
   20    CONTINUE
         DO 25 I = 1, N
            V(I) = W(I)
   25    CONTINUE
   30 CONTINUE
      SUM = 0.0D0
      DO 40 I = 1, N
         SUM = SUM + V(I) * DBLE(I)
   40 CONTINUE
      DEALLOCATE(V, W)
      END
