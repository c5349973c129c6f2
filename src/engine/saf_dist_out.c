/* The general store-and-forward engine over MPI ranks with output or switch queues
 * (docs/distributed.md, "The general store-and-forward engine over ranks"): a step's moves
 * as a request/grant round. Such a queue has several feeders (the channels into its switch),
 * and the serial step admits them while there is room in a fixed order (docs/model-saf.md,
 * "One step" 5: in-network moves by switch id, then port; then the switch-queue injections
 * by terminal; protocol=rank: by rank keys), so a rank cannot decide alone whether its
 * node's offer enters another rank's queue. The step, as the threaded one (saf_par_out.c):
 *  1. each rank decides its active nodes with saf.c's decide code, counting no admission:
 *     an offer into an own queue that was full at the start of the step waits or is
 *     dropped there; every other offer into a queue is a candidate (another rank's queue
 *     reads as empty here: its owner judges it). A candidate into an own queue stays here:
 *     a 40-byte entry of the joined list (struct saf_cand: key, serial order, queue, the
 *     injection dependency, the packet's slot), no record. One into another rank's queue
 *     goes to that owner as a request with its packet's whole record (struct saf_req, 72
 *     bytes): only the queues on a rank boundary have such feeders (a few percent of the
 *     requests on a split mesh), and sending the record only once granted would take a
 *     third all-to-all every step for a few kilobytes. With switch queues each source's
 *     injection is a candidate too, conditional on the candidate holding its channel
 *     being refused (the serial step gives a waiting packet's channel to its node's
 *     sources);
 *  2. one all-to-all of requests (and of the records ending Valiant's phase A, for the
 *     stores' owners); the received requests join the own candidates (the records stay in
 *     the receive buffer), and each owner admits the candidates of each of its queues, own
 *     and received alike, exactly as the serial step does: the room-many best by (key,
 *     order), where the order is the serial one, written out (switch id * ports + port;
 *     the terminal for injections), not taken from the order of arrival, and the key is
 *     0, or the rank key with protocol=rank; then the injections into the room left. The
 *     admitted received records are copied out of the receive buffer;
 *  3. one all-to-all of grants (a byte per received request; the own candidates' results
 *     are read in place), whose headers carry each rank's count of the step's moves,
 *     finished packets and failures; a third, of store records, only in a step where an
 *     injection ending Valiant's phase A was granted;
 *  4. commit: departures; refused candidates are dropped (on_full=drop) or wait; the
 *     owners push the admitted packets into their queues, each queue's in the serial
 *     order (an own one keeps its slot, a received record takes a new one); the stores
 *     take their records in the serial move order.
 * The output queues' end-of-step injections are the source's own node's (saf_dist.c calls
 * saf.c's). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "engine/saf_dist.h"
#include "routesim/alloc.h"
#include "routesim/exchange.h"

/* A candidate as it travels to its queue's owner on another rank: the packet's record (kept
 * there only if admitted) and what orders it among the queue's candidates. 72 bytes. */
struct saf_req {
    uint64_t key;      /* protocol=rank: the admission key (rs__saf_rank_key), else 0 */
    struct saf_wire w; /* w.to: the queue it enters, or for an injection SAF_DELIVER or
                          SAF_STORE; w.node: the node it leaves; hops as before the move */
    uint32_t q;        /* the queue it is judged at: w.to, or (an injection ending its route
                          or phase A) the queue of the candidate holding its channel */
    uint32_t term;     /* an injection's terminal (switch queues), RS_NONE in-network */
    uint32_t dep;      /* an injection: 1 + the index of the candidate holding its channel
                          (in the sender's block; at the owner: in the joined list), 0: none */
};

/* A candidate as the owner of its queue judges it: an entry of the joined list, which holds
 * this rank's own candidates (made here, without a record) and then the received ones in
 * rank order. 40 bytes. */
struct saf_cand {
    uint64_t key;  /* protocol=rank: the admission key, else 0 */
    uint64_t ord;  /* the serial order: switch id * ports + port, or the terminal */
    uint32_t to;   /* the queue it enters, or for an injection SAF_DELIVER or SAF_STORE */
    uint32_t q;    /* the queue it is judged at (struct saf_req) */
    uint32_t term; /* an injection's terminal, RS_NONE in-network */
    uint32_t dep;  /* an injection: 1 + the joined index of the candidate holding its
                      channel, 0: none */
    uint32_t from; /* the rank that asked */
    uint32_t idx;  /* own: the packet's slot; received: its index in the sender's block,
                      once admitted its record's index in o->recw */
};

/* What this rank sends one rank in a step: requests (and what each stands for here), and
 * records for stores (in the request round, or the third). */
struct saf_to {
    struct saf_req *req;
    uint32_t *ref; /* per request: the move's index, or SAF_SRC_BIT | its injection's */
    uint64_t n_req, cap_req;
    struct saf_wire *st;
    uint64_t n_st, cap_st;
};

/* An injection this rank asked for (switch queues). */
struct saf_inj {
    uint32_t t, m, to, v;
};

/* One block of an all-to-all: header words, then two payloads. */
struct saf_blk {
    uint64_t h[5];
    const void *p[2];
    uint64_t n[2];
};

struct saf_dist_out {
    struct saf_to *to;      /* [P] */
    struct saf_blk *blk;    /* [P] */
    uint64_t *base;         /* [P + 1] where each rank's requests start in the joined list */
    uint64_t *nreq;         /* [P] how many requests each rank sent (own: o->n_loc) */
    const uint8_t **recp;   /* [P] the received requests of each rank (in x->recv) */
    struct saf_inj *inj;
    uint64_t n_inj, cap_inj;
    uint32_t *reqpos;       /* [cap_pos] move i's request's index in its block */
    uint64_t cap_pos;
    /* the owner's side: the joined list, own candidates [0, n_loc), then the received
     * requests in rank order */
    struct saf_cand *rq;
    uint32_t *lref;         /* [cap_rq] own candidate i: the move's index, or SAF_SRC_BIT |
                               its injection's */
    uint32_t *cnext;        /* [cap_rq] next candidate of the same queue (index + 1) */
    uint8_t *res;           /* [cap_rq] admitted */
    uint32_t *arr;          /* [cap_rq] the admitted requests into queues, each queue's in
                               the serial order */
    uint32_t *touched;      /* [cap_rq] queues whose granted count was raised */
    uint64_t n_rq, cap_rq, n_arr, n_touched, n_loc;
    int admitted;           /* admit() ran this step (the own candidates' results are set) */
    struct saf_wire *recw;  /* the admitted received records, copied out of x->recv */
    uint64_t cap_recw;
    uint32_t *chead;        /* [n_queues], reserved: first candidate (index + 1) per queue */
    struct saf_wire *stores; /* records for own stores this step */
    uint64_t n_stores, cap_stores;
    uint64_t count[4];      /* this rank's: moves, finished, failure, store grants */
};

/* Room for need elements of size bytes in *p (capacity *cap, doubled). 0 or RS_ENOMEM. */
static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    uint64_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    void *n = rs_realloc(*p, c * size);
    if (!n)
        return RS_ENOMEM;
    *p = n;
    *cap = c;
    return 0;
}

/* *p resized to c elements of size bytes. 0 or RS_ENOMEM (*p kept). */
static int resize(void **p, uint64_t c, size_t size)
{
    void *n = rs_realloc(*p, c * size);
    if (!n)
        return RS_ENOMEM;
    *p = n;
    return 0;
}

/* Room for need entries in the joined list and its per-entry arrays (doubled). 0 or
 * RS_ENOMEM. */
static int grow_rq(struct saf_dist_out *o, uint64_t need)
{
    if (need <= o->cap_rq)
        return 0;
    uint64_t c = o->cap_rq ? o->cap_rq : 256;
    while (c < need)
        c *= 2;
    if (resize((void **)&o->rq, c, sizeof *o->rq) ||
        resize((void **)&o->lref, c, sizeof *o->lref) ||
        resize((void **)&o->cnext, c, sizeof *o->cnext) ||
        resize((void **)&o->res, c, sizeof *o->res) ||
        resize((void **)&o->arr, c, sizeof *o->arr) ||
        resize((void **)&o->touched, c, sizeof *o->touched))
        return RS_ENOMEM; /* (those grown are larger than cap_rq says) */
    o->cap_rq = c;
    return 0;
}

int rs__saf_dist_out_init(struct saf *s)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = rs_calloc(1, sizeof *o);
    if (!o)
        return RS_ENOMEM;
    x->xo = o;
    s->grant = NULL; /* the decisions make candidates; the owners admit them */
    o->to = rs_calloc(x->P, sizeof *o->to);
    o->blk = rs_calloc(x->P, sizeof *o->blk);
    o->base = rs_calloc(x->P + 1, sizeof *o->base);
    o->nreq = rs_calloc(x->P, sizeof *o->nreq);
    o->recp = rs_calloc(x->P, sizeof *o->recp);
    /* sparse (a rank writes its own queues' entries only): small pages */
    o->chead = rs_calloc(s->n_queues, sizeof *o->chead);
    return o->to && o->blk && o->base && o->nreq && o->recp && o->chead ? 0 : RS_ENOMEM;
}

void rs__saf_dist_out_free(struct saf *s)
{
    struct saf_dist_out *o = s->dist->xo;
    if (!o)
        return;
    for (uint32_t r = 0; o->to && r < s->dist->P; r++) {
        rs_free(o->to[r].req);
        rs_free(o->to[r].ref);
        rs_free(o->to[r].st);
    }
    rs_free(o->to);
    rs_free(o->blk);
    rs_free(o->base);
    rs_free(o->nreq);
    rs_free(o->recp);
    rs_free(o->lref);
    rs_free(o->recw);
    rs_free(o->inj);
    rs_free(o->reqpos);
    rs_free(o->rq);
    rs_free(o->cnext);
    rs_free(o->res);
    rs_free(o->arr);
    rs_free(o->touched);
    rs_free(o->chead);
    rs_free(o->stores);
    rs_free(o);
    s->dist->xo = NULL;
}

/* ---- the exchange ------------------------------------------------------------------------ */

/* Send every rank r its block o->blk[r] (nh header words, then the payloads) in one
 * all-to-all; x->recv holds the received blocks, x->recv_bytes their sizes. Out of memory
 * for the buffer, empty blocks are sent (x->oom set: the grants' headers report it).
 * Returns 0 or RS_EIO. */
static int exchange(struct saf *s, int nh)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    uint64_t total = 0;
    for (uint32_t r = 0; r < x->P; r++) {
        x->send_bytes[r] = nh * sizeof(uint64_t) + o->blk[r].n[0] + o->blk[r].n[1];
        total += x->send_bytes[r];
    }
    if (total > x->send_cap) {
        uint8_t *b = rs_realloc(x->send, total);
        if (!b) { /* no payloads; the grants' headers report the failure */
            x->oom = 1;
            for (uint32_t r = 0; r < x->P; r++) {
                o->blk[r].n[0] = o->blk[r].n[1] = 0;
                o->blk[r].h[0] = 0;
                o->blk[r].h[1] = nh == 5 ? o->blk[r].h[1] : 0;
                o->blk[r].h[3] = nh == 5 ? 1 : o->blk[r].h[3];
            }
            return exchange(s, nh);
        }
        x->send = b;
        x->send_cap = total;
    }
    uint8_t *p = x->send;
    for (uint32_t r = 0; r < x->P; r++) {
        const struct saf_blk *b = &o->blk[r];
        memcpy(p, b->h, nh * sizeof(uint64_t));
        p += nh * sizeof(uint64_t);
        for (int k = 0; k < 2; k++)
            if (b->n[k]) { /* (payloads are NULL until first used) */
                memcpy(p, b->p[k], b->n[k]);
                p += b->n[k];
            }
    }
    return x->xc->alltoallv(x->xc->ctx, x->send, x->send_bytes, &x->recv, &x->recv_cap,
                            x->recv_bytes)
               ? RS_EIO
               : 0;
}

/* Append a copy of w to the store records for rank r. */
static void store_rec(struct saf *s, uint32_t r, const struct saf_wire *w)
{
    struct saf_to *t = &s->dist->xo->to[r];
    if (grow((void **)&t->st, &t->cap_st, t->n_st + 1, sizeof *t->st)) {
        s->dist->oom = 1;
        return;
    }
    t->st[t->n_st++] = *w;
}

/* Slot m's record after its move out of node (hops and remaining counted), for its store
 * (the owner of terminal mid's node); inj: 1 when the move is an injection (the stores
 * take in-network moves first). */
static void send_store(struct saf *s, uint32_t m, uint32_t node, int inj)
{
    struct saf_wire w;
    rs__saf_dist_wire(s, m, SAF_STORE, node, &w);
    w.hops++;
    w.rem--;
    w.pad = (uint16_t)inj;
    store_rec(s, saf_dist_owner(s, s->src_node[w.mid]), &w);
}

/* ---- 1. the requests ---------------------------------------------------------------------- */

/* Candidate c of packet m leaving node (c->ord, from and idx are set here; ref: what it
 * stands for here) for the owner of queue c->q: into an own queue it joins the joined list
 * as it is; into another rank's it is sent as a request with m's record (to c->to). Returns
 * its index in its block (own: in the joined list). */
static uint32_t request(struct saf *s, struct saf_cand *c, uint32_t ref, uint32_t m,
                        uint32_t node)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    uint32_t r = saf_dist_owner(s, saf_queue_node(s, c->q));
    if (r == x->me) {
        if (grow_rq(o, o->n_rq + 1)) {
            x->oom = 1;
            return 0;
        }
        c->ord = c->term == RS_NONE ? (uint64_t)node * s->P + s->pkt[m].port : c->term;
        c->from = r;
        c->idx = m;
        o->rq[o->n_rq] = *c;
        o->lref[o->n_rq] = ref;
        return (uint32_t)o->n_rq++;
    }
    struct saf_to *t = &o->to[r];
    uint64_t cap = t->cap_req;
    if (grow((void **)&t->req, &t->cap_req, t->n_req + 1, sizeof *t->req) ||
        grow((void **)&t->ref, &cap, t->n_req + 1, sizeof *t->ref)) {
        t->cap_req = t->cap_req < cap ? t->cap_req : cap;
        x->oom = 1;
        return 0;
    }
    struct saf_req *rq = &t->req[t->n_req];
    *rq = (struct saf_req){.key = c->key, .q = c->q, .term = c->term, .dep = c->dep};
    rs__saf_dist_wire(s, m, c->to, node, &rq->w);
    t->ref[t->n_req] = ref;
    return (uint32_t)t->n_req++;
}

/* The admission key of move mv (protocol=rank), else 0. */
static uint64_t key_of(const struct saf *s, const struct saf_move *mv)
{
    return s->rank ? rs__saf_rank_key(s, mv) : 0;
}

/* A move decided here for good (delivery, drop, end of phase A): counted. */
static void count_final(struct saf *s, uint32_t m, uint32_t to, uint32_t node, int inj)
{
    struct saf_dist_out *o = s->dist->xo;
    o->count[0]++;
    o->count[1] += to == SAF_DELIVER || to == SAF_DROP_TO;
    if (to == SAF_STORE)
        send_store(s, m, node, inj);
}

/* The in-network moves s->moves[0, n_moves): the candidates become requests (reqpos: their
 * index in the block), the others are counted. */
static void request_moves(struct saf *s)
{
    struct saf_dist_out *o = s->dist->xo;
    if (grow((void **)&o->reqpos, &o->cap_pos, s->n_moves, sizeof *o->reqpos)) {
        s->dist->oom = 1;
        return;
    }
    for (uint64_t i = 0; i < s->n_moves; i++) {
        const struct saf_move *mv = &s->moves[i];
        if (mv->to >= SAF_STORE) {
            count_final(s, mv->pkt, mv->to, mv->node, 0);
            continue;
        }
        struct saf_cand c = {.key = key_of(s, mv), .to = mv->to, .q = mv->to, .term = RS_NONE};
        o->reqpos[i] = request(s, &c, (uint32_t)i, mv->pkt, mv->node);
    }
}

/* Switch queues: terminal t's injection of its offered packet m at node v, as the serial
 * injection loop decides it: on a free channel into a route's end or a store it is made
 * here; otherwise it is a request, conditional (dep: 1 + that request's index in its block,
 * or 0) on the request holding its channel. Returns the request's index in its block, or
 * RS_NONE when it was made here. */
static uint32_t request_injection(struct saf *s, uint32_t t, uint32_t m, uint32_t v,
                                  uint32_t q, uint32_t dep)
{
    struct saf_dist_out *o = s->dist->xo;
    uint32_t tq = s->pkt[m].tq;
    struct saf_move mv = {m, SAF_SRC_BIT | t, tq, v};
    if (!dep && tq >= SAF_STORE) { /* nothing to admit: it moves */
        s->moves[s->n_moves++] = mv;
        count_final(s, m, tq, v, 1);
        return RS_NONE;
    }
    if (grow((void **)&o->inj, &o->cap_inj, o->n_inj + 1, sizeof *o->inj)) {
        s->dist->oom = 1;
        return RS_NONE;
    }
    o->inj[o->n_inj] = (struct saf_inj){t, m, tq, v};
    struct saf_cand c = {.key = key_of(s, &mv), .to = tq, .q = q, .term = t, .dep = dep};
    return request(s, &c, SAF_SRC_BIT | (uint32_t)o->n_inj++, m, v);
}

/* Switch queues: the sources of the active nodes act[0, n_act), in the serial injection
 * loop's terms. A source offers (the serial selection, sticky as there) on a channel (port
 * p) its node's in-network move did not take for good. The node's terminals offering on one
 * channel, in increasing order, form a chain of which the serial loop can inject the first
 * (c1: if the node's candidate on p, when there is one, waits), or, when c1 goes into a
 * queue and does not take the channel, the first later one that ends its route or phase A
 * there; a later one into the queue finds it as full as c1 did. So at most those two are
 * requested, each conditional on the one before it. n_in: the in-network moves, in node
 * order (one per node at most: a switch has one queue). */
static void request_sources(struct saf *s, uint32_t n_act, uint64_t n_in)
{
    uint64_t k = 0;
    for (uint32_t a = 0; a < n_act; a++) {
        uint32_t v = s->act[a], done = 0, queued = 0, c1[32], c1q[32]; /* (P <= 32) */
        uint32_t t = v < s->n_node_src ? s->node_src[v] : RS_NONE;
        if (t == RS_NONE)
            continue;
        while (k < n_in && s->moves[k].node < v)
            k++;
        const struct saf_move *nm = k < n_in && s->moves[k].node == v ? &s->moves[k] : NULL;
        uint32_t cport = nm && nm->to < SAF_STORE ? s->pkt[nm->pkt].port : RS_NONE;
        for (; t != RS_NONE; t = s->src_next[t]) {
            if (!s->src[t].count)
                continue;
            uint32_t m = rs__saf_src_offer(s, t), p = s->pkt[m].port, tq = s->pkt[m].tq;
            int held = (s->src_used[t] >> p) & 1;
            if (((done >> p) & 1) || (held && p != cport) ||
                (((queued >> p) & 1) && tq < SAF_STORE))
                continue; /* the channel is taken, or the queue is full */
            int after = (queued >> p) & 1; /* c1 went into a queue */
            uint32_t dep = after ? c1[p] + 1 : held ? s->dist->xo->reqpos[k] + 1 : 0;
            uint32_t q = after ? c1q[p] : held ? nm->to : tq;
            uint32_t i = request_injection(s, t, m, v, q, dep);
            if (tq < SAF_STORE) {
                queued |= 1u << p;
                c1[p] = i;
                c1q[p] = q;
            } else
                done |= 1u << p;
        }
    }
}

/* Step 1: decide, and pack the requests and store records into o->blk. */
static void make_requests(struct saf *s)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    for (uint32_t r = 0; r < x->P; r++)
        o->to[r].n_req = o->to[r].n_st = 0;
    o->n_inj = o->n_rq = 0;
    o->admitted = 0;
    memset(o->count, 0, sizeof o->count);
    uint32_t n_act = rs__saf_collect_active(s);
    rs__saf_decide_span(s, 0, n_act); /* (s->grant is NULL: candidates) */
    uint64_t n_in = s->n_moves;
    request_moves(s);
    if (s->at == SAF_AT_SWITCH)
        request_sources(s, n_act, n_in);
    o->n_loc = o->n_rq;
    for (uint32_t r = 0; r < x->P; r++) { /* (own block: no requests, n_req 0) */
        const struct saf_to *t = &o->to[r];
        o->blk[r] = (struct saf_blk){{t->n_req, t->n_st},
                                     {t->req, t->st},
                                     {t->n_req * sizeof *t->req, t->n_st * sizeof *t->st}};
    }
}

/* ---- 2. the owners' admissions ------------------------------------------------------------ */

/* Copy the store records of a received block (n of them at p) into o->stores. */
static void take_stores(struct saf *s, const uint8_t *p, uint64_t n)
{
    struct saf_dist_out *o = s->dist->xo;
    if (!n)
        return;
    if (grow((void **)&o->stores, &o->cap_stores, o->n_stores + n, sizeof *o->stores)) {
        s->dist->oom = 1;
        return;
    }
    memcpy(o->stores + o->n_stores, p, n * sizeof *o->stores);
    o->n_stores += n;
}

/* The received requests joined, in rank order, after the own candidates in o->rq (dep: an
 * index of the joined list; their records stay in x->recv, o->recp), the store records
 * into o->stores. Returns 0 or RS_ENOMEM. */
static int take_requests(struct saf *s)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    const uint8_t *b = x->recv;
    uint64_t n = o->n_loc;
    for (uint32_t r = 0; r < x->P; r++) {
        uint64_t h[2];
        memcpy(h, b, sizeof h);
        n += h[0];
        b += x->recv_bytes[r];
    }
    if (grow_rq(o, n))
        return RS_ENOMEM;
    o->n_rq = o->n_loc;
    o->n_stores = 0;
    b = x->recv;
    for (uint32_t r = 0; r < x->P; r++) {
        uint64_t h[2];
        memcpy(h, b, sizeof h);
        const uint8_t *p = b + sizeof h;
        o->base[r] = r == x->me ? 0 : o->n_rq;
        o->nreq[r] = r == x->me ? o->n_loc : h[0];
        o->recp[r] = p;
        for (uint64_t i = 0; i < h[0]; i++) { /* (the serial order: switch id, then port
                                                 in-network; the terminal, injections) */
            struct saf_req q;
            memcpy(&q, p + i * sizeof q, sizeof q);
            o->rq[o->n_rq++] = (struct saf_cand){
                q.key,
                q.term == RS_NONE ? (uint64_t)q.w.node * s->P + q.w.port : q.term,
                q.w.to,
                q.q,
                q.term,
                q.dep ? q.dep + (uint32_t)o->base[r] : 0,
                r,
                (uint32_t)i};
        }
        take_stores(s, p + h[0] * sizeof(struct saf_req), h[1]);
        b += x->recv_bytes[r];
    }
    return 0;
}

/* Room of own queue q for this round's candidates: the capacity less its occupancy at the
 * start of the step and the admissions of the earlier round; with queue_threshold, all
 * when it held at most q packets at the start of the step, else none; unbounded: all. */
static uint32_t room_of(const struct saf *s, uint32_t q)
{
    if (!s->cap)
        return UINT32_MAX;
    if (s->thr)
        return s->q[q].count < s->cap ? UINT32_MAX : 0;
    return s->cap - s->q[q].count - s->granted[q];
}

/* Settle the candidates of own queue q (the list from chead[q]): the room-many with the
 * largest key admitted, equal keys to the earlier in the serial order (for every protocol
 * but rank the key is 0: admission while there is room, in the serial order). The list is
 * emptied; the admissions are counted in granted (not with queue_threshold). */
static void settle(struct saf *s, uint32_t q)
{
    struct saf_dist_out *o = s->dist->xo;
    uint32_t room = room_of(s, q), admitted = 0, n = 0;
    for (uint32_t a = o->chead[q]; a && n <= room; a = o->cnext[a - 1])
        n++;
    const int all = n <= room; /* (then every one is admitted: no need to rank them) */
    for (uint32_t a = o->chead[q]; a; a = o->cnext[a - 1]) {
        const struct saf_cand *ra = &o->rq[a - 1];
        uint32_t better = 0;
        for (uint32_t b = all ? 0 : o->chead[q]; b && better < room; b = o->cnext[b - 1]) {
            const struct saf_cand *rb = &o->rq[b - 1];
            better += rb->key > ra->key || (rb->key == ra->key && rb->ord < ra->ord);
        }
        o->res[a - 1] = (uint8_t)(4 | (room ? 2 : 0) | (better < room));
        admitted += better < room;
    }
    if (admitted && s->cap && !s->thr) {
        if (!s->granted[q])
            o->touched[o->n_touched++] = q;
        s->granted[q] += admitted;
    }
    o->chead[q] = 0;
}

/* Link request i into its queue's list. */
static void link_req(struct saf_dist_out *o, uint64_t i)
{
    uint32_t q = o->rq[i].to;
    o->cnext[i] = o->chead[q];
    o->chead[q] = (uint32_t)(i + 1);
}

/* Settle every queue that has candidates in the list (the requests linked). */
static void settle_linked(struct saf *s, int injections)
{
    struct saf_dist_out *o = s->dist->xo;
    for (uint64_t i = 0; i < o->n_rq; i++) {
        const struct saf_cand *q = &o->rq[i];
        if ((q->term != RS_NONE) == injections && q->to < SAF_STORE && o->chead[q->to])
            settle(s, q->to);
    }
}

/* Round 1, the in-network candidates; counted as moves (admitted, or dropped). */
static void admit_network(struct saf *s)
{
    struct saf_dist_out *o = s->dist->xo;
    const int drop = s->on_full == SAF_DROP;
    for (uint64_t i = 0; i < o->n_rq; i++)
        if (o->rq[i].term == RS_NONE)
            link_req(o, i);
    settle_linked(s, 0);
    for (uint64_t i = 0; i < o->n_rq; i++)
        if (o->rq[i].term == RS_NONE) {
            o->count[0] += (o->res[i] & 1) || drop;
            o->count[1] += !(o->res[i] & 1) && drop;
        }
}

/* Round 2 (switch queues), the injections, in the serial injection loop's terms: the first
 * of a channel's chain (dep: the node's in-network candidate or none) takes the channel
 * only when that candidate waits (refused, on_full=block), into a queue in the room the
 * in-network moves left, in terminal order (protocol=rank: by rank); the second (dep: the
 * first, into a queue) ends its route or phase A, and takes the channel when the first did
 * not: refused (every protocol but rank), or (rank) no candidate for want of room. res
 * bits: 1 admitted, 2 the queue had room (a rank candidate), 4 valid (the channel free). */
static void admit_injections(struct saf *s)
{
    struct saf_dist_out *o = s->dist->xo;
    const int drop = s->on_full == SAF_DROP;
    const uint8_t took = s->rank ? 2 : 1;
    for (uint64_t i = 0; i < o->n_rq; i++) {
        const struct saf_cand *q = &o->rq[i];
        if (q->term == RS_NONE || (q->dep && o->rq[q->dep - 1].term != RS_NONE))
            continue;
        int valid = !q->dep || (!(o->res[q->dep - 1] & 1) && !drop);
        o->res[i] = valid ? 5 : 0; /* (into a queue: settled below) */
        if (valid && q->to < SAF_STORE)
            link_req(o, i);
    }
    settle_linked(s, 1);
    for (uint64_t i = 0; i < o->n_rq; i++) {
        const struct saf_cand *q = &o->rq[i];
        if (q->term != RS_NONE && q->dep && o->rq[q->dep - 1].term != RS_NONE)
            o->res[i] = (o->res[q->dep - 1] & 4) && !(o->res[q->dep - 1] & took) ? 5 : 0;
    }
    for (uint64_t i = 0; i < o->n_rq; i++)
        if (o->rq[i].term != RS_NONE && (o->res[i] & 1)) {
            o->count[0]++;
            o->count[1] += o->rq[i].to == SAF_DELIVER;
            o->count[3] += o->rq[i].to == SAF_STORE;
        }
}

/* The admitted requests into queues, each queue's in the serial order (the in-network moves
 * by switch id and port, then the injections by terminal), into o->arr. */
static void arrival_order(struct saf *s)
{
    struct saf_dist_out *o = s->dist->xo;
    o->n_arr = 0;
    for (uint64_t i = o->n_rq; i-- > 0;) /* (lists in increasing index) */
        if ((o->res[i] & 1) && o->rq[i].to < SAF_STORE)
            link_req(o, i);
    for (uint64_t i = 0; i < o->n_rq; i++) {
        uint32_t q = o->rq[i].to;
        if (!(o->res[i] & 1) || q >= SAF_STORE || !o->chead[q])
            continue;
        uint64_t first = o->n_arr;
        for (uint32_t a = o->chead[q]; a; a = o->cnext[a - 1]) { /* insertion sort */
            const struct saf_cand *ra = &o->rq[a - 1];
            uint64_t j = o->n_arr++;
            for (; j > first; j--) {
                const struct saf_cand *rb = &o->rq[o->arr[j - 1]];
                if ((rb->term != RS_NONE) < (ra->term != RS_NONE) ||
                    ((rb->term != RS_NONE) == (ra->term != RS_NONE) && rb->ord < ra->ord))
                    break;
                o->arr[j] = o->arr[j - 1];
            }
            o->arr[j] = a - 1;
        }
        o->chead[q] = 0;
    }
}

/* The admitted received candidates' records copied out of x->recv (the grants' exchange
 * reuses it) into o->recw; their idx becomes the index there. */
static void keep_records(struct saf *s)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    uint64_t n = 0;
    for (uint64_t i = 0; i < o->n_arr; i++) {
        struct saf_cand *c = &o->rq[o->arr[i]];
        if (c->from == x->me)
            continue;
        if (grow((void **)&o->recw, &o->cap_recw, n + 1, sizeof *o->recw)) {
            x->oom = 1;
            return;
        }
        memcpy(&o->recw[n], o->recp[c->from] + c->idx * sizeof(struct saf_req) +
                                offsetof(struct saf_req, w),
               sizeof *o->recw);
        c->idx = (uint32_t)n++;
    }
}

/* Step 2: the admissions of the own and the received candidates, and the grants of the
 * received ones packed into o->blk. */
static void admit(struct saf *s)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    o->n_touched = 0;
    admit_network(s);
    if (s->at == SAF_AT_SWITCH)
        admit_injections(s);
    for (uint64_t i = 0; i < o->n_touched; i++)
        s->granted[o->touched[i]] = 0;
    arrival_order(s);
    keep_records(s);
    o->admitted = 1;
    o->count[2] = (uint64_t)x->oom;
    for (uint32_t r = 0; r < x->P; r++) { /* (own candidates' results stay here) */
        uint64_t n = r == x->me ? 0 : o->nreq[r];
        o->blk[r] = (struct saf_blk){{n, o->count[0], o->count[1], o->count[2], o->count[3]},
                                     {n ? o->res + o->base[r] : NULL, NULL},
                                     {n, 0}};
    }
}

/* ---- 3. the grants ------------------------------------------------------------------------ */

/* The received grants applied to this rank's requests: refused candidates dropped or
 * waiting (removed), granted injections appended to the moves (those ending phase A sent
 * to their stores' ranks). Every rank's counts summed into x->sum; *stores: the store
 * grants of every rank. */
static void take_grants(struct saf *s, uint64_t *stores)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    const uint8_t *b = x->recv;
    const int drop = s->on_full == SAF_DROP;
    uint64_t n_before = s->n_moves;
    x->sum[0] = x->sum[1] = x->sum[2] = *stores = 0;
    for (uint32_t r = 0; r < x->P; r++) /* (those of the requests' round were sent) */
        o->to[r].n_st = 0;
    for (uint32_t r = 0; r < x->P; r++) {
        uint64_t h[5];
        memcpy(h, b, sizeof h);
        for (int k = 0; k < 3; k++)
            x->sum[k] += h[1 + k];
        *stores += h[4];
        const uint8_t *g = b + sizeof h;
        const struct saf_to *t = &o->to[r];
        const uint32_t *refs = t->ref;
        uint64_t n = h[0] < t->n_req ? h[0] : t->n_req;
        if (r == x->me) { /* the own candidates, in the same place of the order */
            g = o->res;
            refs = o->lref;
            n = o->admitted ? o->n_loc : 0;
        }
        for (uint64_t i = 0; i < n; i++) {
            uint32_t ref = refs[i];
            if (!(ref & SAF_SRC_BIT)) {
                if (!(g[i] & 1))
                    s->moves[ref].to = drop ? SAF_DROP_TO : SAF_VOID;
            } else if (g[i] & 1) {
                const struct saf_inj *j = &o->inj[ref & ~SAF_SRC_BIT];
                s->moves[s->n_moves++] = (struct saf_move){j->m, SAF_SRC_BIT | j->t, j->to, j->v};
            }
        }
        b += x->recv_bytes[r];
    }
    uint64_t kept = 0;
    for (uint64_t i = 0; i < s->n_moves; i++) {
        if (s->moves[i].to == SAF_VOID)
            continue;
        s->moves[kept++] = s->moves[i];
        if (i >= n_before && s->moves[i].to == SAF_STORE)
            send_store(s, s->moves[i].pkt, s->moves[i].node, 1);
    }
    s->n_moves = kept;
}

/* The third exchange (a step in which some injection ending phase A was granted): the store
 * records of those injections. Returns 0 or RS_EIO. */
static int exchange_stores(struct saf *s)
{
    struct saf_dist *x = s->dist;
    struct saf_dist_out *o = x->xo;
    for (uint32_t r = 0; r < x->P; r++) {
        struct saf_to *t = &o->to[r];
        o->blk[r] = (struct saf_blk){{t->n_st}, {t->st, NULL}, {t->n_st * sizeof *t->st, 0}};
    }
    if (exchange(s, 1))
        return RS_EIO;
    const uint8_t *b = x->recv;
    for (uint32_t r = 0; r < x->P; r++) {
        uint64_t n;
        memcpy(&n, b, sizeof n);
        take_stores(s, b + sizeof n, n);
        b += x->recv_bytes[r];
    }
    return 0;
}

/* ---- 4. commit ---------------------------------------------------------------------------- */

/* The store records' serial order: the in-network moves by the node they left and its port,
 * then the injections by terminal (the packet's source: a packet ends phase A once). */
static uint64_t store_key(const struct saf *s, const struct saf_wire *w)
{
    uint64_t ports = (uint64_t)s->net->n_nodes * s->P;
    return w->pad ? ports + w->src : (uint64_t)w->node * s->P + w->port;
}

static int store_cmp(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* The records for own stores enter them in the serial move order. */
static void enter_stores(struct saf *s)
{
    struct saf_dist_out *o = s->dist->xo;
    if (!o->n_stores)
        return;
    uint64_t *key = rs_malloc(2 * o->n_stores * sizeof *key);
    if (!key) {
        s->dist->oom = 1;
        return;
    }
    for (uint64_t i = 0; i < o->n_stores; i++) {
        key[2 * i] = store_key(s, &o->stores[i]);
        key[2 * i + 1] = i;
    }
    qsort(key, o->n_stores, 2 * sizeof *key, store_cmp);
    for (uint64_t i = 0; i < o->n_stores; i++) {
        uint32_t m = rs__saf_dist_slot_of_wire(s, &o->stores[key[2 * i + 1]]);
        if (m != RS_NONE)
            rs__saf_dist_enter_store(s, m);
    }
    rs_free(key);
}

/* Step 4: this rank's moves applied (departures; drops and deliveries counted here; the
 * records of the others are at their owners), the admitted records pushed into own queues
 * in o->arr's order, the stores' records, and the nodes left empty leave the active set. */
static void commit(struct saf *s)
{
    struct saf_dist_out *o = s->dist->xo;
    rs__saf_dist_depart(s);
    for (uint64_t i = 0; i < s->n_moves; i++) {
        const struct saf_move *mv = &s->moves[i];
        if (mv->to == SAF_DROP_TO) {
            rs__saf_dist_finish(s, mv->pkt, 0);
            continue;
        }
        s->hops++;
        if (mv->to == SAF_DELIVER)
            rs__saf_dist_finish(s, mv->pkt, 1);
        else if (mv->to == SAF_STORE || !saf_dist_own(s, saf_queue_node(s, mv->to)))
            rs__saf_dist_slot_give(s, mv->pkt); /* its record is at its owner */
    } /* (into an own queue: it keeps its slot) */
    for (uint64_t i = 0; i < o->n_arr; i++) {
        const struct saf_cand *c = &o->rq[o->arr[i]];
        uint32_t m = c->idx;
        if (c->from == s->dist->me) {
            s->pkt[m].hops++;
            s->pkt[m].rem--;
        } else {
            struct saf_wire w = o->recw[c->idx];
            w.hops++;
            w.rem--;
            m = rs__saf_dist_slot_of_wire(s, &w);
        }
        if (m != RS_NONE)
            rs__saf_dist_enter_queue(s, m, c->to);
    }
    enter_stores(s);
    for (uint64_t i = 0; i < s->n_moves; i++) {
        uint32_t v = s->moves[i].node;
        if (rs__saf_dist_node_empty(s, v))
            s->active[v / 64] &= ~(1ull << (v % 64));
    }
}

int rs__saf_dist_out_moves(struct saf *s)
{
    struct saf_dist *x = s->dist;
    uint64_t stores;
    make_requests(s);
    if (exchange(s, 2))
        return RS_EIO;
    if (take_requests(s))
        x->oom = 1;
    else
        admit(s);
    if (x->oom) { /* report it in the grants' headers, with nothing granted */
        for (uint32_t r = 0; r < x->P; r++)
            x->xo->blk[r] = (struct saf_blk){{0, 0, 0, 1, 0}, {NULL, NULL}, {0, 0}};
    }
    if (exchange(s, 5))
        return RS_EIO;
    take_grants(s, &stores);
    if (x->sum[2]) /* a rank out of memory: the caller ends the run (every rank alike) */
        return 0;
    if (stores && exchange_stores(s))
        return RS_EIO;
    commit(s);
    return 0;
}
