! The Fortran half of shared_file_units_c.c, whose C main program (as code_saturne's) leaves
! libgfortran at its defaults: a file may not be connected to two units of one process.
! Each routine returns 0 when its OPEN succeeded, 1 when OPEN took its ERR= branch.
module shared_file_units
  use iso_c_binding
  implicit none
contains
  ! code_saturne's csopli: the log of a rank other than the first goes to /dev/null.
  integer(c_int) function open_log(unit) bind(C, name='open_log')
    integer(c_int), value :: unit
    character(len=64) :: name
    name = '/dev/null'
    open_log = 0
    open(file=name, unit=unit, form='formatted', status='unknown', err=900)
    write(unit, '(A)') 'silenced'
    return
900 open_log = 1
  end function

  ! Every rank reads the same input file, and keeps it open.
  integer(c_int) function read_input(path, length, unit, value) bind(C, name='read_input')
    character(kind=c_char), intent(in) :: path(*)
    integer(c_int), value :: length, unit
    integer(c_int), intent(out) :: value
    character(len=length) :: name
    integer :: i
    do i = 1, length
      name(i:i) = path(i)
    end do
    value = -1
    read_input = 0
    open(file=name, unit=unit, status='old', action='read', err=900)
    read(unit, *) value
    return
900 read_input = 1
  end function

  subroutine close_unit(unit) bind(C, name='close_unit')
    integer(c_int), value :: unit
    close(unit)
  end subroutine
end module
