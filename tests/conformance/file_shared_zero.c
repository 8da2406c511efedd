/* Independent shared-file-pointer access of no data (MPI-4.0 section 14.4.4): a count of 0,
 * or a datatype of size 0, reads and moves no shared pointer (accesses of data:
 * file_shared_pointer.c). Checked:
 * MPI_File_read_shared, _write_shared, _iread_shared and _iwrite_shared succeed with a
 * status of count 0 and leave the buffer and the shared pointer as they were (an ordered
 * read after them reads what the ordered write put there); their arguments are checked as
 * any access's: MPI_ERR_FILE, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_READ_ONLY (MPICH's
 * io/rdwrzero). The file is in a fresh directory under /tmp that rank 0 names. */
#include "conformance.h"

#include <unistd.h>

static void expect_zero(conf_t* t, int rc, MPI_Status* st, const char* what) {
    int count = -1;
    CONF_CHECK(t, rc == MPI_SUCCESS, "%s returned %d", what, rc);
    MPI_Get_count(st, MPI_INT, &count);
    CONF_CHECK(t, count == 0, "%s: count %d, expected 0", what, count);
}

static void expect_class(conf_t* t, int rc, int cls, const char* what) {
    CONF_CHECK(t, conf_error_class(rc) == cls, "%s: error class %d, expected %d", what, conf_error_class(rc), cls);
}

int main(int argc, char** argv) {
    conf_t t;
    char dir[64] = "/tmp/xsim_file_shared_zero.XXXXXX", path[96];
    int buf[4] = {-1, -1, -1, -1};
    MPI_File fh, ro;
    MPI_Status st;
    MPI_Request req;
    MPI_Datatype empty;
    MPI_Offset before = -1, shared = -1;
    MPI_Init(&argc, &argv);
    conf_init(&t, "file_shared_zero");
    if (!conf_shared_temp_dir(&t, dir, (int)sizeof dir)) return conf_finish(&t);
    snprintf(path, sizeof path, "%s/f", dir);
    CONF_CALL(&t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    CONF_CALL(&t, MPI_File_write_ordered(fh, &t.rank, 1, MPI_INT, &st));
    CONF_CALL(&t, MPI_File_get_position_shared(fh, &before));

    memset(&st, 0xff, sizeof st);
    expect_zero(&t, MPI_File_read_shared(fh, buf, 0, MPI_INT, &st), &st, "MPI_File_read_shared count 0");
    memset(&st, 0xff, sizeof st);
    expect_zero(&t, MPI_File_write_shared(fh, buf, 0, MPI_INT, &st), &st, "MPI_File_write_shared count 0");
    CONF_CALL(&t, MPI_File_write_shared(fh, buf, 0, MPI_INT, MPI_STATUS_IGNORE));
    CONF_CALL(&t, MPI_Type_contiguous(0, MPI_INT, &empty));
    CONF_CALL(&t, MPI_Type_commit(&empty));
    memset(&st, 0xff, sizeof st);
    expect_zero(&t, MPI_File_read_shared(fh, buf, 3, empty, &st), &st, "MPI_File_read_shared of 3 empty types");
    CONF_CALL(&t, MPI_File_iread_shared(fh, buf, 0, MPI_INT, &req));
    memset(&st, 0xff, sizeof st);
    expect_zero(&t, MPI_Wait(&req, &st), &st, "MPI_File_iread_shared count 0");
    CONF_CALL(&t, MPI_File_iwrite_shared(fh, buf, 0, MPI_INT, &req));
    memset(&st, 0xff, sizeof st);
    expect_zero(&t, MPI_Wait(&req, &st), &st, "MPI_File_iwrite_shared count 0");
    CONF_CHECK(&t, buf[0] == -1, "a read of no data changed the buffer to %d", buf[0]);
    CONF_CALL(&t, MPI_File_get_position_shared(fh, &shared));
    CONF_CHECK(&t, shared == before, "the shared pointer moved from %lld to %lld", (long long)before,
               (long long)shared);

    /* Arguments are checked as any access's. */
    expect_class(&t, MPI_File_read_shared(MPI_FILE_NULL, buf, 0, MPI_INT, &st), MPI_ERR_FILE, "MPI_FILE_NULL");
    expect_class(&t, MPI_File_read_shared(fh, buf, -1, MPI_INT, &st), MPI_ERR_COUNT, "count -1");
    expect_class(&t, MPI_File_write_shared(fh, buf, 0, MPI_DATATYPE_NULL, &st), MPI_ERR_TYPE, "MPI_DATATYPE_NULL");
    CONF_CALL(&t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &ro));
    expect_class(&t, MPI_File_write_shared(ro, buf, 0, MPI_INT, &st), MPI_ERR_READ_ONLY, "write on MPI_MODE_RDONLY");
    expect_class(&t, MPI_File_iwrite_shared(ro, buf, 0, MPI_INT, &req), MPI_ERR_READ_ONLY,
                 "iwrite on MPI_MODE_RDONLY");
    CONF_CALL(&t, MPI_File_close(&ro));

    /* Reading from 0 in order gives each rank its own number. */
    CONF_CALL(&t, MPI_File_seek_shared(fh, 0, MPI_SEEK_SET));
    CONF_CALL(&t, MPI_File_read_ordered(fh, buf, 1, MPI_INT, &st));
    CONF_CHECK(&t, buf[0] == t.rank, "the ordered read gave %d, expected %d", buf[0], t.rank);

    CONF_CALL(&t, MPI_Type_free(&empty));
    CONF_CALL(&t, MPI_File_close(&fh));
    conf_remove_shared_temp(&t, path, dir);
    return conf_finish(&t);
}
