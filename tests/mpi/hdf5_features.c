/* hdf5_features: an unmodified parallel HDF5 program (built with h5pcc, run under xsim
 * through LD_PRELOAD) using what applications use: contiguous, chunked (chunks straddling
 * the ranks' blocks), deflated (collective writes of filtered chunks) and extendible
 * datasets, collective and independent hyperslab writes (row blocks, strided columns, an
 * empty selection), attributes, a group, collective metadata reads and writes. Every rank
 * reads every dataset back, collectively and independently, and checks each value.
 * Modification times are off, so io_library_check.sh can compare the file byte for byte
 * with the native run's. argument: the file. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int rank, size, errors;
#define CHECK(c) do { if (!(c)) { printf("rank %d: %s:%d check failed: %s\n", rank, __FILE__, __LINE__, #c); errors++; } } while (0)

static int val(int name, long long r, long long c) { return (int)(name * 1000000 + r * 1000 + c); }

static hid_t dxpl(int collective) {
    hid_t p = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(p, collective ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT);
    return p;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *name = argc > 1 ? argv[1] : "hdf5_features.h5";
    const hsize_t ROWS = 4, COLS = 10;  /* per rank block of rows */
    hsize_t dims[2] = {ROWS * size, COLS};

    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    H5Pset_all_coll_metadata_ops(fapl, 1);
    H5Pset_coll_metadata_write(fapl, 1);
    hid_t file = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    CHECK(file >= 0);
    hid_t grp = H5Gcreate2(file, "grp", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = H5Screate_simple(2, dims, NULL);

    /* file attribute */
    hid_t aspace = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(file, "nranks", H5T_NATIVE_INT, aspace, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_INT, &size);
    H5Aclose(attr);

    hid_t dcpl_plain = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_obj_track_times(dcpl_plain, 0);
    hid_t dcpl_chunk = H5Pcopy(dcpl_plain);
    hsize_t chunk[2] = {3, 4};  /* chunks straddle ranks' blocks */
    H5Pset_chunk(dcpl_chunk, 2, chunk);
    hid_t dcpl_zip = H5Pcopy(dcpl_chunk);
    H5Pset_deflate(dcpl_zip, 6);
    H5Pset_fill_value(dcpl_zip, H5T_NATIVE_INT, &(int){-1});
    H5Pset_alloc_time(dcpl_zip, H5D_ALLOC_TIME_EARLY);

    hid_t d[4];
    d[0] = H5Dcreate2(file, "contig_coll", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl_plain, H5P_DEFAULT);
    d[1] = H5Dcreate2(grp, "contig_indep", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl_plain, H5P_DEFAULT);
    d[2] = H5Dcreate2(grp, "chunked_coll", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl_chunk, H5P_DEFAULT);
    d[3] = H5Dcreate2(file, "deflate_coll", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl_zip, H5P_DEFAULT);
    for (int k = 0; k < 4; ++k) CHECK(d[k] >= 0);
    hid_t cspace = H5Screate_simple(1, (hsize_t[]){2}, NULL);
    attr = H5Acreate2(d[2], "chunk", H5T_NATIVE_HSIZE, cspace, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_HSIZE, chunk);
    H5Aclose(attr);
    H5Sclose(cspace);

    /* each rank: block of rows [rank*ROWS, +ROWS) for 0,2,3; every size-th column for 1 */
    int *buf = malloc(sizeof(int) * ROWS * COLS * size);
    for (int k = 0; k < 4; ++k) {
        hid_t fs = H5Dget_space(d[k]);
        hsize_t n;
        if (k == 1) {  /* columns c = rank, rank+size, ... : strided hyperslab */
            hsize_t ncol = (COLS > (hsize_t)rank) ? (COLS - rank + size - 1) / size : 0;
            hsize_t start[2] = {0, (hsize_t)rank}, stride[2] = {1, (hsize_t)size},
                    count[2] = {dims[0], ncol}, block[2] = {1, 1};
            if (ncol) H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, stride, count, block);
            else H5Sselect_none(fs);
            n = dims[0] * ncol;
            for (hsize_t r = 0, i = 0; r < dims[0]; ++r)
                for (hsize_t j = 0; j < ncol; ++j) buf[i++] = val(k, r, rank + j * size);
        } else {
            hsize_t start[2] = {rank * ROWS, 0}, count[2] = {ROWS, COLS};
            H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
            n = ROWS * COLS;
            for (hsize_t r = 0, i = 0; r < ROWS; ++r)
                for (hsize_t c = 0; c < COLS; ++c) buf[i++] = val(k, rank * ROWS + r, c);
        }
        hid_t ms = H5Screate_simple(1, &n, NULL);
        if (n == 0) H5Sselect_none(ms);
        hid_t x = dxpl(k != 1);
        CHECK(H5Dwrite(d[k], H5T_NATIVE_INT, ms, fs, x, buf) >= 0);
        H5Pclose(x); H5Sclose(ms); H5Sclose(fs);
    }

    /* extendible chunked dataset: grows by one row block per step, collective writes */
    hsize_t edims[1] = {0}, emax[1] = {H5S_UNLIMITED}, echunk[1] = {5};
    hid_t espace = H5Screate_simple(1, edims, emax);
    hid_t dcpl_ext = H5Pcopy(dcpl_plain);
    H5Pset_chunk(dcpl_ext, 1, echunk);
    hid_t ext = H5Dcreate2(file, "extendible", H5T_NATIVE_DOUBLE, espace, H5P_DEFAULT, dcpl_ext, H5P_DEFAULT);
    for (int step = 0; step < 3; ++step) {
        hsize_t nd[1] = {(hsize_t)(step + 1) * 3 * size};
        CHECK(H5Dset_extent(ext, nd) >= 0);
        hid_t fs = H5Dget_space(ext);
        hsize_t start[1] = {(hsize_t)step * 3 * size + rank * 3}, count[1] = {3};
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        double v[3];
        for (int i = 0; i < 3; ++i) v[i] = (double)(start[0] + i) * 0.5;
        hid_t ms = H5Screate_simple(1, count, NULL);
        hid_t x = dxpl(1);
        CHECK(H5Dwrite(ext, H5T_NATIVE_DOUBLE, ms, fs, x, v) >= 0);
        H5Pclose(x); H5Sclose(ms); H5Sclose(fs);
    }
    H5Dclose(ext);
    H5Sclose(espace);
    H5Pclose(dcpl_ext); H5Pclose(dcpl_zip); H5Pclose(dcpl_chunk); H5Pclose(dcpl_plain);
    H5Sclose(aspace); H5Sclose(space);
    for (int k = 0; k < 4; ++k) H5Dclose(d[k]);
    H5Gclose(grp);
    CHECK(H5Fclose(file) >= 0);

    /* read back: every rank reads the whole of each dataset, alternately collective and
     * independent, and the block of the next rank with a hyperslab */
    file = H5Fopen(name, H5F_ACC_RDONLY, fapl);
    CHECK(file >= 0);
    int nr = 0;
    attr = H5Aopen(file, "nranks", H5P_DEFAULT);
    H5Aread(attr, H5T_NATIVE_INT, &nr);
    H5Aclose(attr);
    CHECK(nr == size);
    const char *names[4] = {"contig_coll", "grp/contig_indep", "grp/chunked_coll", "deflate_coll"};
    for (int k = 0; k < 4; ++k) {
        hid_t ds = H5Dopen2(file, names[k], H5P_DEFAULT);
        hid_t x = dxpl(k % 2 == 0);
        CHECK(H5Dread(ds, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, x, buf) >= 0);
        for (hsize_t r = 0; r < dims[0]; ++r)
            for (hsize_t c = 0; c < COLS; ++c) CHECK(buf[r * COLS + c] == val(k, r, c));
        int next = (rank + 1) % size;
        hid_t fs = H5Dget_space(ds);
        hsize_t start[2] = {next * ROWS, 0}, count[2] = {ROWS, COLS};
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        hsize_t n = ROWS * COLS;
        hid_t ms = H5Screate_simple(1, &n, NULL);
        H5Pclose(x);
        x = dxpl(k % 2 == 1);
        CHECK(H5Dread(ds, H5T_NATIVE_INT, ms, fs, x, buf) >= 0);
        for (hsize_t i = 0; i < n; ++i) CHECK(buf[i] == val(k, next * ROWS + i / COLS, i % COLS));
        H5Pclose(x); H5Sclose(ms); H5Sclose(fs); H5Dclose(ds);
    }
    ext = H5Dopen2(file, "extendible", H5P_DEFAULT);
    hid_t fs = H5Dget_space(ext);
    hsize_t n = H5Sget_simple_extent_npoints(fs);
    CHECK(n == (hsize_t)9 * size);
    double *dv = malloc(sizeof(double) * n);
    hid_t x = dxpl(1);
    CHECK(H5Dread(ext, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, x, dv) >= 0);
    for (hsize_t i = 0; i < n; ++i) CHECK(dv[i] == i * 0.5);
    H5Pclose(x); H5Sclose(fs); H5Dclose(ext);
    CHECK(H5Fclose(file) >= 0);

    int total = 0;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s hdf5_features %d ranks (%d errors)\n", total ? "FAIL" : "PASS", size, total);
    free(buf); free(dv);
    H5Pclose(fapl);
    MPI_Finalize();
    return total != 0;
}
