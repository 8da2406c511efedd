/* One file on the units of several ranks, from a C main program (as code_saturne's): every
 * rank but the first sends its Fortran log to /dev/null on unit 9 (code_saturne's csopli),
 * and every rank reads the same input file on unit 11, each keeping its units open while the
 * others open theirs. Natively each rank is a process with its own table of units, so every
 * OPEN succeeds; under xsim, where the ranks of a process share libgfortran's table, the
 * second rank's OPEN of /dev/null failed ("File already opened in another unit", which
 * libgfortran checks unless a Fortran main program allowed Fortran 2018). A rank that opens
 * the input file again on a unit of its own (12) while it still has it on 11 must still fail,
 * as natively. argv[1]: a prefix for the input file (each test has its own). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int open_log(int unit);
int read_input(const char* path, int length, int unit, int* value);
void close_unit(int unit);

static int failures = 0;

static void check(int ok, const char* what, int rank) {
    if (ok) return;
    fprintf(stderr, "FAIL shared_file_units %s on rank %d\n", what, rank);
    ++failures;
}

int main(int argc, char** argv) {
    int rank, size, value = -1, total = 0;
    char path[512];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    snprintf(path, sizeof path, "%sinput.txt", argc > 1 ? argv[1] : "shared_file_units_");
    if (rank == 0) {
        FILE* f = fopen(path, "w");
        fprintf(f, "42\n");
        fclose(f);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank > 0) check(open_log(9) == 0, "OPEN of /dev/null on unit 9", rank);
    check(read_input(path, (int)strlen(path), 11, &value) == 0 && value == 42,
          "OPEN and READ of the shared input file on unit 11", rank);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank has its units open now */
    check(read_input(path, (int)strlen(path), 12, &value) == 1,
          "refusal of the rank's own second unit on the input file", rank);
    MPI_Barrier(MPI_COMM_WORLD);
    close_unit(11);
    if (rank > 0) close_unit(9);
    MPI_Barrier(MPI_COMM_WORLD);
    /* closed: the file may be opened on unit 12 now */
    check(read_input(path, (int)strlen(path), 12, &value) == 0 && value == 42,
          "OPEN of the input file on unit 12 after CLOSE(11)", rank);
    close_unit(12);

    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        if (total == 0) printf("PASS shared_file_units (%d ranks)\n", size);
        else printf("FAIL shared_file_units: %d failed checks\n", total);
        remove(path);
    }
    MPI_Finalize();
    return total == 0 ? 0 : 1;
}
