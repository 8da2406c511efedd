/* xsim-calibration-probe: the measurements behind `xsim-machine --calibrate`, run with the
 * real Open MPI (never with xsim). One mode per run; every repeat prints one line, and the
 * caller keeps the median and reports the spread:
 *   pingpong SIZES REPEATS   2 ranks (or 1: to itself): "pingpong BYTES ONE_WAY_SECONDS"
 *   poll REPEATS             MPI_Iprobe with nothing to find: "poll SECONDS_PER_CALL"
 *   clock REPEATS            MPI_Wtime: "clock SECONDS_PER_CALL"
 *   kernel REPEATS           the reference kernel (a*x+y over an L1-resident array):
 *                            "kernel FLOP_PER_SECOND"
 * SIZES is a comma-separated list of message sizes in bytes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double elapsed_per(double start, long count) { return (MPI_Wtime() - start) / (double)count; }

/* Round trips per timed block: ~20 us of traffic, at least 1. A measurement is ~100 blocks
 * (~2 ms, at least 9 blocks) and keeps the median block: a block the host preempted (a
 * loaded machine takes the core away for milliseconds) is an outlier, not a share of the
 * whole measurement as when it was timed in one piece. */
static long block_trips(size_t bytes) {
    long n = (long)(20e-6 / (1e-6 + (double)bytes / 2e9));
    return n < 1 ? 1 : n;
}

static int by_value(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static int pingpong(const char* sizes, int repeats) {
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int peer = size == 1 ? 0 : 1 - rank;
    if (size > 2) {
        if (rank == 0) fprintf(stderr, "xsim-calibration-probe: pingpong needs 1 or 2 ranks\n");
        return 2;
    }
    char* list = strdup(sizes);
    size_t largest = 0;
    for (char* t = strtok(list, ","); t; t = strtok(NULL, ",")) {
        size_t b = strtoull(t, NULL, 10);
        if (b > largest) largest = b;
    }
    free(list);
    /* One buffer, received into and sent from, as a program sends data it has just written:
     * each message's bytes are dirty in the sending core's cache and really cross to the
     * other core. With a separate send buffer that is never written (as before), the sender's
     * bytes stay cached on both cores and the copy is 2-3x faster than any program sees
     * (one way on this VM: 64 KiB 3.1 us against 11.1 us, 16 KiB 1.7 against 4.0 us).
     * Written first: fresh calloc'd pages all map the kernel's zero page until written. */
    char* buf = malloc(largest ? largest : 1);
    memset(buf, 0x5a, largest ? largest : 1);
    /* To itself a send and its receive are pending at once, so they need two buffers
     * (MPI forbids the overlap); they swap each trip, so again what was received is sent. */
    char* other = malloc(largest ? largest : 1);
    memset(other, 0xa5, largest ? largest : 1);
    list = strdup(sizes);
    for (char* t = strtok(list, ","); t; t = strtok(NULL, ",")) {
        const int bytes = (int)strtoull(t, NULL, 10);
        const long trips = block_trips((size_t)bytes);
        long blocks = (long)(2e-3 / (20e-6 > trips * 1e-6 ? 20e-6 : trips * 1e-6));
        if (blocks < 9) blocks = 9;
        double* per_block = malloc(sizeof(double) * (size_t)blocks);
        for (int r = -1; r < repeats; ++r) { /* r = -1: warm-up, not printed */
            MPI_Barrier(MPI_COMM_WORLD);
            for (long k = 0; k < blocks; ++k) {
                const double start = MPI_Wtime();
                for (long i = 0; i < trips; ++i) {
                    if (size == 1) {
                        MPI_Request req;
                        MPI_Irecv(other, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &req);
                        MPI_Send(buf, bytes, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
                        MPI_Wait(&req, MPI_STATUS_IGNORE);
                        char* swap = buf;
                        buf = other;
                        other = swap;
                    } else if (rank == 0) {
                        MPI_Send(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                        MPI_Recv(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    } else {
                        MPI_Recv(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                        MPI_Send(buf, bytes, MPI_BYTE, peer, 1, MPI_COMM_WORLD);
                    }
                }
                /* To itself a "trip" is one message; between two ranks it is two. */
                per_block[k] = elapsed_per(start, size == 1 ? trips : 2 * trips);
            }
            qsort(per_block, (size_t)blocks, sizeof(double), by_value);
            if (rank == 0 && r >= 0) printf("pingpong %d %.9e\n", bytes, per_block[blocks / 2]);
        }
        free(per_block);
    }
    free(list);
    free(buf);
    free(other);
    return 0;
}

static int poll(int repeats) {
    const long calls = 200000;
    for (int r = -1; r < repeats; ++r) {
        int flag;
        double start = MPI_Wtime();
        for (long i = 0; i < calls; ++i) MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        const double per = elapsed_per(start, calls);
        if (r >= 0) printf("poll %.9e\n", per);
    }
    return 0;
}

static int clock_reads(int repeats) {
    const long calls = 1000000;
    volatile double sink = 0;
    for (int r = -1; r < repeats; ++r) {
        double start = MPI_Wtime();
        for (long i = 0; i < calls; ++i) sink += MPI_Wtime();
        const double per = elapsed_per(start, calls);
        if (r >= 0) printf("clock %.9e\n", per);
    }
    return sink < 0;
}

/* The reference kernel: y = a*x + y over 2 x 8 KiB (L1-resident), 2 flops per element. */
static int kernel(int repeats) {
    enum { N = 1024 };
    static double x[N], y[N];
    for (int i = 0; i < N; ++i) { x[i] = 1.0 / (i + 1); y[i] = 0.5; }
    const long sweeps = 20000;
    for (int r = -1; r < repeats; ++r) {
        const double a = 1.0000001;
        double start = MPI_Wtime();
        for (long s = 0; s < sweeps; ++s) {
            for (int i = 0; i < N; ++i) y[i] = a * x[i] + y[i];
            __asm__ volatile("" : : "r"(y) : "memory"); /* keep every sweep */
        }
        const double seconds = MPI_Wtime() - start;
        if (r >= 0) printf("kernel %.9e\n", 2.0 * N * sweeps / seconds);
    }
    return y[0] < 0;
}

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank, code = 2;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char* mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "pingpong") && argc == 4) code = pingpong(argv[2], atoi(argv[3]));
    else if (rank != 0) code = 0; /* the other modes run on one rank */
    else if (!strcmp(mode, "poll") && argc == 3) code = poll(atoi(argv[2]));
    else if (!strcmp(mode, "clock") && argc == 3) code = clock_reads(atoi(argv[2]));
    else if (!strcmp(mode, "kernel") && argc == 3) code = kernel(atoi(argv[2]));
    else fprintf(stderr, "usage: xsim-calibration-probe pingpong SIZES REPEATS | poll N | clock N | kernel N\n");
    fflush(stdout);
    MPI_Finalize();
    return code;
}
