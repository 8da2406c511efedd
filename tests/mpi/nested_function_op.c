/* nested_function_op: a reduction operator that is a GNU C nested function using a local
 * variable of main. GCC passes its address as a trampoline, code written on main's stack,
 * and marks the program as needing an executable stack (PT_GNU_STACK RWE), as gfortran does
 * for internal procedures passed as arguments (CO_REDUCE's operator). xsim runs the operator
 * when messages arrive, through the trampoline on the rank's stack: the ranks' stacks must
 * be executable like the program's own. */
#include "xsim_test.h"

int main(int argc, char** argv) {
    xt_t t;
    int modulus = 0;  /* set at run time: the operator must reach it through main's frame */
    int value, sum = -1;
    MPI_Op op;
    void sum_modulo(void* in, void* inout, int* len, MPI_Datatype* type) {
        (void)type;
        for (int i = 0; i < *len; ++i) ((int*)inout)[i] = (((int*)in)[i] + ((int*)inout)[i]) % modulus;
    }
    xt_init(&t, &argc, &argv, "nested_function_op");
    modulus = 1000 + t.size;
    value = 7 * t.rank + 1;
    XT_MPI(&t, MPI_Op_create(sum_modulo, 1, &op));
    XT_MPI(&t, MPI_Allreduce(&value, &sum, 1, MPI_INT, op, MPI_COMM_WORLD));
    {
        long expect = 0;
        for (int r = 0; r < t.size; ++r) expect = (expect + 7 * r + 1) % modulus;
        XT_CHECK(&t, sum == expect, "the nested operator's allreduce gave %d, expected %ld", sum, expect);
    }
    MPI_Op_free(&op);
    return xt_finish(&t, NULL);
}
