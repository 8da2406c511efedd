/* Buffered sends: MPI_Buffer_attach / detach with the standard's accounting (each pending
 * message takes its packed size plus MPI_BSEND_OVERHEAD), MPI_ERR_BUFFER when the buffer
 * is too small or missing, the source buffer reusable as soon as MPI_Bsend returns,
 * MPI_Ibsend complete at once, MPI_Bsend_init, and MPI_Buffer_detach waiting (in virtual
 * time) until the buffered messages have been delivered.
 * Argument "nopayload": run under -xsim-payload off (data is not checked). */
#include <unistd.h>

#include "conformance.h"

enum { LONG_INTS = 25000 }; /* 100 kB: rendezvous, so the message stays in the buffer */

int main(int argc, char** argv) {
    conf_t t;
    int payload = 1, i, k, to, from;
    const int room = LONG_INTS * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    MPI_Init(&argc, &argv);
    conf_init(&t, "p2p_bsend");
    for (i = 1; i < argc; i++)
        if (strcmp(argv[i], "nopayload") == 0) payload = 0;
    to = (t.rank + 1) % t.size;
    from = (t.rank + t.size - 1) % t.size;
    /* Without a buffer, a buffered send fails; detaching nothing gives size 0. */
    {
        int x = 1, size = -1;
        void* none = &x;
        if (conf_under_xsim()) { /* other libraries may send short messages without a buffer */
            CONF_CHECK(&t, conf_error_class(MPI_Bsend(&x, 1, MPI_INT, to, 1, MPI_COMM_WORLD)) == MPI_ERR_BUFFER,
                       "MPI_Bsend without a buffer");
            CONF_CALL(&t, MPI_Buffer_detach(&none, &size));
            CONF_CHECK(&t, size == 0 && none == NULL, "detach without a buffer: size %d", size);
        }
    }
    /* Room for exactly two long messages: two fit, the third does not (the receives are
     * posted only afterwards, so nothing has left the buffer yet). */
    {
        char* buffer = (char*)conf_alloc((size_t)2 * room);
        int* data = (int*)conf_alloc(sizeof(int) * LONG_INTS);
        int* got = (int*)conf_alloc(sizeof(int) * 2 * LONG_INTS);
        void* back = NULL;
        int size = 0, rc, pos = 0, packed = 0, second = 0;
        MPI_Request r[2];
        CONF_CALL(&t, MPI_Pack_size(LONG_INTS, MPI_INT, MPI_COMM_WORLD, &packed));
        CONF_CHECK(&t, packed + MPI_BSEND_OVERHEAD == room, "pack size %d", packed);
        CONF_CALL(&t, MPI_Buffer_attach(buffer, 2 * room));
        if (conf_under_xsim())
            CONF_CHECK(&t, conf_error_class(MPI_Buffer_attach(buffer, 2 * room)) == MPI_ERR_BUFFER,
                       "attaching a second buffer");
        for (k = 0; k < 2; k++) {
            if (payload)
                for (i = 0; i < LONG_INTS; i++) data[i] = t.rank * 7 + k * 1000 + i % 1000;
            CONF_CALL(&t, MPI_Bsend(data, LONG_INTS, MPI_INT, to, 20 + k, MPI_COMM_WORLD));
            /* The data is buffered: overwriting the source must not change the message. */
            if (payload) memset(data, 0x7f, sizeof(int) * LONG_INTS);
        }
        rc = MPI_Bsend(data, LONG_INTS, MPI_INT, to, 22, MPI_COMM_WORLD);
        CONF_CHECK(&t, conf_error_class(rc) == MPI_ERR_BUFFER, "third message in a two-message buffer: class %d",
                   conf_error_class(rc));
        if (conf_under_xsim()) { /* other libraries may send a short message at once, unbuffered */
            rc = MPI_Bsend(data, 1, MPI_INT, to, 22, MPI_COMM_WORLD);
            CONF_CHECK(&t, conf_error_class(rc) == MPI_ERR_BUFFER, "even one int does not fit: class %d",
                       conf_error_class(rc));
        }
        CONF_CALL(&t, MPI_Irecv(got, LONG_INTS, MPI_INT, from, 20, MPI_COMM_WORLD, &r[0]));
        CONF_CALL(&t, MPI_Irecv(got + LONG_INTS, LONG_INTS, MPI_INT, from, 21, MPI_COMM_WORLD, &r[1]));
        CONF_CALL(&t, MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
        if (payload) {
            long wrong = 0;
            for (k = 0; k < 2; k++)
                for (i = 0; i < LONG_INTS; i++)
                    if (got[k * LONG_INTS + i] != from * 7 + k * 1000 + i % 1000) wrong++;
            CONF_CHECK(&t, wrong == 0, "%ld ints of the buffered messages wrong", wrong);
        }
        CONF_CALL(&t, MPI_Buffer_detach(&back, &size));
        CONF_CHECK(&t, back == buffer && size == 2 * room, "detach gave %p / %d", back, size);
        /* Once the messages are delivered the room is free again: reattach, send 2 more. */
        CONF_CALL(&t, MPI_Buffer_attach(buffer, 2 * room));
        CONF_CALL(&t, MPI_Irecv(got, LONG_INTS, MPI_INT, from, 23, MPI_COMM_WORLD, &r[0]));
        CONF_CALL(&t, MPI_Ibsend(data, LONG_INTS, MPI_INT, to, 23, MPI_COMM_WORLD, &r[1]));
        {
            int flag = 0;
            CONF_CALL(&t, MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE));
            CONF_CHECK(&t, flag == 1, "MPI_Ibsend is complete once its data is buffered");
            if (!flag) MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        }
        CONF_CALL(&t, MPI_Wait(&r[0], MPI_STATUS_IGNORE));
        /* Persistent buffered sends reuse the room of delivered messages. */
        {
            MPI_Request p[2];
            int it;
            CONF_CALL(&t, MPI_Bsend_init(data, LONG_INTS, MPI_INT, to, 24, MPI_COMM_WORLD, &p[1]));
            CONF_CALL(&t, MPI_Recv_init(got, LONG_INTS, MPI_INT, from, 24, MPI_COMM_WORLD, &p[0]));
            for (it = 0; it < 5; it++) {
                if (payload) data[0] = it * 3 + t.rank;
                CONF_CALL(&t, MPI_Startall(2, p));
                CONF_CALL(&t, MPI_Waitall(2, p, MPI_STATUSES_IGNORE));
                CONF_CHECK(&t, !payload || got[0] == it * 3 + from, "Bsend_init round %d: %d", it, got[0]);
                second++;
            }
            MPI_Request_free(&p[0]);
            MPI_Request_free(&p[1]);
        }
        CONF_CALL(&t, MPI_Buffer_detach(&back, &size));
        (void)pos;
        free(buffer);
        free(data);
        free(got);
    }
    /* Detach waits until the receiver took the message: it posts its receive 1 ms late. */
    {
        const int b = LONG_INTS * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        char* buffer = (char*)conf_alloc((size_t)b);
        int* data = (int*)conf_alloc(sizeof(int) * LONG_INTS);
        void* back;
        int size;
        double start, after;
        MPI_Request r;
        CONF_CALL(&t, MPI_Barrier(MPI_COMM_WORLD));
        start = MPI_Wtime();
        CONF_CALL(&t, MPI_Buffer_attach(buffer, b));
        CONF_CALL(&t, MPI_Bsend(data, LONG_INTS, MPI_INT, to, 30, MPI_COMM_WORLD));
        CONF_CHECK(&t, MPI_Wtime() - start < 1e-3, "MPI_Bsend waited for the receiver");
        usleep(1000); /* under xsim: 1 ms of virtual time */
        CONF_CALL(&t, MPI_Irecv(data, LONG_INTS, MPI_INT, from, 30, MPI_COMM_WORLD, &r));
        /* The right neighbour posted its receive 1 ms after our send: detach waits for it. */
        CONF_CALL(&t, MPI_Buffer_detach(&back, &size));
        after = MPI_Wtime();
        CONF_CALL(&t, MPI_Wait(&r, MPI_STATUS_IGNORE));
        CONF_CHECK(&t, after - start > 1e-3, "detach returned after %.9f s, before the message was delivered",
                   after - start);
        free(buffer);
        free(data);
    }
    return conf_finish(&t);
}
