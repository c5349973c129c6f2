/* The general store-and-forward engine over MPI ranks, batch and open-loop runs (mpirun -np P
 * routesim run switching=store_forward ..., docs/distributed.md "The general engine over
 * ranks"): a true partition. Rank k owns a set of nodes (the flit engine's split,
 * node_split.h: rows of every level of a leveled network, a dragonfly's groups, else ranges
 * of node ids), the queues of those nodes, the stores of their
 * terminals and the packets in them, in a pool of slots (pkt, where, osrc, omsg, ogen, rank
 * and the step's moves are indexed by slot; omsg = ogen = the message id, so that
 * saf_pkt_id orders packets by message id as the serial run does). The node-indexed arrays
 * (queues, sticky selections, waiters, channel loads) keep their global indices but are
 * reserved, not touched: a rank writes only its own nodes' entries and the shadows below.
 *
 * One step: the rank decides its active nodes with saf.c's own decide code (the same draws:
 * every draw is keyed by queue id, terminal, packet or step). An input queue has one feeder,
 * the node at the tail of its channel, so a queue of another rank's node that one of this
 * rank's nodes feeds has its count kept here (the shadow, in the queue array at the queue's
 * id): the count at the start of the step, as the serial decide reads it (its arrivals sent
 * up to the last step, less the departures credited at the end of the last step). Then the
 * commit: departures, arrivals into own queues, deliveries and drops here; a packet that
 * enters another rank's queue or a store on another rank (Valiant: the end of phase A at
 * terminal mid) leaves with its whole record; a departure from a queue whose feeder is
 * another rank's owes it a credit (which also wakes the feeder's node waiting for room, as
 * the serial departure wakes its waiter). One all-to-all per step carries records and
 * credits; arrivals into a store are taken in the serial move order (by the node the packet
 * left, then in that node's move order). Every block's header also carries the sender's count of
 * the step's moves and finished packets, which every rank sums, so every rank takes the
 * driver's decisions (end, deadlock) alike without an all-reduce. That step is for input
 * queues; output and switch queues, whose queues have several feeders admitted in a serial
 * order, take saf_dist_out.c's request/grant round instead (the set-up, the pool, the
 * records, the end and the gather here are shared; saf_dist.h). On a deadlock
 * the non-empty queues are gathered on every rank and the serial code describes the cycle.
 * The exchange is the caller's (include/routesim/exchange.h): the library never calls MPI. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/saf_dist.h"
#include "routesim/alloc.h"
#include "routesim/exchange.h"
#include "routesim/hugemem.h"
#include "routesim/rng.h"

/* ---- the packet pool ------------------------------------------------------------------ */

/* Grow every per-slot array to cap slots (the new ones free). Returns 0 or RS_ENOMEM. */
static int pool_grow(struct saf *s, uint64_t cap)
{
    struct saf_dist *x = s->dist;
    struct saf_pkt *pkt = rs_realloc(s->pkt, cap * sizeof *pkt);
    if (pkt)
        s->pkt = pkt;
    uint8_t *where = rs_realloc(s->where, cap + 1);
    if (where)
        s->where = where;
    uint32_t *osrc = rs_realloc(s->osrc, cap * sizeof *osrc);
    if (osrc)
        s->osrc = osrc;
    uint32_t *omsg = rs_realloc(s->omsg, cap * sizeof *omsg);
    if (omsg)
        s->omsg = omsg;
    uint32_t *ogen = s->ol ? rs_realloc(s->ogen, cap * sizeof *ogen) : omsg;
    if (ogen)
        s->ogen = ogen;
    /* a step moves each packet at most once and each own node at most one per out-port */
    uint64_t mcap = cap < x->max_moves ? cap : x->max_moves;
    struct saf_move *moves = rs_realloc(s->moves, mcap * sizeof *moves);
    if (moves)
        s->moves = moves;
    uint32_t *fs = rs_realloc(x->free_slot, cap * sizeof *fs);
    if (fs)
        x->free_slot = fs;
    uint16_t *rank = s->rank ? rs_realloc(s->rank, cap * sizeof *rank) : NULL;
    if (rank)
        s->rank = rank;
    if (!pkt || !where || !osrc || !omsg || !ogen || !moves || !fs || (s->rank && !rank))
        return RS_ENOMEM;
    for (uint64_t i = cap; i > x->cap; i--) /* lowest slots on top */
        x->free_slot[x->n_free++] = (uint32_t)(i - 1);
    memset(s->where + x->cap, SAF_FREE, cap - x->cap);
    x->cap = s->n_pkt = cap;
    s->moves_cap = mcap;
    return 0;
}

/* A free slot (the pool grows when none is left), or RS_NONE when out of memory. */
uint32_t rs__saf_dist_slot_take(struct saf *s)
{
    struct saf_dist *x = s->dist;
    if (!x->n_free && pool_grow(s, x->cap + x->cap / 2 + 1024)) {
        x->oom = 1;
        return RS_NONE;
    }
    return x->free_slot[--x->n_free];
}

void rs__saf_dist_slot_give(struct saf *s, uint32_t m)
{
    s->where[m] = SAF_FREE;
    s->dist->free_slot[s->dist->n_free++] = m;
}

/* ---- the active set (the queue lists are saf.c's: rs__saf_queue_push, _unlink) ------------ */

static void activate(struct saf *s, uint32_t v)
{
    s->active[v / 64] |= 1ull << (v % 64);
}

/* ---- records -------------------------------------------------------------------------- */

void rs__saf_dist_wire(const struct saf *s, uint32_t m, uint32_t to, uint32_t node,
                    struct saf_wire *w)
{
    const struct saf_pkt *p = &s->pkt[m];
    *w = (struct saf_wire){to,         node,    s->omsg[m], s->osrc[m], p->dst,
                           p->mid,     p->hops, p->rem,     p->entered, p->tq,
                           s->ogen[m], p->port, p->phase_a, s->rank ? s->rank[m] : 0,
                           0};
}

/* A slot holding record w (not yet in a queue), or RS_NONE when out of memory. */
uint32_t rs__saf_dist_slot_of_wire(struct saf *s, const struct saf_wire *w)
{
    uint32_t m = rs__saf_dist_slot_take(s);
    if (m == RS_NONE)
        return m;
    struct saf_pkt *p = &s->pkt[m];
    p->dst = w->dst;
    p->mid = w->mid;
    p->hops = w->hops;
    p->rem = w->rem;
    p->entered = w->entered;
    p->tq = w->tq;
    p->port = w->port;
    p->phase_a = w->phase_a;
    s->omsg[m] = w->msg;
    s->osrc[m] = w->src;
    s->ogen[m] = w->gen; /* (batch: the same array as omsg) */
    if (s->rank)
        s->rank[m] = w->rank;
    return m;
}

static void out_rec(struct saf *s, uint32_t r, const struct saf_wire *w)
{
    struct saf_out *o = &s->dist->out[r];
    if (o->n_rec == o->cap_rec) {
        uint64_t cap = o->cap_rec ? 2 * o->cap_rec : 256;
        struct saf_wire *n = rs_realloc(o->rec, cap * sizeof *n);
        if (!n) {
            s->dist->oom = 1;
            return;
        }
        o->rec = n;
        o->cap_rec = cap;
    }
    o->rec[o->n_rec++] = *w;
}

static void out_cred(struct saf *s, uint32_t r, uint32_t q)
{
    struct saf_out *o = &s->dist->out[r];
    if (o->n_cred == o->cap_cred) {
        uint64_t cap = o->cap_cred ? 2 * o->cap_cred : 256;
        uint32_t *n = rs_realloc(o->cred, cap * sizeof *n);
        if (!n) {
            s->dist->oom = 1;
            return;
        }
        o->cred = n;
        o->cap_cred = cap;
    }
    o->cred[o->n_cred++] = q;
}

/* Pack every rank's records and credits ([n_rec, n_cred] then both) and exchange them.
 * Returns 0 or RS_EIO; x->recv holds the blocks, x->recv_bytes their sizes. */
static int exchange_out(struct saf *s)
{
    struct saf_dist *x = s->dist;
    uint64_t total = 0;
    for (uint32_t r = 0; r < x->P; r++) {
        x->send_bytes[r] = SAF_HDR * sizeof(uint64_t) + x->out[r].n_rec * sizeof(struct saf_wire) +
                           x->out[r].n_cred * sizeof(uint32_t);
        total += x->send_bytes[r];
    }
    if (total > x->send_cap) {
        uint8_t *b = rs_realloc(x->send, total);
        if (!b) { /* send empty blocks: the all-reduce reports it */
            x->oom = 1;
            for (uint32_t r = 0; r < x->P; r++)
                x->out[r].n_rec = x->out[r].n_cred = 0;
            return exchange_out(s);
        }
        x->send = b;
        x->send_cap = total;
    }
    uint8_t *p = x->send;
    for (uint32_t r = 0; r < x->P; r++) {
        struct saf_out *o = &x->out[r];
        uint64_t h[SAF_HDR] = {o->n_rec, o->n_cred, x->count[0], x->count[1], x->count[2]};
        memcpy(p, h, sizeof h);
        p += sizeof h;
        if (o->n_rec) /* (rec and cred are NULL until first used) */
            memcpy(p, o->rec, o->n_rec * sizeof *o->rec);
        p += o->n_rec * sizeof *o->rec;
        if (o->n_cred)
            memcpy(p, o->cred, o->n_cred * sizeof *o->cred);
        p += o->n_cred * sizeof *o->cred;
        o->n_rec = o->n_cred = 0;
    }
    return x->xc->alltoallv(x->xc->ctx, x->send, x->send_bytes, &x->recv, &x->recv_cap,
                            x->recv_bytes)
               ? RS_EIO
               : 0;
}

/* ---- set-up --------------------------------------------------------------------------- */

/* The route of message m from its source (as saf_init sets it up) into p: 0, or RS_E...
 * with err set to the serial run's line. */
static int route_setup(struct saf *s, struct rs_driver *d, uint32_t m, struct saf_pkt *p,
                       struct rs_err *err)
{
    const struct rs_net *net = s->net;
    uint32_t t = rs_problem_src(s->pb, m), max_hops = 4 * net->n_nodes + 16;
    p->dst = s->pb->dst[m];
    p->mid = rs_driver_mid_of(d, m);
    p->hops = 0;
    p->entered = 0;
    struct rs_route_state st = {t, p->dst, p->mid, 0, m};
    int64_t len = rs_route_length(net, s->routing, &st, max_hops);
    if (len < 0)
        return rs_err_set(err, RS_EINVARIANT,
                          "route of message %u (%u -> %u) does not end at its destination", m,
                          t, p->dst);
    p->rem = (uint32_t)len;
    p->phase_a = 0;
    if (p->mid != RS_NONE && net->ops->valiant_via_terminal) {
        struct rs_route_state sa = {t, p->mid, RS_NONE, 0, m};
        int64_t la = rs_route_length(net, s->routing, &sa, max_hops);
        if (la < 0 || la > UINT16_MAX)
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "phase A of message %u is %lld hops (at most 65535 supported)", m,
                              (long long)la);
        p->phase_a = (uint16_t)la;
    }
    return 0;
}

/* Largest channel-counter array (bytes) counted during the run (saf.c's SAF_LOAD_MAX). */
#define SAF_DIST_LOAD_MAX ((uint64_t)1 << 30)

/* Mark the ghosts: every remote queue an own node feeds, and tell its owner (one
 * all-to-all) so that it credits this rank when that queue loses a packet. */
static int setup_ghosts(struct saf *s)
{
    struct saf_dist *x = s->dist;
    const struct rs_net *net = s->net;
    uint64_t cap = 0;
    for (uint32_t v = 0; v < net->n_nodes; v++) {
        if (!saf_dist_own(s, v))
            continue;
        for (uint32_t p = 0; p < s->P; p++) {
            uint32_t slot, w = net->ops->neighbor(net, v, p, &slot);
            if (w == RS_NONE || saf_dist_own(s, w))
                continue;
            uint32_t q = (uint32_t)((uint64_t)w * s->P + slot);
            if (x->n_ghost == cap) {
                cap = cap ? 2 * cap : 1024;
                uint32_t *g = rs_realloc(x->ghost, cap * sizeof *g);
                if (!g)
                    return RS_ENOMEM;
                x->ghost = g;
            }
            x->ghost[x->n_ghost++] = q;
            out_cred(s, saf_dist_owner(s, w), q);
        }
    }
    if (x->oom)
        return RS_ENOMEM;
    if (exchange_out(s))
        return RS_EIO;
    const uint8_t *b = x->recv;
    for (uint32_t r = 0; r < x->P; r++) {
        uint64_t h[SAF_HDR];
        memcpy(h, b, sizeof h);
        const uint8_t *c = b + sizeof h + h[0] * sizeof(struct saf_wire);
        for (uint64_t i = 0; i < h[1]; i++) {
            uint32_t q;
            memcpy(&q, c + i * sizeof q, sizeof q);
            x->feeder[q] = (uint16_t)(r + 1);
        }
        b += x->recv_bytes[r];
    }
    return 0;
}

/* What batch and open-loop runs over ranks share: the options (rs__saf_init_common), this
 * rank's nodes, the exchange's buffers, the feeder marks. Returns 0 or RS_E... (err set). */
static int dist_setup(struct saf *s, struct rs_driver *d, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_exchange *xc = in->exchange;
    const struct rs_net *net = in->net;
    int rc = rs__saf_init_common(s, in, 0, err);
    if (rc)
        return rc;
    uint64_t P = (uint64_t)xc->size, k = (uint64_t)xc->rank, n = net->n_nodes;
    if (in->check)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "check=1 is not partitioned over MPI ranks: run it without mpirun "
                          "-np %llu",
                          (unsigned long long)P);
    if (n < P)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "a network of %llu nodes over %llu MPI ranks: every rank needs a node "
                          "of its own; run it on at most %llu ranks",
                          (unsigned long long)n, (unsigned long long)P, (unsigned long long)n);
    if (d->release)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "release steps are not partitioned over MPI ranks: run it without "
                          "mpirun -np %llu",
                          (unsigned long long)P);
    d->check = 0; /* the check that Debug builds make by themselves reads the whole state */
    struct saf_dist *x = rs_calloc(1, sizeof *x);
    if (!x)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the MPI exchange");
    s->dist = x;
    s->threads = 1; /* one thread per rank */
    x->xc = xc;
    x->me = (uint32_t)k;
    x->P = (uint32_t)P;
    rs__node_split_init(&x->split, net, (uint32_t)P); /* as flit_dist.c */
    rs__node_split_range(&x->split, (uint32_t)k, &x->pos_lo, &x->pos_hi);
    /* the serial set-up's single-packet arrays are replaced by the pool */
    rs__huge_free(s->pkt, s->n_pkt * sizeof *s->pkt);
    rs_free(s->where);
    rs_free(s->moves);
    s->pkt = NULL;
    s->where = NULL;
    s->moves = NULL;
    s->n_pkt = 0;
    x->out = rs_calloc(P, sizeof *x->out);
    x->send_bytes = rs_calloc(P, sizeof *x->send_bytes);
    x->recv_bytes = rs_calloc(P, sizeof *x->recv_bytes);
    /* sparse (only the queues on a rank boundary are written): small pages, not huge ones */
    x->feeder = rs_calloc(s->n_queues, sizeof *x->feeder);
    if (!x->out || !x->send_bytes || !x->recv_bytes || !x->feeder)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the MPI exchange");
    uint64_t own_nodes = 0;
    for (uint32_t v = 0; v < n; v++)
        own_nodes += saf_dist_own(s, v);
    x->max_moves = own_nodes * s->P + 1;
    if (s->at != SAF_AT_INPUT && rs__saf_dist_out_init(s))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the MPI exchange");
    return 0;
}

int rs__saf_dist_init(struct saf *s, struct rs_driver *d, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_exchange *xc = in->exchange;
    const struct rs_net *net = in->net;
    const struct rs_problem *pb = in->pb;
    int rc = dist_setup(s, d, err);
    if (rc)
        return rc;
    struct saf_dist *x = s->dist;
    uint64_t load_bytes = (uint64_t)net->n_nodes * s->P * sizeof *s->load;
    if (in->paths && load_bytes <= SAF_DIST_LOAD_MAX && !(s->load = rs__huge_alloc(load_bytes)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channel loads",
                          (unsigned long long)net->n_nodes * s->P);

    /* own packets: the messages of own terminals, in message order */
    uint64_t own = 0;
    for (uint64_t m = 0; m < pb->n_msgs; m++)
        own += saf_dist_own(s, s->src_node[rs_problem_src(pb, m)]);
    if (pool_grow(s, own + own / 16 + 1024)) /* grown by half when a step needs more */
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu packets",
                          (unsigned long long)own);
    /* agreed over the ranks: the first message whose route fails, the dilation, a Valiant
     * intermediate anywhere (route_plain off, as the serial set-up) */
    uint64_t agree[3] = {0, 0, 0};
    uint32_t n_own = 0;
    struct rs_err ignore;
    for (uint64_t m64 = 0; m64 < pb->n_msgs; m64++) {
        uint32_t m = (uint32_t)m64, t = rs_problem_src(pb, m64);
        if (rs_driver_mid_of(d, m) != RS_NONE)
            agree[2] = 1;
        if (!saf_dist_own(s, s->src_node[t]))
            continue;
        struct saf_pkt p;
        rs_err_clear(&ignore);
        if (route_setup(s, d, m, &p, &ignore)) {
            agree[0] = pb->n_msgs - m64; /* the largest is the first */
            break;
        }
        uint32_t slot = rs__saf_dist_slot_take(s);
        n_own++;
        s->pkt[slot] = p;
        s->omsg[slot] = m;
        s->osrc[slot] = t;
        s->where[slot] = SAF_UNRELEASED;
        if (p.rem > agree[1])
            agree[1] = p.rem;
        if (s->rank) { /* once per packet, keyed by message id */
            s->rank[slot] = (uint16_t)(1 + rs_rand_below(s->seed, RS_STREAM_RANK, m, 0, s->ranks));
            x->top += s->rank[slot] == s->ranks;
        }
    }
    if (xc->allreduce(xc->ctx, agree, 3, RS_EXCHANGE_MAX))
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed at set-up");
    if (agree[0]) { /* every rank derives the serial line of that message */
        uint64_t m = pb->n_msgs - agree[0];
        struct saf_pkt p;
        return route_setup(s, d, (uint32_t)m, &p, err);
    }
    s->dilation = (uint32_t)agree[1];
    if (agree[2])
        s->route_plain = s->hop_call = 0;
    if (s->at == SAF_AT_INPUT && (rc = setup_ghosts(s))) /* (one feeder per queue) */
        return rs_err_set(err, rc, rc == RS_EIO ? "the exchange between MPI ranks failed at "
                                                  "set-up"
                                                : "out of memory for the MPI exchange");

    /* release (step 0, everything in id order): own packets enter their stores */
    struct rs_released r;
    rs_driver_released(d, 0, &r);
    s->drv = d;
    s->remaining = pb->n_msgs;
    s->unreleased = 0;
    uint64_t done = 0;
    for (uint32_t m = 0; m < n_own; m++) { /* slots 0, 1, ... were taken in message order */
        struct saf_pkt *p = &s->pkt[m];
        uint32_t t = s->osrc[m], v = s->src_node[t];
        if (p->rem == 0) { /* already at its destination: latency 0 */
            s->delivered++;
            done++;
            x->top_delivered += s->rank && s->rank[m] == s->ranks;
            if (rs_lat_hist_add(&s->lat, 0))
                x->oom = 1;
            rs__saf_dist_slot_give(s, m);
            continue;
        }
        s->where[m] = SAF_IN_SOURCE;
        rs__saf_place_open(s, m, v);
        rs__saf_queue_push(s->pkt, &s->src[t], m);
        activate(s, v);
    }
    uint64_t g[2] = {done, (uint64_t)x->oom};
    if (xc->allreduce(xc->ctx, g, 2, RS_EXCHANGE_SUM))
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed at set-up");
    if (g[1])
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    s->remaining -= g[0];
    d->remaining = s->remaining;
    s->pend_dirty = 1; /* the own terminals holding packets (switch and output queues) */
    rs__saf_compact_pending(s);
    if (s->at == SAF_AT_OUTPUT) { /* the sources' injections before step 1 (saf.c) */
        rs__saf_inject_output(s);
        rs__saf_compact_pending(s);
    }
    return 0;
}

/* ---- a step --------------------------------------------------------------------------- */

int rs__saf_dist_node_empty(const struct saf *s, uint32_t v)
{
    for (uint32_t i = 0, nq = s->at == SAF_AT_SWITCH ? 1 : s->P; i < nq; i++)
        if (s->q[saf_queue_of(s, v, i)].count)
            return 0;
    for (uint32_t t = v < s->n_node_src ? s->node_src[v] : RS_NONE; t != RS_NONE;
         t = s->src_next[t]) /* every terminal of the node (saf.c's node_empty) */
        if (s->src[t].count)
            return 0;
    return 1;
}

/* Packet m enters own queue `to` (at its node, placed there). */
void rs__saf_dist_enter_queue(struct saf *s, uint32_t m, uint32_t to)
{
    uint32_t w = saf_queue_node(s, to);
    s->pkt[m].entered = s->step;
    s->where[m] = SAF_IN_QUEUE;
    rs__saf_place_open(s, m, w);
    rs__saf_queue_push(s->pkt, &s->q[to], m);
    if (s->q[to].count > s->max_queue)
        s->max_queue = s->q[to].count;
    activate(s, w);
}

/* Packet m ends Valiant phase A: held in the store of terminal mid (an own terminal). */
void rs__saf_dist_enter_store(struct saf *s, uint32_t m)
{
    struct saf_pkt *p = &s->pkt[m];
    uint32_t v = s->src_node[p->mid];
    p->entered = s->step;
    s->where[m] = SAF_IN_SOURCE;
    rs__saf_place_open(s, m, v);
    if (s->src[p->mid].count == 0)
        s->pend_dirty = 1;
    rs__saf_queue_push(s->pkt, &s->src[p->mid], m);
    activate(s, v);
}

/* Open loop: a packet generated at gen finished here (delivered or dropped) in this step. */
static void fin_add(struct saf *s, uint32_t gen, int delivered)
{
    struct saf_dist *x = s->dist;
    if (x->n_fin == x->cap_fin) {
        uint64_t cap = x->cap_fin ? 2 * x->cap_fin : 256;
        struct saf_fin *v = rs_realloc(x->fin, cap * sizeof *v);
        if (!v) {
            x->oom = 1;
            return;
        }
        x->fin = v;
        x->cap_fin = cap;
    }
    x->fin[x->n_fin++] = (struct saf_fin){gen, (uint32_t)delivered};
}

void rs__saf_dist_depart(struct saf *s)
{
    struct saf_dist *x = s->dist;
    for (uint64_t i = 0; i < s->n_moves; i++) {
        const struct saf_move *mv = &s->moves[i];
        if (s->load && mv->to != SAF_DROP_TO)
            s->load[(uint64_t)mv->node * s->P + s->pkt[mv->pkt].port]++;
        if (mv->from & SAF_SRC_BIT) {
            uint32_t t = mv->from & ~SAF_SRC_BIT;
            rs__saf_queue_unlink(s->pkt, &s->src[t], mv->pkt);
            if (s->srcsel)
                s->srcsel[t] = 0;
            if (s->own && s->own[t] == mv->pkt) { /* open loop: the next one may come in */
                s->own[t] = RS_NONE;
                s->refill[s->n_refill++] = t;
            }
        } else {
            rs__saf_queue_unlink(s->pkt, &s->q[mv->from], mv->pkt);
            if (s->qsel)
                s->qsel[mv->from] = 0;
            if (s->waiter && s->waiter[mv->from]) { /* room freed: wake its feeder */
                activate(s, s->waiter[mv->from] - 1);
                s->waiter[mv->from] = 0;
            }
            if (x->feeder[mv->from]) /* its feeder is another rank's node */
                out_cred(s, x->feeder[mv->from] - 1u, mv->from);
        }
        if (s->waiter)
            activate(s, mv->node);
    }
}

void rs__saf_dist_finish(struct saf *s, uint32_t m, int delivered)
{
    struct saf_dist *x = s->dist;
    x->done++;
    s->last_event = s->step;
    if (!delivered)
        s->dropped++;
    else {
        s->delivered++;
        x->top_delivered += s->rank && s->rank[m] == s->ranks;
        if (s->ol)
            x->accepted++;
        else if (rs_lat_hist_add(&s->lat, s->step)) /* released at step 0 */
            x->oom = 1;
    }
    if (s->ol)
        fin_add(s, s->ogen[m], delivered);
    rs__saf_dist_slot_give(s, m);
}

/* Apply this rank's moves: departures, then arrivals (own queues, deliveries, drops; the
 * others recorded for their ranks). */
static void commit_own(struct saf *s)
{
    rs__saf_dist_depart(s);
    for (uint64_t i = 0; i < s->n_moves; i++) {
        const struct saf_move *mv = &s->moves[i];
        uint32_t m = mv->pkt;
        struct saf_pkt *p = &s->pkt[m];
        if (mv->to == SAF_DROP_TO) {
            rs__saf_dist_finish(s, m, 0);
            continue;
        }
        p->hops++;
        p->rem--;
        s->hops++;
        if (mv->to == SAF_DELIVER) {
            rs__saf_dist_finish(s, m, 1);
            continue;
        }
        struct saf_wire w;
        if (mv->to == SAF_STORE) { /* to the store's rank, this one included (move order) */
            rs__saf_dist_wire(s, m, SAF_STORE, mv->node, &w);
            out_rec(s, saf_dist_owner(s, s->src_node[p->mid]), &w);
            rs__saf_dist_slot_give(s, m);
            continue;
        }
        uint32_t wn = saf_queue_node(s, mv->to);
        if (saf_dist_own(s, wn)) {
            rs__saf_dist_enter_queue(s, m, mv->to);
            continue;
        }
        s->q[mv->to].count++; /* the shadow */
        rs__saf_dist_wire(s, m, mv->to, mv->node, &w);
        out_rec(s, saf_dist_owner(s, wn), &w);
        rs__saf_dist_slot_give(s, m);
    }
}

/* Stores in the serial move order: keys (node the packet left << 32 | position in the
 * received order), so that equal nodes keep their rank's move order (a node is one rank's). */
static int key_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The received blocks: arrivals into own queues, credits, then the stores in order. */
static void take_in(struct saf *s)
{
    struct saf_dist *x = s->dist;
    const uint8_t *b = x->recv;
    x->n_stores = 0;
    for (uint32_t r = 0; r < x->P; r++) {
        uint64_t h[SAF_HDR];
        memcpy(h, b, sizeof h);
        const uint8_t *rec = b + sizeof h, *cred = rec + h[0] * sizeof(struct saf_wire);
        for (int i = 0; i < 3; i++)
            x->sum[i] += h[2 + i];
        for (uint64_t i = 0; i < h[0]; i++) {
            struct saf_wire w;
            memcpy(&w, rec + i * sizeof w, sizeof w);
            if (w.to == SAF_STORE) {
                if (x->n_stores == x->cap_stores) {
                    uint64_t cap = x->cap_stores ? 2 * x->cap_stores : 256;
                    struct saf_wire *n = rs_realloc(x->stores, cap * sizeof *n);
                    if (!n) {
                        x->oom = 1;
                        continue;
                    }
                    x->stores = n;
                    x->cap_stores = cap;
                }
                x->stores[x->n_stores++] = w;
                continue;
            }
            uint32_t m = rs__saf_dist_slot_of_wire(s, &w);
            if (m != RS_NONE)
                rs__saf_dist_enter_queue(s, m, w.to);
        }
        for (uint64_t i = 0; i < h[1]; i++) {
            uint32_t q;
            memcpy(&q, cred + i * sizeof q, sizeof q);
            s->q[q].count--; /* the shadow */
            if (s->waiter && s->waiter[q]) { /* the serial departure wakes its waiter */
                activate(s, s->waiter[q] - 1);
                s->waiter[q] = 0;
            }
        }
        b += x->recv_bytes[r];
    }
    if (!x->n_stores)
        return;
    uint64_t *key = rs_malloc(x->n_stores * sizeof *key);
    if (!key) {
        x->oom = 1;
        return;
    }
    for (uint64_t i = 0; i < x->n_stores; i++)
        key[i] = (uint64_t)x->stores[i].node << 32 | i;
    qsort(key, x->n_stores, sizeof *key, key_cmp);
    for (uint64_t i = 0; i < x->n_stores; i++) {
        uint32_t m = rs__saf_dist_slot_of_wire(s, &x->stores[key[i] & 0xffffffffu]);
        if (m != RS_NONE)
            rs__saf_dist_enter_store(s, m);
    }
    rs_free(key);
}

/* Input queues: this step's moves (s->step advanced, s->n_moves and x->done 0): decide, commit,
 * one all-to-all of records and credits whose headers carry the step's counts (summed into
 * x->sum), the arrivals. Returns 0 or RS_EIO. */
static int moves_in(struct saf *s)
{
    struct saf_dist *x = s->dist;
    uint32_t n_act = rs__saf_collect_active(s);
    rs__saf_decide_span(s, 0, n_act);
    commit_own(s);
    x->count[0] = s->n_moves;
    x->count[1] = x->done;
    x->count[2] = (uint64_t)x->oom;
    x->sum[0] = x->sum[1] = x->sum[2] = 0;
    if (exchange_out(s))
        return RS_EIO;
    take_in(s);
    if (!s->waiter) /* nodes the moves left empty leave the active set */
        for (uint64_t i = 0; i < s->n_moves; i++) {
            uint32_t v = s->moves[i].node;
            if (rs__saf_dist_node_empty(s, v))
                s->active[v / 64] &= ~(1ull << (v % 64));
        }
    return 0;
}

int rs__saf_dist_step(struct saf *s, struct rs_driver *d, struct rs_err *err)
{
    struct saf_dist *x = s->dist;
    uint64_t present = s->remaining;
    s->step++;
    s->n_moves = 0;
    x->done = 0;
    if (s->at == SAF_AT_INPUT ? moves_in(s) : rs__saf_dist_out_moves(s))
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          s->step);
    /* a rank out of memory after the exchange reports it in the next step's headers; set-up
       and the end reduce it too */
    uint64_t *g = x->sum;
    if (g[2])
        return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    s->remaining -= g[1];
    uint64_t moved = g[0];
    if (s->at != SAF_AT_INPUT) { /* saf.c's end_of_step: output queues' injections */
        uint64_t injected = s->at == SAF_AT_OUTPUT ? rs__saf_inject_output(s) : 0;
        rs__saf_compact_pending(s);
        /* the driver reads only whether the step moved something: the injections count
           only in a step without moves (an all-reduce then, rare: a stall) */
        if (!moved && s->at == SAF_AT_OUTPUT &&
            x->xc->allreduce(x->xc->ctx, &injected, 1, RS_EXCHANGE_SUM))
            return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                              s->step);
        moved += moved ? 0 : injected;
    }
    d->step = s->step;
    d->remaining = s->remaining;
    d->moved = moved;
    d->live = present;
    return 0;
}

/* ---- the end -------------------------------------------------------------------------- */

int rs__saf_dist_collect(struct saf *s, uint64_t *top, uint64_t *top_delivered,
                         uint32_t *congestion)
{
    struct saf_dist *x = s->dist;
    const struct rs_exchange *xc = x->xc;
    uint32_t c = 0;
    if (s->load)
        for (uint32_t v = 0; v < s->net->n_nodes; v++)
            for (uint32_t p = 0; saf_dist_own(s, v) && p < s->P; p++)
                c = s->load[(uint64_t)v * s->P + p] > c ? s->load[(uint64_t)v * s->P + p] : c;
    uint64_t mx[5] = {s->max_queue, s->last_event, c, s->lat.cap, (uint64_t)x->oom};
    uint64_t sum[6] = {s->delivered, s->dropped, s->hops, x->top, x->top_delivered, s->lat.n};
    if (xc->allreduce(xc->ctx, mx, 5, RS_EXCHANGE_MAX) ||
        xc->allreduce(xc->ctx, sum, 6, RS_EXCHANGE_SUM))
        return RS_EIO;
    if (mx[4]) /* a rank ran out of memory after the last step's exchange */
        return RS_ENOMEM;
    s->max_queue = (uint32_t)mx[0];
    s->last_event = (uint32_t)mx[1];
    *congestion = (uint32_t)mx[2];
    s->delivered = sum[0];
    s->dropped = sum[1];
    s->hops = sum[2];
    *top = sum[3];
    *top_delivered = sum[4];
    uint32_t cap = (uint32_t)mx[3];
    if (cap > s->lat.cap) { /* every rank's histogram as long as the longest */
        uint64_t *n = rs_realloc(s->lat.count, cap * sizeof *n);
        if (!n) /* (the all-reduce below would hang: every rank reports alike below) */
            cap = 0;
        else {
            memset(n + s->lat.cap, 0, (cap - s->lat.cap) * sizeof *n);
            s->lat.count = n;
            s->lat.cap = cap;
        }
    }
    uint64_t bad = cap < mx[3];
    if (xc->allreduce(xc->ctx, &bad, 1, RS_EXCHANGE_MAX))
        return RS_EIO;
    if (bad)
        return RS_ENOMEM;
    if (s->lat.cap && xc->allreduce(xc->ctx, s->lat.count, (int)s->lat.cap, RS_EXCHANGE_SUM))
        return RS_EIO;
    s->lat.n = sum[5];
    return 0;
}

int rs__saf_dist_gather(struct saf *s)
{
    struct saf_dist *x = s->dist;
    if (x->gathered)
        return 0;
    x->gathered = 1;
    /* this rank's non-empty queues: a header record (to = queue, hops = count, rem = the
     * position + 1 of its sticky selection or 0), then its packets in order */
    uint64_t n = 0, cap = 1024;
    struct saf_wire *b = rs_malloc(cap * sizeof *b);
    if (!b)
        return RS_ENOMEM;
    for (uint32_t v = 0; v < s->net->n_nodes; v++) {
        if (!saf_dist_own(s, v))
            continue;
        for (uint32_t i = 0, nq = s->at == SAF_AT_SWITCH ? 1 : s->P; i < nq; i++) {
            uint64_t qi = saf_queue_of(s, v, i);
            const struct saf_queue *q = &s->q[qi];
            if (!q->count)
                continue;
            if (n + q->count + 1 > cap) {
                while (n + q->count + 1 > cap)
                    cap *= 2;
                struct saf_wire *g = rs_realloc(b, cap * sizeof *g);
                if (!g) {
                    rs_free(b);
                    return RS_ENOMEM;
                }
                b = g;
            }
            uint32_t sel = s->qsel ? s->qsel[qi] : 0, pos = 0, j = 0;
            for (uint32_t m = q->head; m != RS_NONE; m = s->pkt[m].next, j++)
                if (sel && m == sel - 1)
                    pos = j + 1;
            b[n++] = (struct saf_wire){.to = (uint32_t)qi, .hops = q->count, .rem = pos};
            for (uint32_t m = q->head; m != RS_NONE; m = s->pkt[m].next)
                rs__saf_dist_wire(s, m, (uint32_t)qi, v, &b[n++]);
        }
    }
    void *all = NULL;
    uint64_t all_cap = 0, total = 0;
    int rc = x->xc->allgatherv(x->xc->ctx, b, n * sizeof *b, &all, &all_cap, &total) ? RS_EIO
                                                                                     : 0;
    rs_free(b);
    if (rc) {
        rs_free(all);
        return rc;
    }
    for (uint64_t i = 0; i < x->n_ghost; i++) /* the shadows give way to the real queues */
        s->q[x->ghost[i]] = (struct saf_queue){RS_NONE, RS_NONE, 0};
    const struct saf_wire *w = all, *end = w + total / sizeof *w;
    while (w < end) {
        uint32_t qi = w->to, count = w->hops, pos = w->rem;
        w++;
        if (saf_dist_own(s, saf_queue_node(s, qi))) {
            w += count;
            continue;
        }
        struct saf_queue *q = &s->q[qi];
        *q = (struct saf_queue){RS_NONE, RS_NONE, 0};
        for (uint32_t j = 0; j < count; j++, w++) {
            uint32_t m = rs__saf_dist_slot_of_wire(s, w);
            if (m == RS_NONE) {
                rs_free(all);
                return RS_ENOMEM;
            }
            s->where[m] = SAF_IN_QUEUE;
            rs__saf_queue_push(s->pkt, q, m);
            if (s->qsel && pos == j + 1)
                s->qsel[qi] = m + 1;
        }
        if (s->qsel && !pos)
            s->qsel[qi] = 0;
    }
    rs_free(all);
    return 0;
}

/* ---- open loop ------------------------------------------------------------------------ */

int rs__saf_dist_open_init(struct saf *s, struct rs_driver *d, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    uint32_t n = in->pb->n_terminals;
    if (d->cfg.len_max != 1) /* (saf_openloop.c's open_init) */
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "length_max=%u: a store-and-forward packet has no length (it crosses "
                          "a channel in one step); use switching=store_forward_flits for "
                          "packets of several flits",
                          d->cfg.len_max);
    int rc = dist_setup(s, d, err);
    if (rc)
        return rc;
    struct saf_dist *x = s->dist;
    s->ol = d->ol;
    s->own = rs_malloc((size_t)n * sizeof *s->own + 1);
    s->refill = rs_malloc((size_t)n * sizeof *s->refill + 1);
    uint32_t *own = rs_malloc((size_t)n * sizeof *own + 1), n_own = 0;
    if (!s->own || !s->refill || !own) {
        rs_free(own);
        return rs_err_set(err, RS_ENOMEM, "out of memory for open-loop sources");
    }
    for (uint32_t t = 0; t < n; t++) {
        s->own[t] = RS_NONE;
        if (saf_dist_own(s, s->src_node[t]))
            own[n_own++] = t;
    }
    int r = rs_openloop_restrict(s->ol, own, n_own); /* each rank generates its own */
    rs_free(own);
    if (r < 0 || pool_grow(s, 2 * (uint64_t)n_own + 64))
        return rs_err_set(err, RS_ENOMEM, "out of memory for open-loop sources");
    x->gen_split = r;
    rs_openloop_gen_counts(s->ol, x->gen_synced);
    if (s->at == SAF_AT_INPUT && (rc = setup_ghosts(s))) /* (one feeder per queue) */
        return rs_err_set(err, rc, rc == RS_EIO ? "the exchange between MPI ranks failed at "
                                                  "set-up"
                                                : "out of memory for the MPI exchange");
    return 0;
}

/* saf_openloop.c's refill_terminal on this rank's pool: own terminal t takes its oldest
 * generated packet into its store (a packet with an empty route is finished at once).
 * Returns 0 or RS_E... with err set. */
static int refill_own(struct saf *s, uint32_t t, struct rs_err *err)
{
    struct rs_openloop *ol = s->ol;
    const uint32_t max_hops = 4 * s->net->n_nodes + 16;
    while (s->own[t] == RS_NONE && ol->term[t].pending) {
        struct rs_ol_packet pk;
        rs_openloop_front(ol, t, &pk);
        rs_openloop_start(ol, t);
        struct rs_route_state st = {t, pk.dst, pk.mid, 0, pk.msg};
        int64_t len = rs_route_length(s->net, s->routing, &st, max_hops), la = 0;
        if (len < 0)
            return rs_err_set(err, RS_EINVARIANT,
                              "route of a packet %u -> %u does not end at its destination", t,
                              pk.dst);
        if (len == 0) { /* source = destination: delivered without a move */
            fin_add(s, pk.gen, 1);
            s->dist->accepted++;
            continue;
        }
        if (pk.mid != RS_NONE && s->net->ops->valiant_via_terminal) {
            struct rs_route_state sa = {t, pk.mid, RS_NONE, 0, pk.msg};
            if ((la = rs_route_length(s->net, s->routing, &sa, max_hops)) < 0 ||
                la > UINT16_MAX)
                return rs_err_set(err, RS_EUNSUPPORTED,
                                  "phase A of a packet %u -> %u is %lld hops (at most 65535 "
                                  "supported)",
                                  t, pk.mid, (long long)la);
        }
        uint32_t m = rs__saf_dist_slot_take(s), v = s->src_node[t];
        if (m == RS_NONE)
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
        rs__saf_open_fill(s, m, t, &pk, (uint32_t)len, (uint32_t)la);
        activate(s, v);
    }
    return 0;
}

/* The first failing rank's error on every rank (one all-gather of each failed rank's code
 * and line). Returns that code. */
static int agree_fail(struct saf *s, struct rs_err *err)
{
    struct saf_dist *x = s->dist;
    struct {
        int32_t code;
        char msg[sizeof x->fail.msg];
    } mine;
    uint64_t bytes = 0, total = 0;
    void *all = NULL;
    uint64_t cap = 0;
    if (x->fail.code) {
        mine.code = x->fail.code;
        memcpy(mine.msg, x->fail.msg, sizeof mine.msg);
        mine.msg[sizeof mine.msg - 1] = '\0';
        bytes = sizeof mine;
    }
    if (x->xc->allgatherv(x->xc->ctx, &mine, bytes, &all, &cap, &total) || total < sizeof mine) {
        rs_free(all);
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          s->step);
    }
    memcpy(&mine, all, sizeof mine); /* the lowest failing rank's */
    rs_free(all);
    return rs_err_set(err, mine.code, "%s", mine.msg);
}

int rs__saf_dist_open_step(struct saf *s, struct rs_driver *d, struct rs_err *err)
{
    struct saf_dist *x = s->dist;
    const struct rs_exchange *xc = x->xc;
    s->step++;
    s->made = 0;
    s->n_moves = 0;
    x->done = x->accepted = 0;
    if (s->at == SAF_AT_INPUT ? moves_in(s) : rs__saf_dist_out_moves(s)) /* (the all-reduce
                                                                            below counts) */
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          s->step);
    /* the step's arrivals (own terminals'), then the stores whose own packet left take their
     * next one (saf_openloop.c's order) */
    const uint32_t *newly;
    uint32_t n_new = rs_driver_arrivals(d, s->step, &newly);
    for (uint32_t i = 0; i < s->n_refill && !x->fail.code; i++)
        refill_own(s, s->refill[i], &x->fail);
    for (uint32_t i = 0; i < n_new && !x->fail.code; i++)
        if (saf_dist_own(s, s->src_node[newly[i]])) /* (traffic=trace: every rank generates all) */
            refill_own(s, newly[i], &x->fail);
    s->n_refill = 0;
    uint32_t injected = 0;
    if (s->at == SAF_AT_OUTPUT) { /* the stores filled just now may inject too (saf.c) */
        rs__saf_compact_pending(s);
        injected = rs__saf_inject_output(s);
    }
    if (s->at != SAF_AT_INPUT)
        rs__saf_compact_pending(s);
    uint64_t v[9] = {s->n_moves + injected, s->made, x->done, x->accepted,
                     (uint64_t)(x->oom || x->fail.code), 0, 0, 0, 0};
    if (x->gen_split) { /* this rank's generation in the step */
        uint64_t now[4];
        rs_openloop_gen_counts(s->ol, now);
        for (int k = 0; k < 4; k++)
            v[5 + k] = now[k] - x->gen_synced[k];
    }
    if (xc->allreduce(xc->ctx, v, 9, RS_EXCHANGE_SUM))
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          s->step);
    if (v[4]) {
        if (!x->fail.code && x->oom)
            rs_err_set(&x->fail, RS_ENOMEM, "out of memory during the run");
        return agree_fail(s, err);
    }
    s->remaining = s->remaining + v[1] - v[2];
    if (x->gen_split) { /* every rank's generation, then every rank's finished packets */
        for (int k = 0; k < 4; k++)
            x->gen_synced[k] += v[5 + k];
        rs_openloop_set_gen_counts(s->ol, x->gen_synced);
    }
    uint64_t total = 0;
    int rc = xc->allgatherv(xc->ctx, x->fin, x->n_fin * sizeof *x->fin, &x->fin_recv,
                            &x->fin_recv_cap, &total);
    x->n_fin = 0;
    if (rc)
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u",
                          s->step);
    for (uint64_t i = 0; i < total / sizeof(struct saf_fin); i++) {
        struct saf_fin f;
        memcpy(&f, (const uint8_t *)x->fin_recv + i * sizeof f, sizeof f);
        rs_openloop_finish(s->ol, f.gen, 1, s->step, (int)f.delivered);
    }
    if (x->gen_split)
        rs_openloop_gen_counts(s->ol, x->gen_synced);
    d->step = s->step;
    d->accepted = v[3];
    d->moved = v[0] + v[1];
    d->live = s->remaining;
    return 0;
}

int rs__saf_dist_open_collect(struct saf *s)
{
    struct saf_dist *x = s->dist;
    uint64_t mx[2] = {s->max_queue, (uint64_t)x->oom}, sum[1] = {s->hops};
    if (x->xc->allreduce(x->xc->ctx, mx, 2, RS_EXCHANGE_MAX) ||
        x->xc->allreduce(x->xc->ctx, sum, 1, RS_EXCHANGE_SUM))
        return RS_EIO;
    if (mx[1])
        return RS_ENOMEM;
    s->max_queue = (uint32_t)mx[0];
    s->hops = sum[0];
    return 0;
}

void rs__saf_dist_free(struct saf *s)
{
    struct saf_dist *x = s->dist;
    if (!x)
        return;
    rs_free(s->pkt);
    rs_free(s->where);
    rs_free(s->osrc);
    rs_free(s->omsg);
    if (s->ol)
        rs_free(s->ogen);
    rs_free(s->moves);
    rs_free(s->rank);
    s->pkt = NULL;
    s->where = NULL;
    s->osrc = s->omsg = s->ogen = NULL;
    s->moves = NULL;
    s->rank = NULL;
    s->n_pkt = 0;
    rs_free(x->free_slot);
    rs_free(x->feeder);
    rs_free(x->ghost);
    for (uint32_t r = 0; x->out && r < x->P; r++) {
        rs_free(x->out[r].rec);
        rs_free(x->out[r].cred);
    }
    rs_free(x->out);
    rs_free(x->send_bytes);
    rs_free(x->recv_bytes);
    rs_free(x->send);
    rs_free(x->recv);
    rs_free(x->stores);
    rs_free(x->fin);
    rs_free(x->fin_recv);
    rs__saf_dist_out_free(s);
    rs_free(x);
    s->dist = NULL;
}
