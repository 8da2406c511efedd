/* MPI_File_preallocate (MPI-4.0 section 14.2.5), as IOR's --mpiio.preallocate uses it: a
 * file opened MPI_MODE_CREATE | MPI_MODE_WRONLY on every rank, preallocated to the size all
 * ranks then write. Checked:
 * - on a new write-only file: success on every rank, the file size is the size asked for, and
 *   every rank's block written after the call reads back (as a fresh read-only open);
 *   (under xsim this failed with MPI_ERR_ACCESS on every rank but the first: each rank
 *   preallocated on its own real handle, and Open MPI's preallocation reads back, to rewrite
 *   them, the bytes the file already holds, which the first rank's had just allocated);
 * - on that file reopened read-write, now holding data: a larger size grows it and leaves the
 *   data already written as it was; a smaller size leaves the size unchanged (read-write:
 *   Open MPI's ompio refuses to preallocate a write-only file that holds data, natively too);
 * - ranks passing different sizes get MPI_ERR_NOT_SAME on every rank (xsim's agreement; the
 *   standard calls it erroneous) and the file is not grown;
 * - a negative size is MPI_ERR_ARG (xsim).
 * Natively, Open MPI 4.1's ompio passes all but the shrinking call at 1 and 2 processes; at
 * 4 that call returns MPI_ERR_OTHER on the ranks but 0 (its ranks disagree on the size).
 * The file is in a fresh directory under /tmp that rank 0 names. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "conformance.h"

#include <unistd.h>

#define BLOCK 1000 /* ints per rank */

static int expected(int rank, int i) { return rank * 1000003 + i * 7 + 1; }

/* Every rank reads its block of a fresh read-only open of `path` and checks it. */
static void check_blocks(conf_t* t, const char* path, const char* when) {
    MPI_File ro;
    int* buf = conf_alloc(BLOCK * sizeof(int));
    MPI_Status st;
    int count = -1, bad = 0;
    CONF_CALL(t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &ro));
    CONF_CALL(t, MPI_File_read_at_all(ro, (MPI_Offset)t->rank * BLOCK * sizeof(int), buf, BLOCK, MPI_INT, &st));
    MPI_Get_count(&st, MPI_INT, &count);
    CONF_CHECK(t, count == BLOCK, "%s: read %d ints of the rank's block, expected %d", when, count, BLOCK);
    for (int i = 0; i < BLOCK; i++) bad += buf[i] != expected(t->rank, i);
    CONF_CHECK(t, bad == 0, "%s: %d ints of the rank's block differ from what it wrote", when, bad);
    CONF_CALL(t, MPI_File_close(&ro));
    free(buf);
}

static MPI_Offset size_of(conf_t* t, MPI_File fh) {
    MPI_Offset size = -1;
    CONF_CALL(t, MPI_File_get_size(fh, &size));
    return size;
}

int main(int argc, char** argv) {
    conf_t t;
    char dir[64] = "/tmp/xsim_file_preallocate.XXXXXX", path[96];
    MPI_File fh;
    MPI_Init(&argc, &argv);
    conf_init(&t, "file_preallocate");
    if (!conf_shared_temp_dir(&t, dir, (int)sizeof dir)) return conf_finish(&t);
    snprintf(path, sizeof path, "%s/f", dir);
    const MPI_Offset total = (MPI_Offset)t.size * BLOCK * sizeof(int);
    int* block = conf_alloc(BLOCK * sizeof(int));
    for (int i = 0; i < BLOCK; i++) block[i] = expected(t.rank, i);

    /* IOR's write phase: create write-only, preallocate the whole file, write the blocks. */
    CONF_CALL(&t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh));
    CONF_CALL(&t, MPI_File_preallocate(fh, total));
    MPI_Offset size = size_of(&t, fh);
    CONF_CHECK(&t, size == total, "after preallocating %lld bytes of a new file its size is %lld", (long long)total,
               (long long)size);
    CONF_CALL(&t, MPI_File_write_at(fh, (MPI_Offset)t.rank * BLOCK * sizeof(int), block, BLOCK, MPI_INT,
                                    MPI_STATUS_IGNORE));
    CONF_CALL(&t, MPI_File_close(&fh));
    check_blocks(&t, path, "after preallocate and write");

    /* Reopened with data in it: growing keeps the data, shrinking does nothing. */
    CONF_CALL(&t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CONF_CALL(&t, MPI_File_preallocate(fh, 2 * total));
    size = size_of(&t, fh);
    CONF_CHECK(&t, size == 2 * total, "preallocating %lld bytes of a %lld-byte file gave %lld", (long long)(2 * total),
               (long long)total, (long long)size);
    CONF_CALL(&t, MPI_File_preallocate(fh, total / 2));
    size = size_of(&t, fh);
    CONF_CHECK(&t, size == 2 * total, "preallocating fewer bytes than the file holds changed its size to %lld",
               (long long)size);

    /* Arguments (xsim's checks; the standard names no outcome, Open MPI accepts both): a
     * negative size on every rank; different sizes on different ranks. */
    if (conf_under_xsim()) CONF_EXPECT_CLASS(&t, MPI_ERR_ARG, MPI_File_preallocate(fh, -1));
    if (t.size > 1 && conf_under_xsim()) {
        CONF_EXPECT_CLASS(&t, MPI_ERR_NOT_SAME, MPI_File_preallocate(fh, 3 * total + t.rank));
        size = size_of(&t, fh);
        CONF_CHECK(&t, size == 2 * total, "a refused preallocation changed the size to %lld", (long long)size);
    }
    CONF_CALL(&t, MPI_File_close(&fh));
    check_blocks(&t, path, "after growing the file");

    free(block);
    conf_remove_shared_temp(&t, path, dir);
    return conf_finish(&t);
}
