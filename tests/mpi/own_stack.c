/* own_stack: a rank finds its own stack the way R does (src/unix/system.c, Rf_initialize_R),
 * and every check R makes against it holds, as in a process of a native run:
 *  - __libc_stack_end (the loader's pointer near the stack's start) lies in a mapping of
 *    /proc/self/maps (read with fopen, as R does, and with open); that mapping's end is the
 *    stack's start, and this function's locals are below it by less than getrlimit's
 *    RLIMIT_STACK (R_CheckStack: "C stack usage N is too close to the limit" otherwise);
 *  - a recursion 48 KiB deep stays inside [start - limit, start) at every level, and the
 *    usage it measures grows by what the frames take (no jump to another stack);
 *  - two ranks' stacks [start - limit, start) do not overlap when they share an address
 *    space (the same real process: /proc/self names it, also under xsim), so each measures
 *    only its own;
 *  - pthread_getattr_np of its own thread names the same stack (R's alternative);
 *  - raising the soft limit to the hard one (setrlimit, as programs do at start) succeeds,
 *    and under xsim (XSIM_TEST_VIRTUAL=1) leaves the real process's limit as it was.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "xsim_test.h"

extern void *__libc_stack_end;

/* The end of the mapping of /proc/self/maps (a stream or a descriptor's text) holding p, or 0. */
static uintptr_t mapping_end_in(const char *text, uintptr_t p)
{
    unsigned long start, end;
    int used;
    while (text && *text) {
        if (sscanf(text, "%lx-%lx%n", &start, &end, &used) == 2 && p >= start && p < end) return end;
        text = strchr(text, '\n');
        if (text) ++text;
    }
    return 0;
}

static char *read_all(FILE *f)
{
    size_t size = 0, cap = 1 << 16;
    char *text = (char *)malloc(cap);
    size_t n;
    while ((n = fread(text + size, 1, cap - size - 1, f)) > 0) {
        size += n;
        if (cap - size < 4096) text = (char *)realloc(text, cap *= 2);
    }
    text[size] = '\0';
    return text;
}

/* The "Max stack size" line of /proc/self/limits (the real process's, also under xsim). */
static void read_limits(char *line, size_t size)
{
    FILE *f = fopen("/proc/self/limits", "r");
    line[0] = '\0';
    while (f && fgets(line, (int)size, f))
        if (strncmp(line, "Max stack size", 14) == 0) break;
    if (f) fclose(f);
}

static uintptr_t mine_process(const char *self) { return (uintptr_t)strtoul(self, NULL, 10); }

static uintptr_t g_start, g_limit;
static int g_bad_level = -1;

/* Each level takes about 1 KiB; returns the usage at the deepest level. */
__attribute__((noinline, noclone)) static uintptr_t descend(int level, uintptr_t previous)
{
    volatile char frame[1024];
    uintptr_t here = (uintptr_t)frame, usage = g_start - here, deepest;
    frame[0] = (char)level;
    if ((here >= g_start || usage >= g_limit || usage <= previous) && g_bad_level < 0) g_bad_level = level;
    deepest = level > 0 ? descend(level - 1, usage) : usage;
    if (frame[0] != (char)level && g_bad_level < 0) g_bad_level = level;  /* also keeps the frame live */
    return deepest;
}

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    int virt = 0, i, overlaps = 0, fd;
    char self[64] = "";
    struct rlimit rl;
    FILE *f;
    char *text, *text2;
    uintptr_t local, deepest, *all;
    pthread_attr_t attr;
    void *attr_addr = NULL;
    size_t attr_size = 0;
    xt_init(t, &argc, &argv, "own_stack");
    if (readlink("/proc/self", self, sizeof self - 1) < 0) self[0] = '\0';

    XT_CHECK(t, getrlimit(RLIMIT_STACK, &rl) == 0, "getrlimit(RLIMIT_STACK) failed");
    g_limit = rl.rlim_cur == RLIM_INFINITY ? (uintptr_t)8 << 20 : (uintptr_t)rl.rlim_cur;
    f = fopen("/proc/self/maps", "r");
    XT_CHECK(t, f != NULL, "fopen(/proc/self/maps) failed");
    text = f ? read_all(f) : NULL;
    if (f) fclose(f);
    g_start = mapping_end_in(text, (uintptr_t)__libc_stack_end);
    XT_CHECK(t, g_start != 0, "__libc_stack_end %p lies in no mapping of /proc/self/maps", __libc_stack_end);
    fd = open("/proc/self/maps", O_RDONLY);
    f = fd >= 0 ? fdopen(fd, "r") : NULL;
    text2 = f ? read_all(f) : NULL;
    if (f) fclose(f);
    XT_CHECK(t, mapping_end_in(text2, (uintptr_t)__libc_stack_end) == g_start,
             "open() and fopen() of /proc/self/maps disagree on the stack's mapping");
    free(text);
    free(text2);

    local = (uintptr_t)&virt;
    XT_CHECK(t, local < g_start && g_start - local < g_limit,
             "a local at %#lx is %ld bytes below the stack start %#lx; limit %lu", (unsigned long)local,
             (long)(g_start - local), (unsigned long)g_start, (unsigned long)g_limit);
    XT_CHECK(t, g_limit >= 64 * 1024, "RLIMIT_STACK is only %lu bytes", (unsigned long)g_limit);
    deepest = descend(48, 0);
    XT_CHECK(t, g_bad_level < 0, "at recursion level %d the usage left the stack [start - limit, start)", g_bad_level);
    XT_CHECK(t, deepest >= g_start - local + 48 * 1024, "48 levels of 1 KiB measured only %lu bytes",
             (unsigned long)(deepest - (g_start - local)));

    XT_CHECK(t, pthread_getattr_np(pthread_self(), &attr) == 0, "pthread_getattr_np failed");
    pthread_attr_getstack(&attr, &attr_addr, &attr_size);
    pthread_attr_destroy(&attr);
    XT_CHECK(t, (uintptr_t)attr_addr <= local && local < (uintptr_t)attr_addr + attr_size &&
                    (uintptr_t)attr_addr + attr_size <= g_start + 4096 * 16 &&
                    (uintptr_t)attr_addr + attr_size + 4096 * 16 >= g_start,
             "pthread_getattr_np's stack [%p, +%zu) is not the one /proc/self/maps names (start %#lx)", attr_addr,
             attr_size, (unsigned long)g_start);

    {
        char before[4096], after[4096];
        struct rlimit raised = rl;
        raised.rlim_cur = raised.rlim_max;
        read_limits(before, sizeof before);
        XT_CHECK(t, setrlimit(RLIMIT_STACK, &raised) == 0, "setrlimit(RLIMIT_STACK, cur = max) failed");
        read_limits(after, sizeof after);
        if (xt_env_flag("XSIM_TEST_VIRTUAL"))
            XT_CHECK(t, strcmp(before, after) == 0, "a rank's setrlimit changed the real process's stack limit");
    }

    all = (uintptr_t *)malloc(sizeof(uintptr_t) * 3 * (size_t)t->size);
    {
        uintptr_t mine[3] = {g_start - g_limit, g_start, mine_process(self)};
        MPI_Allgather(mine, 3, MPI_UINT64_T, all, 3, MPI_UINT64_T, MPI_COMM_WORLD);
    }
    for (i = 0; i < t->size; i++)
        if (i != t->rank && all[3 * i + 2] == mine_process(self) && all[3 * i] < g_start &&
            g_start - g_limit < all[3 * i + 1])
            ++overlaps;
    XT_CHECK(t, overlaps == 0, "the stack [start - limit, start) of %d other ranks overlaps this rank's", overlaps);
    free(all);
    return xt_finish(t, NULL);
}
