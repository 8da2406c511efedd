/* any_source: all-to-one with MPI_ANY_SOURCE / MPI_ANY_TAG.
 *
 * Every rank r > 0 sleeps delay(r) = ((r*7919) % 97) * 10 microseconds, then
 * sends its rank (one int) to rank 0 with tag r % 5. Rank 0 receives N-1
 * messages with MPI_ANY_SOURCE/MPI_ANY_TAG and checks for each: source in
 * range, tag == source % 5, MPI_Get_count == 1, payload == source, and that
 * no source arrives twice (bitmap of N bits, on rank 0 only).
 *
 * Rank 0 prints "ORDER any_source <hash>": FNV-1a of the receive order. Under
 * xsim, ANY_SOURCE matching follows virtual arrival time, so this is expected
 * to be identical for every number of real processes P.
 *
 * With XSIM_TEST_STRICT_ORDER=1 (virtual time only; real MPI gives no such
 * guarantee) rank 0 also fails unless the sequence of delays in receive order
 * is non-decreasing and the first source has the smallest delay; the PASS
 * line then reads "PASS any_source strict-order". Without it, the number of
 * order inversions is only reported on an INFO line.
 *
 * Needs N >= 2: with one rank no message is sent, nothing would be tested, so it
 * fails instead of passing (CTest runs it from N=2).
 */
#define _DEFAULT_SOURCE
#include <unistd.h>
#include "xsim_test.h"

static long delay_us(int r)
{
    return (long)(((long long)r * 7919LL) % 97LL) * 10L;
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    int strict;
    const char *note = NULL;

    xt_init(t, &argc, &argv, "any_source");
    strict = xt_env_flag("XSIM_TEST_STRICT_ORDER");
    if (t->size < 2) {
        xt_fail(t, "needs at least 2 ranks (senders besides rank 0), got %d: nothing tested", t->size);
        return xt_finish(t, NULL);
    }

    if (t->rank > 0) {
        int payload = t->rank;
        usleep((useconds_t)delay_us(t->rank));
        MPI_Send(&payload, 1, MPI_INT, 0, t->rank % 5, MPI_COMM_WORLD);
    } else {
        const int n = t->size;
        unsigned char *seen = calloc((size_t)n / 8 + 1, 1);
        unsigned long long hash = XT_FNV_OFFSET;
        long min_delay = -1, prev_delay = -1;
        long long inversions = 0;
        int first_src = -1, i;

        if (seen == NULL) xt_fatal(t, "calloc of %d-bit bitmap failed", n);
        for (i = 1; i < n; ++i)
            if (min_delay < 0 || delay_us(i) < min_delay) min_delay = delay_us(i);

        for (i = 1; i < n; ++i) {
            int payload = -1, count = -1, src;
            MPI_Status st;
            MPI_Recv(&payload, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            src = st.MPI_SOURCE;
            MPI_Get_count(&st, MPI_INT, &count);
            if (src < 1 || src >= n) {
                xt_fail(t, "message %d: MPI_SOURCE %d out of range [1,%d)", i, src, n);
                continue;
            }
            XT_CHECK(t, st.MPI_TAG == src % 5, "message from %d has tag %d, expected %d", src, st.MPI_TAG,
                     src % 5);
            XT_CHECK(t, count == 1, "message from %d: MPI_Get_count %d, expected 1", src, count);
            XT_CHECK(t, payload == src, "message from %d carries %d", src, payload);
            if (seen[src / 8] & (1u << (src % 8)))
                xt_fail(t, "source %d received twice", src);
            seen[src / 8] |= (unsigned char)(1u << (src % 8));
            hash = xt_fnv_int(hash, (unsigned int)src);
            if (first_src < 0) first_src = src;
            if (prev_delay > delay_us(src)) ++inversions;
            prev_delay = delay_us(src);
        }
        for (i = 1; i < n; ++i)
            if (!(seen[i / 8] & (1u << (i % 8)))) {
                xt_fail(t, "no message from source %d", i);
                break;
            }
        free(seen);

        printf("ORDER any_source 0x%016llx\n", hash);
        printf("INFO any_source first source %d (delay %ld us, min %ld us), delay-order inversions %lld\n",
               first_src, first_src > 0 ? delay_us(first_src) : -1L, min_delay, inversions);
        fflush(stdout);
        if (strict) {
            XT_CHECK(t, n == 1 || delay_us(first_src) == min_delay,
                     "strict order: first source %d has delay %ld us, smallest delay is %ld us",
                     first_src, first_src > 0 ? delay_us(first_src) : -1L, min_delay);
            XT_CHECK(t, inversions == 0,
                     "strict order: %lld receive(s) arrived after a source with a larger delay",
                     inversions);
            note = "strict-order";
        }
    }
    return xt_finish(t, note);
}
