/* The datatypes of MPI_Compare_and_swap (MPI-4.0 section 12.3.4): C and Fortran integers,
 * logicals, MPI_AINT/MPI_OFFSET/MPI_COUNT and MPI_BYTE swap (and MPI_CHAR, as MPICH
 * accepts); floating point, complex and derived types are MPI_ERR_TYPE, raised on the
 * window (MPICH's errors/rma/cas_type_check; xsim swapped them). Each rank swaps on its own
 * window over MPI_COMM_SELF. */
#include "conformance.h"

#include <stdint.h>

int main(int argc, char** argv) {
    conf_t t;
    long double cell = 0, origin = 0, compare = 0, result = 0; /* room for any of the types */
    int32_t value = 0, expect = 5, swapped = 0, old = -1;
    MPI_Datatype derived, refused[4];
    MPI_Win win;
    int i, cls;
    const MPI_Datatype accepted[] = {MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_CHAR, MPI_SHORT, MPI_INT, MPI_LONG,
                                     MPI_LONG_LONG, MPI_UNSIGNED_LONG_LONG, MPI_INT64_T, MPI_UINT8_T, MPI_AINT,
                                     MPI_OFFSET, MPI_COUNT, MPI_BYTE, MPI_C_BOOL, MPI_INTEGER, MPI_LOGICAL};
    MPI_Init(&argc, &argv);
    conf_init(&t, "rma_cas_types");
    CONF_CALL(&t, MPI_Type_contiguous(4, MPI_BYTE, &derived));
    CONF_CALL(&t, MPI_Type_commit(&derived));
    refused[0] = MPI_FLOAT;
    refused[1] = MPI_DOUBLE;
    refused[2] = MPI_C_DOUBLE_COMPLEX;
    refused[3] = derived;

    CONF_CALL(&t, MPI_Win_create(&cell, sizeof cell, 1, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CONF_CALL(&t, MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));
    CONF_CALL(&t, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    for (i = 0; i < (int)(sizeof accepted / sizeof accepted[0]); i++)
        CONF_CHECK(&t, MPI_Compare_and_swap(&origin, &compare, &result, accepted[i], 0, 0, win) == MPI_SUCCESS,
                   "MPI_Compare_and_swap refused accepted type %d", i);
    for (i = 0; i < 4; i++) {
        cls = conf_error_class(MPI_Compare_and_swap(&origin, &compare, &result, refused[i], 0, 0, win));
        CONF_CHECK(&t, cls == MPI_ERR_TYPE, "refused type %d: error class %d, expected MPI_ERR_TYPE", i, cls);
    }
    CONF_CALL(&t, MPI_Win_unlock(0, win));
    CONF_CALL(&t, MPI_Win_free(&win));

    /* The swap itself, on an int32: 0 matches, becomes 5; then 0 no longer matches. */
    CONF_CALL(&t, MPI_Win_create(&value, sizeof value, sizeof value, MPI_INFO_NULL, MPI_COMM_SELF, &win));
    CONF_CALL(&t, MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win));
    CONF_CALL(&t, MPI_Compare_and_swap(&expect, &swapped, &old, MPI_INT32_T, 0, 0, win));
    CONF_CALL(&t, MPI_Win_flush(0, win));
    CONF_CHECK(&t, old == 0, "first swap returned %d, expected 0", (int)old);
    CONF_CALL(&t, MPI_Compare_and_swap(&old, &swapped, &old, MPI_INT32_T, 0, 0, win));
    CONF_CALL(&t, MPI_Win_unlock(0, win));
    CONF_CHECK(&t, old == 5 && value == 5, "second swap: returned %d, window %d; expected 5 and 5", (int)old,
               (int)value);
    CONF_CALL(&t, MPI_Win_free(&win));
    CONF_CALL(&t, MPI_Type_free(&derived));
    return conf_finish(&t);
}
