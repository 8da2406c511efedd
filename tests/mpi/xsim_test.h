/* Shared helpers for the xsim end-to-end MPI test programs.
 *
 * Every program is plain, valid MPI (C99) and must also pass on a real MPI
 * library. The helpers here use only point-to-point, MPI_Barrier, Wtime, Abort
 * and error handlers: the final error-count reduction is a binomial tree of
 * MPI_Send/MPI_Recv, not MPI_Reduce, so that a broken collective cannot hide
 * its own failures (the collectives are checked by tests/conformance).
 *
 * Protocol seen by the harness (tests/run_mpi_case.sh), all printed by rank 0 only:
 *   FAIL <name>: ...        per failing check (any rank; also rank 0 summary)
 *   ORDER <name> <hash>     optional, program specific
 *   VTIME <name> <seconds>  MPI_Wtime() of rank 0 after the final barrier
 *   PASS <name>[ <note>]    exactly once, last, only if no rank failed
 *
 * Environment read by every program:
 *   XSIM_TEST_EXPECT_SIZE=N  fail unless MPI_Comm_size(MPI_COMM_WORLD) == N
 *
 * No mutable global or static data, here or in the programs: under xsim the
 * simulated ranks of one real process are fibers in one address space and
 * share every global variable. Per-rank state lives in an xt_t (and other
 * structs) on main's stack and is passed down explicitly.
 */
#ifndef XSIM_TEST_H
#define XSIM_TEST_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tag reserved for the final error reduction; no test uses it. */
#define XT_TAG_REDUCE 32000
/* Upper bound for polling loops (Test/Iprobe/Testsome): a correct MPI makes
 * progress inside the poll, so hitting this bound means "poll never completes". */
#define XT_POLL_LIMIT 50000000L
/* At most this many detailed FAIL lines per rank (the total is still counted). */
#define XT_MAX_FAIL_LINES 3

/* Per-rank test state; lives on main's stack. */
typedef struct xt {
    const char *name;
    int rank;
    int size;
    long long errors;
} xt_t;

static inline void xt_vprint_fail(const xt_t *t, const char *fmt, va_list ap)
{
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    printf("FAIL %s: rank %d: %s\n", t->name, t->rank, msg);
    fflush(stdout);
}

/* Record a failed check; keeps running so that all ranks reach the final tally. */
static inline void xt_fail(xt_t *t, const char *fmt, ...)
{
    va_list ap;
    ++t->errors;
    if (t->errors <= XT_MAX_FAIL_LINES) {
        va_start(ap, fmt);
        xt_vprint_fail(t, fmt, ap);
        va_end(ap);
    } else if (t->errors == XT_MAX_FAIL_LINES + 1) {
        printf("FAIL %s: rank %d: (further failures on this rank not shown)\n", t->name, t->rank);
        fflush(stdout);
    }
}

/* A failure after which continuing could hang or crash: report and abort now. */
static inline void xt_fatal(const xt_t *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    xt_vprint_fail(t, fmt, ap);
    va_end(ap);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1); /* not reached with a conforming MPI_Abort */
}

#define XT_CHECK(t, cond, ...) \
    do { if (!(cond)) xt_fail((t), __VA_ARGS__); } while (0)

/* Fatal on any MPI return code other than MPI_SUCCESS (only meaningful when
 * MPI_ERRORS_RETURN is in effect; with the default handler errors abort anyway). */
#define XT_MPI(t, call) \
    do { int xt_rc_ = (call); \
         if (xt_rc_ != MPI_SUCCESS) xt_fatal((t), "%s returned %d (line %d)", #call, xt_rc_, __LINE__); \
    } while (0)

/* For a program that initialized MPI itself (MPI_Init_thread, say): the rest of xt_init. */
static inline void xt_init_after(xt_t *t, const char *name)
{
    const char *expect;
    t->name = name;
    t->rank = -1;
    t->size = 0;
    t->errors = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t->size);
    (void)MPI_Wtime(); /* some MPIs (Open MPI) start the Wtime origin at the first call */
    if (t->rank < 0 || t->rank >= t->size)
        xt_fatal(t, "MPI_Comm_rank %d outside [0,%d)", t->rank, t->size);
    expect = getenv("XSIM_TEST_EXPECT_SIZE");
    if (expect != NULL && *expect != '\0') {
        long want = strtol(expect, NULL, 10);
        XT_CHECK(t, want == (long)t->size, "MPI_Comm_size is %d, expected %ld (XSIM_TEST_EXPECT_SIZE)",
                 t->size, want);
    }
}

static inline void xt_init(xt_t *t, int *argc, char ***argv, const char *name)
{
    MPI_Init(argc, argv);
    xt_init_after(t, name);
}

static inline int xt_env_flag(const char *var)
{
    const char *v = getenv(var);
    return v != NULL && strcmp(v, "1") == 0;
}

/* A barrier (so no test's MPI_ANY_TAG receive can match the tally messages),
 * a binomial-tree sum of {errors, failing ranks} and min failing rank to
 * rank 0, then a final barrier; rank 0 prints VTIME and PASS, or FAIL and aborts.
 * `note` (may be NULL) is appended to the PASS line. Calls MPI_Finalize. */
static inline int xt_finish(xt_t *t, const char *note)
{
    long long v[3]; /* errors, number of failing ranks, lowest failing rank */
    long long in[3];
    int mask;
    double now;

    MPI_Barrier(MPI_COMM_WORLD);
    v[0] = t->errors;
    v[1] = t->errors ? 1 : 0;
    v[2] = t->errors ? t->rank : (long long)t->size;
    for (mask = 1; mask < t->size; mask <<= 1) {
        if (t->rank & mask) {
            MPI_Send(v, 3, MPI_LONG_LONG, t->rank - mask, XT_TAG_REDUCE, MPI_COMM_WORLD);
            break;
        }
        if (t->rank + mask < t->size) {
            MPI_Recv(in, 3, MPI_LONG_LONG, t->rank + mask, XT_TAG_REDUCE, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            v[0] += in[0];
            v[1] += in[1];
            if (in[2] < v[2]) v[2] = in[2];
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    now = MPI_Wtime();
    if (t->rank == 0) {
        if (v[0] != 0) {
            printf("FAIL %s: %lld failed check(s) on %lld of %d rank(s), first failing rank %lld\n",
                   t->name, v[0], v[1], t->size, v[2]);
            fflush(stdout);
            MPI_Abort(MPI_COMM_WORLD, 1);
            return 1;
        }
        printf("VTIME %s %.9f\n", t->name, now);
        printf("PASS %s%s%s\n", t->name, note ? " " : "", note ? note : "");
        fflush(stdout);
    }
    MPI_Finalize();
    return 0;
}

/* 64-bit FNV-1a over the 4 little-endian bytes of each value. */
#define XT_FNV_OFFSET 0xcbf29ce484222325ULL
#define XT_FNV_PRIME 0x100000001b3ULL
static inline unsigned long long xt_fnv_int(unsigned long long h, unsigned int value)
{
    int i;
    for (i = 0; i < 4; ++i) {
        h ^= (unsigned long long)((value >> (8 * i)) & 0xffu);
        h *= XT_FNV_PRIME;
    }
    return h;
}

#endif /* XSIM_TEST_H */
