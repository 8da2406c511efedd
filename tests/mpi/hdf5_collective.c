/* hdf5_collective: an unmodified parallel HDF5 program (built with h5pcc, run under xsim
 * through LD_PRELOAD): each rank writes its rows of a 2-D dataset with a collective
 * H5Dwrite and reads them back. Modification times are off, so the file is byte for byte
 * the same natively and under xsim (hdf5_check.sh compares them). argument: the file. */
#include <hdf5.h>
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *name = argc > 1 ? argv[1] : "h5p.h5";
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL);
    hid_t file = H5Fcreate(name, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    enum { ROWS = 2, COLS = 8 };
    hsize_t dims[2] = {(hsize_t)size * ROWS, COLS};
    hid_t space = H5Screate_simple(2, dims, NULL);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_obj_track_times(dcpl, 0); /* no time stamp: the bytes depend on the data alone */
    hid_t dset = H5Dcreate2(file, "data", H5T_NATIVE_INT, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    hsize_t start[2] = {(hsize_t)rank * ROWS, 0}, count[2] = {ROWS, COLS};
    H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL);
    hid_t mem = H5Screate_simple(2, count, NULL);
    int buf[ROWS][COLS];
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c) buf[r][c] = (rank * ROWS + r) * 100 + c;
    hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
    H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE);
    herr_t w = H5Dwrite(dset, H5T_NATIVE_INT, mem, space, dxpl, buf);
    int back[ROWS][COLS];
    herr_t r = H5Dread(dset, H5T_NATIVE_INT, mem, space, dxpl, back);
    int bad = 0;
    for (int i = 0; i < ROWS; ++i)
        for (int c = 0; c < COLS; ++c) bad += back[i][c] != buf[i][c];
    H5Pclose(dcpl); H5Pclose(dxpl); H5Sclose(mem); H5Dclose(dset); H5Sclose(space); H5Fclose(file); H5Pclose(fapl);
    int all = 0, mine = bad + (w < 0) + (r < 0);
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s hdf5_collective %d ranks\n", all ? "FAIL" : "PASS", size);
    MPI_Finalize();
    return all != 0;
}
