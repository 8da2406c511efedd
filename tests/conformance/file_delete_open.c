/* Every rank deletes a file name and then opens it with MPI_MODE_CREATE, as Athena++ opens
 * each output (src/outputs/io_wrapper.cpp: MPI_File_delete "for truncation", then
 * MPI_File_open(MPI_MODE_WRONLY | MPI_MODE_CREATE)); every rank then writes its block with
 * MPI_File_write_at_all. Natively Open MPI's open agrees on a communicator before the file
 * is made, so every rank's delete comes first. Under xsim the lowest rank used to make the
 * file before the others had entered MPI_File_open: a later rank's delete then removed it,
 * that rank made a new one, and the lowest rank wrote into the removed file (Athena++'s
 * Blast.final.rst held zeros where rank 0's quarter belonged). The ranks above 0 sleep
 * before their delete, so the lowest rank reaches its open first. Checked twice (the file
 * absent, then present from the first round): the file's size, and every int in it against
 * the writers' formula, read back by rank 0 alone. The file is in a fresh directory under
 * /tmp that rank 0 names. Also run natively (it uses MPI alone). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, usleep */
#define _DEFAULT_SOURCE
#include "conformance.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BLOCK 64 /* ints each rank writes */

static int value(int rank, int i, int round) { return rank * 100003 + i * 7 + round; }

int main(int argc, char** argv) {
    conf_t t;
    char dir[64] = "/tmp/xsim_file_delete_open.XXXXXX", path[96];
    MPI_File fh;
    MPI_Status st;
    int block[BLOCK];
    MPI_Init(&argc, &argv);
    conf_init(&t, "file_delete_open");
    if (!conf_shared_temp_dir(&t, dir, (int)sizeof dir)) return conf_finish(&t);
    snprintf(path, sizeof path, "%s/f", dir);

    for (int round = 0; round < 2; round++) {
        if (t.rank > 0) usleep(1000 * (unsigned)t.rank);
        MPI_File_delete(path, MPI_INFO_NULL); /* fails with MPI_ERR_NO_SUCH_FILE on all but one rank */
        int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_WRONLY | MPI_MODE_CREATE, MPI_INFO_NULL, &fh);
        CONF_CHECK(&t, rc == MPI_SUCCESS, "round %d: MPI_File_open for writing failed (%d)", round, rc);
        if (rc != MPI_SUCCESS) break;
        for (int i = 0; i < BLOCK; i++) block[i] = value(t.rank, i, round);
        rc = MPI_File_write_at_all(fh, (MPI_Offset)t.rank * BLOCK * (MPI_Offset)sizeof(int), block, BLOCK, MPI_INT,
                                   &st);
        CONF_CHECK(&t, rc == MPI_SUCCESS, "round %d: MPI_File_write_at_all failed (%d)", round, rc);
        MPI_File_close(&fh);
        MPI_Barrier(MPI_COMM_WORLD);

        if (t.rank == 0) {
            rc = MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
            CONF_CHECK(&t, rc == MPI_SUCCESS, "round %d: rank 0 cannot open the file to read it back (%d)", round, rc);
            if (rc == MPI_SUCCESS) {
                MPI_Offset size = -1;
                MPI_File_get_size(fh, &size);
                CONF_CHECK(&t, size == (MPI_Offset)t.size * BLOCK * (MPI_Offset)sizeof(int),
                           "round %d: the file holds %lld bytes, the %d ranks wrote %lld", round, (long long)size,
                           t.size, (long long)t.size * BLOCK * (long long)sizeof(int));
                int* all = calloc((size_t)t.size * BLOCK, sizeof(int));
                MPI_File_read_at(fh, 0, all, t.size * BLOCK, MPI_INT, &st);
                for (int r = 0; r < t.size; r++) {
                    int bad = 0;
                    for (int i = 0; i < BLOCK; i++) bad += all[r * BLOCK + i] != value(r, i, round);
                    CONF_CHECK(&t, bad == 0, "round %d: %d of the %d ints rank %d wrote are not in the file", round,
                               bad, BLOCK, r);
                }
                free(all);
                MPI_File_close(&fh);
            }
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    conf_remove_shared_temp(&t, path, dir);
    return conf_finish(&t);
}
