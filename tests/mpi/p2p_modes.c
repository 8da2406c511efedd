/* p2p_modes: point-to-point semantics, pairwise.
 *
 * Ranks are paired (0,1), (2,3), ...: the even rank plays A, the odd rank B.
 * With odd N the last rank has no partner and only runs the self tests. Every
 * rank runs the self tests (messages to itself, MPI_PROC_NULL, receive cancel).
 *
 * Pair tests (each consumes all of its messages before the next starts):
 *   ssend        MPI_Ssend both ways
 *   rsend        B pre-posts Irecv, sends a zero-byte sync; A Recv(sync, count 0) then Rsend
 *   issend       A Issend; Test must NOT complete before B has posted the receive (B only
 *                posts it after a later "go" message from A); then a bounded Test loop
 *   sendrecv_replace  exchange in place
 *   probe        Probe(A, tag) -> Get_count -> malloc -> Recv with that count; then
 *                Probe(ANY_SOURCE, ANY_TAG) and Recv using the probed source/tag
 *   iprobe       Iprobe of a never-sent tag is false; bounded Iprobe loop until a
 *                delayed message shows up
 *   order        non-overtaking: 8 messages with one tag (Send then Isend) arrive in order;
 *                4 messages with distinct tags received with ANY_TAG arrive in send order
 *   tags         tag 2 received before tag 1 (out-of-order tag matching)
 *   request_free Isend + MPI_Request_free; buffer reused only after B's ack
 *   waitsome / testany / testall   multi-completion on receives sent in reverse tag order
 *   types        INT, DOUBLE, CHAR, LONG_LONG, FLOAT, SHORT, UNSIGNED, LONG, UNSIGNED_CHAR,
 *                BYTE with exact values and Get_count; Get_count in bytes; a non-integral
 *                Get_count gives MPI_UNDEFINED; a short message into a long buffer
 *   large        (every 16th pair) 1 MiB messages: unexpected (receiver late) and
 *                expected (pre-posted) rendezvous, and a 1 MiB message overtaken by a
 *                small one with a different tag
 * Self tests: Isend+Recv to self, Sendrecv to self, MPI_PROC_NULL Send/Recv/Isend/
 * Irecv/Sendrecv (status MPI_PROC_NULL / MPI_ANY_TAG / count 0), Cancel of a
 * posted receive + MPI_Test_cancelled (via Wait and via a Test loop).
 * MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE are used where statuses are not needed.
 * Derived datatypes are deliberately not used (not supported by xsim yet).
 */
#define _DEFAULT_SOURCE
#include <unistd.h>
#include "xsim_test.h"

enum {
    TAG_SSEND = 10, TAG_SSEND_BACK, TAG_RSEND, TAG_RSYNC, TAG_ISSEND, TAG_GO, TAG_SRR,
    TAG_PROBE, TAG_PROBE2, TAG_IPROBE, TAG_NEVER, TAG_ORDER, TAG_ONE, TAG_TWO, TAG_RFREE,
    TAG_RFREE_ACK, TAG_SELF, TAG_PNULL, TAG_TYPES, TAG_SHORT, TAG_BIG, TAG_BIG_BACK,
    TAG_BIG_L1, TAG_BIG_L2, TAG_ANYT = 200, /* 200..203 */
    TAG_MULTI = 300                      /* 300..399 */
};

#define BIG (1 << 20)
#define NMULTI 6

/* Per-rank pairing (on main's stack: globals would be shared by xsim's fibers). */
struct pair {
    xt_t *t;
    int partner; /* -1: no partner (solo rank) */
    int is_a;    /* 1: even rank of the pair */
};

#define PAIR_LOCALS(c) \
    xt_t *t = (c)->t; \
    const int partner = (c)->partner, is_a = (c)->is_a; \
    (void)is_a

static int pattern(int seed, int i)
{
    return seed * 1000 + i * 7 + 3;
}

static void expect_status(xt_t *t, const MPI_Status *st, int src, int tag, MPI_Datatype type, int count,
                          const char *what)
{
    int c = -2;
    MPI_Get_count(st, type, &c);
    XT_CHECK(t, st->MPI_SOURCE == src, "%s: MPI_SOURCE %d, expected %d", what, st->MPI_SOURCE, src);
    XT_CHECK(t, st->MPI_TAG == tag, "%s: MPI_TAG %d, expected %d", what, st->MPI_TAG, tag);
    XT_CHECK(t, c == count, "%s: Get_count %d, expected %d", what, c, count);
}

static void check_ints(xt_t *t, const int *buf, int n, int seed, const char *what)
{
    int i;
    for (i = 0; i < n; ++i)
        if (buf[i] != pattern(seed, i)) {
            xt_fail(t, "%s: element %d is %d, expected %d", what, i, buf[i], pattern(seed, i));
            return;
        }
}

static void fill_ints(int *buf, int n, int seed)
{
    int i;
    for (i = 0; i < n; ++i) buf[i] = pattern(seed, i);
}

static void test_ssend(const struct pair *c)
{
    PAIR_LOCALS(c);
    int buf[8];
    MPI_Status st;
    if (is_a) {
        fill_ints(buf, 8, t->rank);
        MPI_Ssend(buf, 8, MPI_INT, partner, TAG_SSEND, MPI_COMM_WORLD);
        memset(buf, 0, sizeof buf);
        MPI_Recv(buf, 8, MPI_INT, partner, TAG_SSEND_BACK, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_SSEND_BACK, MPI_INT, 8, "ssend back");
        check_ints(t, buf, 8, partner, "ssend back");
    } else {
        MPI_Recv(buf, 8, MPI_INT, partner, TAG_SSEND, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_SSEND, MPI_INT, 8, "ssend");
        check_ints(t, buf, 8, partner, "ssend");
        fill_ints(buf, 8, t->rank);
        MPI_Ssend(buf, 8, MPI_INT, partner, TAG_SSEND_BACK, MPI_COMM_WORLD);
    }
}

static void test_rsend(const struct pair *c)
{
    PAIR_LOCALS(c);
    int buf[8], dummy = 0;
    MPI_Status st;
    if (is_a) {
        MPI_Recv(&dummy, 0, MPI_INT, partner, TAG_RSYNC, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_RSYNC, MPI_INT, 0, "rsend sync (zero bytes)");
        fill_ints(buf, 8, t->rank + 1);
        MPI_Rsend(buf, 8, MPI_INT, partner, TAG_RSEND, MPI_COMM_WORLD);
    } else {
        MPI_Request req;
        memset(buf, 0, sizeof buf);
        MPI_Irecv(buf, 8, MPI_INT, partner, TAG_RSEND, MPI_COMM_WORLD, &req);
        MPI_Send(&dummy, 0, MPI_INT, partner, TAG_RSYNC, MPI_COMM_WORLD);
        MPI_Wait(&req, &st);
        XT_CHECK(t, req == MPI_REQUEST_NULL, "rsend: Wait did not free the request");
        expect_status(t, &st, partner, TAG_RSEND, MPI_INT, 8, "rsend");
        check_ints(t, buf, 8, partner + 1, "rsend");
    }
}

static void test_issend(const struct pair *c)
{
    PAIR_LOCALS(c);
    int buf[4], go = 1;
    if (is_a) {
        MPI_Request req;
        int flag = 0;
        long polls = 0;
        fill_ints(buf, 4, t->rank + 2);
        MPI_Issend(buf, 4, MPI_INT, partner, TAG_ISSEND, MPI_COMM_WORLD, &req);
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        XT_CHECK(t, !flag, "issend: completed before the receiver posted its receive");
        MPI_Send(&go, 1, MPI_INT, partner, TAG_GO, MPI_COMM_WORLD);
        while (!flag) {
            if (++polls > XT_POLL_LIMIT) xt_fatal(t, "issend: Test loop did not terminate");
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        }
        XT_CHECK(t, req == MPI_REQUEST_NULL, "issend: completed request not freed");
    } else {
        MPI_Status st;
        MPI_Recv(&go, 1, MPI_INT, partner, TAG_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        usleep(100); /* give a broken Issend a chance to complete early on A */
        memset(buf, 0, sizeof buf);
        MPI_Recv(buf, 4, MPI_INT, partner, TAG_ISSEND, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_ISSEND, MPI_INT, 4, "issend");
        check_ints(t, buf, 4, partner + 2, "issend");
    }
}

static void test_sendrecv_replace(const struct pair *c)
{
    PAIR_LOCALS(c);
    int buf[6];
    MPI_Status st;
    fill_ints(buf, 6, t->rank + 3);
    MPI_Sendrecv_replace(buf, 6, MPI_INT, partner, TAG_SRR, partner, TAG_SRR, MPI_COMM_WORLD, &st);
    expect_status(t, &st, partner, TAG_SRR, MPI_INT, 6, "sendrecv_replace");
    check_ints(t, buf, 6, partner + 3, "sendrecv_replace");
}

static void test_probe(const struct pair *c)
{
    PAIR_LOCALS(c);
    const int len = 17 + (is_a ? t->rank : partner) % 13;
    if (is_a) {
        int buf[32];
        double d[3] = {1.25, -2.5, 1e300};
        fill_ints(buf, len, t->rank + 4);
        MPI_Send(buf, len, MPI_INT, partner, TAG_PROBE, MPI_COMM_WORLD);
        MPI_Send(d, 3, MPI_DOUBLE, partner, TAG_PROBE2, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        int count = -1, *buf;
        double d[3] = {0, 0, 0};
        MPI_Probe(partner, TAG_PROBE, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_PROBE, MPI_INT, len, "probe");
        MPI_Get_count(&st, MPI_INT, &count);
        if (count < 0 || count > 1000) xt_fatal(t, "probe: unusable count %d", count);
        buf = malloc(sizeof(int) * (size_t)(count > 0 ? count : 1));
        if (buf == NULL) xt_fatal(t, "malloc failed");
        MPI_Recv(buf, count, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_PROBE, MPI_INT, len, "recv after probe");
        check_ints(t, buf, count, partner + 4, "recv after probe");
        free(buf);

        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_PROBE2, MPI_DOUBLE, 3, "probe any/any");
        MPI_Recv(d, 3, MPI_DOUBLE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_PROBE2, MPI_DOUBLE, 3, "recv after probe any/any");
        XT_CHECK(t, d[0] == 1.25 && d[1] == -2.5 && d[2] == 1e300, "probe any/any: wrong doubles");
    }
}

static void test_iprobe(const struct pair *c)
{
    PAIR_LOCALS(c);
    double d[5] = {0, 0, 0, 0, 0};
    int i;
    if (is_a) {
        for (i = 0; i < 5; ++i) d[i] = t->rank + i * 0.5;
        usleep(2000);
        MPI_Send(d, 5, MPI_DOUBLE, partner, TAG_IPROBE, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        int flag = 0;
        long polls = 0;
        MPI_Iprobe(partner, TAG_NEVER, MPI_COMM_WORLD, &flag, &st);
        XT_CHECK(t, !flag, "iprobe: found a message with a tag that is never sent");
        while (!flag) {
            if (++polls > XT_POLL_LIMIT) xt_fatal(t, "iprobe: Iprobe loop did not terminate");
            MPI_Iprobe(partner, TAG_IPROBE, MPI_COMM_WORLD, &flag, &st);
        }
        expect_status(t, &st, partner, TAG_IPROBE, MPI_DOUBLE, 5, "iprobe");
        MPI_Recv(d, 5, MPI_DOUBLE, partner, TAG_IPROBE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < 5; ++i)
            XT_CHECK(t, d[i] == partner + i * 0.5, "iprobe: d[%d] = %g", i, d[i]);
    }
}

static void test_order(const struct pair *c)
{
    PAIR_LOCALS(c);
    int i, v;
    if (is_a) {
        MPI_Request req[4];
        int vals[8];
        for (i = 0; i < 8; ++i) vals[i] = i;
        for (i = 0; i < 4; ++i) MPI_Send(&vals[i], 1, MPI_INT, partner, TAG_ORDER, MPI_COMM_WORLD);
        for (i = 4; i < 8; ++i)
            MPI_Isend(&vals[i], 1, MPI_INT, partner, TAG_ORDER, MPI_COMM_WORLD, &req[i - 4]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
        for (i = 0; i < 4; ++i)
            MPI_Isend(&vals[i], 1, MPI_INT, partner, TAG_ANYT + i, MPI_COMM_WORLD, &req[i]);
        MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    } else {
        MPI_Status st;
        for (i = 0; i < 8; ++i) {
            v = -1;
            MPI_Recv(&v, 1, MPI_INT, partner, TAG_ORDER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            XT_CHECK(t, v == i, "non-overtaking: message %d carries %d", i, v);
        }
        for (i = 0; i < 4; ++i) {
            v = -1;
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            XT_CHECK(t, v == i && st.MPI_TAG == TAG_ANYT + i && st.MPI_SOURCE == partner,
                     "non-overtaking with ANY_TAG: message %d carries %d tag %d src %d", i, v,
                     st.MPI_TAG, st.MPI_SOURCE);
        }
    }
}

static void test_tags(const struct pair *c)
{
    PAIR_LOCALS(c);
    int one = 1, two = 2, v;
    MPI_Status st;
    if (is_a) {
        MPI_Request req[2];
        MPI_Isend(&one, 1, MPI_INT, partner, TAG_ONE, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&two, 1, MPI_INT, partner, TAG_TWO, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
        v = 0;
        MPI_Recv(&v, 1, MPI_INT, partner, TAG_TWO, MPI_COMM_WORLD, &st);
        XT_CHECK(t, v == 2 && st.MPI_TAG == TAG_TWO, "tags: tag-2 receive got %d (tag %d)", v, st.MPI_TAG);
        v = 0;
        MPI_Recv(&v, 1, MPI_INT, partner, TAG_ONE, MPI_COMM_WORLD, &st);
        XT_CHECK(t, v == 1 && st.MPI_TAG == TAG_ONE, "tags: tag-1 receive got %d (tag %d)", v, st.MPI_TAG);
    }
}

static void test_request_free(const struct pair *c)
{
    PAIR_LOCALS(c);
    int buf[10], ack = 0;
    if (is_a) {
        MPI_Request req;
        fill_ints(buf, 10, t->rank + 5);
        MPI_Isend(buf, 10, MPI_INT, partner, TAG_RFREE, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        XT_CHECK(t, req == MPI_REQUEST_NULL, "request_free: handle not set to MPI_REQUEST_NULL");
        MPI_Recv(&ack, 1, MPI_INT, partner, TAG_RFREE_ACK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        XT_CHECK(t, ack == 42, "request_free: ack %d", ack);
        memset(buf, 0, sizeof buf); /* safe now: the receiver has the data */
    } else {
        MPI_Status st;
        MPI_Recv(buf, 10, MPI_INT, partner, TAG_RFREE, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_RFREE, MPI_INT, 10, "request_free");
        check_ints(t, buf, 10, partner + 5, "request_free");
        ack = 42;
        MPI_Send(&ack, 1, MPI_INT, partner, TAG_RFREE_ACK, MPI_COMM_WORLD);
    }
}

/* The receiver posts NMULTI receives (tags base+i); the sender sends them in
 * reverse tag order; `how` selects the completion call on the receiver. */
static void multi(const struct pair *c, int receiver_is_a, int base, const char *how)
{
    PAIR_LOCALS(c);
    int i, vals[NMULTI];
    if (is_a != receiver_is_a) {
        MPI_Request req[NMULTI];
        for (i = 0; i < NMULTI; ++i) vals[i] = pattern(base, i);
        for (i = NMULTI - 1; i >= 0; --i)
            MPI_Isend(&vals[i], 1, MPI_INT, partner, base + i, MPI_COMM_WORLD, &req[i]);
        MPI_Waitall(NMULTI, req, MPI_STATUSES_IGNORE);
        return;
    } else {
        MPI_Request req[NMULTI];
        MPI_Status st[NMULTI];
        int done[NMULTI], idx[NMULTI], ndone = 0, outcount, index, flag, k;
        long polls = 0;
        for (i = 0; i < NMULTI; ++i) {
            vals[i] = -1;
            done[i] = 0;
            MPI_Irecv(&vals[i], 1, MPI_INT, partner, base + i, MPI_COMM_WORLD, &req[i]);
        }
        if (strcmp(how, "waitsome") == 0) {
            for (;;) {
                MPI_Waitsome(NMULTI, req, &outcount, idx, st);
                if (outcount == MPI_UNDEFINED) break;
                if (outcount < 1) xt_fatal(t, "waitsome: outcount %d", outcount);
                for (k = 0; k < outcount; ++k) {
                    i = idx[k];
                    if (i < 0 || i >= NMULTI) xt_fatal(t, "waitsome: index %d", i);
                    XT_CHECK(t, !done[i], "waitsome: index %d twice", i);
                    done[i] = 1;
                    ++ndone;
                    expect_status(t, &st[k], partner, base + i, MPI_INT, 1, "waitsome");
                }
            }
        } else if (strcmp(how, "testany") == 0) {
            for (;;) {
                if (++polls > XT_POLL_LIMIT) xt_fatal(t, "testany: loop did not terminate");
                MPI_Testany(NMULTI, req, &index, &flag, &st[0]);
                if (!flag) continue;
                if (index == MPI_UNDEFINED) break;
                if (index < 0 || index >= NMULTI) xt_fatal(t, "testany: index %d", index);
                XT_CHECK(t, !done[index], "testany: index %d twice", index);
                done[index] = 1;
                ++ndone;
                expect_status(t, &st[0], partner, base + index, MPI_INT, 1, "testany");
            }
        } else { /* testall */
            flag = 0;
            while (!flag) {
                if (++polls > XT_POLL_LIMIT) xt_fatal(t, "testall: loop did not terminate");
                MPI_Testall(NMULTI, req, &flag, MPI_STATUSES_IGNORE);
            }
            ndone = NMULTI; /* Testall has no per-request output with MPI_STATUSES_IGNORE */
        }
        XT_CHECK(t, ndone == NMULTI, "%s: completed %d of %d", how, ndone, NMULTI);
        for (i = 0; i < NMULTI; ++i) {
            XT_CHECK(t, req[i] == MPI_REQUEST_NULL, "%s: request %d still active", how, i);
            XT_CHECK(t, vals[i] == pattern(base, i), "%s: slot %d holds %d, expected %d", how, i, vals[i],
                     pattern(base, i));
        }
    }
}

static void test_types(const struct pair *c)
{
    PAIR_LOCALS(c);
    int ints[3];
    double dbl[3];
    char chars[6];
    long long ll[2];
    float flt[2];
    short sh[3];
    unsigned un[2];
    long lg[2];
    unsigned char uc[4];
    unsigned char by[5];
    char shortmsg[1000];
    int i;
    if (is_a) {
        int v[3] = {-7, 0, 2147483647};
        double w[3] = {0.1, -0.0, 6.02214076e23};
        long long x[2] = {-9000000000000000000LL, 4294967297LL};
        float f[2] = {3.5f, -1e-30f};
        short s[3] = {-32768, 1, 32767};
        unsigned u[2] = {4294967295u, 12345u};
        long l[2] = {-1L, 2147483647L};
        unsigned char uch[4] = {0, 127, 128, 255};
        unsigned char b[5] = {1, 2, 3, 4, 5};
        MPI_Send(v, 3, MPI_INT, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(w, 3, MPI_DOUBLE, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send("hello", 6, MPI_CHAR, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(x, 2, MPI_LONG_LONG, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(f, 2, MPI_FLOAT, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(s, 3, MPI_SHORT, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(u, 2, MPI_UNSIGNED, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(l, 2, MPI_LONG, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(uch, 4, MPI_UNSIGNED_CHAR, partner, TAG_TYPES, MPI_COMM_WORLD);
        MPI_Send(b, 5, MPI_BYTE, partner, TAG_TYPES, MPI_COMM_WORLD);
        for (i = 0; i < 1000; ++i) shortmsg[i] = (char)('a' + i % 26);
        MPI_Send(shortmsg, 1000, MPI_CHAR, partner, TAG_SHORT, MPI_COMM_WORLD);
    } else {
        MPI_Status st;
        int cnt = -2;
        char *longbuf;
        MPI_Recv(ints, 3, MPI_INT, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_INT, 3, "MPI_INT");
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        XT_CHECK(t, cnt == 3 * (int)sizeof(int), "MPI_INT message: Get_count(MPI_BYTE) %d", cnt);
        XT_CHECK(t, ints[0] == -7 && ints[1] == 0 && ints[2] == 2147483647, "MPI_INT values");
        MPI_Recv(dbl, 3, MPI_DOUBLE, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_DOUBLE, 3, "MPI_DOUBLE");
        MPI_Get_count(&st, MPI_INT, &cnt);
        XT_CHECK(t, cnt == 3 * (int)(sizeof(double) / sizeof(int)),
                 "MPI_DOUBLE message: Get_count(MPI_INT) %d", cnt);
        XT_CHECK(t, dbl[0] == 0.1 && dbl[1] == 0.0 && dbl[2] == 6.02214076e23, "MPI_DOUBLE values");
        MPI_Recv(chars, 6, MPI_CHAR, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_CHAR, 6, "MPI_CHAR");
        MPI_Get_count(&st, MPI_INT, &cnt);
        XT_CHECK(t, cnt == MPI_UNDEFINED, "6-char message: Get_count(MPI_INT) %d, expected MPI_UNDEFINED", cnt);
        XT_CHECK(t, memcmp(chars, "hello", 6) == 0, "MPI_CHAR values");
        MPI_Recv(ll, 2, MPI_LONG_LONG, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_LONG_LONG, 2, "MPI_LONG_LONG");
        XT_CHECK(t, ll[0] == -9000000000000000000LL && ll[1] == 4294967297LL, "MPI_LONG_LONG values");
        MPI_Recv(flt, 2, MPI_FLOAT, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_FLOAT, 2, "MPI_FLOAT");
        XT_CHECK(t, flt[0] == 3.5f && flt[1] == -1e-30f, "MPI_FLOAT values");
        MPI_Recv(sh, 3, MPI_SHORT, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_SHORT, 3, "MPI_SHORT");
        XT_CHECK(t, sh[0] == -32768 && sh[1] == 1 && sh[2] == 32767, "MPI_SHORT values");
        MPI_Recv(un, 2, MPI_UNSIGNED, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_UNSIGNED, 2, "MPI_UNSIGNED");
        XT_CHECK(t, un[0] == 4294967295u && un[1] == 12345u, "MPI_UNSIGNED values");
        MPI_Recv(lg, 2, MPI_LONG, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_LONG, 2, "MPI_LONG");
        XT_CHECK(t, lg[0] == -1L && lg[1] == 2147483647L, "MPI_LONG values");
        MPI_Recv(uc, 4, MPI_UNSIGNED_CHAR, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_UNSIGNED_CHAR, 4, "MPI_UNSIGNED_CHAR");
        XT_CHECK(t, uc[0] == 0 && uc[1] == 127 && uc[2] == 128 && uc[3] == 255, "MPI_UNSIGNED_CHAR values");
        MPI_Recv(by, 5, MPI_BYTE, partner, TAG_TYPES, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_TYPES, MPI_BYTE, 5, "MPI_BYTE");
        XT_CHECK(t, by[0] == 1 && by[4] == 5, "MPI_BYTE values");
        /* A 1000-char message into a 4096-char buffer: count is what was sent, the tail untouched. */
        longbuf = malloc(4096);
        if (longbuf == NULL) xt_fatal(t, "malloc failed");
        memset(longbuf, '#', 4096);
        MPI_Recv(longbuf, 4096, MPI_CHAR, partner, TAG_SHORT, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_SHORT, MPI_CHAR, 1000, "short message into long buffer");
        for (i = 0; i < 1000; ++i)
            if (longbuf[i] != (char)('a' + i % 26)) {
                xt_fail(t, "short message: byte %d wrong", i);
                break;
            }
        for (i = 1000; i < 4096; ++i)
            if (longbuf[i] != '#') {
                xt_fail(t, "short message: byte %d beyond the message was modified", i);
                break;
            }
        free(longbuf);
    }
}

static unsigned char big_byte(int seed, long i)
{
    return (unsigned char)((i * 131 + seed * 17 + (i >> 12)) & 0xff);
}

static void check_big(xt_t *t, const unsigned char *buf, int seed, const char *what)
{
    long i;
    for (i = 0; i < BIG; ++i)
        if (buf[i] != big_byte(seed, i)) {
            xt_fail(t, "%s: byte %ld is %u, expected %u", what, i, buf[i], big_byte(seed, i));
            return;
        }
}

static void test_large(const struct pair *c)
{
    PAIR_LOCALS(c);
    unsigned char *buf = malloc(BIG);
    int small = 0;
    long i;
    MPI_Status st;
    if (buf == NULL) xt_fatal(t, "malloc(1 MiB) failed");
    if (is_a) {
        MPI_Request req[2];
        for (i = 0; i < BIG; ++i) buf[i] = big_byte(t->rank, i);
        /* Receiver is late: the message is unexpected at B when it arrives. */
        MPI_Send(buf, BIG, MPI_BYTE, partner, TAG_BIG, MPI_COMM_WORLD);
        /* Pre-posted receive for the way back. */
        memset(buf, 0, BIG);
        MPI_Irecv(buf, BIG / (int)sizeof(double), MPI_DOUBLE, partner, TAG_BIG_BACK, MPI_COMM_WORLD,
                  &req[0]);
        MPI_Wait(&req[0], &st);
        expect_status(t, &st, partner, TAG_BIG_BACK, MPI_DOUBLE, BIG / (int)sizeof(double), "1 MiB back");
        check_big(t, buf, partner, "1 MiB back");
        /* A big message overtaken by a small one with another tag. */
        for (i = 0; i < BIG; ++i) buf[i] = big_byte(t->rank + 1, i);
        small = 77;
        MPI_Isend(buf, BIG, MPI_BYTE, partner, TAG_BIG_L1, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&small, 1, MPI_INT, partner, TAG_BIG_L2, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    } else {
        usleep(1000);
        MPI_Recv(buf, BIG, MPI_BYTE, partner, TAG_BIG, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_BIG, MPI_BYTE, BIG, "1 MiB");
        check_big(t, buf, partner, "1 MiB");
        for (i = 0; i < BIG; ++i) buf[i] = big_byte(t->rank, i);
        usleep(1000); /* let A pre-post */
        MPI_Send(buf, BIG / (int)sizeof(double), MPI_DOUBLE, partner, TAG_BIG_BACK, MPI_COMM_WORLD);
        MPI_Recv(&small, 1, MPI_INT, partner, TAG_BIG_L2, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_BIG_L2, MPI_INT, 1, "small overtaking 1 MiB");
        XT_CHECK(t, small == 77, "small overtaking 1 MiB: value %d", small);
        memset(buf, 0, BIG);
        MPI_Recv(buf, BIG, MPI_BYTE, partner, TAG_BIG_L1, MPI_COMM_WORLD, &st);
        expect_status(t, &st, partner, TAG_BIG_L1, MPI_BYTE, BIG, "1 MiB overtaken");
        check_big(t, buf, partner + 1, "1 MiB overtaken");
    }
    free(buf);
}

static void expect_proc_null(xt_t *t, const MPI_Status *st, const char *what)
{
    int c = -2;
    MPI_Get_count(st, MPI_INT, &c);
    XT_CHECK(t, st->MPI_SOURCE == MPI_PROC_NULL, "%s: MPI_SOURCE %d, expected MPI_PROC_NULL", what,
             st->MPI_SOURCE);
    XT_CHECK(t, st->MPI_TAG == MPI_ANY_TAG, "%s: MPI_TAG %d, expected MPI_ANY_TAG", what, st->MPI_TAG);
    XT_CHECK(t, c == 0, "%s: Get_count %d, expected 0", what, c);
}

static void self_tests(xt_t *t)
{
    int out[4], in[4], i, flag = 0;
    long polls = 0;
    MPI_Request req, reqs[2];
    MPI_Status st;

    /* Messages to oneself. */
    fill_ints(out, 4, t->rank + 6);
    memset(in, 0, sizeof in);
    MPI_Isend(out, 4, MPI_INT, t->rank, TAG_SELF, MPI_COMM_WORLD, &req);
    MPI_Recv(in, 4, MPI_INT, t->rank, TAG_SELF, MPI_COMM_WORLD, &st);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    expect_status(t, &st, t->rank, TAG_SELF, MPI_INT, 4, "self Isend/Recv");
    check_ints(t, in, 4, t->rank + 6, "self Isend/Recv");
    memset(in, 0, sizeof in);
    MPI_Sendrecv(out, 4, MPI_INT, t->rank, TAG_SELF, in, 4, MPI_INT, t->rank, TAG_SELF, MPI_COMM_WORLD, &st);
    expect_status(t, &st, t->rank, TAG_SELF, MPI_INT, 4, "self Sendrecv");
    check_ints(t, in, 4, t->rank + 6, "self Sendrecv");

    /* MPI_PROC_NULL: sends complete at once, receives complete with an empty status. */
    MPI_Send(out, 4, MPI_INT, MPI_PROC_NULL, TAG_PNULL, MPI_COMM_WORLD);
    MPI_Ssend(out, 4, MPI_INT, MPI_PROC_NULL, TAG_PNULL, MPI_COMM_WORLD);
    for (i = 0; i < 4; ++i) in[i] = 99;
    MPI_Recv(in, 4, MPI_INT, MPI_PROC_NULL, TAG_PNULL, MPI_COMM_WORLD, &st);
    expect_proc_null(t, &st, "Recv from MPI_PROC_NULL");
    XT_CHECK(t, in[0] == 99 && in[3] == 99, "Recv from MPI_PROC_NULL modified the buffer");
    MPI_Isend(out, 4, MPI_INT, MPI_PROC_NULL, TAG_PNULL, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(in, 4, MPI_INT, MPI_PROC_NULL, TAG_PNULL, MPI_COMM_WORLD, &reqs[1]);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[1], &st);
    expect_proc_null(t, &st, "Irecv from MPI_PROC_NULL");
    XT_CHECK(t, reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL, "PROC_NULL requests not freed");
    MPI_Sendrecv(out, 4, MPI_INT, MPI_PROC_NULL, TAG_PNULL, in, 4, MPI_INT, MPI_PROC_NULL, TAG_PNULL,
                 MPI_COMM_WORLD, &st);
    expect_proc_null(t, &st, "Sendrecv with MPI_PROC_NULL");
    XT_CHECK(t, in[0] == 99 && in[3] == 99, "Sendrecv from MPI_PROC_NULL modified the buffer");

    /* Cancel a receive that can never match, completed by Wait. */
    MPI_Irecv(in, 4, MPI_INT, MPI_ANY_SOURCE, TAG_NEVER, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    flag = 0;
    MPI_Test_cancelled(&st, &flag);
    XT_CHECK(t, flag, "cancelled receive (Wait): MPI_Test_cancelled is false");
    XT_CHECK(t, req == MPI_REQUEST_NULL, "cancelled receive: request not freed by Wait");
    XT_CHECK(t, in[0] == 99, "cancelled receive modified the buffer");
    /* ... and by a Test loop, on a specific source. */
    MPI_Irecv(in, 4, MPI_INT, t->rank, TAG_NEVER, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    flag = 0;
    while (!flag) {
        if (++polls > XT_POLL_LIMIT) xt_fatal(t, "cancelled receive: Test loop did not terminate");
        MPI_Test(&req, &flag, &st);
    }
    flag = 0;
    MPI_Test_cancelled(&st, &flag);
    XT_CHECK(t, flag, "cancelled receive (Test): MPI_Test_cancelled is false");
    /* A completed, not cancelled receive reports false. */
    MPI_Sendrecv(out, 1, MPI_INT, t->rank, TAG_SELF, in, 1, MPI_INT, t->rank, TAG_SELF, MPI_COMM_WORLD, &st);
    flag = 1;
    MPI_Test_cancelled(&st, &flag);
    XT_CHECK(t, !flag, "normal receive: MPI_Test_cancelled is true");
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    struct pair cs, *c = &cs;
    xt_init(t, &argc, &argv, "p2p_modes");
    c->t = t;
    c->partner = -1;
    c->is_a = 0;
    if (t->rank % 2 == 0) {
        if (t->rank + 1 < t->size) { c->partner = t->rank + 1; c->is_a = 1; }
    } else {
        c->partner = t->rank - 1;
    }

    self_tests(t);
    if (c->partner >= 0) {
        test_ssend(c);
        test_rsend(c);
        test_issend(c);
        test_sendrecv_replace(c);
        test_probe(c);
        test_iprobe(c);
        test_order(c);
        test_tags(c);
        test_request_free(c);
        multi(c, 1, TAG_MULTI, "waitsome");
        multi(c, 0, TAG_MULTI + 20, "waitsome");
        multi(c, 1, TAG_MULTI + 40, "testany");
        multi(c, 0, TAG_MULTI + 60, "testall");
        test_types(c);
        if ((t->rank / 2) % 16 == 0) test_large(c);
    }
    return xt_finish(t, NULL);
}
