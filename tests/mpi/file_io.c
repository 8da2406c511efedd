/* file_io: MPI-IO end to end. Every rank writes its blocks of a shared file through a view
 * (a vector filetype that interleaves the ranks) with collective, independent, nonblocking
 * and split collective writes; other ranks read them back; rank 0 then checks every byte
 * of the file with plain stdio against the formula the writers used, and prints a checksum
 * (the same for any number of real processes and simulated ranks, and natively). Then
 * ordered writes, MPI_MODE_CREATE|MPI_MODE_EXCL, MPI_MODE_DELETE_ON_CLOSE, error classes
 * (missing file, bad amodes, bad handle, wrong access), MPI_File_get_group, c2f/f2c and,
 * under xsim (XSIM_TEST_VIRTUAL), the virtual time of a write against the storage model:
 * prints "IOTIME <bytes> <seconds>" for the harness to compare with its closed form.
 * argument: the directory to write in (default: the current one). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define B 4      /* ints per block */
#define K 6      /* blocks per rank: 0-1 write_all, 2 write_at, 3 iwrite_at_all, 4 split, 5 iwrite */

static int rank, size, failures;
static char dir[512] = ".";

static void check(int ok, const char *what) {
    if (!ok) {
        fprintf(stderr, "FAIL file_io: rank %d: %s\n", rank, what);
        failures++;
    }
}

static int value(int r, int k, int i) { return r * 1000000 + k * 1000 + i; }

static void path(char *out, size_t n, const char *name) { snprintf(out, n, "%s/%s", dir, name); }

static int error_class(int code) {
    int c = code;
    MPI_Error_class(code, &c);
    return c;
}

/* The interleaved file: block k of rank r at int (k * size + r) * B. */
static void interleaved(void) {
    char name[600];
    path(name, sizeof name, "xsim_file_io.dat");
    MPI_File fh;
    check(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open");
    MPI_File_set_size(fh, 0);
    MPI_Datatype block, filetype;
    MPI_Type_contiguous(B, MPI_INT, &block);
    MPI_Type_create_resized(block, 0, (MPI_Aint)size * B * sizeof(int), &filetype);
    MPI_Type_commit(&filetype);
    MPI_File_set_view(fh, (MPI_Offset)rank * B * sizeof(int), MPI_INT, filetype, "native", MPI_INFO_NULL);

    int data[K][B];
    for (int k = 0; k < K; ++k)
        for (int i = 0; i < B; ++i) data[k][i] = value(rank, k, i);
    MPI_Status st;
    int count = -1;
    /* Blocks 0 and 1: collective, individual file pointer. */
    check(MPI_File_write_all(fh, data[0], 2 * B, MPI_INT, &st) == MPI_SUCCESS, "write_all");
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == 2 * B, "write_all count");
    MPI_Offset position = -1;
    MPI_File_get_position(fh, &position);
    check(position == 2 * B, "position after write_all");
    /* Block 2: independent, explicit offset (in etypes of the view). */
    check(MPI_File_write_at(fh, 2 * B, data[2], B, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_at");
    /* Block 3: nonblocking collective, explicit offset. */
    MPI_Request req;
    check(MPI_File_iwrite_at_all(fh, 3 * B, data[3], B, MPI_INT, &req) == MPI_SUCCESS, "iwrite_at_all");
    MPI_Wait(&req, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == B, "iwrite_at_all count");
    /* Block 4: split collective on the individual pointer (moved to block 4). */
    MPI_File_seek(fh, 4 * B, MPI_SEEK_SET);
    check(MPI_File_write_all_begin(fh, data[4], B, MPI_INT) == MPI_SUCCESS, "write_all_begin");
    check(MPI_File_write_all_end(fh, data[4], &st) == MPI_SUCCESS, "write_all_end");
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == B, "write_all_end count");
    /* Block 5: nonblocking independent. */
    check(MPI_File_iwrite(fh, data[5], B, MPI_INT, &req) == MPI_SUCCESS, "iwrite");
    int done = 0;
    while (!done) MPI_Test(&req, &done, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == B, "iwrite count");
    MPI_File_sync(fh);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_File_sync(fh);

    /* Read the next rank's blocks through a view of its own, and the whole with read_at_all. */
    int next = (rank + 1) % size;
    MPI_File_set_view(fh, (MPI_Offset)next * B * sizeof(int), MPI_INT, filetype, "native", MPI_INFO_NULL);
    int back[K][B];
    memset(back, -1, sizeof back);
    check(MPI_File_read_at_all(fh, 0, back[0], K * B, MPI_INT, &st) == MPI_SUCCESS, "read_at_all");
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == K * B, "read_at_all count");
    for (int k = 0; k < K; ++k)
        for (int i = 0; i < B; ++i) check(back[k][i] == value(next, k, i), "the next rank's blocks read back");
    memset(back, -1, sizeof back);
    MPI_File_seek(fh, B, MPI_SEEK_SET);
    check(MPI_File_iread(fh, back[1], B, MPI_INT, &req) == MPI_SUCCESS, "iread");
    MPI_Wait(&req, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    check(count == B && back[1][B - 1] == value(next, 1, B - 1), "iread of block 1");
    MPI_Offset bytes = -1;
    MPI_File_get_byte_offset(fh, B, &bytes);
    check(bytes == ((MPI_Offset)size + next) * B * (MPI_Offset)sizeof(int), "get_byte_offset");
    MPI_Aint extent = 0;
    MPI_File_get_type_extent(fh, MPI_INT, &extent);
    check(extent == sizeof(int), "get_type_extent");
    MPI_Offset fsize = 0;
    MPI_File_get_size(fh, &fsize);
    check(fsize == (MPI_Offset)size * K * B * sizeof(int), "get_size");

    MPI_Group fg, wg;
    int same = MPI_UNEQUAL;
    MPI_File_get_group(fh, &fg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_compare(fg, wg, &same);
    check(same == MPI_IDENT, "get_group is WORLD's group");
    MPI_Group_free(&fg);
    MPI_Group_free(&wg);
    int amode = 0;
    MPI_File_get_amode(fh, &amode);
    check(amode == (MPI_MODE_CREATE | MPI_MODE_RDWR), "get_amode");
    check(MPI_File_f2c(MPI_File_c2f(fh)) == fh, "c2f/f2c");
    check(MPI_File_close(&fh) == MPI_SUCCESS && fh == MPI_FILE_NULL, "close");
    MPI_Type_free(&filetype);
    MPI_Type_free(&block);
    MPI_Barrier(MPI_COMM_WORLD);

    if (rank == 0) { /* every byte, with plain stdio */
        FILE *f = fopen(name, "rb");
        check(f != NULL, "fopen of the written file");
        unsigned long long sum = 0, n = 0;
        int v, bad = 0;
        while (f && fread(&v, sizeof v, 1, f) == 1) {
            int block_index = (int)(n / B), i = (int)(n % B);
            if (v != value(block_index % size, block_index / size, i)) bad++;
            sum = sum * 1000003ull + (unsigned)v;
            n++;
        }
        if (f) fclose(f);
        check(bad == 0, "file contents match the formula");
        check(n == (unsigned long long)size * K * B, "file length");
        printf("CHECKSUM interleaved %llu ints %llx\n", n, sum);
    }
}

/* Ordered writes: rank r writes r + 1 ints of value r, in rank order. */
static void ordered(void) {
    char name[600];
    path(name, sizeof name, "xsim_file_io_ordered.dat");
    MPI_File fh;
    check(MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh) == MPI_SUCCESS,
          "open ordered");
    MPI_File_set_size(fh, 0);
    int *data = malloc((size_t)(rank + 1) * sizeof(int));
    for (int i = 0; i <= rank; ++i) data[i] = rank;
    MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
    check(MPI_File_write_ordered(fh, data, rank + 1, MPI_INT, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_ordered");
    MPI_Offset shared = -1;
    MPI_File_get_position_shared(fh, &shared);
    check(shared == (MPI_Offset)size * (size + 1) / 2, "shared pointer after write_ordered");
    check(MPI_File_write_ordered_begin(fh, data, 1, MPI_INT) == MPI_SUCCESS, "write_ordered_begin");
    check(MPI_File_write_ordered_end(fh, data, MPI_STATUS_IGNORE) == MPI_SUCCESS, "write_ordered_end");
    MPI_File_close(&fh);
    free(data);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        FILE *f = fopen(name, "rb");
        int v, r = 0, left = 1, bad = 0;
        long n = 0;
        while (f && fread(&v, sizeof v, 1, f) == 1) {
            if (n < (long)size * (size + 1) / 2) {
                if (v != r) bad++;
                if (--left == 0) left = ++r + 1;
            } else if (v != n - (long)size * (size + 1) / 2) {
                bad++;
            }
            n++;
        }
        if (f) fclose(f);
        check(bad == 0 && n == (long)size * (size + 1) / 2 + size, "ordered file contents");
        printf("CHECKSUM ordered %ld ints\n", n);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void modes_and_errors(void) {
    char name[600], missing[600], excl[600], temp[600];
    path(name, sizeof name, "xsim_file_io.dat");
    path(missing, sizeof missing, "xsim_file_io_missing.dat");
    path(excl, sizeof excl, "xsim_file_io_excl.dat");
    path(temp, sizeof temp, "xsim_file_io_temp.dat");
    MPI_File fh = MPI_FILE_NULL;
    int rc;
    /* The default error handler of files returns. */
    MPI_Errhandler eh;
    MPI_File_get_errhandler(MPI_FILE_NULL, &eh);
    check(eh == MPI_ERRORS_RETURN, "MPI_FILE_NULL's handler is MPI_ERRORS_RETURN");
    rc = MPI_File_open(MPI_COMM_WORLD, missing, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    check(error_class(rc) == MPI_ERR_NO_SUCH_FILE, "a missing file is MPI_ERR_NO_SUCH_FILE");
    rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
    check(error_class(rc) == MPI_ERR_AMODE, "RDONLY|RDWR is MPI_ERR_AMODE");
    rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
    check(error_class(rc) == MPI_ERR_AMODE, "RDONLY|CREATE is MPI_ERR_AMODE");
    rc = MPI_File_write(MPI_FILE_NULL, &rc, 1, MPI_INT, MPI_STATUS_IGNORE);
    check(error_class(rc) == MPI_ERR_FILE, "MPI_FILE_NULL is MPI_ERR_FILE");
    /* CREATE|EXCL: fails for everyone on an existing file, succeeds on a new one. */
    rc = MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    check(error_class(rc) == MPI_ERR_FILE_EXISTS, "CREATE|EXCL on an existing file is MPI_ERR_FILE_EXISTS");
    if (rank == 0) unlink(excl);
    MPI_Barrier(MPI_COMM_WORLD);
    rc = MPI_File_open(MPI_COMM_WORLD, excl, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
    check(rc == MPI_SUCCESS, "CREATE|EXCL on a new file succeeds on every rank");
    if (rc == MPI_SUCCESS) MPI_File_close(&fh);
    /* Access modes. */
    MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    rc = MPI_File_write_at(fh, 0, &rc, 1, MPI_INT, MPI_STATUS_IGNORE);
    check(error_class(rc) == MPI_ERR_READ_ONLY, "writing a RDONLY file is MPI_ERR_READ_ONLY");
    rc = MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "no-such-rep", MPI_INFO_NULL);
    check(error_class(rc) == MPI_ERR_UNSUPPORTED_DATAREP, "an unknown datarep is MPI_ERR_UNSUPPORTED_DATAREP");
    MPI_File_close(&fh);
    /* DELETE_ON_CLOSE: gone once every rank closed. */
    rc = MPI_File_open(MPI_COMM_WORLD, temp, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                       MPI_INFO_NULL, &fh);
    check(rc == MPI_SUCCESS, "open DELETE_ON_CLOSE");
    MPI_File_write_at(fh, rank * sizeof(int), &rank, 1, MPI_INT, MPI_STATUS_IGNORE);
    MPI_File_close(&fh);
    MPI_Barrier(MPI_COMM_WORLD);
    check(access(temp, F_OK) != 0, "DELETE_ON_CLOSE deleted the file");
    /* MPI_File_delete of a missing file. */
    if (rank == 0) {
        rc = MPI_File_delete(missing, MPI_INFO_NULL);
        check(error_class(rc) == MPI_ERR_NO_SUCH_FILE, "deleting a missing file is MPI_ERR_NO_SUCH_FILE");
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Under xsim: a blocking write of n bytes takes storage.latency + n / storage.bandwidth. */
static void io_time(void) {
    char name[600], own[64];
    snprintf(own, sizeof own, "xsim_file_io_time.%d.dat", rank);
    path(name, sizeof name, own);
    enum { n = 1 << 20 };
    char *data = calloc(n, 1);
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, name, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, &fh);
    double t0 = MPI_Wtime();
    MPI_File_write_at(fh, 0, data, n, MPI_BYTE, MPI_STATUS_IGNORE);
    double t1 = MPI_Wtime();
    MPI_Request req;
    MPI_File_iwrite_at(fh, 0, data, n / 2, MPI_BYTE, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    double t2 = MPI_Wtime();
    MPI_File_close(&fh);
    free(data);
    if (rank == size - 1) {
        printf("IOTIME %d %.12f\n", n, t1 - t0);
        printf("IOTIME_NONBLOCKING %d %.12f\n", n / 2, t2 - t1);
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc > 1) snprintf(dir, sizeof dir, "%s", argv[1]);
    if (rank == 0) mkdir(dir, 0755); /* each test its own directory (may exist) */
    MPI_Barrier(MPI_COMM_WORLD);
    interleaved();
    ordered();
    modes_and_errors();
    if (getenv("XSIM_TEST_VIRTUAL")) io_time();
    int total = 0;
    MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0) printf("PASS file_io\n");
    MPI_Finalize();
    return total != 0;
}
