/* The flit engine over MPI ranks (mpirun -np P routesim run switching=wormhole ...,
 * docs/distributed.md "Wormhole, virtual cut-through and store-and-forward snakes"; batch and
 * open loop). The decomposition is the threads'
 * one (flit_step.c, "the parallel step"): worms interact within a step only where headers at
 * one node compete for the VCs of a channel out of it, body flits move between VCs their
 * worm holds, and a VC released in a step cannot be taken before the next one. So each rank
 * owns a set of nodes, the VCs of the channels out of them (their home), the sources at
 * them, and every worm whose header is at one of them, with the records of the VCs of its
 * chain. Any split gives the serial bytes; the one taken (the threads' one, node_split.h)
 * spreads the worms: a network numbered level by level (node = level N + row: butterflies,
 * Benes networks, k-ary n-flies) is split by rows, rank k holding rows [k N / P,
 * (k + 1) N / P) of every level (worms then cross ranks only on the top log2 P levels' cross
 * edges, and a wave of worms is spread over the ranks instead of passing through each in
 * turn); a dragonfly by groups, each router with its terminals; any other by node ids
 * (slabs of rows of a mesh or torus). Then:
 *   - a step runs the rank's worms in age order, then its sources by terminal: every contest
 *     for a VC is between worms at one node, so on one rank, in the serial order;
 *   - a VC released on a rank that is not its home is sent home (its whole record) at the end
 *     of the step; until then the home's copy shows it held, and the serial run would not
 *     give it out in this step either;
 *   - a worm whose header crossed to another rank's node moves there at the end of the step,
 *     with its record and the records of its chain's VCs (a VC's fields other than its
 *     owner and release step are read only by the worm that holds it);
 *   - one all-to-all per step carries both, and one all-reduce (the failures, the step's
 *     moves, accepted flits, worms in the network, sources with a front and messages
 *     finished) lets every rank take the same decisions on deadlock, fast-forward and the end.
 * Adaptive routings (docs/distributed.md "Adaptive routings over ranks"): a header orders its
 * choices by the start-of-step counts of the VCs out of its node, so the same all-to-all
 * also carries, from the rank of the worm that holds a VC, the counts that changed away from
 * the VC's home (count records) and, for ugal_g, the counts of the global channels of a
 * group to every rank that holds one of its routers.
 * Open loop: every rank generates its own terminals' arrivals (rs_openloop_restrict; the
 * generation counts summed in the step's all-reduce) and starts them; the packets
 * finished in a step are recorded in every rank's open-loop record at its end (one
 * all-gather); the periodic deadlock search, and the waiting cycle of a deadlock, see every
 * rank's worms (join_visitors). At the end the counters, finish steps and the routes'
 * congestion are gathered over the ranks.
 * router=iq (iq_dist.c): the same split of nodes, by routers; its flits and credits for
 * other ranks' routers ride in the step's all-to-all as records tagged FLIT_DIST_REC_IQ + k,
 * and its idle count is taken on the step's sums (rs__iq_settle).
 * Each decision is the serial run's, so the output is its bytes for every P. A rank's VC
 * array is allocated whole but touched only in its home range and where its worms' chains
 * reach (rs__huge_alloc: untouched pages cost nothing). The exchange is the caller's
 * (include/routesim/exchange.h): the library never calls MPI itself. */
#include <stdlib.h>
#include <string.h>

#include "engine/flit.h"
#include "engine/iq.h"
#include "engine/node_split.h"
#include "routesim/alloc.h"
#include "routesim/dragonfly.h"
#include "routesim/exchange.h"
#include "routesim/path_set.h"
#include "routesim/route.h"

/* Records kept for one rank during a step: tagged records in a byte stream. */
struct flit_buf {
    uint8_t *p;
    uint64_t n, cap;
};

/* The tags: a released VC (its id and record), a worm (its record, then for each VC of its
 * chain, head to tail, the VC's id and record); adaptive routings: a count (the id, count
 * and step stamps of a VC of a chain that changed away from its home in the step);
 * router=iq: REC_IQ + its own tags (iq_dist.c). */
enum { REC_RELEASE = 1, REC_WORM = 2, REC_COUNT = 3, REC_IQ = FLIT_DIST_REC_IQ };

/* A count record's fields after its tag. */
struct flit_count {
    uint32_t x, cnt, t_arr, t_dep;
};

struct flit_dist {
    const struct rs_exchange *xc;
    uint32_t rank, P;
    struct rs__node_split split; /* the nodes' split into the P ranks (node_split.h) */
    uint64_t pos_lo, pos_hi;     /* this rank's nodes: those at these positions */
    struct flit_buf *out;      /* [P] released VCs kept for each rank (worms: gather only) */
    uint8_t *send;
    uint64_t send_cap;
    uint64_t *send_bytes, *recv_bytes; /* [P] */
    uint64_t *at;                      /* [P] write positions in send */
    uint32_t *dest;                    /* [n_slots] the rank an active entry's worm leaves for */
    uint32_t *own_t;                   /* [n_src] rs__flit_dist_own_terminals's result */
    void *recv;
    uint64_t recv_cap;
    /* open loop: the packets this rank finished in the step (start of step, flits,
     * delivered), recorded every rank's on every rank at the end of the step */
    struct flit_fin {
        uint32_t gen, len, delivered;
    } *fin;
    uint64_t n_fin, cap_fin;
    int oom;             /* a record could not be kept: the step fails on every rank */
    /* open loop: each rank generates its own terminals' arrivals (rs_openloop_restrict;
     * not with traffic=trace), and the generation counts are summed every step */
    int gen_split;
    uint64_t gen_synced[4]; /* rs_openloop_gen_counts at the end of the last exchange */
    uint64_t rem_synced; /* the messages left at the last exchange */
    /* routing=ugal_g: a router reads the class-0 VCs of the global channels of the other
     * routers of its group, whose counts go to every rank that holds a router of the group */
    const struct rs_dfly *share;
    int gathered;        /* the deadlocked state is whole on every rank (rs__flit_dist_gather) */
};

uint32_t rs__flit_rank_of_node(const struct flit *f, uint64_t node)
{
    return rs__node_split_part(&f->dist->split, node);
}

uint32_t rs__flit_dist_ranks(const struct flit *f)
{
    return f->dist->P;
}

int rs__flit_dist_own_node(const struct flit *f, uint64_t node)
{
    const struct flit_dist *d = f->dist;
    uint64_t pos = rs__node_split_pos(&d->split, node);
    return pos >= d->pos_lo && pos < d->pos_hi;
}

void rs__flit_dist_clear_home(struct flit *f)
{
    const struct flit_dist *d = f->dist;
    uint64_t per_node = (uint64_t)f->P * f->B;
    for (uint64_t pos = d->pos_lo; pos < d->pos_hi; pos++) {
        uint64_t x0 = rs__node_split_node(&d->split, pos) * per_node;
        for (uint64_t x = x0; x < x0 + per_node; x++)
            f->vc[x].owner = f->vc[x].up = RS_NONE;
    }
}

uint32_t rs__flit_dist_own_terminals(struct flit *f, const uint32_t *t, uint32_t n,
                                     const uint32_t **own)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        if (rs__flit_dist_own_node(f, f->src_node[t[i]]))
            f->dist->own_t[k++] = t[i];
    *own = f->dist->own_t;
    return k;
}

/* The home rank of VC x: the owner of the node its channel leaves. */
static uint32_t home_of(const struct flit *f, uint32_t x)
{
    return rs__flit_rank_of_node(f, (uint64_t)x / f->B / f->P);
}

int rs__flit_dist_init(struct flit *f, const struct rs_exchange *xc, struct rs_err *err)
{
    const char *why = f->mode == FLIT_PARTIAL  ? "switching=cut_through_partial"
                      : f->link != FLIT_PER_VC ? "link=shared"
                      : f->drv->in->events     ? "--events"
                      : f->plan                ? "a plan"
                      : f->drv->in->check      ? "check=1"
                                               : NULL;
    if (why)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "%s is not partitioned over MPI ranks (the flit engine is split for "
                          "link=per_vc and router=simple or iq): run it without mpirun -np %d",
                          why, xc->size);
    uint64_t n = f->net->n_nodes, P = (uint64_t)xc->size, k = (uint64_t)xc->rank;
    if (n < P)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "a network of %llu nodes over %llu MPI ranks: every rank needs a node "
                          "of its own; run it on at most %llu ranks",
                          (unsigned long long)n, (unsigned long long)P, (unsigned long long)n);
    /* the check that Debug builds make by themselves on small runs reads every VC: skipped */
    f->drv->check = 0;
    struct flit_dist *d = rs_calloc(1, sizeof *d);
    if (!d)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the MPI exchange");
    f->dist = d;
    d->xc = xc;
    d->rank = (uint32_t)k;
    d->P = (uint32_t)P;
    const struct rs_net *net = f->net;
    rs__node_split_init(&d->split, net, (uint32_t)P);
    rs__node_split_range(&d->split, (uint32_t)k, &d->pos_lo, &d->pos_hi);
    d->rem_synced = f->pb->n_msgs;
    if (f->adaptive && !strcmp(f->routing->name, "ugal_g"))
        d->share = rs_dfly_of(net);
    d->out = rs_calloc(P, sizeof *d->out);
    d->send_bytes = rs_calloc(P, sizeof *d->send_bytes);
    d->recv_bytes = rs_calloc(P, sizeof *d->recv_bytes);
    d->at = rs_calloc(P, sizeof *d->at);
    d->dest = rs_malloc((size_t)f->n_slots * sizeof *d->dest + 1);
    d->own_t = rs_malloc((size_t)f->n_src * sizeof *d->own_t + 1);
    if (!d->out || !d->send_bytes || !d->recv_bytes || !d->at || !d->dest || !d->own_t)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the MPI exchange");
    return 0;
}

void rs__flit_dist_free(struct flit *f)
{
    struct flit_dist *d = f->dist;
    if (!d)
        return;
    for (uint32_t r = 0; d->out && r < d->P; r++)
        rs_free(d->out[r].p);
    rs_free(d->out);
    rs_free(d->send);
    rs_free(d->send_bytes);
    rs_free(d->recv_bytes);
    rs_free(d->at);
    rs_free(d->dest);
    rs_free(d->own_t);
    rs_free(d->recv);
    rs_free(d->fin);
    rs_free(d);
    f->dist = NULL;
}

/* Room for n more bytes at the end of rank r's records: their address (the records grow by
 * n), or NULL with d->oom set. */
static uint8_t *reserve(struct flit_dist *d, uint32_t r, uint64_t n)
{
    struct flit_buf *b = &d->out[r];
    if (b->n + n > b->cap) {
        uint64_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *q = rs_realloc(b->p, cap);
        if (!q) {
            d->oom = 1;
            return NULL;
        }
        b->p = q;
        b->cap = cap;
    }
    b->n += n;
    return b->p + b->n - n;
}

uint8_t *rs__flit_dist_reserve(struct flit *f, uint32_t r, uint64_t n)
{
    return reserve(f->dist, r, n);
}

int rs__flit_dist_allgather(struct flit *f, const void *p, uint64_t n, const uint8_t **out,
                            uint64_t *total)
{
    struct flit_dist *d = f->dist;
    const struct rs_exchange *xc = d->xc;
    if (xc->allgatherv(xc->ctx, p, n, &d->recv, &d->recv_cap, total))
        return RS_EIO;
    *out = d->recv;
    return 0;
}

/* Count record c for rank r. */
static void put_count(struct flit_dist *d, uint32_t r, const struct flit_count *c)
{
    uint32_t tag = REC_COUNT;
    uint8_t *q = reserve(d, r, sizeof tag + sizeof *c);
    if (!q)
        return;
    memcpy(q, &tag, sizeof tag);
    memcpy(q + sizeof tag, c, sizeof *c);
}

/* routing=ugal_g: VC x's count and stamps (changed in this step on this rank) to the ranks
 * other than this one and its home that read it, when it is a class-0 VC of a global channel
 * (path_cost in ugal.c reads those of every router of the group): the ranks of the routers
 * of its router's group (increasing along the group: the split keeps its routers in
 * order; one rank when there are at least P groups). */
static void share_count(struct flit *f, uint32_t x, uint32_t home)
{
    struct flit_dist *d = f->dist;
    const struct rs_dfly *dd = d->share;
    uint64_t ch = x / f->B;
    uint32_t node = (uint32_t)(ch / f->P), port = (uint32_t)(ch % f->P);
    if (node < dd->N || port < rs_dfly_gport0(dd) || x % f->B >= f->B / 3)
        return;
    struct flit_count c = {x, f->vc[x].cnt, f->vc[x].t_arr, f->vc[x].t_dep};
    uint32_t first = dd->N + rs_dfly_group(dd, node) * dd->a, prev = RS_NONE;
    for (uint32_t i = 0; i < dd->a; i++) {
        uint32_t r = rs__flit_rank_of_node(f, first + i);
        if (r != prev && r != d->rank && r != home)
            put_count(d, r, &c);
        prev = r;
    }
}

void rs__flit_dist_released(struct flit *f, uint32_t x)
{
    uint32_t r = home_of(f, x), tag = REC_RELEASE;
    if (f->dist->share)
        share_count(f, x, r);
    if (r == f->dist->rank)
        return;
    uint8_t *q = reserve(f->dist, r, sizeof tag + sizeof x + sizeof f->vc[x]);
    if (!q)
        return;
    memcpy(q, &tag, sizeof tag);
    memcpy(q + sizeof tag, &x, sizeof x);
    memcpy(q + sizeof tag + sizeof x, &f->vc[x], sizeof f->vc[x]);
}

/* Adaptive routings: the VCs of worm m's chain that are another rank's and whose count
 * changed in this step (a flit arrived or left) are sent home with their count and stamps,
 * so that the home's start-of-step count of each (free_slots in flit.c), which a header
 * there reads to order its choices, is the serial run's in the next step. A VC's count
 * changes only by its owner's moves, and the worm that holds it runs on one rank, so the
 * home's copy is exact once the step's records are in; within a step its stamps are older
 * than the step, so it reads the count at the step's start, as the serial run does. */
static void send_counts(struct flit *f, uint32_t m)
{
    const struct flit_worm *w = &f->w[m];
    uint32_t t = f->step;
    for (uint32_t k = 0, x = w->head; k < w->span; k++, x = f->vc[x].up) {
        const struct flit_vc *v = &f->vc[x];
        if (v->t_arr != t && v->t_dep != t)
            continue;
        uint32_t r = home_of(f, x);
        if (r != f->dist->rank) {
            struct flit_count c = {x, v->cnt, v->t_arr, v->t_dep};
            put_count(f->dist, r, &c);
        }
        if (f->dist->share) /* ugal_g: and to the other ranks that read it */
            share_count(f, x, r);
    }
}

void rs__flit_dist_finished(struct flit *f, uint32_t gen, uint32_t len, int delivered)
{
    struct flit_dist *d = f->dist;
    if (d->n_fin == d->cap_fin) {
        uint64_t cap = d->cap_fin ? 2 * d->cap_fin : 256;
        struct flit_fin *v = rs_realloc(d->fin, cap * sizeof *v);
        if (!v) {
            d->oom = 1;
            return;
        }
        d->fin = v;
        d->cap_fin = cap;
    }
    d->fin[d->n_fin++] = (struct flit_fin){gen, len, (uint32_t)delivered};
}

/* Open loop: every rank's packets finished in this step into the open-loop record of every
 * rank (its counts and sums are order-free: the same record as the serial run's). Returns 0
 * or RS_EIO. */
static int record_finished(struct flit *f)
{
    struct flit_dist *d = f->dist;
    const struct rs_exchange *xc = d->xc;
    uint64_t total = 0;
    int rc = xc->allgatherv(xc->ctx, d->fin, d->n_fin * sizeof *d->fin, &d->recv, &d->recv_cap,
                            &total);
    d->n_fin = 0;
    if (rc)
        return RS_EIO;
    /* (router=iq delivers in cycle step - 1: its cycle c is step c + 1, iq.h) */
    uint32_t at = f->iq ? f->step - 1 : f->step;
    for (uint64_t i = 0; i < total / sizeof(struct flit_fin); i++) {
        struct flit_fin r;
        memcpy(&r, (const uint8_t *)d->recv + i * sizeof r, sizeof r);
        rs_openloop_finish(f->ol, r.gen, r.len, at, (int)r.delivered);
    }
    return 0;
}

int rs__flit_dist_split_arrivals(struct flit *f, struct rs_err *err)
{
    struct flit_dist *d = f->dist;
    uint32_t *own = rs_malloc((size_t)f->n_src * sizeof *own + 1), n = 0;
    if (!own)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u terminals", f->n_src);
    for (uint32_t t = 0; t < f->n_src; t++)
        if (rs__flit_dist_own_node(f, f->src_node[t]))
            own[n++] = t;
    int r = rs_openloop_restrict(f->ol, own, n);
    rs_free(own);
    if (r < 0)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u terminals", f->n_src);
    d->gen_split = r;
    rs_openloop_gen_counts(f->ol, d->gen_synced);
    return 0;
}

/* Bytes of worm m's record with its chain's VC records. */
static uint64_t worm_bytes(const struct flit *f, uint32_t m)
{
    return sizeof(uint32_t) + sizeof(struct flit_worm) +
           (uint64_t)f->w[m].span * (sizeof(uint32_t) + sizeof(struct flit_vc));
}

/* Write worm m's record and its chain's VC records, head to tail, at p (worm_bytes long). */
static void write_worm(const struct flit *f, uint32_t m, uint8_t *p)
{
    const struct flit_worm *w = &f->w[m];
    uint32_t tag = REC_WORM, x = w->head;
    memcpy(p, &tag, sizeof tag);
    p += sizeof tag;
    memcpy(p, w, sizeof *w);
    p += sizeof *w;
    for (uint32_t k = 0; k < w->span; k++) {
        memcpy(p, &x, sizeof x);
        memcpy(p + sizeof x, &f->vc[x], sizeof f->vc[x]);
        p += sizeof x + sizeof f->vc[x];
        x = f->vc[x].up;
    }
}

/* The node worm m's header is at (its next channel's tail; its destination once
 * delivered): the rank that runs it. */
static uint64_t header_node(const struct flit *f, uint32_t m)
{
    const struct flit_worm *w = &f->w[m];
    return w->next_chan != RS_NONE ? (uint64_t)w->next_chan / f->P : w->next_node;
}

/* Take a worm record (and its chain) from the stream at *p (past its tag) into a new slot;
 * the owner fields of its VCs name the new slot and its cached route is looked up here (a
 * path index is its rank's). Returns the slot. */
static uint32_t take_worm(struct flit *f, const uint8_t **p)
{
    uint32_t m = f->free_slot[--f->n_free];
    struct flit_worm *w = &f->w[m];
    memcpy(w, *p, sizeof *w);
    *p += sizeof *w;
    for (uint32_t k = 0; k < w->span; k++) {
        uint32_t x;
        memcpy(&x, *p, sizeof x);
        memcpy(&f->vc[x], *p + sizeof x, sizeof f->vc[x]);
        *p += sizeof x + sizeof f->vc[x];
        f->vc[x].owner = m;
    }
    if (w->path != RS_NONE) { /* the same route, from this rank's cache (or hop by hop) */
        uint32_t pe = flit_path_of(f, w->src, w->dst, w->mid);
        w->path = pe == RS_NONE ? RS_NONE : (pe & ~FLIT_PATH_EMPTY) - 1;
    }
    return m;
}

/* The records kept for each rank (d->out) appended to the blocks of d->send_bytes bytes
 * reserved for it first (worms, written by the caller at d->at[r] onwards): d->send in rank
 * order with its sizes, d->at[r] where rank r's block continues; the lists emptied. Returns
 * 0 or RS_ENOMEM. */
static int pack_out(struct flit_dist *d)
{
    uint64_t total = 0;
    for (uint32_t r = 0; r < d->P; r++) {
        d->send_bytes[r] += d->out[r].n;
        total += d->send_bytes[r];
    }
    if (total > d->send_cap) {
        uint8_t *s = rs_realloc(d->send, total);
        if (!s)
            return RS_ENOMEM;
        d->send = s;
        d->send_cap = total;
    }
    for (uint64_t r = 0, base = 0; r < d->P; base += d->send_bytes[r], r++) {
        if (d->out[r].n)
            memcpy(d->send + base, d->out[r].p, d->out[r].n);
        d->at[r] = base + d->out[r].n;
        d->out[r].n = 0;
    }
    return 0;
}

/* The send buffer of a step, in rank order: for each rank the released VCs kept for it,
 * then the worms of the active list that leave for it (entry i's rank in d->dest[i],
 * RS_NONE for those that stay; their bytes already in d->send_bytes), written straight
 * into it (a wave of worms crossing a boundary in one step is the largest block: it is not
 * copied twice). The leaving worms' entries become holes and their slots free. Returns 0
 * or RS_ENOMEM (then nothing left). */
static int build_send(struct flit *f)
{
    struct flit_dist *d = f->dist;
    if (pack_out(d))
        return RS_ENOMEM;
    for (uint32_t i = 0; !f->iq && i < f->n_act; i++) {
        if (d->dest[i] == RS_NONE)
            continue;
        uint32_t m = f->act[i], r = d->dest[i];
        write_worm(f, m, d->send + d->at[r]);
        d->at[r] += worm_bytes(f, m);
        f->act[i] = RS_NONE;
        f->n_holes++;
        f->free_slot[f->n_free++] = m;
    }
    return 0;
}

/* A failure in this step on rank bad (the lowest failing one): its message (and code) to
 * every rank into err. rc and err: this rank's failure. Returns the failure's code. */
static int agree_error(struct flit *f, int rc, uint32_t bad, struct rs_err *err)
{
    struct flit_dist *d = f->dist;
    const struct rs_exchange *xc = d->xc;
    struct rs_err mine;
    memset(&mine, 0, sizeof mine);
    if (bad == d->rank) {
        mine = *err;
        mine.code = rc;
    }
    uint64_t total = 0;
    if (xc->allgatherv(xc->ctx, &mine, bad == d->rank ? sizeof mine : 0, &d->recv,
                       &d->recv_cap, &total) ||
        total != sizeof mine)
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          f->step);
    memcpy(err, d->recv, sizeof *err);
    if (!err->code || !err->msg[0]) /* a failure flagged without its line: say so */
        return rs_err_set(err, RS_EINVARIANT,
                          "MPI rank %u failed in step %u without an error message", bad,
                          f->step);
    return err->code;
}

int rs__flit_dist_exchange(struct flit *f, int rc, struct rs_err *err)
{
    struct flit_dist *d = f->dist;
    const struct rs_exchange *xc = d->xc;
    /* the worms whose header crossed to another rank's node leave with their chains */
    memset(d->send_bytes, 0, d->P * sizeof *d->send_bytes);
    for (uint32_t i = 0; !f->iq && i < f->n_act; i++) { /* (router=iq: no worm list) */
        uint32_t m = f->act[i];
        d->dest[i] = RS_NONE;
        if (rc || m == RS_NONE)
            continue;
        if (f->adaptive) /* the counts its moves changed away from their homes */
            send_counts(f, m);
        uint32_t r = rs__flit_rank_of_node(f, header_node(f, m));
        if (r == d->rank)
            continue;
        d->dest[i] = r;
        d->send_bytes[r] += worm_bytes(f, m);
    }
    if (f->iq && !rc) /* router=iq: the cycle's flits and credits for other ranks' routers */
        rs__iq_dist_send(f);
    int oom = d->oom || build_send(f);
    d->oom = 0;
    if (oom)
        memset(d->send_bytes, 0, d->P * sizeof *d->send_bytes);
    if (xc->alltoallv(xc->ctx, d->send, d->send_bytes, &d->recv, &d->recv_cap, d->recv_bytes))
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          f->step);
    uint64_t total = 0;
    for (uint32_t r = 0; r < d->P; r++)
        total += d->recv_bytes[r];
    const uint8_t *p = d->recv, *end = p + total;
    f->n_born = 0;
    uint64_t r_end = 0;
    for (uint32_t from = 0; p < end;) { /* released VCs come home; arriving worms take slots */
        uint32_t tag, x;
        while ((uint64_t)(p - (const uint8_t *)d->recv) >= r_end) /* the rank that sent it */
            r_end += d->recv_bytes[from++];
        memcpy(&tag, p, sizeof tag);
        p += sizeof tag;
        if (tag >= REC_IQ) {
            p = rs__iq_dist_take(f, tag - REC_IQ, p, from - 1);
        } else if (tag == REC_RELEASE) {
            memcpy(&x, p, sizeof x);
            memcpy(&f->vc[x], p + sizeof x, sizeof f->vc[x]);
            p += sizeof x + sizeof f->vc[x];
        } else if (tag == REC_COUNT) { /* a home VC held on another rank: its count */
            struct flit_count c;
            memcpy(&c, p, sizeof c);
            p += sizeof c;
            f->vc[c.x].cnt = c.cnt;
            f->vc[c.x].t_arr = c.t_arr;
            f->vc[c.x].t_dep = c.t_dep;
        } else {
            f->born[f->n_born++] = take_worm(f, &p);
        }
    }
    if (f->n_born)
        rs__flit_merge_born(f);
    uint64_t fronts = 0;
    for (uint32_t i = 0; i < f->n_pend; i++)
        fronts += f->front[f->pend[i]] != RS_NONE;
    if (f->iq && rs__iq_dist_failed(f)) /* router=iq: an arriving packet found no slot */
        oom = 1;
    uint64_t v[10] = {rc || oom, f->step_moves,
                      f->iq ? rs__iq_in_flight(f) : flit_live(f), fronts,
                      d->rem_synced - f->remaining, f->step_accepted};
    if (d->gen_split) { /* this rank's generation in the step (counts only grow in it) */
        uint64_t now[4];
        rs_openloop_gen_counts(f->ol, now);
        for (int k = 0; k < 4; k++)
            v[6 + k] = now[k] - d->gen_synced[k];
    }
    if (xc->allreduce(xc->ctx, v, d->gen_split ? 10 : 6, RS_EXCHANGE_SUM))
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          f->step);
    if (v[0]) { /* some rank failed: the lowest one's failure, on every rank */
        uint64_t low = rc || oom ? d->P - d->rank : 0;
        if (xc->allreduce(xc->ctx, &low, 1, RS_EXCHANGE_MAX))
            return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                              f->step);
        if (oom && !rc)
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the MPI exchange in step %u",
                            f->step);
        return agree_error(f, rc, d->P - (uint32_t)low, err);
    }
    f->step_moves = v[1];
    f->dist_live = v[2];
    if (f->iq) /* router=iq: its idle cycles counted on the sums, as the serial run's */
        rs__iq_settle(f, v[2]);
    f->dist_fronts = v[3];
    d->rem_synced -= v[4];
    f->remaining = d->rem_synced;
    f->step_accepted = v[5];
    if (d->gen_split) { /* every rank's generation, then every rank's finished packets */
        for (int k = 0; k < 4; k++)
            d->gen_synced[k] += v[6 + k];
        rs_openloop_set_gen_counts(f->ol, d->gen_synced);
    }
    if (f->ol && record_finished(f))
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          f->step);
    if (d->gen_split)
        rs_openloop_gen_counts(f->ol, d->gen_synced);
    return 0;
}

/* Every other rank's worms join this rank's state as visitors (one all-gather): the VCs they
 * may wait for, those of every channel out of their header's node (an adaptive header waits
 * for all its choices), are free unless a chain holds them (this rank's copies of them may
 * be stale; one may be in a chain of this rank's own worms, whose owners are set again),
 * then their chains are written and they enter the active list by age. The state is then the serial
 * run's whole (slot numbers aside). Returns 0, RS_ENOMEM or RS_EIO (on every rank alike). */
static int join_visitors(struct flit *f)
{
    struct flit_dist *d = f->dist;
    const struct rs_exchange *xc = d->xc;
    for (uint32_t i = 0; i < f->n_act; i++) {
        uint32_t m = f->act[i];
        uint8_t *q = m == RS_NONE ? NULL : reserve(d, 0, worm_bytes(f, m));
        if (q)
            write_worm(f, m, q);
    }
    uint64_t total = 0, bad = (uint64_t)d->oom;
    d->oom = 0;
    if (xc->allreduce(xc->ctx, &bad, 1, RS_EXCHANGE_MAX))
        return RS_EIO;
    if (bad) {
        d->out[0].n = 0;
        return RS_ENOMEM;
    }
    if (xc->allgatherv(xc->ctx, d->out[0].p, d->out[0].n, &d->recv, &d->recv_cap, &total))
        return RS_EIO;
    d->out[0].n = 0;
    const uint8_t *p = d->recv, *end = p + total;
    while (p < end) {
        struct flit_worm w;
        memcpy(&w, p + sizeof(uint32_t), sizeof w);
        p += sizeof(uint32_t) + sizeof w + w.span * (sizeof(uint32_t) + sizeof(struct flit_vc));
        if (w.next_chan == RS_NONE || rs__flit_dist_own_node(f, (uint64_t)w.next_chan / f->P))
            continue;
        uint64_t per_node = (uint64_t)f->P * f->B, x0 = (uint64_t)w.next_chan / f->P * per_node;
        for (uint64_t x = x0; x < x0 + per_node; x++)
            f->vc[x].owner = RS_NONE;
    }
    for (uint32_t i = 0; i < f->n_act; i++) { /* this rank's worms hold their chains */
        uint32_t m = f->act[i];
        if (m == RS_NONE)
            continue;
        for (uint32_t k = 0, x = f->w[m].head; k < f->w[m].span; k++, x = f->vc[x].up)
            f->vc[x].owner = m;
    }
    f->n_born = 0;
    for (p = d->recv; p < end;) {
        struct flit_worm w;
        memcpy(&w, p + sizeof(uint32_t), sizeof w);
        uint64_t node = w.next_chan != RS_NONE ? (uint64_t)w.next_chan / f->P : w.next_node;
        if (rs__flit_dist_own_node(f, node)) { /* one of this rank's own worms */
            p += sizeof(uint32_t) + sizeof w +
                 w.span * (sizeof(uint32_t) + sizeof(struct flit_vc));
            continue;
        }
        p += sizeof(uint32_t);
        f->born[f->n_born++] = take_worm(f, &p);
    }
    if (f->n_born)
        rs__flit_merge_born(f);
    return 0;
}

int rs__flit_dist_stuck(struct flit *f, uint32_t *found)
{
    *found = RS_NONE;
    int rc = join_visitors(f);
    if (rc)
        return rc;
    *found = rs__flit_stuck_set(f);
    if (*found != RS_NONE) { /* the run ends: the waiting cycle is traced on this state */
        f->dist->gathered = 1;
        return 0;
    }
    for (uint32_t i = 0; i < f->n_act; i++) { /* the visitors leave */
        uint32_t m = f->act[i];
        if (m == RS_NONE || rs__flit_dist_own_node(f, header_node(f, m)))
            continue;
        f->act[i] = RS_NONE;
        f->n_holes++;
        f->free_slot[f->n_free++] = m;
    }
    return 0;
}

int rs__flit_dist_gather(struct flit *f)
{
    if (f->dist->gathered)
        return 0;
    int rc = join_visitors(f);
    f->dist->gathered = !rc;
    return rc;
}

int rs__flit_dist_collect(struct flit *f)
{
    const struct rs_exchange *xc = f->dist->xc;
    uint64_t s[4] = {f->delivered, f->dropped, f->flit_hops, f->blocked};
    uint64_t mx[2] = {f->max_buffer, f->last_event};
    if (xc->allreduce(xc->ctx, s, 4, RS_EXCHANGE_SUM) ||
        xc->allreduce(xc->ctx, mx, 2, RS_EXCHANGE_MAX))
        return RS_EIO;
    f->delivered = s[0];
    f->dropped = s[1];
    f->flit_hops = s[2];
    f->blocked = s[3];
    f->max_buffer = (uint32_t)mx[0];
    f->last_event = (uint32_t)mx[1];
    if (f->ol) /* the open-loop record is every rank's already */
        return 0;
    /* each message finished on one rank: there (finish << 8 | fate) + 1, 0 on the others;
     * maxed in blocks so that the temporary stays small */
    enum { BLOCK = 1 << 16 };
    uint64_t *v = rs_malloc(BLOCK * sizeof *v);
    if (!v)
        return RS_ENOMEM;
    uint64_t n = f->pb->n_msgs;
    for (uint64_t at = 0; at < n; at += BLOCK) {
        int k = (int)(n - at < BLOCK ? n - at : BLOCK);
        for (int i = 0; i < k; i++)
            v[i] = f->finish[at + i] == RS_NONE
                       ? 0
                       : ((uint64_t)f->finish[at + i] << 8 | f->fate[at + i]) + 1;
        if (xc->allreduce(xc->ctx, v, k, RS_EXCHANGE_MAX)) {
            rs_free(v);
            return RS_EIO;
        }
        for (int i = 0; i < k; i++) {
            f->finish[at + i] = v[i] ? (uint32_t)((v[i] - 1) >> 8) : RS_NONE;
            f->fate[at + i] = v[i] ? (uint8_t)((v[i] - 1) & 0xff) : 0;
        }
    }
    rs_free(v);
    return 0;
}

/* The index of home channel c (node * ports + port) among this rank's home channels (by
 * the position of its node). */
static uint64_t home_index(const struct flit *f, uint64_t c)
{
    const struct flit_dist *d = f->dist;
    uint64_t local = rs__node_split_pos(&d->split, c / f->P) - d->pos_lo;
    return local * f->P + c % f->P;
}

/* Messages whose routes a rank walks per round of the path count. */
#define PATH_ROUND 4096

int rs__flit_dist_paths(struct flit *f, uint32_t *congestion, uint32_t *dilation)
{
    struct flit_dist *d = f->dist;
    const struct rs_exchange *xc = d->xc;
    const struct rs_net *net = f->net;
    const struct rs_problem *pb = f->pb;
    uint64_t n_home = (d->pos_hi - d->pos_lo) * f->P;
    uint32_t *load = rs_calloc(n_home + 1, sizeof *load);
    uint32_t cap = rs_path_max_hops(net) + 1, cong = 0, dil = 0;
    uint64_t *path = rs_malloc((size_t)cap * sizeof *path);
    uint64_t v[3] = {0, 0, 0}, mine = 0; /* rounds, a failure */
    int fail = !load || !path;
    for (uint64_t m = 0; m < pb->n_msgs; m++)
        mine += rs__flit_dist_own_node(f, f->src_node[rs_problem_src(pb, m)]);
    v[0] = (mine + PATH_ROUND - 1) / PATH_ROUND;
    if (xc->allreduce(xc->ctx, v, 1, RS_EXCHANGE_MAX)) {
        rs_free(load);
        rs_free(path);
        return RS_EIO;
    }
    uint64_t next = 0; /* the next message to look at */
    for (uint64_t round = 0; round < v[0]; round++) {
        memset(d->send_bytes, 0, d->P * sizeof *d->send_bytes);
        for (uint32_t k = 0; !fail && k < PATH_ROUND && next < pb->n_msgs; next++) {
            uint32_t src = rs_problem_src(pb, next);
            if (!rs__flit_dist_own_node(f, f->src_node[src]))
                continue;
            k++;
            struct rs_route_state st = {
                src, pb->dst[next],
                rs_route_mid_for(net, f->routing, f->seed, next, src, pb->dst[next]), 0,
                (uint32_t)next};
            int64_t len = rs_route_walk(net, f->routing, &st, path, cap, cap, NULL);
            if (len < 0 || len > (int64_t)cap) {
                fail = 1; /* run.c walks the routes again and reports it */
                break;
            }
            if ((uint32_t)len > dil)
                dil = (uint32_t)len;
            for (int64_t h = 0; h < len; h++) {
                uint32_t c = (uint32_t)path[h];
                uint8_t *q = reserve(d, rs__flit_rank_of_node(f, c / f->P), sizeof c);
                if (q)
                    memcpy(q, &c, sizeof c);
            }
        }
        fail |= d->oom || pack_out(d);
        d->oom = 0;
        if (fail)
            memset(d->send_bytes, 0, d->P * sizeof *d->send_bytes);
        if (xc->alltoallv(xc->ctx, d->send, d->send_bytes, &d->recv, &d->recv_cap,
                          d->recv_bytes)) {
            rs_free(load);
            rs_free(path);
            return RS_EIO;
        }
        uint64_t total = 0;
        for (uint32_t r = 0; r < d->P; r++)
            total += d->recv_bytes[r];
        for (uint64_t i = 0; !fail && i < total / sizeof(uint32_t); i++) {
            uint32_t c;
            memcpy(&c, (const uint8_t *)d->recv + i * sizeof c, sizeof c);
            uint32_t n = ++load[home_index(f, c)];
            cong = n > cong ? n : cong;
        }
    }
    rs_free(load);
    rs_free(path);
    v[0] = cong;
    v[1] = dil;
    v[2] = (uint64_t)fail;
    if (xc->allreduce(xc->ctx, v, 3, RS_EXCHANGE_MAX))
        return RS_EIO;
    if (v[2])
        return RS_EINVARIANT;
    *congestion = (uint32_t)v[0];
    *dilation = (uint32_t)v[1];
    return 0;
}
