/* Helpers shared by the collective conformance programs (C99, plain MPI).
 * No mutable globals or static variables: under xsim every simulated rank of a real
 * process shares them. Each program checks results on every rank, collects the failure
 * counts at rank 0 with point-to-point messages (not with a collective under test) and
 * prints "PASS <name>" or "FAIL <name> ..."; the exit status is non-zero on failure.
 * Rank 0 also prints "VTIME <seconds>" after a final barrier: under xsim it is virtual
 * time, which must not depend on the number of real processes. */
#ifndef XSIM_CONFORMANCE_H
#define XSIM_CONFORMANCE_H

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char* name;
    int rank, size;
    long failures;
} conf_t;

static inline void conf_init(conf_t* t, const char* name) {
    t->name = name;
    t->failures = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &t->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &t->size);
    /* Errors come back as codes so a failing call is reported, not fatal. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

/* Records a failure; the first few per rank are printed. */
static inline void conf_fail(conf_t* t, const char* fmt, ...) {
    if (t->failures < 5) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: rank %d: ", t->name, t->rank);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
    t->failures++;
}

#define CONF_CHECK(t, cond, ...)               \
    do {                                       \
        if (!(cond)) conf_fail((t), __VA_ARGS__); \
    } while (0)

/* Checks the return code of an MPI call. */
#define CONF_CALL(t, call)                                                  \
    do {                                                                    \
        int conf_rc_ = (call);                                              \
        if (conf_rc_ != MPI_SUCCESS) conf_fail((t), "%s returned %d", #call, conf_rc_); \
    } while (0)

/* The class of an MPI return code (MPI_SUCCESS stays MPI_SUCCESS). */
static inline int conf_error_class(int rc) {
    int cls = rc;
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &cls);
    return cls;
}

/* Fails the test unless `call` returns an error of class `cls` (under MPI_ERRORS_RETURN). */
#define CONF_EXPECT_CLASS(t, cls, call)                                                                     \
    do {                                                                                                    \
        int got_ = conf_error_class(call);                                                                  \
        if (got_ != (cls)) conf_fail((t), "%s: class %d, expected %s (%d)", #call, got_, #cls, (int)(cls)); \
    } while (0)

/* True under xsim: checks of calls the standard calls erroneous without naming the outcome
 * run only there (xsim reports them; other libraries may not). */
static inline int conf_under_xsim(void) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    return strstr(version, "xsim") != NULL;
}

static inline void* conf_alloc(size_t bytes) {
    void* p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%lu bytes)\n", (unsigned long)bytes);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return p;
}

/* WORLD's even and odd ranks as two groups (*side, the caller's) joined by
 * MPI_Intercomm_create (leaders: world ranks 0 and 1) into *inter. 0 when WORLD has fewer
 * than 2 ranks (then it has failed the test): one group would be empty. */
static inline int conf_evens_and_odds(conf_t* t, MPI_Comm* side, MPI_Comm* inter) {
    const int even = t->rank % 2 == 0;
    if (t->size < 2) {
        conf_fail(t, "needs at least 2 ranks, got %d", t->size);
        return 0;
    }
    if (MPI_Comm_split(MPI_COMM_WORLD, even, t->rank, side) != MPI_SUCCESS ||
        MPI_Intercomm_create(*side, 0, MPI_COMM_WORLD, even ? 1 : 0, 42, inter) != MPI_SUCCESS) {
        conf_fail(t, "MPI_Comm_split or MPI_Intercomm_create failed");
        return 0;
    }
    return 1;
}

#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 200809L /* mkdtemp: the file tests */
#include <unistd.h>
/* Rank 0 makes a fresh directory from the mkdtemp template `dir` and every rank gets its
 * name; 0 (after a recorded failure) when it could not. */
static inline int conf_shared_temp_dir(conf_t* t, char* dir, int bytes) {
    if (t->rank == 0 && !mkdtemp(dir)) dir[0] = '\0';
    MPI_Bcast(dir, bytes, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (!dir[0]) conf_fail(t, "mkdtemp failed");
    return dir[0] != '\0';
}

/* After every rank is done with it, rank 0 removes file `path` and directory `dir`. */
static inline void conf_remove_shared_temp(conf_t* t, const char* path, const char* dir) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0) {
        unlink(path);
        rmdir(dir);
    }
}
#endif

/* Prints VTIME, PASS/FAIL at rank 0, finalizes; returns the exit status. */
static inline int conf_finish(conf_t* t) {
    long total = t->failures;
    int r;
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0) {
        printf("VTIME %.9f\n", MPI_Wtime());
        for (r = 1; r < t->size; r++) {
            long theirs = 0;
            /* Any source: a specific one would search a queue of up to p early messages. */
            MPI_Recv(&theirs, 1, MPI_LONG, MPI_ANY_SOURCE, 7777, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            total += theirs;
        }
        if (total == 0) printf("PASS %s\n", t->name);
        else printf("FAIL %s: %ld failed checks\n", t->name, total);
        fflush(stdout);
    } else {
        MPI_Send(&t->failures, 1, MPI_LONG, 0, 7777, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}

/* A vector type with gaps: 2 ints, stride 3 (extent 4 ints after resizing), committed. */
static inline MPI_Datatype conf_gappy_type(void) {
    MPI_Datatype v, resized;
    MPI_Type_vector(2, 1, 3, MPI_INT, &v);
    MPI_Type_create_resized(v, 0, (MPI_Aint)(4 * sizeof(int)), &resized);
    MPI_Type_free(&v);
    MPI_Type_commit(&resized);
    return resized;
}
/* Ints per element of the gappy type's extent (ints 0 and 3 carry data). */
#define CONF_GAPPY_INTS 4

/* Typed test data: the same value formula stored as each datatype. */
enum { CONF_INT, CONF_DOUBLE, CONF_LONG_LONG, CONF_CHAR, CONF_GAPPY, CONF_TYPES };
static inline const char* conf_type_name(int t) {
    static const char* const names[] = {"MPI_INT", "MPI_DOUBLE", "MPI_LONG_LONG", "MPI_CHAR", "vector"};
    return names[t];
}
static inline MPI_Datatype conf_type(int t, MPI_Datatype gappy) {
    switch (t) {
        case CONF_INT: return MPI_INT;
        case CONF_DOUBLE: return MPI_DOUBLE;
        case CONF_LONG_LONG: return MPI_LONG_LONG;
        case CONF_CHAR: return MPI_CHAR;
        default: return gappy;
    }
}
/* Bytes per element (the extent). */
static inline size_t conf_extent(int t) {
    switch (t) {
        case CONF_INT: return sizeof(int);
        case CONF_DOUBLE: return sizeof(double);
        case CONF_LONG_LONG: return sizeof(long long);
        case CONF_CHAR: return 1;
        default: return CONF_GAPPY_INTS * sizeof(int);
    }
}
static inline void conf_put(int t, void* buf, long i, long v) {
    switch (t) {
        case CONF_INT: ((int*)buf)[i] = (int)v; break;
        case CONF_DOUBLE: ((double*)buf)[i] = (double)v + 0.25; break;
        case CONF_LONG_LONG: ((long long*)buf)[i] = (long long)v * 1000003LL; break;
        case CONF_CHAR: ((char*)buf)[i] = (char)('A' + v % 50); break;
        default: {
            int* e = (int*)buf + i * CONF_GAPPY_INTS;
            e[0] = (int)v;
            e[3] = (int)(v ^ 0x55);
        }
    }
}
static inline int conf_holds(int t, const void* buf, long i, long v) {
    switch (t) {
        case CONF_INT: return ((const int*)buf)[i] == (int)v;
        case CONF_DOUBLE: return ((const double*)buf)[i] == (double)v + 0.25;
        case CONF_LONG_LONG: return ((const long long*)buf)[i] == (long long)v * 1000003LL;
        case CONF_CHAR: return ((const char*)buf)[i] == (char)('A' + v % 50);
        default: {
            const int* e = (const int*)buf + i * CONF_GAPPY_INTS;
            return e[0] == (int)v && e[3] == (int)(v ^ 0x55) && e[1] == -7 && e[2] == -7;
        }
    }
}
/* Fills n elements with a value no test expects; the gaps of the vector type with -7,
 * which must survive every receive (conf_holds checks them). */
static inline void conf_poison(int t, void* buf, long n) {
    long i;
    if (t == CONF_GAPPY) {
        for (i = 0; i < n * CONF_GAPPY_INTS; i++) ((int*)buf)[i] = -7;
        return;
    }
    memset(buf, 0x5b, (size_t)n * conf_extent(t));
}
/* True when element i still holds what conf_poison wrote. */
static inline int conf_is_poison(int t, const void* buf, long i) {
    unsigned char ref[CONF_GAPPY_INTS * sizeof(int)];
    conf_poison(t, ref, 1);
    return memcmp((const char*)buf + (size_t)i * conf_extent(t), ref, conf_extent(t)) == 0;
}

/* Value of element i of rank r's block in the data-movement tests. */
static inline long conf_value(int r, long i) { return r * 7919L + i; }

#endif
