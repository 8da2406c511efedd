/* sweep3d: the wavefront communication of Sweep3D (discrete-ordinates neutron transport)
 * as a skeleton.
 *
 * The N ranks form a near-square px x py grid in (i, j) (rank = ci + px * cj); each owns
 * it x jt x kt cells. Per iteration, for each of the 8 octants (sweep direction +-i, +-j,
 * +-k), the k planes are cut into blocks of mk planes and the angles into blocks of mmi;
 * for each block a rank
 *   receives the i-face (jt*mk*mmi doubles) from its upstream i neighbour and the j-face
 *   (it*mk*mmi doubles) from its upstream j neighbour (blocking MPI_Recv),
 *   computes it*jt*mk*mmi cell-angles,
 *   sends both faces downstream (blocking MPI_Send),
 * so each octant is a diagonal wavefront from one corner of the grid to the opposite one,
 * pipelined over the blocks. An iteration ends with MPI_Allreduce(MAX) of one double (the
 * flux convergence test).
 * Options: -i iterations (2), -it/-jt/-kt cells (10/10/20), -mk planes per block (10),
 *   -mmo angles per octant (3), -mmi angles per block (3), -t seconds per cell-angle (2e-8).
 * Data-independent control flow: payload on/off predict the same time. */
#include "skeleton.h"

int main(int argc, char **argv)
{
    int rank, size, dims[2], iter, octant, kb, ab, payload;
    char details[200];
    double start, change, max_change;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int iterations = skel_opt_int(argc, argv, "-i", 2);
    const int it = skel_opt_int(argc, argv, "-it", 10);
    const int jt = skel_opt_int(argc, argv, "-jt", 10);
    const int kt = skel_opt_int(argc, argv, "-kt", 20);
    const int mk = skel_opt_int(argc, argv, "-mk", 10);
    const int mmo = skel_opt_int(argc, argv, "-mmo", 3);
    const int mmi = skel_opt_int(argc, argv, "-mmi", 3);
    const double per_cell_angle = skel_opt_double(argc, argv, "-t", 2e-8);
    if (iterations < 0 || it < 1 || jt < 1 || kt < 1 || mk < 1 || mmo < 1 || mmi < 1) {
        if (rank == 0) fprintf(stderr, "sweep3d: bad options (sizes >= 1, -i >= 0)\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const int k_blocks = (kt + mk - 1) / mk, angle_blocks = (mmo + mmi - 1) / mmi;

    skel_dims(size, 2, dims);
    const int px = dims[0], py = dims[1];
    const int ci = rank % px, cj = rank / px;
    const int i_face = jt * mk * mmi, j_face = it * mk * mmi; /* doubles */

    payload = skel_payload_on(MPI_COMM_WORLD);
    double *i_in = skel_alloc(sizeof(double) * i_face, payload), *i_out = skel_alloc(sizeof(double) * i_face, payload);
    double *j_in = skel_alloc(sizeof(double) * j_face, payload), *j_out = skel_alloc(sizeof(double) * j_face, payload);

    start = skel_start(MPI_COMM_WORLD);
    for (iter = 0; iter < iterations; ++iter) {
        for (octant = 0; octant < 8; ++octant) {
            /* octant bits: 1 = sweep towards -i, 2 = towards -j, 4 = towards -k (local only) */
            const int di = (octant & 1) ? -1 : 1, dj = (octant & 2) ? -1 : 1;
            const int ci_up = ci - di, ci_down = ci + di, cj_up = cj - dj, cj_down = cj + dj;
            const int i_up = (ci_up >= 0 && ci_up < px) ? rank - di : MPI_PROC_NULL;
            const int i_down = (ci_down >= 0 && ci_down < px) ? rank + di : MPI_PROC_NULL;
            const int j_up = (cj_up >= 0 && cj_up < py) ? rank - dj * px : MPI_PROC_NULL;
            const int j_down = (cj_down >= 0 && cj_down < py) ? rank + dj * px : MPI_PROC_NULL;
            const int i_tag = 10 + 2 * octant, j_tag = 11 + 2 * octant;
            for (ab = 0; ab < angle_blocks; ++ab) {
                const int angles = (ab + 1) * mmi <= mmo ? mmi : mmo - ab * mmi;
                for (kb = 0; kb < k_blocks; ++kb) {
                    const int planes = (kb + 1) * mk <= kt ? mk : kt - kb * mk;
                    const int ni = jt * planes * angles, nj = it * planes * angles;
                    MPI_Recv(i_in, ni, MPI_DOUBLE, i_up, i_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Recv(j_in, nj, MPI_DOUBLE, j_up, j_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    skel_compute((double)it * jt * planes * angles * per_cell_angle);
                    MPI_Send(i_out, ni, MPI_DOUBLE, i_down, i_tag, MPI_COMM_WORLD);
                    MPI_Send(j_out, nj, MPI_DOUBLE, j_down, j_tag, MPI_COMM_WORLD);
                }
            }
        }
        change = 1.0 / (1.0 + iter + rank % 5);
        MPI_Allreduce(&change, &max_change, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    }
    snprintf(details, sizeof details,
             "grid %dx%d, %dx%dx%d cells, %d k-blocks x %d angle blocks per octant, %d iterations", px, py, it,
             jt, kt, k_blocks, angle_blocks, iterations);
    skel_finish(MPI_COMM_WORLD, "sweep3d", start, details);
    free(i_in);
    free(i_out);
    free(j_in);
    free(j_out);
    MPI_Finalize();
    return 0;
}
