/* A program with a large written image of globals, switched at every MPI call when many
 * simulated ranks share a real process (runtime/privatization): what a privatization switch
 * costs a code like Smilei (1.7 MB of written globals, with its interpreter's) or an old
 * Fortran code's COMMON blocks.
 *
 * Globals: GLOBALS_MIB MiB (compile-time, default 32) in one array. At start-up each rank
 * writes BLOCK_KIB KiB every STRIDE_KIB KiB of it (blocks more than 1 MiB apart stay separate
 * runs of written pages; closer ones are joined into one), then does STEPS steps: it writes
 * TOUCH pages of its blocks (spread over them), and calls MPI_Allreduce of a checksum. At the
 * end every rank checks its blocks hold only what it wrote (its own image, never another
 * rank's) and prints PASS or FAIL.
 *
 * usage: globals_switch [STEPS=300] [BLOCK_KIB=64] [STRIDE_KIB=2048] [TOUCH=8]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GLOBALS_MIB
#define GLOBALS_MIB 32
#endif
#define PAGE 4096

static unsigned char globals[(size_t)GLOBALS_MIB << 20] __attribute__((aligned(PAGE)));

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const long steps = argc > 1 ? atol(argv[1]) : 300;
    const size_t block = (size_t)(argc > 2 ? atol(argv[2]) : 64) << 10;
    const size_t stride = (size_t)(argc > 3 ? atol(argv[3]) : 2048) << 10;
    const long touch = argc > 4 ? atol(argv[4]) : 8;
    if (block == 0 || stride < block || touch < 0) {
        if (rank == 0) fprintf(stderr, "usage: %s [STEPS] [BLOCK_KIB] [STRIDE_KIB >= BLOCK_KIB] [TOUCH]\n", argv[0]);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const size_t blocks = sizeof globals / stride;
    const size_t pages = blocks * (block / PAGE);  /* written pages of a rank */
    const unsigned char mine = (unsigned char)(rank + 1);
    for (size_t b = 0; b < blocks; ++b) memset(globals + b * stride, mine, block);

    unsigned long sum = 0;
    for (long s = 0; s < steps; ++s) {
        for (long t = 0; t < touch && pages; ++t) {
            const size_t p = ((size_t)s * (size_t)touch + (size_t)t) * 7919 % pages;
            const size_t at = (p / (block / PAGE)) * stride + (p % (block / PAGE)) * PAGE;
            sum += globals[at + 1];
            globals[at] = mine;  /* still this rank's byte */
        }
        unsigned long total = 0;
        MPI_Allreduce(&sum, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
        sum = total % 1000003;
    }

    size_t wrong = 0;
    for (size_t b = 0; b < blocks; ++b)
        for (size_t i = 0; i < block; ++i) wrong += globals[b * stride + i] != mine;
    size_t outside = 0;  /* the bytes no rank writes stay zero (one per gap: reading a page of
                            .bss maps it, on some kernels as a page of the process's own) */
    for (size_t b = 0; b < blocks && block < stride; ++b) outside += globals[b * stride + block] != 0;
    int ok = wrong == 0 && outside == 0, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!ok) printf("FAIL rank %d: %zu bytes of its blocks and %zu outside are not its own\n", rank, wrong, outside);
    if (rank == 0 && all)
        printf("PASS %d ranks, %zu MiB of globals, %zu blocks of %zu KiB written, %ld steps\n", size, (size_t)GLOBALS_MIB, blocks, block >> 10, steps);
    MPI_Finalize();
    return all ? 0 : 1;
}
