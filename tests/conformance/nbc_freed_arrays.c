/* The counts, displacements and datatypes arrays of a nonblocking collective, overwritten
 * and freed as soon as the call returns. MPI asks the caller to keep them until completion,
 * but Open MPI and MPICH read them only during the call, and programs rely on that:
 * mpi4py 3.1.4's Iallgatherv and Ireduce_scatter free theirs at once (its own test suite,
 * test_cco_nb_vec and test_cco_nb_buf). Each call -- Igatherv, Iscatterv, Iallgatherv,
 * Ialltoallv, Ialltoallw, Ireduce_scatter, Ineighbor_allgatherv, Ineighbor_alltoallv,
 * Ineighbor_alltoallw -- is started, its arrays are zeroed and freed, and only then waited
 * for: every block must still be right (gaps between blocks untouched). */
#include "conformance.h"

static int cnt(int r) { return r % 3 + 1; }
static int pair_cnt(int a, int b) { return (a + b) % 3 + 1; }
static int val(int src, int dst, int k) { return src * 10000 + dst * 100 + k; }

static int* ints(int n) { return (int*)conf_alloc((size_t)(n > 0 ? n : 1) * sizeof(int)); }

/* What a program that let go of its arrays leaves behind. */
static void drop(int* a, int n) {
    int i;
    for (i = 0; i < n; i++) a[i] = 0;
    free(a);
}

static void wait_for(conf_t* t, MPI_Request* req, const char* call) {
    int rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    CONF_CHECK(t, rc == MPI_SUCCESS, "MPI_Wait of %s returned %d", call, rc);
}

/* Block i of a receive buffer starts at displ(i): the blocks before it plus a gap of one. */
static int* displs_of(int n, int (*count)(int), int* total) {
    int* d = ints(n);
    int i, at = 0;
    for (i = 0; i < n; i++) {
        d[i] = at;
        at += count(i) + 1;
    }
    *total = at;
    return d;
}

static void gatherv(conf_t* t) {
    const int me = t->rank, p = t->size;
    int total = 0, i, k;
    int* counts = ints(p);
    int* displs = displs_of(p, cnt, &total);
    int* recv = ints(total);
    int send[3];
    MPI_Request req;
    for (i = 0; i < p; i++) counts[i] = cnt(i);
    for (i = 0; i < total; i++) recv[i] = -1;
    for (k = 0; k < cnt(me); k++) send[k] = val(me, 0, k);
    CONF_CALL(t, MPI_Igatherv(send, cnt(me), MPI_INT, recv, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &req));
    drop(counts, p);
    {
        int* d = displs_of(p, cnt, &total);  /* to check with; the call's are gone */
        drop(displs, p);
        wait_for(t, &req, "MPI_Igatherv");
        for (i = 0; me == 0 && i < p; i++) {
            for (k = 0; k < cnt(i); k++)
                CONF_CHECK(t, recv[d[i] + k] == val(i, 0, k), "Igatherv: block %d[%d] = %d", i, k, recv[d[i] + k]);
            CONF_CHECK(t, recv[d[i] + cnt(i)] == -1, "Igatherv: gap after block %d written", i);
        }
        free(d);
    }
    free(recv);
}

static void scatterv(conf_t* t) {
    const int me = t->rank, p = t->size;
    int total = 0, i, k;
    int* counts = ints(p);
    int* displs = displs_of(p, cnt, &total);
    int* send = ints(total);
    int recv[4] = {-1, -1, -1, -1};
    MPI_Request req;
    for (i = 0; i < p; i++) {
        counts[i] = cnt(i);
        for (k = 0; k < cnt(i); k++) send[displs[i] + k] = val(0, i, k);
    }
    CONF_CALL(t, MPI_Iscatterv(send, counts, displs, MPI_INT, recv, cnt(me), MPI_INT, 0, MPI_COMM_WORLD, &req));
    drop(counts, p);
    drop(displs, p);
    wait_for(t, &req, "MPI_Iscatterv");
    for (k = 0; k < cnt(me); k++) CONF_CHECK(t, recv[k] == val(0, me, k), "Iscatterv: element %d = %d", k, recv[k]);
    CONF_CHECK(t, recv[cnt(me)] == -1, "Iscatterv: wrote past the block");
    free(send);
}

static void allgatherv(conf_t* t) {
    const int me = t->rank, p = t->size;
    int total = 0, i, k;
    int* counts = ints(p);
    int* displs = displs_of(p, cnt, &total);
    int* d = displs_of(p, cnt, &total);
    int* recv = ints(total);
    int send[3];
    MPI_Request req;
    for (i = 0; i < p; i++) counts[i] = cnt(i);
    for (i = 0; i < total; i++) recv[i] = -1;
    for (k = 0; k < cnt(me); k++) send[k] = val(me, 0, k);
    CONF_CALL(t, MPI_Iallgatherv(send, cnt(me), MPI_INT, recv, counts, displs, MPI_INT, MPI_COMM_WORLD, &req));
    drop(counts, p);
    drop(displs, p);
    wait_for(t, &req, "MPI_Iallgatherv");
    for (i = 0; i < p; i++) {
        for (k = 0; k < cnt(i); k++)
            CONF_CHECK(t, recv[d[i] + k] == val(i, 0, k), "Iallgatherv: block %d[%d] = %d", i, k, recv[d[i] + k]);
        CONF_CHECK(t, recv[d[i] + cnt(i)] == -1, "Iallgatherv: gap after block %d written", i);
    }
    free(d);
    free(recv);
}

/* Ialltoallv, or Ialltoallw (typed) with the same blocks: rank a sends pair_cnt(a, b) ints
 * to rank b. */
static void alltoallv(conf_t* t, int typed) {
    const char* call = typed ? "Ialltoallw" : "Ialltoallv";
    const int me = t->rank, p = t->size;
    int i, k, stotal = 0, rtotal = 0;
    int *scounts = ints(p), *sdispls = ints(p), *rcounts = ints(p), *rdispls = ints(p), *rd = ints(p);
    MPI_Datatype* stypes = (MPI_Datatype*)conf_alloc((size_t)p * sizeof(MPI_Datatype));
    MPI_Datatype* rtypes = (MPI_Datatype*)conf_alloc((size_t)p * sizeof(MPI_Datatype));
    int *send, *recv;
    MPI_Request req;
    for (i = 0; i < p; i++) {
        scounts[i] = rcounts[i] = pair_cnt(me, i);
        sdispls[i] = stotal;
        rdispls[i] = rd[i] = rtotal;
        stotal += scounts[i];
        rtotal += rcounts[i] + 1;
        stypes[i] = rtypes[i] = MPI_INT;
    }
    send = ints(stotal);
    recv = ints(rtotal);
    for (i = 0; i < p; i++)
        for (k = 0; k < scounts[i]; k++) send[sdispls[i] + k] = val(me, i, k);
    for (i = 0; i < rtotal; i++) recv[i] = -1;
    if (typed) {
        for (i = 0; i < p; i++) {  /* Ialltoallw's displacements are in bytes */
            sdispls[i] *= (int)sizeof(int);
            rdispls[i] *= (int)sizeof(int);
        }
        CONF_CALL(t, MPI_Ialltoallw(send, scounts, sdispls, stypes, recv, rcounts, rdispls, rtypes, MPI_COMM_WORLD,
                                    &req));
    } else {
        CONF_CALL(t, MPI_Ialltoallv(send, scounts, sdispls, MPI_INT, recv, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD,
                                    &req));
    }
    drop(scounts, p);
    drop(sdispls, p);
    drop(rcounts, p);
    drop(rdispls, p);
    for (i = 0; i < p; i++) stypes[i] = rtypes[i] = MPI_CHAR;
    free(stypes);
    free(rtypes);
    wait_for(t, &req, call);
    for (i = 0; i < p; i++) {
        for (k = 0; k < pair_cnt(i, me); k++)
            CONF_CHECK(t, recv[rd[i] + k] == val(i, me, k), "%s: block %d[%d] = %d", call, i, k, recv[rd[i] + k]);
        CONF_CHECK(t, recv[rd[i] + pair_cnt(i, me)] == -1, "%s: gap after block %d written", call, i);
    }
    free(rd);
    free(send);
    free(recv);
}

/* Element e of every rank's input is rank + e: piece i of the sum is size * (e) + p(p-1)/2. */
static void reduce_scatter(conf_t* t) {
    const int me = t->rank, p = t->size;
    int total = 0, i, k, offset = 0;
    int* counts = ints(p);
    int *send, recv[4] = {-1, -1, -1, -1};
    MPI_Request req;
    for (i = 0; i < p; i++) {
        counts[i] = cnt(i);
        if (i < me) offset += cnt(i);
        total += cnt(i);
    }
    send = ints(total);
    for (i = 0; i < total; i++) send[i] = me + i;
    CONF_CALL(t, MPI_Ireduce_scatter(send, recv, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req));
    drop(counts, p);
    wait_for(t, &req, "MPI_Ireduce_scatter");
    for (k = 0; k < cnt(me); k++) {
        const long want = (long)p * (offset + k) + (long)p * (p - 1) / 2;
        CONF_CHECK(t, recv[k] == want, "Ireduce_scatter: element %d = %d, expected %ld", k, recv[k], want);
    }
    CONF_CHECK(t, recv[cnt(me)] == -1, "Ireduce_scatter: wrote past the block");
    free(send);
}

/* On a periodic ring: block 0 is the -1 neighbor's, block 1 the +1 neighbor's. */
static void neighbors(conf_t* t) {
    const int me = t->rank, p = t->size;
    const int left = (me - 1 + p) % p, right = (me + 1) % p;
    int dims[1], periods[1] = {1}, k, w;
    MPI_Comm ring;
    MPI_Request req;
    dims[0] = p;
    CONF_CALL(t, MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    {  /* allgatherv: my cnt(me) ints to both neighbors */
        int send[3], recv[8], *counts = ints(2), *displs = ints(2);
        for (k = 0; k < cnt(me); k++) send[k] = val(me, 0, k);
        for (k = 0; k < 8; k++) recv[k] = -1;
        counts[0] = cnt(left);
        counts[1] = cnt(right);
        displs[0] = 0;
        displs[1] = cnt(left) + 1;
        CONF_CALL(t, MPI_Ineighbor_allgatherv(send, cnt(me), MPI_INT, recv, counts, displs, MPI_INT, ring, &req));
        drop(counts, 2);
        drop(displs, 2);
        wait_for(t, &req, "MPI_Ineighbor_allgatherv");
        for (k = 0; k < cnt(left); k++)
            CONF_CHECK(t, recv[k] == val(left, 0, k), "Ineighbor_allgatherv: left[%d] = %d", k, recv[k]);
        for (k = 0; k < cnt(right); k++)
            CONF_CHECK(t, recv[cnt(left) + 1 + k] == val(right, 0, k), "Ineighbor_allgatherv: right[%d] = %d", k,
                       recv[cnt(left) + 1 + k]);
        CONF_CHECK(t, recv[cnt(left)] == -1, "Ineighbor_allgatherv: gap written");
    }
    for (w = 0; w < 2; w++) {  /* alltoallv / alltoallw: 2 ints to the -1 neighbor, 3 to the +1 */
        const char* call = w ? "Ineighbor_alltoallw" : "Ineighbor_alltoallv";
        int send[5], recv[7], *sc = ints(2), *sd = ints(2), *rc = ints(2), *rd = ints(2);
        MPI_Aint *sbd = (MPI_Aint*)conf_alloc(2 * sizeof(MPI_Aint)), *rbd = (MPI_Aint*)conf_alloc(2 * sizeof(MPI_Aint));
        MPI_Datatype *st = (MPI_Datatype*)conf_alloc(2 * sizeof(MPI_Datatype));
        MPI_Datatype *rt = (MPI_Datatype*)conf_alloc(2 * sizeof(MPI_Datatype));
        for (k = 0; k < 2; k++) send[k] = val(me, 0, k);
        for (k = 0; k < 3; k++) send[2 + k] = val(me, 1, k);
        for (k = 0; k < 7; k++) recv[k] = -1;
        sc[0] = 2; sc[1] = 3; sd[0] = 0; sd[1] = 2;
        rc[0] = 3; rc[1] = 2; rd[0] = 0; rd[1] = 4;  /* a gap at 3 */
        st[0] = st[1] = rt[0] = rt[1] = MPI_INT;
        sbd[0] = 0; sbd[1] = 2 * (MPI_Aint)sizeof(int);
        rbd[0] = 0; rbd[1] = 4 * (MPI_Aint)sizeof(int);
        if (w) CONF_CALL(t, MPI_Ineighbor_alltoallw(send, sc, sbd, st, recv, rc, rbd, rt, ring, &req));
        else CONF_CALL(t, MPI_Ineighbor_alltoallv(send, sc, sd, MPI_INT, recv, rc, rd, MPI_INT, ring, &req));
        drop(sc, 2);
        drop(sd, 2);
        drop(rc, 2);
        drop(rd, 2);
        sbd[0] = sbd[1] = rbd[0] = rbd[1] = 0;
        free(sbd);
        free(rbd);
        st[0] = st[1] = rt[0] = rt[1] = MPI_CHAR;
        free(st);
        free(rt);
        wait_for(t, &req, call);
        for (k = 0; k < 3; k++) CONF_CHECK(t, recv[k] == val(left, 1, k), "%s: left[%d] = %d", call, k, recv[k]);
        for (k = 0; k < 2; k++)
            CONF_CHECK(t, recv[4 + k] == val(right, 0, k), "%s: right[%d] = %d", call, k, recv[4 + k]);
        CONF_CHECK(t, recv[3] == -1, "%s: gap written", call);
    }
    MPI_Comm_free(&ring);
}

int main(int argc, char** argv) {
    conf_t t;
    MPI_Init(&argc, &argv);
    conf_init(&t, "nbc_freed_arrays");
    gatherv(&t);
    scatterv(&t);
    allgatherv(&t);
    alltoallv(&t, 0);
    alltoallv(&t, 1);
    reduce_scatter(&t);
    neighbors(&t);
    return conf_finish(&t);
}
