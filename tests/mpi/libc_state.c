/* libc_state: C library state that is per process natively is per rank under xsim.
 *
 * Run with the arguments  -n 5 -v -ab extra  . Every rank:
 *  - parses them with getopt("n:vab"), with a barrier after each option (other ranks parse
 *    in between, also inside "-ab"), and must see n=5, -v, -a, -b, then argv[optind]=="extra";
 *    then parses them again with getopt_long after resetting optind to 0;
 *  - splits its own string with strtok across a barrier and must get its own tokens;
 *  - draws rand() and random() across a barrier, before and after srand(seed of its own):
 *    the values must be exactly glibc's sequence for that seed (computed with the reentrant
 *    random_r, which keeps its state in the caller's buffer).
 */
#define _DEFAULT_SOURCE
#include <getopt.h>
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

/* glibc's sequence for `seed`, from the reentrant generator. */
static void reference(unsigned seed, int32_t *out, int n)
{
    struct random_data data;
    char state[128];
    int i;
    memset(&data, 0, sizeof data);
    initstate_r(seed, state, sizeof state, &data);
    for (i = 0; i < n; ++i) random_r(&data, &out[i]);
}

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

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    xt_init(t, &argc, &argv, "libc_state");
    check_getopt(t, argc, argv, 0);
    check_getopt(t, argc, argv, 1);
    check_strtok(t);
    check_rand(t);
    return xt_finish(t, NULL);
}
