/* fork_child: a rank that fork()s gets a plain child process, which ends as natively.
 * osu_latency_mp (OSU micro-benchmarks 7.4) forks children that sleep and return from main
 * without MPI; under xsim such a child (a copy of the whole real process) reported "simulated
 * rank R returned from main without calling MPI_Finalize" and tried to end the run from the
 * child: the run hung until mpirun's timeout. Each rank forks a child, which (not calling
 * MPI) writes a line into a pipe and ends with status 10 + rank % 100: by returning from main
 * on even ranks, by exit() on odd ones. The parent reads the pipe, waits for the child, checks its exit
 * status and what it wrote, then goes on with MPI (an Allreduce of the ranks).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "xsim_test.h"

int main(int argc, char **argv)
{
    xt_t xt, *t = &xt;
    int fds[2], status = -1, sum = -1, expect, code;
    char got[128];
    ssize_t n, total = 0;
    pid_t pid;
    xt_init(t, &argc, &argv, "fork_child");
    code = 10 + t->rank % 100;
    if (pipe(fds) != 0) xt_fatal(t, "pipe failed: %s", strerror(errno));
    fflush(stdout);
    pid = fork();
    if (pid < 0) xt_fatal(t, "fork failed: %s", strerror(errno));
    if (pid == 0) {
        char line[64];
        close(fds[0]);
        snprintf(line, sizeof line, "child of rank %d\n", t->rank);
        if (write(fds[1], line, strlen(line)) < 0) _exit(98);
        if (t->rank % 2) exit(code);
        return code;
    }
    close(fds[1]);
    while (total < (ssize_t)sizeof got - 1 && (n = read(fds[0], got + total, sizeof got - 1 - (size_t)total)) > 0)
        total += n;
    got[total > 0 ? total : 0] = '\0';
    close(fds[0]);
    XT_CHECK(t, waitpid(pid, &status, 0) == pid, "waitpid failed: %s", strerror(errno));
    XT_CHECK(t, WIFEXITED(status) && WEXITSTATUS(status) == code,
             "the child ended with status 0x%x, expected exit(%d)", status, code);
    {
        char want[96];
        snprintf(want, sizeof want, "child of rank %d\n", t->rank);
        XT_CHECK(t, strcmp(got, want) == 0, "the child wrote '%s', expected '%s'", got, want);
    }
    MPI_Allreduce(&t->rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    expect = t->size * (t->size - 1) / 2;
    XT_CHECK(t, sum == expect, "Allreduce of the ranks gave %d, expected %d", sum, expect);
    return xt_finish(t, NULL);
}
