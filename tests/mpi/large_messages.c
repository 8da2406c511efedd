/* large_messages: messages of hundreds of KB to MBs, several at once, between rank r and
 * rank (r + size/2) % size (on the other real process when two processes hold the ranks in
 * blocks), mixed with small ones of the same pair in the same window. Checks every byte:
 *   posted    receives posted before the sends, matched by tag in an order unlike the sends'
 *   late      receives posted only after a barrier: the messages wait unexpected
 *   bcast     an MPI_Bcast of 600 KB from rank 0
 *   typed     1.2 MB of ints received (a) with a vector type (every other int), (b) with a
 *             struct type that starts 64 bytes into the buffer, (c) into a global array (each
 *             rank's own, when ranks share a process), (d) into a buffer two thirds as long
 *             (MPI_ERR_TRUNCATE; nothing past its end written). Large data from another process
 *             goes straight into a receive buffer that is one block (a, d do not qualify).
 * Odd sizes make any shift of a payload inside a batch visible. Needs an even size. */
#include "xsim_test.h"

#define MESSAGES 6

static const int kBytes[MESSAGES] = {300 * 1024 + 1, 100, 2 * 1024 * 1024 + 3, 5, 1024 * 1024, 700 * 1024 + 7};

static unsigned char pattern(int source, int tag, long i) { return (unsigned char)(source * 31 + tag * 7 + i * 13 + (i >> 9)); }

static void fill(unsigned char *buffer, int source, int tag, int bytes)
{
    for (long i = 0; i < bytes; ++i) buffer[i] = pattern(source, tag, i);
}

static void check(xt_t *t, const unsigned char *buffer, int source, int tag, int bytes, const char *what)
{
    for (long i = 0; i < bytes; ++i) {
        if (buffer[i] != pattern(source, tag, i)) {
            xt_fail(t, "%s: message of %d bytes with tag %d from rank %d differs at byte %ld", what, bytes, tag,
                    source, i);
            return;
        }
    }
}

/* Sends MESSAGES messages to `partner` and receives as many from it; the receives are posted
 * before the sends (`late` 0) or after a barrier that follows them (`late` 1). */
static void exchange(xt_t *t, int partner, int late, unsigned char **out, unsigned char **in)
{
    MPI_Request sends[MESSAGES], receives[MESSAGES];
    MPI_Status statuses[MESSAGES];
    const int base = late ? 100 : 0;
    for (int k = 0; k < MESSAGES; ++k) {
        fill(out[k], t->rank, base + k, kBytes[k]);
        memset(in[k], 0, (size_t)kBytes[k]);
    }
    /* Posted in reverse: each must still match its own tag. */
    if (!late)
        for (int k = MESSAGES - 1; k >= 0; --k)
            MPI_Irecv(in[k], kBytes[k], MPI_BYTE, partner, base + k, MPI_COMM_WORLD, &receives[k]);
    for (int k = 0; k < MESSAGES; ++k)
        MPI_Isend(out[k], kBytes[k], MPI_BYTE, partner, base + k, MPI_COMM_WORLD, &sends[k]);
    if (late) {
        MPI_Barrier(MPI_COMM_WORLD);
        for (int k = MESSAGES - 1; k >= 0; --k)
            MPI_Irecv(in[k], kBytes[k], MPI_BYTE, partner, base + k, MPI_COMM_WORLD, &receives[k]);
    }
    MPI_Waitall(MESSAGES, receives, statuses);
    MPI_Waitall(MESSAGES, sends, MPI_STATUSES_IGNORE);
    for (int k = 0; k < MESSAGES; ++k) {
        int count = -1;
        MPI_Get_count(&statuses[k], MPI_BYTE, &count);
        XT_CHECK(t, count == kBytes[k], "%s: tag %d received %d bytes, expected %d", late ? "late" : "posted",
                 base + k, count, kBytes[k]);
        check(t, in[k], partner, base + k, kBytes[k], late ? "late" : "posted");
    }
}

#define INTS 300000
static int g_received[INTS];

static int int_pattern(int source, int tag, long i) { return source * 1000003 + tag * 7919 + (int)i; }

static void fill_ints(int *buffer, int source, int tag, long n)
{
    for (long i = 0; i < n; ++i) buffer[i] = int_pattern(source, tag, i);
}

/* Element i of the message from `source` with `tag` is at buffer[at + i * stride]; the other
 * ints of buffer[0, n) still hold -1. */
static void check_ints(xt_t *t, const int *buffer, long n, long at, long stride, long elements, int source,
                       int tag, const char *what)
{
    for (long i = 0; i < n; ++i) {
        const long k = (i - at) / stride;
        const int expected = i >= at && (i - at) % stride == 0 && k < elements ? int_pattern(source, tag, k) : -1;
        if (buffer[i] != expected) {
            xt_fail(t, "typed %s: int %ld of the receive buffer is %d, expected %d", what, i, buffer[i], expected);
            return;
        }
    }
}

static void typed(xt_t *t, int partner)
{
    int *out = malloc(INTS * sizeof(int)), *in = malloc(2 * INTS * sizeof(int));
    if (!out || !in) xt_fatal(t, "cannot allocate %zu bytes", 3 * INTS * sizeof(int));
    MPI_Datatype every_other, shifted;
    MPI_Type_vector(INTS, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    const int blocklength = INTS;
    const MPI_Aint displacement = 64;
    MPI_Datatype int_type = MPI_INT;
    MPI_Type_create_struct(1, &blocklength, &displacement, &int_type, &shifted);
    MPI_Type_commit(&shifted);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Request send;
    MPI_Status status;
    int count;

    fill_ints(out, t->rank, 1, INTS);
    for (long i = 0; i < 2 * INTS; ++i) in[i] = -1;
    MPI_Isend(out, INTS, MPI_INT, partner, 1, comm, &send);
    XT_MPI(t, MPI_Recv(in, 1, every_other, partner, 1, comm, &status));
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    check_ints(t, in, 2 * INTS, 0, 2, INTS, partner, 1, "vector");

    fill_ints(out, t->rank, 2, INTS);
    for (long i = 0; i < 2 * INTS; ++i) in[i] = -1;
    MPI_Isend(out, INTS, MPI_INT, partner, 2, comm, &send);
    XT_MPI(t, MPI_Recv(in, 1, shifted, partner, 2, comm, &status));
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    check_ints(t, in, 2 * INTS, 64 / sizeof(int), 1, INTS, partner, 2, "struct at 64 bytes");

    fill_ints(out, t->rank, 3, INTS);
    for (long i = 0; i < INTS; ++i) g_received[i] = -1;
    MPI_Isend(out, INTS, MPI_INT, partner, 3, comm, &send);
    XT_MPI(t, MPI_Recv(g_received, INTS, MPI_INT, partner, 3, comm, &status));
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    check_ints(t, g_received, INTS, 0, 1, INTS, partner, 3, "global array");

    fill_ints(out, t->rank, 4, INTS);
    for (long i = 0; i < 2 * INTS; ++i) in[i] = -1;
    MPI_Isend(out, INTS, MPI_INT, partner, 4, comm, &send);
    const int rc = MPI_Recv(in, INTS / 3 * 2, MPI_INT, partner, 4, comm, &status);
    MPI_Wait(&send, MPI_STATUS_IGNORE);
    int error_class = MPI_SUCCESS;
    MPI_Error_class(rc, &error_class);
    XT_CHECK(t, error_class == MPI_ERR_TRUNCATE, "typed truncated: MPI_Recv returned class %d, expected MPI_ERR_TRUNCATE",
             error_class);
    check_ints(t, in, INTS / 3 * 2, 0, 1, INTS / 3 * 2, partner, 4, "truncated");
    check_ints(t, in + INTS / 3 * 2, 2 * INTS - INTS / 3 * 2, 0, 1, 0, partner, 4, "truncated, past the buffer");
    MPI_Get_count(&status, MPI_INT, &count);
    XT_CHECK(t, count == INTS / 3 * 2, "typed truncated: MPI_Get_count says %d ints, expected %d", count, INTS / 3 * 2);
    MPI_Comm_free(&comm);
    MPI_Type_free(&every_other);
    MPI_Type_free(&shifted);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "large_messages");
    if (t->size % 2 != 0) xt_fatal(t, "needs an even number of ranks, got %d", t->size);
    const int partner = (t->rank + t->size / 2) % t->size;
    unsigned char *out[MESSAGES], *in[MESSAGES];
    for (int k = 0; k < MESSAGES; ++k) {
        out[k] = malloc((size_t)kBytes[k]);
        in[k] = malloc((size_t)kBytes[k]);
        if (!out[k] || !in[k]) xt_fatal(t, "cannot allocate %d bytes", kBytes[k]);
    }
    exchange(t, partner, 0, out, in);
    exchange(t, partner, 1, out, in);

    const int bcast_bytes = 600 * 1000 + 3;
    unsigned char *b = malloc((size_t)bcast_bytes);
    if (!b) xt_fatal(t, "cannot allocate %d bytes", bcast_bytes);
    if (t->rank == 0) fill(b, 0, 999, bcast_bytes);
    else memset(b, 0, (size_t)bcast_bytes);
    MPI_Bcast(b, bcast_bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
    check(t, b, 0, 999, bcast_bytes, "bcast");
    typed(t, partner);

    free(b);
    for (int k = 0; k < MESSAGES; ++k) {
        free(out[k]);
        free(in[k]);
    }
    return xt_finish(t, NULL);
}
