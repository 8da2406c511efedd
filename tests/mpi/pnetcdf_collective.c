/* pnetcdf_collective: an unmodified PnetCDF program (built against Debian's libpnetcdf, run
 * under xsim through LD_PRELOAD), as PnetCDF's own examples use it: a 2-D variable written
 * with collective put_vara (each rank its rows), a record variable grown one record per
 * step by nonblocking iput_vara and wait_all, a variable written through a flexible-API
 * MPI datatype (a column of the rank's local array), attributes, then a redefinition that
 * adds a variable, which moves the written data behind the grown header. Every rank reads
 * everything back (collective get_vara and independent mode) and checks each value, so
 * pnetcdf_check.sh can compare the files byte for byte with the native run's.
 * argument: the file. */
#include <mpi.h>
#include <pnetcdf.h>
#include <stdio.h>
#include <string.h>

enum { ROWS = 3, COLS = 7, STEPS = 4 };
static int rank, size, bad;

#define NC(call) do { int e_ = (call); if (e_ != NC_NOERR) { \
    printf("rank %d: line %d: %s: %s\n", rank, __LINE__, #call, ncmpi_strerror(e_)); ++bad; } } while (0)
#define CHECK(c) do { if (!(c)) { printf("rank %d: line %d: %s\n", rank, __LINE__, #c); ++bad; } } while (0)

static int grid(int r, int c) { return r * 1000 + c; }
static double rec(int step, int r) { return step + r / 8.0; }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *name = argc > 1 ? argv[1] : "pnetcdf_collective.nc";

    int ncid, dy, dx, dt, dn, vgrid, vrec, vcol;
    NC(ncmpi_create(MPI_COMM_WORLD, name, NC_CLOBBER | NC_64BIT_DATA, MPI_INFO_NULL, &ncid));
    NC(ncmpi_def_dim(ncid, "y", (MPI_Offset)ROWS * size, &dy));
    NC(ncmpi_def_dim(ncid, "x", COLS, &dx));
    NC(ncmpi_def_dim(ncid, "time", NC_UNLIMITED, &dt));
    NC(ncmpi_def_dim(ncid, "n", size, &dn));
    NC(ncmpi_def_var(ncid, "grid", NC_INT, 2, (int[]){dy, dx}, &vgrid));
    NC(ncmpi_def_var(ncid, "series", NC_DOUBLE, 2, (int[]){dt, dn}, &vrec));
    NC(ncmpi_def_var(ncid, "column", NC_SHORT, 2, (int[]){dn, dy}, &vcol));
    NC(ncmpi_put_att_text(ncid, NC_GLOBAL, "title", 18, "xsim pnetcdf check"));
    NC(ncmpi_put_att_int(ncid, vgrid, "ranks", NC_INT, 1, &size));
    NC(ncmpi_enddef(ncid));

    /* collective put_vara: this rank's rows */
    int block[ROWS][COLS];
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c) block[r][c] = grid(rank * ROWS + r, c);
    NC(ncmpi_put_vara_int_all(ncid, vgrid, (MPI_Offset[]){(MPI_Offset)rank * ROWS, 0},
                              (MPI_Offset[]){ROWS, COLS}, &block[0][0]));

    /* record variable: one record per step, nonblocking, two steps per wait_all */
    double vals[STEPS];
    int req[2], st[2];
    for (int s = 0; s < STEPS; s += 2) {
        for (int k = 0; k < 2; ++k) {
            vals[s + k] = rec(s + k, rank);
            NC(ncmpi_iput_vara_double(ncid, vrec, (MPI_Offset[]){s + k, rank}, (MPI_Offset[]){1, 1},
                                      &vals[s + k], &req[k]));
        }
        NC(ncmpi_wait_all(ncid, 2, req, st));
        CHECK(st[0] == NC_NOERR && st[1] == NC_NOERR);
    }

    /* flexible API: column[rank][:] from a strided column of a local 2-D array */
    short local[ROWS * size][2];
    for (int i = 0; i < ROWS * size; ++i) { local[i][0] = (short)(rank * 100 + i); local[i][1] = -1; }
    MPI_Datatype colt;
    MPI_Type_vector(ROWS * size, 1, 2, MPI_SHORT, &colt);
    MPI_Type_commit(&colt);
    NC(ncmpi_put_vara_all(ncid, vcol, (MPI_Offset[]){rank, 0}, (MPI_Offset[]){1, (MPI_Offset)ROWS * size},
                          &local[0][0], 1, colt));
    MPI_Type_free(&colt);

    /* redefine: a longer title and one more variable grow the header, moving the data */
    int vextra;
    NC(ncmpi_redef(ncid));
    NC(ncmpi_put_att_text(ncid, NC_GLOBAL, "history", 41, "redefined after the data had been written"));
    NC(ncmpi_def_var(ncid, "extra", NC_FLOAT, 1, &dn, &vextra));
    NC(ncmpi_enddef(ncid));
    float f = rank * 0.5f;
    NC(ncmpi_put_vara_float_all(ncid, vextra, (MPI_Offset[]){rank}, (MPI_Offset[]){1}, &f));
    NC(ncmpi_close(ncid));

    /* read back everything, the grid collectively, the rest in independent mode */
    NC(ncmpi_open(MPI_COMM_WORLD, name, NC_NOWRITE, MPI_INFO_NULL, &ncid));
    MPI_Offset nrec = 0;
    NC(ncmpi_inq_dimlen(ncid, dt, &nrec));
    CHECK(nrec == STEPS);
    char title[32] = {0};
    NC(ncmpi_get_att_text(ncid, NC_GLOBAL, "title", title));
    CHECK(strcmp(title, "xsim pnetcdf check") == 0);
    int all[ROWS * size][COLS];
    NC(ncmpi_get_var_int_all(ncid, vgrid, &all[0][0]));
    for (int r = 0; r < ROWS * size; ++r)
        for (int c = 0; c < COLS; ++c) CHECK(all[r][c] == grid(r, c));
    NC(ncmpi_begin_indep_data(ncid));
    double series[STEPS][size];
    NC(ncmpi_get_var_double(ncid, vrec, &series[0][0]));
    for (int s = 0; s < STEPS; ++s)
        for (int r = 0; r < size; ++r) CHECK(series[s][r] == rec(s, r));
    short cols[size][ROWS * size];
    NC(ncmpi_get_var_short(ncid, vcol, &cols[0][0]));
    for (int r = 0; r < size; ++r)
        for (int i = 0; i < ROWS * size; ++i) CHECK(cols[r][i] == (short)(r * 100 + i));
    float extra[size];
    NC(ncmpi_get_var_float(ncid, vextra, extra));
    for (int r = 0; r < size; ++r) CHECK(extra[r] == r * 0.5f);
    NC(ncmpi_end_indep_data(ncid));
    NC(ncmpi_close(ncid));

    int total = 0;
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("%s pnetcdf_collective %d ranks\n", total ? "FAIL" : "PASS", size);
    MPI_Finalize();
    return total != 0;
}
