/* libc_state: C library state that is per process natively is per rank under xsim.
 *
 * Run with the arguments  -n 5 -v -ab extra  . Every rank:
 *  - parses them with getopt("n:vab"), with a barrier after each option (other ranks parse
 *    in between, also inside "-ab"), and must see n=5, -v, -a, -b, then argv[optind]=="extra";
 *    then parses them again with getopt_long after resetting optind to 0;
 *  - splits its own string with strtok across a barrier and must get its own tokens;
 *  - draws rand() and random() across a barrier, before and after srand(seed of its own):
 *    the values must be exactly glibc's sequence for that seed (computed with the reentrant
 *    random_r, which keeps its state in the caller's buffer);
 *  - keeps two state arrays of its own with initstate and switches between them with setstate
 *    around random(), across barriers (as MACSio does per data stream): each array must give
 *    glibc's sequence for its seed and size, initstate and setstate must return the previous
 *    array, and setstate back to the rank's first state must continue its srandom sequence;
 *  - draws from the rand48 family across barriers: unseeded (every rank the same sequence,
 *    as every process natively), after srand48 and after lcong48 with a multiplier and
 *    addend of its own (also used by nrand48/erand48 on the caller's state): each value
 *    must be the 48-bit congruential step x' = a x + c mod 2^48 computed here;
 *  - keeps its errno across MPI calls while the other ranks set theirs: a value of its own
 *    across a barrier, then ENOENT from a failed open() across a barrier while the next rank
 *    gets EBADF from close(-1), and across a Sendrecv in a ring (natively each rank is a
 *    process: nothing but its own code sets its errno).
 */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <unistd.h>

#include "xsim_test.h"

static void barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }

static void check_getopt(xt_t *t, int argc, char **argv, int use_long)
{
    static const struct option longopts[] = {{"number", required_argument, NULL, 'n'}, {NULL, 0, NULL, 0}};
    int c, n = -1, v = 0, a = 0, b = 0, other = 0;
    optind = use_long ? 0 : optind;
    while ((c = use_long ? getopt_long(argc, argv, "n:vab", longopts, NULL) : getopt(argc, argv, "n:vab")) != -1) {
        switch (c) {
        case 'n': n = atoi(optarg); break;
        case 'v': ++v; break;
        case 'a': ++a; break;
        case 'b': ++b; break;
        default: ++other; break;
        }
        barrier();
    }
    XT_CHECK(t, n == 5 && v == 1 && a == 1 && b == 1 && other == 0,
             "%s: got n=%d v=%d a=%d b=%d other=%d, expected n=5 v=1 a=1 b=1", use_long ? "getopt_long" : "getopt", n,
             v, a, b, other);
    XT_CHECK(t, optind < argc && strcmp(argv[optind], "extra") == 0, "%s: argv[optind=%d] is %s, expected extra",
             use_long ? "getopt_long" : "getopt", optind, optind < argc ? argv[optind] : "(end)");
}

static void check_strtok(xt_t *t)
{
    char text[64], expect[3][16];
    const char *tok;
    int i;
    snprintf(text, sizeof text, "r%d,a%d,b%d", t->rank, t->rank, t->rank);
    snprintf(expect[0], sizeof expect[0], "r%d", t->rank);
    snprintf(expect[1], sizeof expect[1], "a%d", t->rank);
    snprintf(expect[2], sizeof expect[2], "b%d", t->rank);
    for (i = 0, tok = strtok(text, ","); i < 4; ++i, tok = strtok(NULL, ",")) {
        if (i < 3) XT_CHECK(t, tok && strcmp(tok, expect[i]) == 0, "strtok token %d is %s, expected %s", i, tok ? tok : "(null)", expect[i]);
        else XT_CHECK(t, tok == NULL, "strtok returned %s after the last token", tok);
        barrier();
    }
}

/* glibc's sequence for `seed` with a state array of `size` bytes (8 to 256), from the reentrant
   generator. */
static void reference_sized(unsigned seed, size_t size, int32_t *out, int n)
{
    struct random_data data;
    char state[256];
    int i;
    memset(&data, 0, sizeof data);
    initstate_r(seed, state, size, &data);
    for (i = 0; i < n; ++i) random_r(&data, &out[i]);
}

static void reference(unsigned seed, int32_t *out, int n) { reference_sized(seed, 128, out, n); }

static void check_rand(xt_t *t)
{
    int32_t expect[6];
    long got[6];
    int i;
    const unsigned seed = 7u * (unsigned)t->rank + 3u;
    reference(1, expect, 6); /* no srand: seeded with 1 */
    for (i = 0; i < 6; ++i) {
        got[i] = i % 2 ? random() : rand();
        if (i == 2) barrier();
    }
    for (i = 0; i < 6; ++i) XT_CHECK(t, got[i] == expect[i], "unseeded draw %d is %ld, expected %d", i, got[i], expect[i]);
    srand(seed);
    barrier();
    reference(seed, expect, 6);
    for (i = 0; i < 6; ++i) {
        got[i] = rand();
        if (i == 2) barrier();
    }
    for (i = 0; i < 6; ++i) XT_CHECK(t, got[i] == expect[i], "draw %d after srand(%u) is %ld, expected %d", i, seed, got[i], expect[i]);
}

static void check_initstate(xt_t *t)
{
    /* 64 bytes make glibc's TYPE_2 generator, 32 its TYPE_1: both differ from the default. */
    static const size_t sizes[2] = {64, 32};
    _Alignas(8) char vec[2][64];
    int32_t expect[2][6], first[3];
    long got;
    char *prev, *back;
    int i, k, drawn[2] = {0, 0};
    const unsigned base = 5u * (unsigned)t->rank + 1u, seeds[2] = {11u * (unsigned)t->rank + 2u, 13u * (unsigned)t->rank + 9u};
    srandom(base);
    reference(base, first, 3);
    got = random();
    XT_CHECK(t, got == first[0], "random() after srandom(%u) is %ld, expected %d", base, got, first[0]);
    barrier();
    for (k = 0; k < 2; ++k) reference_sized(seeds[k], sizes[k], expect[k], 6);
    prev = initstate(seeds[0], vec[0], sizes[0]);
    XT_CHECK(t, prev != NULL, "initstate(%u, vec0, %zu) failed", seeds[0], sizes[0]);
    barrier();
    back = initstate(seeds[1], vec[1], sizes[1]);
    XT_CHECK(t, back == vec[0], "initstate returned %p, expected the previous array %p", (void *)back, (void *)vec[0]);
    barrier();
    /* Alternate between the two arrays, three draws each, twice, with barriers in between. */
    for (i = 0; i < 4; ++i) {
        k = i % 2;
        back = setstate(vec[k]);
        XT_CHECK(t, back == vec[1 - k], "setstate(vec%d) returned %p, expected %p", k, (void *)back, (void *)vec[1 - k]);
        barrier();
        while (drawn[k] < 3 * (i / 2 + 1)) {
            got = random();
            XT_CHECK(t, got == expect[k][drawn[k]], "draw %d from initstate(%u, %zu bytes) is %ld, expected %d",
                     drawn[k], seeds[k], sizes[k], got, expect[k][drawn[k]]);
            ++drawn[k];
            barrier();
        }
    }
    /* Back to the first state: srandom's sequence goes on. */
    back = setstate(prev);
    XT_CHECK(t, back == vec[1], "setstate(first) returned %p, expected %p", (void *)back, (void *)vec[1]);
    barrier();
    got = random();
    XT_CHECK(t, got == first[1], "random() back on the first state is %ld, expected %d", got, first[1]);
    XT_CHECK(t, initstate(1, vec[0], 4) == NULL, "initstate with 4 bytes of state did not fail");
    got = random();
    XT_CHECK(t, got == first[2], "random() after a failed initstate is %ld, expected %d", got, first[2]);
}

/* rand48: x' = a x + c mod 2^48; glibc's defaults before srand48/lcong48. */
#define RAND48_MASK ((1ull << 48) - 1)
static const uint64_t kRand48A = 0x5deece66dull, kRand48C = 0xb;

static uint64_t rand48_step(uint64_t *x, uint64_t a, uint64_t c)
{
    *x = (a * *x + c) & RAND48_MASK;
    return *x;
}

static void check_rand48(xt_t *t)
{
    unsigned short param[7], xsubi[3] = {0x1234, 0x5678, 0x9abc};
    uint64_t x = 0, a, c, own;
    long got;
    int i;
    /* Unseeded: x starts at 0 with the default a and c, on every rank. */
    for (i = 0; i < 4; ++i) {
        const uint64_t want = rand48_step(&x, kRand48A, kRand48C);
        got = i % 2 ? mrand48() : lrand48();
        if (i % 2) XT_CHECK(t, got == (long)(int32_t)(uint32_t)(want >> 16), "unseeded mrand48 draw %d is %ld", i, got);
        else XT_CHECK(t, got == (long)(want >> 17), "unseeded lrand48 draw %d is %ld, expected %ld", i, got, (long)(want >> 17));
        barrier();
    }
    /* srand48(seed): x = seed << 16 | 0x330e. */
    srand48(1000 + t->rank);
    barrier();
    x = ((uint64_t)(1000 + t->rank) << 16) | 0x330e;
    for (i = 0; i < 3; ++i) {
        const double want = (double)rand48_step(&x, kRand48A, kRand48C) / (double)(1ull << 48);
        const double d = drand48();
        XT_CHECK(t, d == want, "drand48 draw %d after srand48(%d) is %.17g, expected %.17g", i, 1000 + t->rank, d, want);
        barrier();
    }
    /* lcong48: the rank's own x, a and c; nrand48 and erand48 step the caller's x with them. */
    a = kRand48A + 2u * (unsigned)t->rank;
    c = 11u + (unsigned)t->rank;
    own = 42u + (unsigned)t->rank;
    param[0] = (unsigned short)own, param[1] = (unsigned short)(own >> 16), param[2] = (unsigned short)(own >> 32);
    param[3] = (unsigned short)a, param[4] = (unsigned short)(a >> 16), param[5] = (unsigned short)(a >> 32);
    param[6] = (unsigned short)c;
    lcong48(param);
    barrier();
    x = own;
    got = lrand48();
    XT_CHECK(t, got == (long)(rand48_step(&x, a, c) >> 17), "lrand48 after lcong48 is %ld", got);
    barrier();
    x = (uint64_t)xsubi[0] | (uint64_t)xsubi[1] << 16 | (uint64_t)xsubi[2] << 32;
    got = nrand48(xsubi);
    XT_CHECK(t, got == (long)(rand48_step(&x, a, c) >> 17), "nrand48 with the rank's lcong48 is %ld", got);
    XT_CHECK(t, (xsubi[0] | (uint64_t)xsubi[1] << 16 | (uint64_t)xsubi[2] << 32) == x, "nrand48 did not update xsubi");
}

static void check_errno(xt_t *t)
{
    int mine = 1000 + t->rank, got, out = t->rank, in = -1;
    errno = mine;
    barrier();
    got = errno;
    XT_CHECK(t, got == mine, "errno is %d after MPI_Barrier, expected the %d this rank set", got, mine);
    if (t->rank % 2 == 0) {
        XT_CHECK(t, open("/nonexistent/xsim-libc-state", O_RDONLY) == -1, "open of a missing file succeeded");
        mine = ENOENT;
    } else {
        XT_CHECK(t, close(-1) == -1, "close(-1) succeeded");
        mine = EBADF;
    }
    barrier();
    got = errno;
    XT_CHECK(t, got == mine, "errno is %d (%s) after MPI_Barrier, expected %d (%s) from this rank's own failed call",
             got, strerror(got), mine, strerror(mine));
    MPI_Sendrecv(&out, 1, MPI_INT, (t->rank + 1) % t->size, 7, &in, 1, MPI_INT, (t->rank + t->size - 1) % t->size, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    got = errno;
    XT_CHECK(t, got == mine, "errno is %d after MPI_Sendrecv, expected %d", got, mine);
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "libc_state");
    check_getopt(t, argc, argv, 0);
    check_getopt(t, argc, argv, 1);
    check_strtok(t);
    check_rand(t);
    check_initstate(t);
    check_rand48(t);
    check_errno(t);
    return xt_finish(t, NULL);
}
