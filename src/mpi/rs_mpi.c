/* Transport of a sweep's runs between Open MPI ranks (rs_mpi.h): point-to-point messages
 * of bytes (tasks to a worker, replies to rank 0, a last empty message that ends a worker).
 * A waiting rank polls with a growing sleep (20 us to 1 ms) instead of Open MPI's busy
 * wait, so an idle rank leaves its core to the runs. Without RS_HAVE_MPI: one rank. */
#include <limits.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi/rs_mpi.h"

#ifdef RS_HAVE_MPI
#include <mpi.h>

#include "exp/sweep_wire.h"
#include "routesim/alloc.h"

enum { TAG_TASK = 1, TAG_QUIT = 2, TAG_REPLY = 3 };

/* Wait for a message from source (or any) with tag (or any), polling with a growing sleep. */
static void wait_message(int source, int tag, MPI_Status *st)
{
    long delay_ns = 20000;
    for (int spins = 0;; spins++) {
        int flag = 0;
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, st);
        if (flag)
            return;
        if (spins < 64)
            continue;
        struct timespec ts = {0, delay_ns};
        nanosleep(&ts, NULL);
        delay_ns = delay_ns < 1000000 ? delay_ns * 2 : 1000000;
    }
}

/* Receive the waited-for message st into b (emptied first). 0 or RS_E... */
static int receive(const MPI_Status *st, struct rs_buf *b, struct rs_err *err)
{
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    char *tmp = count > 0 ? rs_malloc((size_t)count) : NULL;
    if (count > 0 && !tmp)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    int ok = MPI_Recv(tmp, count, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE) == MPI_SUCCESS;
    b->len = 0;
    int rc = ok && count > 0 ? rs_buf_append(b, tmp, (size_t)count) : 0;
    rs_free(tmp);
    if (!ok)
        return rs_err_set(err, RS_EIO, "MPI: cannot receive from rank %d", st->MPI_SOURCE);
    return rc ? rs_err_set(err, RS_ENOMEM, "out of memory") : 0;
}

static int send_task(void *ctx, int w, const void *msg, size_t len, struct rs_err *err)
{
    (void)ctx;
    if (len > INT_MAX)
        return rs_err_set(err, RS_ERESOURCE, "MPI: a task of %zu bytes is too large", len);
    if (MPI_Send(msg, (int)len, MPI_BYTE, w, TAG_TASK, MPI_COMM_WORLD) != MPI_SUCCESS)
        return rs_err_set(err, RS_EIO, "MPI: cannot send a run to rank %d", w);
    return 0;
}

static int recv_reply(void *ctx, int *w, struct rs_buf *reply, struct rs_err *err)
{
    MPI_Status st;
    (void)ctx;
    wait_message(MPI_ANY_SOURCE, TAG_REPLY, &st);
    *w = st.MPI_SOURCE;
    return receive(&st, reply, err);
}

int rs_mpi_start(struct rs_mpi *m, int *argc, char ***argv, struct rs_err *err)
{
    memset(m, 0, sizeof *m);
    m->size = 1;
    if (!getenv("OMPI_COMM_WORLD_SIZE") && !getenv("PMIX_RANK") && !getenv("PMI_RANK"))
        return 0; /* not started by mpirun: no MPI at all (no singleton start-up cost) */
    int provided = 0;
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
        return rs_err_set(err, RS_EIO, "MPI: cannot initialise");
    m->active = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &m->size);
    if (provided < MPI_THREAD_FUNNELED && m->size > 1)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "MPI: this MPI library does not allow threads beside MPI calls "
                          "(MPI_THREAD_FUNNELED)");
    m->remote.workers = m->size - 1;
    m->remote.send = send_task;
    m->remote.recv = recv_reply;
    return 0;
}

int rs_mpi_serve(struct rs_mpi *m)
{
    struct rs_buf task, reply;
    struct rs_err err;
    int status = 0;
    /* Ctrl-C reaches every rank (mpirun passes it on): rank 0 decides. A worker finishes
     * its run and replies, so that rank 0 writes the points under way and then ends it. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    rs_buf_init(&task);
    rs_buf_init(&reply);
    for (;;) {
        MPI_Status st;
        wait_message(0, MPI_ANY_TAG, &st);
        if (receive(&st, &task, &err)) {
            status = 1;
            break;
        }
        if (st.MPI_TAG == TAG_QUIT)
            break;
        reply.len = 0;
        rs__wire_serve(task.data, task.len, &reply); /* on failure: a damaged reply */
        if (reply.len > INT_MAX || MPI_Send(reply.data, (int)reply.len, MPI_BYTE, 0, TAG_REPLY,
                                            MPI_COMM_WORLD) != MPI_SUCCESS) {
            status = 1;
            break;
        }
    }
    rs_buf_free(&task);
    rs_buf_free(&reply);
    (void)m;
    return status;
}

void rs_mpi_stop(struct rs_mpi *m)
{
    if (!m->active)
        return;
    if (m->rank == 0)
        for (int w = 1; w < m->size; w++)
            MPI_Send(NULL, 0, MPI_BYTE, w, TAG_QUIT, MPI_COMM_WORLD);
    MPI_Finalize();
    m->active = 0;
}

void rs_mpi_reexec(char **argv)
{
    (void)argv;
}

void rs_mpi_finish(struct rs_mpi *m)
{
    if (!m->active)
        return;
    MPI_Finalize();
    m->active = 0;
}

/* Grow *buf (rs_realloc) to bytes. 0 or nonzero. */
static int grow(void **buf, uint64_t *cap, uint64_t bytes)
{
    if (*cap >= bytes && *buf)
        return 0;
    void *b = rs_realloc(*buf, (size_t)bytes + 1);
    if (!b)
        return 1;
    *buf = b;
    *cap = bytes;
    return 0;
}

/* Byte counts and displacements for MPI's int interface; nonzero when one is too large. */
static int int_counts(const uint64_t *bytes, int P, int *cnt, int *disp, uint64_t *total)
{
    uint64_t at = 0;
    for (int k = 0; k < P; k++) {
        if (bytes[k] > INT_MAX || at > INT_MAX)
            return 1;
        cnt[k] = (int)bytes[k];
        disp[k] = (int)at;
        at += bytes[k];
    }
    *total = at;
    return at > INT_MAX;
}

static int x_alltoallv(void *ctx, const void *send, const uint64_t *send_bytes, void **recv,
                       uint64_t *recv_cap, uint64_t *recv_bytes)
{
    struct rs_mpi *m = ctx;
    int P = m->size, bad = 0;
    int *ints = rs_malloc((size_t)P * 4 * sizeof *ints);
    if (!ints)
        return 1;
    int *sc = ints, *sd = ints + P, *rc = ints + 2 * P, *rd = ints + 3 * P;
    uint64_t st = 0, rt = 0;
    if (MPI_Alltoall(send_bytes, 1, MPI_UINT64_T, recv_bytes, 1, MPI_UINT64_T,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
        bad = 1;
    bad |= int_counts(send_bytes, P, sc, sd, &st) | int_counts(recv_bytes, P, rc, rd, &rt);
    bad |= grow(recv, recv_cap, rt);
    /* every rank learns whether any cannot go on, so that none waits alone */
    int any = 0;
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any && MPI_Alltoallv(send, sc, sd, MPI_BYTE, *recv, rc, rd, MPI_BYTE,
                              MPI_COMM_WORLD) != MPI_SUCCESS)
        any = 1;
    rs_free(ints);
    return any;
}

static int x_allgatherv(void *ctx, const void *send, uint64_t bytes, void **recv,
                        uint64_t *recv_cap, uint64_t *total)
{
    struct rs_mpi *m = ctx;
    int P = m->size, bad = 0, any = 0;
    *total = 0;
    uint64_t *each = rs_malloc((size_t)P * sizeof *each);
    int *ints = rs_malloc((size_t)P * 2 * sizeof *ints);
    if (!each || !ints)
        bad = 1;
    if (!bad && MPI_Allgather(&bytes, 1, MPI_UINT64_T, each, 1, MPI_UINT64_T,
                              MPI_COMM_WORLD) != MPI_SUCCESS)
        bad = 1;
    if (!bad)
        bad = int_counts(each, P, ints, ints + P, total) || grow(recv, recv_cap, *total);
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!any && MPI_Allgatherv(send, (int)bytes, MPI_BYTE, *recv, ints, ints + P, MPI_BYTE,
                               MPI_COMM_WORLD) != MPI_SUCCESS)
        any = 1;
    rs_free(each);
    rs_free(ints);
    return any;
}

static int x_allreduce(void *ctx, uint64_t *v, int n, enum rs_exchange_op op)
{
    (void)ctx;
    return MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T,
                         op == RS_EXCHANGE_MAX ? MPI_MAX : MPI_SUM,
                         MPI_COMM_WORLD) != MPI_SUCCESS;
}

const struct rs_exchange *rs_mpi_exchange(struct rs_mpi *m, struct rs_exchange *x)
{
    if (m->size <= 1)
        return NULL;
    *x = (struct rs_exchange){.rank = m->rank, .size = m->size, .ctx = m,
                              .alltoallv = x_alltoallv, .allgatherv = x_allgatherv,
                              .allreduce = x_allreduce};
    return x;
}

#else /* built without MPI: always one rank */
#include <unistd.h>

/* The number of processes mpirun started, from its environment (0 when not under mpirun). */
static int launched_size(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    if (!size)
        size = getenv("PMI_SIZE");
    return size ? atoi(size) : 0;
}

void rs_mpi_reexec(char **argv)
{
    if (launched_size() <= 1)
        return;
    char path[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", path, sizeof path - 1);
    if (len <= 0)
        return;
    path[len] = '\0';
    char *slash = strrchr(path, '/');
    static const char sibling[] = "routesim-mpi";
    if (!slash || (size_t)(slash + 1 - path) + sizeof sibling > sizeof path)
        return;
    memcpy(slash + 1, sibling, sizeof sibling);
    if (access(path, X_OK) == 0)
        execv(path, argv); /* returns only on failure: then one rank, and the error below */
}

/* Under mpirun -np P > 1, a build without MPI would run the whole command (a sweep, a
 * reproduction or one run) in every process, each writing the same files: refused (printed
 * by the process of rank 0 only). */
int rs_mpi_start(struct rs_mpi *m, int *argc, char ***argv, struct rs_err *err)
{
    (void)argc;
    (void)argv;
    memset(m, 0, sizeof *m);
    m->size = 1;
    const char *size = getenv("OMPI_COMM_WORLD_SIZE"), *rank = getenv("OMPI_COMM_WORLD_RANK");
    if (!size) {
        size = getenv("PMI_SIZE");
        rank = getenv("PMI_RANK");
    }
    if (size && atoi(size) > 1) {
        m->rank = rank ? atoi(rank) : 0;
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "this routesim was built without MPI and has no routesim-mpi beside "
                          "it, so under mpirun -np %d every process would run the whole "
                          "command: rebuild it with Open MPI (scripts/setup.sh installs it) or "
                          "run it without mpirun",
                          atoi(size));
    }
    return 0;
}

int rs_mpi_serve(struct rs_mpi *m)
{
    (void)m;
    return 0;
}

void rs_mpi_stop(struct rs_mpi *m)
{
    (void)m;
}

void rs_mpi_finish(struct rs_mpi *m)
{
    (void)m;
}

const struct rs_exchange *rs_mpi_exchange(struct rs_mpi *m, struct rs_exchange *x)
{
    (void)m;
    (void)x;
    return NULL;
}

#endif

const struct rs_sweep_remote *rs_mpi_remote(struct rs_mpi *m)
{
    return m->size > 1 ? &m->remote : NULL;
}
