/* Reads that reach the end of file report the data actually read (MPI-4.0 section 14.4.1:
 * MPI_Get_count of the status gives "the number of data items actually read"), as PnetCDF
 * relies on: after ncmpi_redef its ncmpi_enddef moves the variables' data with
 * MPI_File_read_at_all and writes back exactly the count it reports, so a count larger than
 * the file holds writes garbage past the end (PnetCDF's test add_var: 1824 bytes natively,
 * 632 under xsim). Every rank reads, across the end of a file of FILE_BYTES bytes, at its own
 * offset: some ranks wholly inside the file, one across its end, the others wholly past it.
 * Checked, for each of read_at, read_at_all, read_at_all_begin/end, iread_at, iread_at_all,
 * read_all, iread_all, read_all_begin/end from the individual pointer through a view of
 * ints, and read_all through a view with holes: the count (bytes, ints for the view), the data read, and that the buffer past them
 * is untouched. Under xsim the read_all forms reported the count asked for: they made Open
 * MPI's MPI_File_read_all on the rank's own handle, which does so even for one process.
 * Natively, Open MPI 4.1's ompio reports the requested count for the collective forms
 * (open-mpi/ompi#14015), so this program is run under xsim only.
 * The file is in a fresh directory under /tmp that rank 0 names. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "conformance.h"

#include <string.h>
#include <unistd.h>

#define CHUNK 40 /* bytes each rank asks for */
#define UNTOUCHED 0x5a

static unsigned char file_byte(long i) { return (unsigned char)(i * 7 + 3); }

/* Bytes of [offset, offset + CHUNK) that lie in a file of `bytes` bytes. */
static int expected_count(MPI_Offset offset, long bytes) {
    if (offset >= bytes) return 0;
    return (int)(offset + CHUNK <= bytes ? CHUNK : bytes - offset);
}

static void check(conf_t* t, const char* how, const unsigned char* buf, MPI_Status* st, MPI_Offset offset,
                  long bytes) {
    int count = -1, want = expected_count(offset, bytes), bad = 0, touched = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    CONF_CHECK(t, count == want, "%s at offset %lld of a %ld-byte file: MPI_Get_count says %d bytes, %d were there",
               how, (long long)offset, bytes, count, want);
    for (int i = 0; i < want; i++) bad += buf[i] != file_byte(offset + i);
    for (int i = want; i < CHUNK; i++) touched += buf[i] != UNTOUCHED;
    CONF_CHECK(t, bad == 0, "%s at offset %lld: %d of the %d bytes read differ from the file", how,
               (long long)offset, bad, want);
    CONF_CHECK(t, touched == 0, "%s at offset %lld: %d bytes of the buffer past the data read were changed", how,
               (long long)offset, touched);
}

int main(int argc, char** argv) {
    conf_t t;
    char dir[64] = "/tmp/xsim_file_read_eof.XXXXXX", path[96];
    MPI_File fh;
    MPI_Status st;
    MPI_Request req;
    unsigned char buf[CHUNK];
    MPI_Init(&argc, &argv);
    conf_init(&t, "file_read_eof");
    if (!conf_shared_temp_dir(&t, dir, (int)sizeof dir)) return conf_finish(&t);
    snprintf(path, sizeof path, "%s/f", dir);

    /* The file ends inside the chunk of rank size/2 (or of rank 0 alone). */
    const long bytes = (long)(t.size / 2) * CHUNK + CHUNK / 2 + 4; /* whole ints */
    CONF_CALL(&t, MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    if (t.rank == 0) {
        unsigned char* all = conf_alloc((size_t)bytes);
        for (long i = 0; i < bytes; i++) all[i] = file_byte(i);
        CONF_CALL(&t, MPI_File_write_at(fh, 0, all, (int)bytes, MPI_BYTE, &st));
        free(all);
    }
    CONF_CALL(&t, MPI_File_sync(fh));
    MPI_Barrier(MPI_COMM_WORLD);
    CONF_CALL(&t, MPI_File_sync(fh));
    const MPI_Offset offset = (MPI_Offset)t.rank * CHUNK;

    memset(buf, UNTOUCHED, sizeof buf);
    CONF_CALL(&t, MPI_File_read_at(fh, offset, buf, CHUNK, MPI_BYTE, &st));
    check(&t, "MPI_File_read_at", buf, &st, offset, bytes);

    memset(buf, UNTOUCHED, sizeof buf);
    CONF_CALL(&t, MPI_File_read_at_all(fh, offset, buf, CHUNK, MPI_BYTE, &st));
    check(&t, "MPI_File_read_at_all", buf, &st, offset, bytes);

    memset(buf, UNTOUCHED, sizeof buf);
    CONF_CALL(&t, MPI_File_read_at_all_begin(fh, offset, buf, CHUNK, MPI_BYTE));
    CONF_CALL(&t, MPI_File_read_at_all_end(fh, buf, &st));
    check(&t, "MPI_File_read_at_all_begin/end", buf, &st, offset, bytes);

    memset(buf, UNTOUCHED, sizeof buf);
    CONF_CALL(&t, MPI_File_iread_at(fh, offset, buf, CHUNK, MPI_BYTE, &req));
    CONF_CALL(&t, MPI_Wait(&req, &st));
    check(&t, "MPI_File_iread_at", buf, &st, offset, bytes);

    memset(buf, UNTOUCHED, sizeof buf);
    CONF_CALL(&t, MPI_File_iread_at_all(fh, offset, buf, CHUNK, MPI_BYTE, &req));
    CONF_CALL(&t, MPI_Wait(&req, &st));
    check(&t, "MPI_File_iread_at_all", buf, &st, offset, bytes);

    /* A view of ints from the individual file pointer: rank r seeks to int r * CHUNK_INTS
     * and reads CHUNK_INTS of them; it gets those the file holds. */
    enum { CHUNK_INTS = CHUNK / (int)sizeof(int) };
    CONF_CALL(&t, MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL));
    const long ints = bytes / (long)sizeof(int); /* the file holds whole ints */
    const long first = (long)t.rank * CHUNK_INTS;
    const int mine = first >= ints ? 0 : (int)(ints - first < CHUNK_INTS ? ints - first : CHUNK_INTS);
    for (int form = 0; form < 3; form++) {
        static const char* const names[3] = {"MPI_File_read_all", "MPI_File_iread_all",
                                              "MPI_File_read_all_begin/end"};
        int got[CHUNK_INTS];
        for (int i = 0; i < CHUNK_INTS; i++) got[i] = -7;
        CONF_CALL(&t, MPI_File_seek(fh, (MPI_Offset)first, MPI_SEEK_SET));
        if (form == 0) {
            CONF_CALL(&t, MPI_File_read_all(fh, got, CHUNK_INTS, MPI_INT, &st));
        } else if (form == 1) {
            CONF_CALL(&t, MPI_File_iread_all(fh, got, CHUNK_INTS, MPI_INT, &req));
            CONF_CALL(&t, MPI_Wait(&req, &st));
        } else {
            CONF_CALL(&t, MPI_File_read_all_begin(fh, got, CHUNK_INTS, MPI_INT));
            CONF_CALL(&t, MPI_File_read_all_end(fh, got, &st));
        }
        int count = -1, bad = 0;
        MPI_Get_count(&st, MPI_INT, &count);
        CONF_CHECK(&t, count == mine, "%s from int %ld: MPI_Get_count says %d ints, the file holds %d", names[form],
                   first, count, mine);
        for (int i = 0; i < mine; i++) {
            unsigned char want[sizeof(int)];
            for (int b = 0; b < (int)sizeof(int); b++) want[b] = file_byte((first + i) * (long)sizeof(int) + b);
            bad += memcmp(&got[i], want, sizeof(int)) != 0;
        }
        for (int i = mine; i < CHUNK_INTS; i++) bad += got[i] != -7;
        CONF_CHECK(&t, bad == 0, "%s from int %ld: %d ints wrong or written past the data", names[form], first, bad);
    }

    /* A view with holes: rank r sees the ints r, r + size, r + 2 size, ... and asks for 3
     * more than the file holds of them. */
    MPI_Datatype slot, filetype;
    MPI_Type_contiguous(1, MPI_INT, &slot);
    MPI_Type_create_resized(slot, 0, (MPI_Aint)(t.size * sizeof(int)), &filetype);
    MPI_Type_commit(&filetype);
    MPI_Type_free(&slot);
    CONF_CALL(&t, MPI_File_set_view(fh, (MPI_Offset)(t.rank * sizeof(int)), MPI_INT, filetype, "native",
                                    MPI_INFO_NULL));
    const int held = (int)(ints / t.size + (t.rank < ints % t.size)), ask = held + 3;
    int* strided = conf_alloc((size_t)ask * sizeof(int));
    for (int i = 0; i < ask; i++) strided[i] = -7;
    CONF_CALL(&t, MPI_File_read_all(fh, strided, ask, MPI_INT, &st));
    int scount = -1, sbad = 0;
    MPI_Get_count(&st, MPI_INT, &scount);
    CONF_CHECK(&t, scount == held, "MPI_File_read_all through a strided view: MPI_Get_count says %d ints, the file "
               "holds %d of the rank's", scount, held);
    for (int i = 0; i < held; i++) {
        const long at = ((long)i * t.size + t.rank) * (long)sizeof(int);
        unsigned char want[sizeof(int)];
        for (int b = 0; b < (int)sizeof(int); b++) want[b] = file_byte(at + b);
        sbad += memcmp(&strided[i], want, sizeof(int)) != 0;
    }
    for (int i = held; i < ask; i++) sbad += strided[i] != -7;
    CONF_CHECK(&t, sbad == 0, "MPI_File_read_all through a strided view: %d ints wrong or written past the data", sbad);
    free(strided);
    MPI_Type_free(&filetype);

    CONF_CALL(&t, MPI_File_close(&fh));
    conf_remove_shared_temp(&t, path, dir);
    return conf_finish(&t);
}
