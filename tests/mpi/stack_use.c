/* stack_use: what ordinary code does with its stack must run with xsim's default stack
 * size, no -xsim-stack given. argv[1] selects:
 *   locals     200 KB of local arrays in every rank, live across MPI calls
 *   recursion  5,000 nested calls of about 100 bytes of locals each, with an MPI call at
 *              the deepest point
 *   printf     every rank prints a line, and formats a number with 12,000 digits
 *   locals4m   4 MiB of local arrays in every rank, live across MPI calls: what a native
 *              process's 8 MiB main stack holds, and so does xsim's default stack while a
 *              real process hosts few ranks (more than the 1 MiB default at scale, which
 *              must then report the overflow, naming the stack size and how it was chosen)
 * Each rank checks what it computed on its stack; rank 0 prints PASS through xt_finish. */
#include "xsim_test.h"

#define LOCAL_BYTES (200 * 1024)
#define LARGE_LOCAL_BYTES (4 * 1024 * 1024)
#define RECURSION_DEPTH 5000

/* Fills `bytes` of local array on the stack from its top down (as a native program's first
 * touches go down the stack, so that a stack too small for it is overrun at its guard pages),
 * holds it over a barrier (xsim's frames go below it), then checks it was not disturbed. */
static void locals(xt_t *t, long bytes)
{
    volatile unsigned char block[bytes];
    unsigned long sum = 0, expected = 0;
    long i;
    for (i = bytes - 1; i >= 0; --i) block[i] = (unsigned char)(i * 13 + t->rank);
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < bytes; ++i) {
        sum += block[i];
        expected += (unsigned char)(i * 13 + t->rank);
    }
    XT_CHECK(t, sum == expected, "%ld KiB of locals changed across MPI_Barrier: sum %lu, expected %lu", bytes / 1024,
             sum, expected);
}

/* Returns the sum of 0..depth computed through `depth` nested frames of ~100 bytes. */
static long descend(int depth, int *deepest_rc)
{
    volatile char frame[96];
    memset((char *)frame, depth & 0x7f, sizeof frame);
    if (depth == 0) {
        *deepest_rc = MPI_Barrier(MPI_COMM_WORLD);
        return 0;
    }
    return descend(depth - 1, deepest_rc) + depth + frame[depth % 96] - (depth & 0x7f);
}

static void deep_recursion(xt_t *t)
{
    int rc = -1;
    const long sum = descend(RECURSION_DEPTH, &rc);
    XT_CHECK(t, rc == MPI_SUCCESS, "MPI_Barrier at depth %d returned %d", RECURSION_DEPTH, rc);
    XT_CHECK(t, sum == (long)RECURSION_DEPTH * (RECURSION_DEPTH + 1) / 2, "recursion returned %ld", sum);
}

/* printf's stack use depends on what it formats: a plain line takes about 3 KiB, a number
 * with 12,000 digits about 62 KiB (glibc formats it in a stack buffer of up to 64 KiB). */
static void print_line(xt_t *t)
{
    char digits[12100];
    const double x = 1.0 / (t->rank + 3);
    const int length = snprintf(digits, sizeof digits, "%.12000f", 1.0 / 3);
    XT_CHECK(t, length == 12002 && strncmp(digits, "0.3333333333333333148296", 24) == 0 && digits[12001] == '0',
             "1/3 with 12000 digits came out as %.30s... (%d characters)", digits, length);
    printf("HELLO %d of %d: %f %e %.17g %.24s\n", t->rank, t->size, x, x * 1e300, x, digits);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "locals") != 0 && strcmp(mode, "recursion") != 0 && strcmp(mode, "printf") != 0 &&
        strcmp(mode, "locals4m") != 0) {
        fprintf(stderr, "usage: %s locals|recursion|printf|locals4m\n", argv[0]);
        return 2;
    }
    xt_init(t, &argc, &argv, "stack_use");
    if (strcmp(mode, "locals") == 0) locals(t, LOCAL_BYTES);
    else if (strcmp(mode, "locals4m") == 0) locals(t, LARGE_LOCAL_BYTES);
    else if (strcmp(mode, "recursion") == 0) deep_recursion(t);
    else print_line(t);
    return xt_finish(t, mode);
}
