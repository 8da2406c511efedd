! coarrays: a Fortran 2018 coarray program as its users build it, with gfortran -fcoarray=lib
! and OpenCoarrays' MPI library (Debian's libcaf_openmpi.a), relinked with xsim. What
! OpenCoarrays asks of MPI beyond a plain MPI program:
! - MPI_Init_thread from a static constructor of the program (gfortran registers each static
!   coarray in one, before main): each rank runs the program's constructors;
! - coarrays are MPI windows, read and written under passive-target locks;
! - EVENT WAIT polls the image's own window (MPI_Win_sync, a load, usleep) until another
!   image's accumulate lands in it;
! - CO_REDUCE's operator here is an internal function that uses its host's local variable:
!   gfortran passes it through a trampoline on the stack, so the program's stack (and the
!   ranks' stacks) must be executable.
! Any wrong value stops the image (ERROR STOP); image 1 prints "PASS coarrays" at the end.
module modulo_reduction
  implicit none
contains
  ! A sum modulo a local of this subroutine: sum_modulo reaches `modulus` through a static
  ! chain, so gfortran passes it to CO_REDUCE through a trampoline.
  subroutine reduce_with_host_variable(me, np)
    integer, intent(in) :: me, np
    integer :: modulus, value
    modulus = 1000003
    value = me
    call co_reduce(value, sum_modulo)
    if (value /= mod(np * (np + 1) / 2, modulus)) then
      print '(a, i0, a, i0, a, i0)', 'FAIL coarrays: image ', me, ': co_reduce gave ', value, ', expected ', &
        mod(np * (np + 1) / 2, modulus)
      error stop 1
    end if
  contains
    pure function sum_modulo(a, b) result(c)
      integer, intent(in) :: a, b
      integer :: c
      c = mod(a + b, modulus)
    end function
  end subroutine

end module

program coarrays
  use iso_fortran_env, only: event_type
  use modulo_reduction
  implicit none
  integer :: me, np, i, left, right, total
  integer :: ring[*]
  integer, allocatable :: blocks(:)[:]
  type(event_type) :: arrived[*]

  me = this_image()
  np = num_images()
  right = mod(me, np) + 1
  left = mod(me - 2 + np, np) + 1

  ! A put to the right neighbour's static coarray.
  ring = -1
  sync all
  ring[right] = me
  sync all
  if (ring /= left) call fail('ring put', ring, left)

  ! A get from an allocatable coarray (a window made by ALLOCATE).
  allocate(blocks(4)[*])
  blocks = [(100 * me + i, i = 1, 4)]
  sync all
  do i = 1, 4
    if (blocks(i)[right] /= 100 * right + i) call fail('allocatable get', blocks(i)[right], 100 * right + i)
  end do
  sync all
  deallocate(blocks)

  ! Collective subroutines.
  total = me
  call co_sum(total)
  if (total /= np * (np + 1) / 2) call fail('co_sum', total, np * (np + 1) / 2)
  total = me
  call co_max(total)
  if (total /= np) call fail('co_max', total, np)
  call reduce_with_host_variable(me, np)

  ! Events: every other image posts to image 1, which waits for all of them.
  if (me /= 1) event post(arrived[1])
  if (me == 1 .and. np > 1) event wait(arrived, until_count=np - 1)
  sync all

  if (me == 1) print '(a)', 'PASS coarrays'

contains

  subroutine fail(what, got, want)
    character(*), intent(in) :: what
    integer, intent(in) :: got, want
    print '(a, i0, a, a, a, i0, a, i0)', 'FAIL coarrays: image ', this_image(), ': ', what, ' gave ', got, &
      ', expected ', want
    error stop 1
  end subroutine

end program
