/* process_ids: every rank has a process id of its own, as natively, and what a program does
 * with it works. Each rank:
 *  - gathers every rank's getpid(): no two are equal (seeds of time(0) ^ getpid(), scratch
 *    files named after the pid); under xsim (XSIM_TEST_VIRTUAL=1) rank r's is
 *    4194304 + r, the same for any number of real processes;
 *  - signals itself with kill(getpid(), 0) (exists) and kill(getpid(), SIGUSR1) (handled);
 *  - opens /proc/<its pid>/status with fopen and open, and reads /proc/<its pid>/exe with
 *    readlink: the process's entry, whose executable is this program;
 *  - writes a scratch file named after its pid and reads back its own rank from it after a
 *    barrier (every rank wrote its file by then). The files are in a directory of this run
 *    (mkdtemp by rank 0): two runs at once under xsim give their ranks the same pids, as
 *    they give them the same time().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xsim_test.h"

static volatile sig_atomic_t usr1_seen = 0;
static void on_usr1(int sig) { (void)sig; usr1_seen = 1; }

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    int *all, i, j, same = 0, virt;
    pid_t pid;
    char path[256], exe[4096], scratch[512], dir[256] = "/tmp/xsim_process_ids.XXXXXX";
    FILE *f;
    ssize_t n;
    int fd, back = -1;
    xt_init(t, &argc, &argv, "process_ids");
    virt = xt_env_flag("XSIM_TEST_VIRTUAL");
    pid = getpid();
    all = (int *)malloc(sizeof(int) * (size_t)t->size);
    MPI_Allgather(&pid, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    for (i = 0; i < t->size; i++)
        for (j = 0; j < i; j++) same += all[i] == all[j];
    XT_CHECK(t, same == 0, "%d pairs of ranks share a process id", same);
    if (virt) XT_CHECK(t, pid == 4194304 + t->rank, "getpid() is %d, expected 4194304 + rank", (int)pid);

    XT_CHECK(t, kill(pid, 0) == 0, "kill(getpid(), 0) failed: %s", strerror(errno));
    signal(SIGUSR1, on_usr1);
    XT_CHECK(t, kill(pid, SIGUSR1) == 0 && usr1_seen, "kill(getpid(), SIGUSR1) was not delivered");
    signal(SIGUSR1, SIG_DFL);

    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    f = fopen(path, "r");
    XT_CHECK(t, f != NULL, "fopen(%s) failed: %s", path, strerror(errno));
    if (f) fclose(f);
    fd = open(path, O_RDONLY);
    XT_CHECK(t, fd >= 0, "open(%s) failed: %s", path, strerror(errno));
    if (fd >= 0) close(fd);
    snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
    n = readlink(path, exe, sizeof exe - 1);
    XT_CHECK(t, n > 0, "readlink(%s) failed: %s", path, strerror(errno));
    if (n > 0) {
        exe[n] = '\0';
        XT_CHECK(t, strstr(exe, "process_ids") != NULL, "%s names %s, not this program", path, exe);
    }

    if (t->rank == 0 && !mkdtemp(dir)) dir[0] = '\0';
    MPI_Bcast(dir, (int)sizeof dir, MPI_CHAR, 0, MPI_COMM_WORLD);
    XT_CHECK(t, dir[0] != '\0', "mkdtemp failed");
    snprintf(scratch, sizeof scratch, "%s/%d", dir, (int)pid);
    f = fopen(scratch, "w");
    XT_CHECK(t, f != NULL, "cannot write %s", scratch);
    if (f) {
        fprintf(f, "%d\n", t->rank);
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    f = fopen(scratch, "r");
    if (f) {
        if (fscanf(f, "%d", &back) != 1) back = -1;
        fclose(f);
    }
    XT_CHECK(t, back == t->rank, "%s holds rank %d, not this rank's", scratch, back);
    MPI_Barrier(MPI_COMM_WORLD);
    unlink(scratch);
    MPI_Barrier(MPI_COMM_WORLD);
    if (t->rank == 0) rmdir(dir);
    free(all);
    return xt_finish(t, NULL);
}
