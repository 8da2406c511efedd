      PROGRAM HEAT2D
C
C     heat.f -- explicit 2-D heat equation (Jacobi sweeps), FORTRAN 77 with MPI.
C
C     Written like the classic codes: run parameters, the decomposition and the grid live
C     in COMMON blocks (heat.inc), rank 0 reads the command line and broadcasts it, the
C     grid is split over a 2-D Cartesian communicator, halos move with MPI_SENDRECV (rows
C     through an MPI_TYPE_VECTOR), and the residual is an MPI_ALLREDUCE.
C
C     Every grid point gets the same floating-point operations in the same order for any
C     decomposition, so the final grid is bitwise the same on any number of ranks: the
C     RESULT lines marked "exact" (a weighted checksum of the bits, the maximum, the centre
C     value) must match exactly; sums over ranks (heat, residual) carry a tolerance.
C
C     usage: heat [NX [NY [NITER [NCHECK]]]]   (defaults 40 40 500 50)
C
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'heat.inc'
      INTEGER IERR, IT, NBAD
      DOUBLE PRECISION RESID, RFIRST, T0, T1
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, MYID, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NUMPROCS, IERR)
C
      CALL RDPARM
      CALL SETUP
      CALL INIT
C
      IF (MYID .EQ. 0) THEN
         WRITE(*,'(A)') ' 2-D heat equation, Jacobi sweeps'
         WRITE(*,'(A,I6,A,I6,A,I6,A,I4,A,I4)') ' grid ', NXG, ' x', NYG,
     &        '  steps', NITER, '  ranks', DIMS(1), ' x', DIMS(2)
      ENDIF
C
      RFIRST = -1.0D0
      NBAD = 0
      CALL MPI_BARRIER(MPI_COMM_WORLD, IERR)
      T0 = MPI_WTIME()
      DO 10 IT = 1, NITER
         CALL EXCHNG
         CALL SWEEP
         IF (MOD(IT, NCHECK) .EQ. 0 .OR. IT .EQ. NITER) THEN
            CALL RESIDL(RESID)
            IF (MYID .EQ. 0) WRITE(*,'(A,I6,A,ES14.6)')
     &           ' step', IT, '  residual', RESID
C           Diffusion only smooths: the residual never grows.
            IF (RFIRST .GE. 0.0D0 .AND. RESID .GT. RFIRST) NBAD = NBAD+1
            RFIRST = RESID
         ENDIF
         CALL COPYBK
   10 CONTINUE
      T1 = MPI_WTIME() - T0
C
      CALL REPORT(RESID, NBAD, T1)
C
      CALL MPI_TYPE_FREE(ROWTYPE, IERR)
      CALL MPI_COMM_FREE(COMM2D, IERR)
      CALL MPI_FINALIZE(IERR)
      END
C
C ---------------------------------------------------------------------------------------
C     Rank 0 reads the command line; everybody gets the values by MPI_BCAST.
C
      SUBROUTINE RDPARM
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'heat.inc'
      INTEGER IPAR(5), I, IERR, IOS, NARG
      CHARACTER*32 ARG
C
      IF (MYID .EQ. 0) THEN
         IPAR(1) = 40
         IPAR(2) = 40
         IPAR(3) = 500
         IPAR(4) = 50
         IPAR(5) = 0
         NARG = COMMAND_ARGUMENT_COUNT()
         IF (NARG .GT. 4) THEN
            WRITE(*,'(A)')
     &           'heat: usage: heat [NX [NY [NITER [NCHECK]]]]'
            IPAR(5) = 1
         ENDIF
         DO 20 I = 1, MIN(NARG, 4)
            CALL GET_COMMAND_ARGUMENT(I, ARG)
            READ(ARG, '(I32)', IOSTAT=IOS) IPAR(I)
            IF (IOS .NE. 0 .OR. IPAR(I) .LT. 1) THEN
               WRITE(*,'(A,I1,A,A,A)') 'heat: argument ', I,
     &              ' must be a positive integer, got ''',
     &              ARG(1:LEN_TRIM(ARG)), ''''
               IPAR(5) = 1
            ENDIF
   20    CONTINUE
      ENDIF
      CALL MPI_BCAST(IPAR, 5, MPI_INTEGER, 0, MPI_COMM_WORLD, IERR)
      IF (IPAR(5) .NE. 0) CALL MPI_ABORT(MPI_COMM_WORLD, 2, IERR)
      NXG = IPAR(1)
      NYG = IPAR(2)
      NITER = IPAR(3)
      NCHECK = IPAR(4)
      ALPHA = 0.2D0
      END
C
C ---------------------------------------------------------------------------------------
C     Block distribution of N points over NPROCS (MPE_Decomp1d of "Using MPI").
C
      SUBROUTINE DECOMP(N, NPROCS, MYID1, S, E)
      IMPLICIT NONE
      INTEGER N, NPROCS, MYID1, S, E, NLOC, DEFICT
C
      NLOC = N / NPROCS
      S = MYID1 * NLOC + 1
      DEFICT = MOD(N, NPROCS)
      S = S + MIN(MYID1, DEFICT)
      IF (MYID1 .LT. DEFICT) NLOC = NLOC + 1
      E = S + NLOC - 1
      IF (E .GT. N .OR. MYID1 .EQ. NPROCS-1) E = N
      END
C
C ---------------------------------------------------------------------------------------
C     Cartesian communicator, neighbours, local block and the row type.
C
      SUBROUTINE SETUP
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'heat.inc'
      LOGICAL PERIOD(2)
      INTEGER IERR, IBAD, IBADG
C
      DIMS(1) = 0
      DIMS(2) = 0
      PERIOD(1) = .FALSE.
      PERIOD(2) = .FALSE.
      CALL MPI_DIMS_CREATE(NUMPROCS, 2, DIMS, IERR)
      CALL MPI_CART_CREATE(MPI_COMM_WORLD, 2, DIMS, PERIOD, .FALSE.,
     &                     COMM2D, IERR)
      CALL MPI_COMM_RANK(COMM2D, MYID, IERR)
      CALL MPI_CART_COORDS(COMM2D, MYID, 2, COORDS, IERR)
      CALL MPI_CART_SHIFT(COMM2D, 0, 1, NBLEFT, NBRIGHT, IERR)
      CALL MPI_CART_SHIFT(COMM2D, 1, 1, NBDOWN, NBUP, IERR)
      CALL DECOMP(NXG, DIMS(1), COORDS(1), IS, IE)
      CALL DECOMP(NYG, DIMS(2), COORDS(2), JS, JE)
      NXL = IE - IS + 1
      NYL = JE - JS + 1
C
C     Every rank needs at least one point, and the block must fit the COMMON arrays.
      IBAD = 0
      IF (NXL .LT. 1 .OR. NYL .LT. 1) IBAD = 1
      IF (NXL .GT. MAXL .OR. NYL .GT. MAXL) IBAD = 2
      CALL MPI_ALLREDUCE(IBAD, IBADG, 1, MPI_INTEGER, MPI_MAX,
     &                   MPI_COMM_WORLD, IERR)
      IF (IBADG .NE. 0) THEN
         IF (MYID .EQ. 0 .AND. IBADG .EQ. 1) WRITE(*,'(A,I6,A,I6,A)')
     &      'heat: a ', NXG, ' x', NYG,
     &      ' grid leaves some ranks without points; use a larger grid'
         IF (MYID .EQ. 0 .AND. IBADG .EQ. 2) WRITE(*,'(A,I4,A,I4,A)')
     &      'heat: the local block exceeds MAXL =', MAXL,
     &      ' (heat.inc) on', NUMPROCS, ' ranks; use more ranks'
         CALL MPI_ABORT(MPI_COMM_WORLD, 2, IERR)
      ENDIF
C
C     One local row U(I, 1:NYL): NYL values MAXL+2 apart.
      CALL MPI_TYPE_VECTOR(NYL, 1, MAXL+2, MPI_DOUBLE_PRECISION,
     &                     ROWTYPE, IERR)
      CALL MPI_TYPE_COMMIT(ROWTYPE, IERR)
      END
C
C ---------------------------------------------------------------------------------------
C     Initial field and boundary values, by global index.
C
      SUBROUTINE INIT
      IMPLICIT NONE
      INCLUDE 'heat.inc'
      INTEGER I, J, IG, JG
C
      DO 35 J = 0, MAXL+1
         DO 30 I = 0, MAXL+1
            U(I,J) = 0.0D0
   30 CONTINUE
   35 CONTINUE
      DO 45 J = 1, NYL
         DO 40 I = 1, NXL
            IG = IS + I - 1
            JG = JS + J - 1
            U(I,J) = DBLE(MOD(7*IG + 13*JG, 17)) / 16.0D0
   40 CONTINUE
   45 CONTINUE
C     Hot top edge (global J = NYG+1), warm left edge (I = 0), the others cold.
      IF (JE .EQ. NYG) THEN
         DO 50 I = 0, NXL+1
            U(I, NYL+1) = 1.0D0
   50    CONTINUE
      ENDIF
      IF (IS .EQ. 1) THEN
         DO 60 J = 0, NYL
            U(0, J) = 0.5D0
   60    CONTINUE
      ENDIF
      DO 75 J = 0, MAXL+1
         DO 70 I = 0, MAXL+1
            UNEW(I,J) = U(I,J)
   70 CONTINUE
   75 CONTINUE
      END
C
C ---------------------------------------------------------------------------------------
C     Halo exchange: rows to the left/right neighbours, columns down/up.
C
      SUBROUTINE EXCHNG
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'heat.inc'
      INTEGER IERR, STATUS(MPI_STATUS_SIZE)
C
      CALL MPI_SENDRECV(U(NXL,1), 1, ROWTYPE, NBRIGHT, 0,
     &                  U(0,1), 1, ROWTYPE, NBLEFT, 0,
     &                  COMM2D, STATUS, IERR)
      CALL MPI_SENDRECV(U(1,1), 1, ROWTYPE, NBLEFT, 1,
     &                  U(NXL+1,1), 1, ROWTYPE, NBRIGHT, 1,
     &                  COMM2D, STATUS, IERR)
      CALL MPI_SENDRECV(U(1,NYL), NXL, MPI_DOUBLE_PRECISION, NBUP, 2,
     &                  U(1,0), NXL, MPI_DOUBLE_PRECISION, NBDOWN, 2,
     &                  COMM2D, STATUS, IERR)
      CALL MPI_SENDRECV(U(1,1), NXL, MPI_DOUBLE_PRECISION, NBDOWN, 3,
     &                  U(1,NYL+1), NXL, MPI_DOUBLE_PRECISION, NBUP, 3,
     &                  COMM2D, STATUS, IERR)
      END
C
C ---------------------------------------------------------------------------------------
C     One explicit step of u_t = laplace(u).
C
      SUBROUTINE SWEEP
      IMPLICIT NONE
      INCLUDE 'heat.inc'
      INTEGER I, J
C
      DO 85 J = 1, NYL
         DO 80 I = 1, NXL
            UNEW(I,J) = U(I,J) + ALPHA * ((U(I-1,J) + U(I+1,J))
     &                + (U(I,J-1) + U(I,J+1)) - 4.0D0 * U(I,J))
   80 CONTINUE
   85 CONTINUE
      END
C
      SUBROUTINE COPYBK
      IMPLICIT NONE
      INCLUDE 'heat.inc'
      INTEGER I, J
C
      DO 95 J = 1, NYL
         DO 90 I = 1, NXL
            U(I,J) = UNEW(I,J)
   90 CONTINUE
   95 CONTINUE
      END
C
C ---------------------------------------------------------------------------------------
C     Global 2-norm of the last update.
C
      SUBROUTINE RESIDL(RESID)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'heat.inc'
      DOUBLE PRECISION RESID, RLOC, D
      INTEGER I, J, IERR
C
      RLOC = 0.0D0
      DO 105 J = 1, NYL
         DO 100 I = 1, NXL
            D = UNEW(I,J) - U(I,J)
            RLOC = RLOC + D * D
  100 CONTINUE
  105 CONTINUE
      CALL MPI_ALLREDUCE(RLOC, RESID, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      RESID = SQRT(RESID)
      END
C
C ---------------------------------------------------------------------------------------
C     Final answers. The checksum weighs the two 32-bit halves of every value (read
C     through EQUIVALENCE) by the point's global index: integer sums, so exact in any
C     order.
C
      SUBROUTINE REPORT(RESID, NBAD, TIME)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INCLUDE 'heat.inc'
      DOUBLE PRECISION RESID, TIME
      INTEGER NBAD
      DOUBLE PRECISION DTMP, RLOC(2), RGLB(2), HLOC, HEAT, UC
      INTEGER ITMP(2), I, J, IG, JG, IERR, NPTS, NBADG
      INTEGER*8 CLOC(3), CGLB(3), HALF(2), W
      EQUIVALENCE (DTMP, ITMP(1))
C
      CLOC(1) = 0
      CLOC(2) = 0
      CLOC(3) = 0
      HLOC = 0.0D0
      RLOC(1) = -HUGE(1.0D0)
      RLOC(2) = -HUGE(1.0D0)
      DO 115 J = 1, NYL
         DO 110 I = 1, NXL
            IG = IS + I - 1
            JG = JS + J - 1
            DTMP = U(I,J)
            HALF(1) = ITMP(1)
            HALF(2) = ITMP(2)
            IF (HALF(1) .LT. 0) HALF(1) = HALF(1) + 4294967296_8
            IF (HALF(2) .LT. 0) HALF(2) = HALF(2) + 4294967296_8
            W = MOD(INT(IG,8) * 7919_8 + INT(JG,8), 1000_8) + 1_8
            CLOC(1) = CLOC(1) + HALF(1) * W
            CLOC(2) = CLOC(2) + HALF(2) * W
            CLOC(3) = CLOC(3) + 1
            HLOC = HLOC + U(I,J)
            RLOC(1) = MAX(RLOC(1), U(I,J))
            IF (IG .EQ. (NXG+1)/2 .AND. JG .EQ. (NYG+1)/2)
     &         RLOC(2) = U(I,J)
C           The maximum principle: every value stays within the initial range [0, 1].
            IF (U(I,J) .LT. 0.0D0 .OR. U(I,J) .GT. 1.0D0) NBAD = NBAD+1
  110 CONTINUE
  115 CONTINUE
      CALL MPI_ALLREDUCE(CLOC, CGLB, 3, MPI_INTEGER8, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(RLOC, RGLB, 2, MPI_DOUBLE_PRECISION, MPI_MAX,
     &                   MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(HLOC, HEAT, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      CALL MPI_ALLREDUCE(NBAD, NBADG, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      NPTS = INT(CGLB(3))
      UC = RGLB(2)
      IF (NPTS .NE. NXG * NYG) NBADG = NBADG + 1
C
      IF (MYID .EQ. 0) THEN
         WRITE(*,'(A,F12.6)') ' time (s)   ', TIME
         WRITE(*,'(A,I12)') 'RESULT points exact ', NPTS
         WRITE(*,'(A,I20,1X,I20)') 'RESULT checksum exact ',
     &        CGLB(1), CGLB(2)
         WRITE(*,'(A,ES25.17)') 'RESULT umax exact ', RGLB(1)
         WRITE(*,'(A,ES25.17)') 'RESULT ucentre exact ', UC
         WRITE(*,'(A,ES25.17)') 'RESULT heat rel 1e-12 ', HEAT
         WRITE(*,'(A,ES25.17)') 'RESULT residual rel 1e-10 ', RESID
         IF (NBADG .EQ. 0) THEN
            WRITE(*,'(A)') 'RESULT verification exact SUCCESSFUL'
         ELSE
            WRITE(*,'(A,I8,A)') 'RESULT verification exact FAILED (',
     &           NBADG, ' problems)'
         ENDIF
      ENDIF
      IF (NBADG .NE. 0) CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      END
