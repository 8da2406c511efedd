/* page_table_reach: what touching one word per page costs when the pages are spread out like
 * the tops of xsim's rank stacks, without xsim. Each of N pages sits STRIDE bytes after the
 * previous one (1114112 = a 1 MiB stack plus its 64 KiB guard: one page-table page for about
 * every two pages touched); after a first pass that maps them, it times passes that write one
 * word in each, in address order, as a scheduler resuming ranks one after another does.
 *
 * On a host that walks the guest's page tables in hardware the cost stays near a cache miss
 * (tens of ns) for any N. Where the hypervisor shadows the guest's page tables (a PVM guest
 * kernel: `pvm_irq_enable` in perf), it jumps once the page-table pages outgrow what the
 * hypervisor keeps: session 38 measured 75 ns at 131,072 pages and 10,500 ns at 262,144 with
 * the 1 MiB stride, 28 ns at 262,144 with a 20 KiB stride (bench/RESULTS.md "Session 38").
 *
 * Build and run: gcc -O2 bench/page_table_reach.c -o reach && ./reach 262144 1114112 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s PAGES STRIDE_BYTES\n", argv[0]);
        return 2;
    }
    const size_t n = strtoul(argv[1], NULL, 10), stride = strtoul(argv[2], NULL, 10);
    if (n == 0 || stride < 4096) {
        fprintf(stderr, "PAGES must be positive and STRIDE_BYTES at least 4096\n");
        return 2;
    }
    char *base = mmap(NULL, n * stride, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    for (size_t i = 0; i < n; ++i) base[i * stride + stride - 64] = 1; /* map them */
    for (int pass = 0; pass < 3; ++pass) {
        const double start = now();
        for (size_t i = 0; i < n; ++i) base[i * stride + stride - 64]++;
        printf("%zu pages, stride %zu: pass %d: %.1f ns per page\n", n, stride, pass, (now() - start) / n * 1e9);
    }
    return 0;
}
