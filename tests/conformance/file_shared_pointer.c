/* The shared file pointer (MPI-4.0 section 14.4.4), independent and collective use mixed.
 * Part 1, writes: in a view of MPI_INT, every rank appends records of its own sizes with
 * MPI_File_write_shared (round 0, then 3 with no barrier before it), MPI_File_write_ordered
 * (round 1), MPI_File_iwrite_shared (round 2), with barriers, MPI_File_seek_shared and
 * MPI_File_get_position_shared between rounds. A record is [length, rank, round, length - 3
 * copies of rank * 1000 + round]. Every rank then reads the whole file with explicit offsets
 * and checks it parses into records with no gap or overlap, each (rank, round) exactly once,
 * the ordered round's records adjacent in rank order, the size and the pointer right.
 * Part 2, reads: a file holding 0, 1, 2, ... is read by every rank with MPI_File_read_shared
 * and MPI_File_iread_shared in chunks of varying sizes until end of file; each chunk must be
 * consecutive numbers, and across ranks every number must be read exactly once.
 * Part 3: MPI_MODE_SEQUENTIAL with MPI_DISPLACEMENT_CURRENT, MPI_MODE_APPEND, and the
 * error classes of bad shared-pointer calls (the pointer left where it was). Natively,
 * Open MPI 4.1 passes parts 1 and 2 except that MPI_File_iread_shared at end of file never
 * completes (its aio read loops), and checks none of part 3's errors.
 * Rank 0 prints "ORDER layout <hash>" (the order of the records in the file) beside VTIME:
 * both must be the same for any number of real processes, any processing order of events
 * and any payload mode (conformance.processes/order/payload.file_shared_pointer.*).
 * Argument "close_pending": MPI_File_close right after MPI_File_iwrite_shared (erroneous)
 * must stop the run with a message saying so (conformance.file_shared_pointer.close_pending).
 * Argument "nopayload" (for -xsim-payload off, where messages carry no data): the files go
 * in a directory named after the parent process (mpirun) rather than one rank 0 names, and part 2 checks each rank's chunks
 * but not, across ranks, that every number was read once (that needs an allreduce's data);
 * the files and the pointer are real either way. */
#include "conformance.h"

#include <sys/stat.h>
#include <unistd.h>

#define ROUNDS 4
#define READ_INTS 997

static int record_length(int rank, int round) { return 3 + (rank * 5 + round * 3) % 7; }

static void make_record(int* rec, int rank, int round) {
    int len = record_length(rank, round);
    rec[0] = len;
    rec[1] = rank;
    rec[2] = round;
    for (int i = 3; i < len; ++i) rec[i] = rank * 1000 + round;
}

static long total_ints(int size, int rounds) {
    long n = 0;
    for (int r = 0; r < size; ++r)
        for (int k = 0; k < rounds; ++k) n += record_length(r, k);
    return n;
}

static void expect_position(conf_t* t, MPI_File fh, long expected, const char* when) {
    MPI_Offset at = -1;
    CONF_CALL(t, MPI_File_get_position_shared(fh, &at));
    CONF_CHECK(t, at == expected, "shared pointer %s: %lld, expected %ld", when, (long long)at, expected);
}

/* Parses the file's ints into records; returns the layout hash (0 on failure). */
static unsigned long check_records(conf_t* t, const int* all, long n) {
    int* seen = calloc((size_t)t->size * ROUNDS, sizeof(int));
    int* ordered_at = malloc((size_t)t->size * sizeof(int));
    unsigned long hash = 5381;
    long at = 0;
    int bad = 0;
    while (at < n && !bad) {
        int len = all[at], r = at + 2 < n ? all[at + 1] : -1, k = at + 2 < n ? all[at + 2] : -1;
        if (len < 3 || at + len > n || r < 0 || r >= t->size || k < 0 || k >= ROUNDS || len != record_length(r, k)) {
            conf_fail(t, "no valid record at int %ld (length %d, rank %d, round %d)", at, len, r, k);
            bad = 1;
            break;
        }
        for (int i = 3; i < len; ++i)
            if (all[at + i] != r * 1000 + k) {
                conf_fail(t, "record (%d, %d) at int %ld is overwritten at its int %d", r, k, at, i);
                bad = 1;
            }
        seen[r * ROUNDS + k]++;
        if (k == 1) ordered_at[r] = (int)at;
        hash = hash * 33 + (unsigned long)(r * ROUNDS + k);
        at += len;
    }
    if (!bad) {
        for (int r = 0; r < t->size; ++r)
            for (int k = 0; k < ROUNDS; ++k)
                CONF_CHECK(t, seen[r * ROUNDS + k] == 1, "record (%d, %d) found %d times", r, k, seen[r * ROUNDS + k]);
        for (int r = 1; r < t->size; ++r)
            CONF_CHECK(t, ordered_at[r] == ordered_at[r - 1] + record_length(r - 1, 1),
                       "the ordered record of rank %d is not right after rank %d's", r, r - 1);
    }
    free(seen);
    free(ordered_at);
    return bad ? 0 : hash;
}

static unsigned long write_part(conf_t* t, const char* path) {
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    int rec[16], count = -1;
    long done = 0;
    CONF_CALL(t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CONF_CALL(t, MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    expect_position(t, fh, 0, "after open");
    MPI_Barrier(MPI_COMM_WORLD);  /* nobody moves it while the others look */

    make_record(rec, t->rank, 0);
    CONF_CALL(t, MPI_File_write_shared(fh, rec, record_length(t->rank, 0), MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CONF_CHECK(t, count == record_length(t->rank, 0), "write_shared wrote %d ints", count);
    MPI_Barrier(MPI_COMM_WORLD);
    done = total_ints(t->size, 1);
    expect_position(t, fh, done, "after round 0");
    MPI_Barrier(MPI_COMM_WORLD);  /* nobody moves it while the others look */

    make_record(rec, t->rank, 1);
    CONF_CALL(t, MPI_File_write_ordered(fh, rec, record_length(t->rank, 1), MPI_INT, &st));
    done = total_ints(t->size, 2);
    expect_position(t, fh, done, "after write_ordered");
    /* Collective seeks that leave it where it is. */
    CONF_CALL(t, MPI_File_seek_shared(fh, 0, MPI_SEEK_CUR));
    CONF_CALL(t, MPI_File_seek_shared(fh, 0, MPI_SEEK_END));
    CONF_CALL(t, MPI_File_seek_shared(fh, (MPI_Offset)done, MPI_SEEK_SET));
    expect_position(t, fh, done, "after seek_shared");
    MPI_Barrier(MPI_COMM_WORLD);

    make_record(rec, t->rank, 2);
    CONF_CALL(t, MPI_File_iwrite_shared(fh, rec, record_length(t->rank, 2), MPI_INT, &req));
    count = -1;
    CONF_CALL(t, MPI_Wait(&req, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CONF_CHECK(t, count == record_length(t->rank, 2), "iwrite_shared wrote %d ints", count);
    /* Round 3 straight after, without a barrier: accesses of rounds 2 and 3 interleave. */
    make_record(rec, t->rank, 3);
    CONF_CALL(t, MPI_File_write_shared(fh, rec, record_length(t->rank, 3), MPI_INT, MPI_STATUS_IGNORE));
    MPI_Barrier(MPI_COMM_WORLD);
    done = total_ints(t->size, ROUNDS);
    expect_position(t, fh, done, "at the end");
    CONF_CALL(t, MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CONF_CALL(t, MPI_File_sync(fh));

    MPI_Offset bytes = -1;
    CONF_CALL(t, MPI_File_get_size(fh, &bytes));
    CONF_CHECK(t, bytes == done * (long)sizeof(int), "file of %lld bytes, expected %ld", (long long)bytes,
               done * (long)sizeof(int));
    int* all = malloc((size_t)done * sizeof(int));
    CONF_CALL(t, MPI_File_read_at(fh, 0, all, (int)done, MPI_INT, &st));
    unsigned long hash = check_records(t, all, done);
    free(all);

    /* set_view resets the shared pointer (collectively). */
    CONF_CALL(t, MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    expect_position(t, fh, 0, "after set_view");
    CONF_CALL(t, MPI_File_close(&fh));
    return hash;
}

/* Marks the numbers of one chunk read (count ints) in `seen`. */
static void mark(conf_t* t, const int* chunk, int count, int* seen) {
    for (int i = 0; i < count; ++i) {
        if (chunk[i] < 0 || chunk[i] >= READ_INTS || chunk[i] != chunk[0] + i) {
            conf_fail(t, "chunk read by shared pointer holds %d at %d (first %d)", chunk[i], i, chunk[0]);
            return;
        }
        seen[chunk[i]]++;
    }
}

static void read_part(conf_t* t, const char* path, int across) {
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    int chunk[8];
    int* seen = calloc(READ_INTS, sizeof(int));
    int* sum = calloc(READ_INTS, sizeof(int));
    CONF_CALL(t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    if (t->rank == 0) {
        int* all = malloc(READ_INTS * sizeof(int));
        for (int i = 0; i < READ_INTS; ++i) all[i] = i;
        CONF_CALL(t, MPI_File_write_at(fh, 0, all, READ_INTS, MPI_INT, MPI_STATUS_IGNORE));
        free(all);
    }
    CONF_CALL(t, MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CONF_CALL(t, MPI_File_sync(fh));
    CONF_CALL(t, MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    for (int j = 0;; ++j) {
        int want = 1 + (t->rank + j) % 8, count = -1;
        if (j % 2) {
            CONF_CALL(t, MPI_File_iread_shared(fh, chunk, want, MPI_INT, &req));
            CONF_CALL(t, MPI_Wait(&req, &st));
        } else {
            CONF_CALL(t, MPI_File_read_shared(fh, chunk, want, MPI_INT, &st));
        }
        MPI_Get_count(&st, MPI_INT, &count);
        if (count <= 0) break;
        mark(t, chunk, count, seen);
    }
    MPI_Allreduce(seen, sum, READ_INTS, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < READ_INTS && across; ++i)
        if (sum[i] != 1) {
            conf_fail(t, "number %d was read %d times by read_shared/iread_shared", i, sum[i]);
            break;
        }
    CONF_CALL(t, MPI_File_close(&fh));
    free(seen);
    free(sum);
}

/* Part 3, modes and errors: MPI_MODE_SEQUENTIAL with MPI_DISPLACEMENT_CURRENT (MPICH's
 * io/setviewcur), MPI_MODE_APPEND, and bad arguments of the collective calls. */
static void modes_part(conf_t* t, const char* numbers, const char* records, long record_ints) {
    MPI_File fh;
    MPI_Status st;
    MPI_Offset at = -1;
    int value = -1;
    CONF_CALL(t, MPI_File_open(MPI_COMM_WORLD, numbers, MPI_MODE_RDONLY | MPI_MODE_SEQUENTIAL, MPI_INFO_NULL, &fh));
    if (t->rank == 0) {
        CONF_CALL(t, MPI_File_read_shared(fh, &value, 1, MPI_INT, &st));
        CONF_CHECK(t, value == 0, "sequential read_shared gave %d, expected 0", value);
        CONF_CHECK(t, conf_error_class(MPI_File_read_at(fh, 0, &value, 1, MPI_INT, &st)) == MPI_ERR_UNSUPPORTED_OPERATION,
                   "an explicit offset on an MPI_MODE_SEQUENTIAL file was not MPI_ERR_UNSUPPORTED_OPERATION");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    CONF_CALL(t, MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    value = -1;
    CONF_CALL(t, MPI_File_read_ordered(fh, &value, 1, MPI_INT, &st));
    CONF_CHECK(t, value == t->rank + 1, "read_ordered after MPI_DISPLACEMENT_CURRENT gave %d, expected %d", value,
               t->rank + 1);
    CONF_CALL(t, MPI_File_close(&fh));

    CONF_CALL(t, MPI_File_open(MPI_COMM_WORLD, records, MPI_MODE_WRONLY | MPI_MODE_APPEND, MPI_INFO_NULL, &fh));
    CONF_CALL(t, MPI_File_get_position_shared(fh, &at));
    CONF_CHECK(t, at == record_ints * (long)sizeof(int), "MPI_MODE_APPEND: shared pointer at %lld, expected %ld",
               (long long)at, record_ints * (long)sizeof(int));
    CONF_CHECK(t, conf_error_class(MPI_File_read_shared(fh, &value, 1, MPI_INT, &st)) == MPI_ERR_ACCESS,
               "read_shared on an MPI_MODE_WRONLY file was not MPI_ERR_ACCESS");
    CONF_CHECK(t, conf_error_class(MPI_File_write_shared(fh, &value, -1, MPI_INT, &st)) == MPI_ERR_COUNT,
               "write_shared of count -1 was not MPI_ERR_COUNT");
    CONF_CHECK(t, conf_error_class(MPI_File_seek_shared(fh, -4, MPI_SEEK_SET)) == MPI_ERR_ARG,
               "seek_shared to -4 was not MPI_ERR_ARG");
    CONF_CHECK(t, conf_error_class(MPI_File_seek_shared(fh, -at - 1, MPI_SEEK_CUR)) == MPI_ERR_ARG,
               "seek_shared before the start (MPI_SEEK_CUR) was not MPI_ERR_ARG");
    if (t->size > 1)
        CONF_CHECK(t, conf_error_class(MPI_File_seek_shared(fh, t->rank, MPI_SEEK_SET)) == MPI_ERR_NOT_SAME,
                   "seek_shared to different offsets was not MPI_ERR_NOT_SAME");
    CONF_CHECK(t,
               conf_error_class(MPI_File_set_view(fh, MPI_DISPLACEMENT_CURRENT, MPI_INT, MPI_INT, "native",
                                                  MPI_INFO_NULL)) == MPI_ERR_ARG,
               "MPI_DISPLACEMENT_CURRENT without MPI_MODE_SEQUENTIAL was not MPI_ERR_ARG");
    at = -1;
    CONF_CALL(t, MPI_File_get_position_shared(fh, &at));
    CONF_CHECK(t, at == record_ints * (long)sizeof(int), "the failed calls moved the shared pointer to %lld",
               (long long)at);
    CONF_CALL(t, MPI_File_close(&fh));
}

int main(int argc, char** argv) {
    conf_t t;
    char dir[64] = "/tmp/xsim_file_shared_pointer.XXXXXX", path[96];
    int payload = 1;
    MPI_Init(&argc, &argv);
    conf_init(&t, "file_shared_pointer");
    if (argc > 1 && strcmp(argv[1], "close_pending") == 0) {
        /* Erroneous: a nonblocking access still pending at MPI_File_close stops the run. */
        MPI_File fh;
        MPI_Request req;
        snprintf(path, sizeof path, "/tmp/xsim_file_shared_pointer.pending.%ld", (long)getppid());
        CONF_CALL(&t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        MPI_Barrier(MPI_COMM_WORLD);
        if (t.rank == 0) unlink(path);  /* the run ends in MPI_File_close: leave nothing behind */
        CONF_CALL(&t, MPI_File_iwrite_shared(fh, &t.rank, 1, MPI_INT, &req));
        CONF_CALL(&t, MPI_File_close(&fh));
        conf_fail(&t, "MPI_File_close with a pending access returned");
        return conf_finish(&t);
    }
    if (argc > 1 && strcmp(argv[1], "nopayload") == 0) {
        payload = 0;
        /* One per run (its real processes share mpirun as their parent), as concurrent runs may be. */
        snprintf(dir, sizeof dir, "/tmp/xsim_file_shared_pointer.nopayload.%ld", (long)getppid());
        if (t.rank == 0) mkdir(dir, 0700);  /* before the open, which rank 0 starts */
    } else if (!conf_shared_temp_dir(&t, dir, (int)sizeof dir)) {
        return conf_finish(&t);
    }
    snprintf(path, sizeof path, "%s/records", dir);
    unsigned long hash = write_part(&t, path);
    if (t.rank == 0) printf("ORDER layout %lx\n", hash);
    snprintf(path, sizeof path, "%s/numbers", dir);
    read_part(&t, path, payload);
    char records[96];
    snprintf(records, sizeof records, "%s/records", dir);
    modes_part(&t, path, records, total_ints(t.size, ROUNDS));
    MPI_Barrier(MPI_COMM_WORLD);
    if (t.rank == 0) {
        snprintf(path, sizeof path, "%s/records", dir);
        unlink(path);
        snprintf(path, sizeof path, "%s/numbers", dir);
        unlink(path);
        rmdir(dir);
    }
    return conf_finish(&t);
}
