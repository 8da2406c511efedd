/* Times every collective once at one message size and prints, from rank 0,
 * "TIME <collective> <seconds>": the longest time any rank spent in it, all starting together
 * and "VTIME <seconds>" at the end. Under xsim these are virtual times: the same for any
 * number of real processes, and the numbers compare_analytic.sh sets against each other.
 *   coll_timing [bytes [nobuf] [perrank] [scalable] [nonblocking]]
 * bytes: per rank for bcast/reduce/allreduce/scan/exscan/reduce_scatter_block (whole
 * vector), per block for gather/scatter/allgather/alltoall (default 64). nobuf passes
 * NULL buffers: only valid with xsim's -xsim-payload off (used for the analytic runs).
 * Without payload no data moves, not even this program's own results: then TIME is not
 * printed; with perrank every rank prints "RTIME <collective> <rank> <seconds>" and
 * compare_analytic.sh takes the maximum (lines of several real processes may interleave:
 * use one process). Both modes make the same MPI calls, and rank 0 lines everyone up
 * before each collective, so the final VTIME depends on every collective's completion
 * on every rank: the comparisons check it.
 * scalable: only the collectives whose data per rank does not grow with p (barrier,
 * bcast, reduce, allreduce, gather, scatter, scan, exscan), no per-rank arrays, and
 * RTIME from ranks 0 and p-1 only: for runs with a million ranks (with nobuf).
 * nonblocking: every collective as its nonblocking form (MPI_Ibcast, ...) + MPI_Wait,
 * which under xsim runs the same algorithm and must print exactly the same times. */
#include "conformance.h"

enum { C_BARRIER, C_BCAST, C_REDUCE, C_ALLREDUCE, C_GATHER, C_GATHERV, C_SCATTER, C_SCATTERV, C_ALLGATHER,
       C_ALLGATHERV, C_ALLTOALL, C_ALLTOALLV, C_ALLTOALLW, C_REDUCE_SCATTER, C_REDUCE_SCATTER_BLOCK, C_SCAN,
       C_EXSCAN, C_COUNT };

static int scalable_coll(int c) {
    return c == C_BARRIER || c == C_BCAST || c == C_REDUCE || c == C_ALLREDUCE || c == C_GATHER || c == C_SCATTER ||
           c == C_SCAN || c == C_EXSCAN;
}

static const char* coll_name(int c) {
    const char* const names[] = {"barrier",   "bcast",      "reduce",    "allreduce",      "gather",
                                 "gatherv",   "scatter",    "scatterv",  "allgather",      "allgatherv",
                                 "alltoall",  "alltoallv",  "alltoallw", "reduce_scatter", "reduce_scatter_block",
                                 "scan",      "exscan"};
    return names[c];
}

/* Starts all ranks at nearly the same moment (to within the spread of path latencies):
 * rank 0 hears from everyone, then releases everyone at once with empty messages. A
 * barrier would not do: its ranks leave up to log2(p) latencies apart. */
static void line_up(const conf_t* t) {
    int r;
    if (t->rank == 0) {
        /* Any source: a specific one would search a queue of up to p early messages. */
        for (r = 1; r < t->size; r++) MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (r = 1; r < t->size; r++) MPI_Send(NULL, 0, MPI_BYTE, r, 4, MPI_COMM_WORLD);
    } else {
        MPI_Send(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

typedef struct {
    int p, block, ints;          /* block: bytes per block; ints: elements of a reduction vector */
    char *a, *b;                 /* buffers of p blocks (or NULL) */
    int *counts, *displs, *bdispls;
    MPI_Datatype* types;
} bench_t;

/* Runs collective c: blocking, or (req != NULL) its nonblocking form, then MPI_Wait. */
#define CALL(blocking, nonblocking) (req ? (nonblocking) : (blocking))
static void run(const bench_t* s, int c, MPI_Request* req) {
    const int root = s->p - 1;
    const int piece = s->ints / s->p > 0 ? s->ints / s->p : 1;
    const MPI_Comm w = MPI_COMM_WORLD;
    switch (c) {
        case C_BARRIER: CALL(MPI_Barrier(w), MPI_Ibarrier(w, req)); break;
        case C_BCAST:
            CALL(MPI_Bcast(s->a, s->block, MPI_BYTE, root, w), MPI_Ibcast(s->a, s->block, MPI_BYTE, root, w, req));
            break;
        case C_REDUCE:
            CALL(MPI_Reduce(s->a, s->b, s->ints, MPI_INT, MPI_SUM, root, w),
                 MPI_Ireduce(s->a, s->b, s->ints, MPI_INT, MPI_SUM, root, w, req));
            break;
        case C_ALLREDUCE:
            CALL(MPI_Allreduce(s->a, s->b, s->ints, MPI_INT, MPI_SUM, w),
                 MPI_Iallreduce(s->a, s->b, s->ints, MPI_INT, MPI_SUM, w, req));
            break;
        case C_GATHER:
            CALL(MPI_Gather(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, root, w),
                 MPI_Igather(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, root, w, req));
            break;
        case C_GATHERV:
            CALL(MPI_Gatherv(s->a, s->block, MPI_BYTE, s->b, s->counts, s->displs, MPI_BYTE, root, w),
                 MPI_Igatherv(s->a, s->block, MPI_BYTE, s->b, s->counts, s->displs, MPI_BYTE, root, w, req));
            break;
        case C_SCATTER:
            CALL(MPI_Scatter(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, root, w),
                 MPI_Iscatter(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, root, w, req));
            break;
        case C_SCATTERV:
            CALL(MPI_Scatterv(s->a, s->counts, s->displs, MPI_BYTE, s->b, s->block, MPI_BYTE, root, w),
                 MPI_Iscatterv(s->a, s->counts, s->displs, MPI_BYTE, s->b, s->block, MPI_BYTE, root, w, req));
            break;
        case C_ALLGATHER:
            CALL(MPI_Allgather(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, w),
                 MPI_Iallgather(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, w, req));
            break;
        case C_ALLGATHERV:
            CALL(MPI_Allgatherv(s->a, s->block, MPI_BYTE, s->b, s->counts, s->displs, MPI_BYTE, w),
                 MPI_Iallgatherv(s->a, s->block, MPI_BYTE, s->b, s->counts, s->displs, MPI_BYTE, w, req));
            break;
        case C_ALLTOALL:
            CALL(MPI_Alltoall(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, w),
                 MPI_Ialltoall(s->a, s->block, MPI_BYTE, s->b, s->block, MPI_BYTE, w, req));
            break;
        case C_ALLTOALLV:
            CALL(MPI_Alltoallv(s->a, s->counts, s->displs, MPI_BYTE, s->b, s->counts, s->displs, MPI_BYTE, w),
                 MPI_Ialltoallv(s->a, s->counts, s->displs, MPI_BYTE, s->b, s->counts, s->displs, MPI_BYTE, w, req));
            break;
        case C_ALLTOALLW:
            CALL(MPI_Alltoallw(s->a, s->counts, s->bdispls, s->types, s->b, s->counts, s->bdispls, s->types, w),
                 MPI_Ialltoallw(s->a, s->counts, s->bdispls, s->types, s->b, s->counts, s->bdispls, s->types, w, req));
            break;
        case C_REDUCE_SCATTER:
            /* Pieces of one rank's share of the vector each. */
            CALL(MPI_Reduce_scatter(s->a, s->b, s->counts + s->p, MPI_INT, MPI_SUM, w),
                 MPI_Ireduce_scatter(s->a, s->b, s->counts + s->p, MPI_INT, MPI_SUM, w, req));
            break;
        case C_REDUCE_SCATTER_BLOCK:
            CALL(MPI_Reduce_scatter_block(s->a, s->b, piece, MPI_INT, MPI_SUM, w),
                 MPI_Ireduce_scatter_block(s->a, s->b, piece, MPI_INT, MPI_SUM, w, req));
            break;
        case C_SCAN:
            CALL(MPI_Scan(s->a, s->b, s->ints, MPI_INT, MPI_SUM, w),
                 MPI_Iscan(s->a, s->b, s->ints, MPI_INT, MPI_SUM, w, req));
            break;
        case C_EXSCAN:
            CALL(MPI_Exscan(s->a, s->b, s->ints, MPI_INT, MPI_SUM, w),
                 MPI_Iexscan(s->a, s->b, s->ints, MPI_INT, MPI_SUM, w, req));
            break;
    }
    if (req) MPI_Wait(req, MPI_STATUS_IGNORE);
}

int main(int argc, char** argv) {
    conf_t t;
    bench_t s;
    long bytes;
    int nobuf, perrank, scalable, nonblocking, c, i;
    MPI_Request req;
    double enter[C_COUNT], leave[C_COUNT], last_leave[C_COUNT];
    MPI_Init(&argc, &argv);
    conf_init(&t, "coll_timing");
    bytes = argc > 1 ? atol(argv[1]) : 64;
    nobuf = perrank = scalable = nonblocking = 0;
    for (i = 2; i < argc; i++) {
        nobuf |= strcmp(argv[i], "nobuf") == 0;
        scalable |= strcmp(argv[i], "scalable") == 0;
        perrank |= strcmp(argv[i], "perrank") == 0;
        nonblocking |= strcmp(argv[i], "nonblocking") == 0;
    }
    s.p = t.size;
    s.block = (int)(bytes > 0 ? bytes : 1);
    s.ints = s.block / 4 > 0 ? s.block / 4 : 1;
    {
        const size_t n = scalable ? 1 : (size_t)s.p;
        s.counts = (int*)conf_alloc(2 * n * sizeof(int));
        s.displs = (int*)conf_alloc(n * sizeof(int));
        s.bdispls = (int*)conf_alloc(n * sizeof(int));
        s.types = (MPI_Datatype*)conf_alloc(n * sizeof(MPI_Datatype));
    }
    for (i = 0; i < s.p && !scalable; i++) {
        s.counts[i] = s.block;
        s.displs[i] = i * s.block;
        s.bdispls[i] = i * s.block;
        s.types[i] = MPI_BYTE;
        s.counts[s.p + i] = s.ints / s.p > 0 ? s.ints / s.p : 1;
    }
    {
        /* Large enough for p blocks, or for the reduction vector and its pieces. */
        const size_t need = (size_t)s.p * (size_t)s.block + (size_t)s.p * 4 + (size_t)s.ints * 4;
        s.a = nobuf ? NULL : (char*)conf_alloc(need);
        s.b = nobuf ? NULL : (char*)conf_alloc(need);
        if (!nobuf) {
            memset(s.a, 1, need);
            memset(s.b, 0, need);
        }
    }
    for (c = 0; c < C_COUNT; c++) {
        enter[c] = leave[c] = 0.0;
        if (scalable && !scalable_coll(c)) continue;
        line_up(&t);
        enter[c] = MPI_Wtime();
        run(&s, c, nonblocking ? &req : NULL);
        leave[c] = MPI_Wtime();
    }
    for (c = 0; c < C_COUNT; c++) leave[c] -= enter[c];
    if (perrank && (!scalable || t.rank == 0 || t.rank == t.size - 1)) {
        /* One write per rank, so the lines of two real processes never interleave. */
        char lines[C_COUNT * 64];
        size_t used = 0;
        for (c = 0; c < C_COUNT; c++)
            if (!scalable || scalable_coll(c))
                used += (size_t)snprintf(lines + used, sizeof lines - used, "RTIME %s %d %.9f\n", coll_name(c),
                                         t.rank, leave[c]);
        fputs(lines, stdout);
        fflush(stdout);
    }
    MPI_Reduce(leave, last_leave, C_COUNT, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (t.rank == 0 && !nobuf)
        for (c = 0; c < C_COUNT; c++)
            if (!scalable || scalable_coll(c)) printf("TIME %s %.9f\n", coll_name(c), last_leave[c]);
    free(s.counts);
    free(s.displs);
    free(s.bdispls);
    free(s.types);
    free(s.a);
    free(s.b);
    return conf_finish(&t);
}
