/* large_messages: messages of hundreds of KB to MBs, several at once, between rank r and
 * rank (r + size/2) % size (on the other real process when two processes hold the ranks in
 * blocks), mixed with small ones of the same pair in the same window. Checks every byte:
 *   posted    receives posted before the sends, matched by tag in an order unlike the sends'
 *   late      receives posted only after a barrier: the messages wait unexpected
 *   bcast     an MPI_Bcast of 600 KB from rank 0
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

    free(b);
    for (int k = 0; k < MESSAGES; ++k) {
        free(out[k]);
        free(in[k]);
    }
    return xt_finish(t, NULL);
}
