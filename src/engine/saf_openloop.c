/* Open-loop injection (injection_process=bernoulli, SPEC W4) for the store-and-forward
 * engine: packet records from a pool of slots recycled after delivery or drop, each
 * terminal's oldest generated packet in its store, the open-loop lifecycle (step, record; the
 * loop is the driver's). The model:
 * docs/openloop.md ("Store-and-forward") and docs/model-saf.md ("Open loop"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/exchange.h"
#include "routesim/hugemem.h"
#include "core/events_hook.h"
#include "engine/saf.h"
#include "routesim/rng.h"

/* ---- the pool ------------------------------------------------------------------------ */

/* Give the pool cap slots (cap > s->n_pkt). Called between steps only: the packets that
 * exist are indices, so moving the arrays keeps every list valid. New slots are pushed so
 * that the lowest is taken first. Returns 0 or RS_ENOMEM (s unchanged but for the arrays
 * already grown, which stay valid). */
static int pool_grow(struct saf *s, uint64_t cap)
{
    uint64_t old = s->n_pkt;
    struct saf_pkt *pkt = rs__huge_alloc(cap * sizeof *pkt);
    if (!pkt)
        return RS_ENOMEM;
    memcpy(pkt, s->pkt, old * sizeof *pkt);
    rs__huge_free(s->pkt, old * sizeof *pkt);
    s->pkt = pkt;
    s->n_pkt = cap;
    uint8_t *where = rs_realloc(s->where, cap + 1);
    uint32_t *osrc = rs_realloc(s->osrc, cap * sizeof *osrc);
    if (where)
        s->where = where;
    if (osrc)
        s->osrc = osrc;
    uint32_t *omsg = rs_realloc(s->omsg, cap * sizeof *omsg);
    if (omsg)
        s->omsg = omsg;
    uint32_t *ogen = rs_realloc(s->ogen, cap * sizeof *ogen);
    if (ogen)
        s->ogen = ogen;
    uint32_t *fs = rs_realloc(s->free_slot, cap * sizeof *fs);
    if (fs)
        s->free_slot = fs;
    struct saf_move *mv = rs_realloc(s->moves, cap * sizeof *mv);
    if (mv)
        s->moves = mv;
    if (!where || !osrc || !omsg || !ogen || !fs || !mv)
        return RS_ENOMEM;
    s->moves_cap = cap; /* a step moves each packet at most once */
    if (s->rank) {
        uint16_t *r = rs_realloc(s->rank, cap * sizeof *r);
        if (!r)
            return RS_ENOMEM;
        s->rank = r;
    }
    if (s->cnext) {
        uint32_t *cn = rs_realloc(s->cnext, cap * sizeof *cn);
        if (cn)
            s->cnext = cn;
        uint64_t *ck = rs_realloc(s->ckey, cap * sizeof *ck);
        if (ck)
            s->ckey = ck;
        if (!cn || !ck)
            return RS_ENOMEM;
    }
    memset(s->where + old, SAF_FREE, cap - old);
    for (uint64_t m = cap; m-- > old;)
        s->free_slot[s->n_free++] = (uint32_t)m;
    return 0;
}

void rs__saf_open_finish(struct saf *s, uint32_t m, int delivered)
{
    rs_openloop_finish(s->ol, s->ogen[m], 1, s->step, delivered);
    s->step_accepted += (uint64_t)delivered;
    s->where[m] = SAF_FREE;
    s->free_slot[s->n_free++] = m;
}

/* ---- sources --------------------------------------------------------------------------- */

/* Hops of the route st (hops 0) from its source (rs_route_length). -1 when it does not
 * end. */
static int64_t route_length(const struct saf *s, const struct rs_route_state *st)
{
    return rs_route_length(s->net, s->routing, st, 4 * s->net->n_nodes + 16);
}


/* Slot m (taken from the pool) becomes terminal t's generated packet pk, whose route is len
 * hops (la of them Valiant's phase A, 0: none), placed at its node and put into the
 * terminal's store as its own packet (s->made counts it). */
static inline void open_fill(struct saf *s, uint32_t m, uint32_t t, const struct rs_ol_packet *pk,
                             uint32_t len, uint32_t la)
{
    struct saf_pkt *p = &s->pkt[m];
    memset(p, 0, sizeof *p);
    p->dst = pk->dst;
    p->mid = pk->mid;
    p->rem = len;
    p->entered = pk->gen; /* it joined its terminal's store when it was generated */
    p->phase_a = (uint16_t)la; /* 0: direct, or src == mid (no holding) */
    s->osrc[m] = t;
    s->omsg[m] = pk->msg;
    s->ogen[m] = pk->gen;
    if (s->rank) /* once per packet, keyed by its identity (source, generation step) */
        s->rank[m] = (uint16_t)(1 + rs_rand_below(s->seed, RS_STREAM_RANK, t, pk->gen,
                                                  s->ranks));
    s->where[m] = SAF_IN_SOURCE;
    rs__saf_place_open(s, m, s->src_node[t]);
    if (s->src[t].count == 0)
        s->pend_dirty = 1;
    rs__saf_store_insert(s, t, m);
    s->own[t] = m;
    s->made++;
}

void rs__saf_open_fill(struct saf *s, uint32_t m, uint32_t t, const struct rs_ol_packet *pk,
                       uint32_t len, uint32_t la)
{
    open_fill(s, m, t, pk, len, la);
}

/* Terminal t has no generated packet in its store: take the oldest one of its FIFO in the
 * module (rs_openloop_front / _start) and put it into the store, as the batch engine's
 * set-up puts a message (entered = its generation step). A packet whose path is empty is
 * delivered at once (latency: the current step minus its generation step) and the next one
 * is taken. The pool grows here when it is empty. Returns 0 or RS_E... */
static int refill_terminal(struct saf *s, uint32_t t, struct rs_err *err)
{
    struct rs_openloop *ol = s->ol;
    while (s->own[t] == RS_NONE && ol->term[t].pending) {
        struct rs_ol_packet pk;
        rs_openloop_front(ol, t, &pk);
        RS_EVENT_BIND(s->ev, RS_EV_SCRATCH, t, ol->term[t].started); /* docs/events.md */
        rs_openloop_start(ol, t);
        struct rs_route_state st = {t, pk.dst, pk.mid, 0, pk.msg};
        int64_t len = route_length(s, &st), la = 0;
        if (len < 0)
            return rs_err_set(err, RS_EINVARIANT,
                              "route of a packet %u -> %u does not end at its destination", t,
                              pk.dst);
        if (len == 0) { /* source = destination: delivered without a move */
            RS_EVENT(s->ev, RS_EV_DELIVERED, s->step, RS_EV_SCRATCH, s->src_node[t], RS_EV_NONE,
                     RS_EV_NONE);
            rs_openloop_finish(ol, pk.gen, 1, s->step, 1);
            s->step_accepted++;
            continue;
        }
        if (pk.mid != RS_NONE && s->net->ops->valiant_via_terminal) {
            struct rs_route_state sa = {t, pk.mid, RS_NONE, 0, pk.msg};
            if ((la = route_length(s, &sa)) < 0 || la > UINT16_MAX)
                return rs_err_set(err, RS_EUNSUPPORTED,
                                  "phase A of a packet %u -> %u is %lld hops (at most 65535 "
                                  "supported)",
                                  t, pk.mid, (long long)la);
        }
        if (!s->n_free) {
            uint64_t cap = 2 * s->n_pkt < SAF_SRC_BIT - 1 ? 2 * s->n_pkt : SAF_SRC_BIT - 1;
            if (cap <= s->n_pkt)
                return rs_err_set(err, RS_ECONSTRAINT,
                                  "more than %llu packets in the network at step %u",
                                  (unsigned long long)s->n_pkt, s->step);
            if (pool_grow(s, cap))
                return rs_err_set(err, RS_ENOMEM, "out of memory for %llu packets",
                                  (unsigned long long)cap);
        }
        uint32_t m = s->free_slot[--s->n_free], v = s->src_node[t];
        RS_EVENT_BIND(s->ev, m, t, ol->term[t].started - 1);
        open_fill(s, m, t, &pk, (uint32_t)len, (uint32_t)la);
        s->remaining++;
        s->active[v / 64] |= 1ull << (v % 64);
    }
    return 0;
}

/* ---- set-up, record, run ----------------------------------------------------------------- */

static int open_init(struct saf *s, struct rs_openloop *ol, const struct rs_engine_input *in,
                     const struct rs_openloop_cfg *cfg, struct rs_err *err)
{
    uint32_t n = in->pb->n_terminals;
    /* the pool starts with room for two packets per terminal and doubles when it runs
     * dry (refill_terminal, between steps) */
    uint64_t cap = 2 * (uint64_t)n + 64;
    int rc;
    if (cfg->len_max != 1)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "length_max=%u: a store-and-forward packet has no length (it crosses "
                          "a channel in one step); use switching=store_forward_flits for "
                          "packets of several flits",
                          cfg->len_max);
    if ((rc = rs__saf_init_common(s, in, cap, err)))
        return rc;
    s->ol = ol;
    s->ev = in->events; /* the event log: packets named by slot (docs/events.md) */
    s->osrc = rs_malloc(cap * sizeof *s->osrc);
    s->omsg = rs_malloc(cap * sizeof *s->omsg);
    s->ogen = rs_malloc(cap * sizeof *s->ogen);
    s->free_slot = rs_malloc(cap * sizeof *s->free_slot);
    s->own = rs_malloc((size_t)n * sizeof *s->own + 1);
    s->refill = rs_malloc((size_t)n * sizeof *s->refill + 1);
    if (!s->osrc || !s->omsg || !s->ogen || !s->free_slot || !s->own || !s->refill)
        return rs_err_set(err, RS_ENOMEM, "out of memory for open-loop sources");
    memset(s->where, SAF_FREE, cap);
    for (uint64_t m = cap; m-- > 0;)
        s->free_slot[s->n_free++] = (uint32_t)m;
    for (uint32_t t = 0; t < n; t++)
        s->own[t] = RS_NONE;
    return 0;
}

/* The metrics of an open-loop run, in this order: the module's, then the engine's. */
static const enum rs_metric open_columns[] = {RS_OPENLOOP_COLUMNS, RS_M_HOPS, RS_M_MAX_QUEUE,
                                              RS_M_STEPS, RS_M_DEADLOCK,
                                              RS_M_RANK_LEVELS_USED};

static void open_result(const struct saf *s, struct rs_result *r, int deadlock)
{
    rs_openloop_result(s->ol, r);
    r->hops = (int64_t)s->hops;
    r->max_queue = s->max_queue;
    r->steps = s->step;
    r->deadlock = deadlock;
    r->rank_levels_used = s->ranks;
}

/* ---- the lifecycle (the loop is the driver's, src/engine/driver.c) ---------------------- */

static int open_life_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct saf *s = st;
    if (d->in->exchange && d->in->exchange->size > 1) /* over MPI ranks (saf_dist.c) */
        return rs__saf_dist_open_init(s, d, err);
    return open_init(s, d->ol, d->in, &d->cfg, err);
}

static int open_life_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct saf *s = st;
    int rc;
    if (s->dist)
        return rs__saf_dist_open_step(s, d, err);
    s->step++;
    s->made = 0;
    s->step_accepted = 0;
    if ((rc = rs__saf_step(s)))
        return rs_err_set(err, rc, "out of memory during the run");
    /* the step's arrivals, then the stores whose generated packet left (in the step, or at
     * the end of the previous one with output queues) take their next one */
    const uint32_t *newly;
    uint32_t n_new = rs_driver_arrivals(d, s->step, &newly);
    for (uint32_t i = 0; i < s->n_refill; i++)
        if ((rc = refill_terminal(s, s->refill[i], err)))
            return rc;
    for (uint32_t i = 0; i < n_new; i++)
        if ((rc = refill_terminal(s, newly[i], err)))
            return rc;
    s->n_refill = 0;
    uint32_t injected = 0;
    if (s->at == SAF_AT_OUTPUT) { /* the stores filled just now may inject too */
        rs__saf_compact_pending(s);
        injected = rs__saf_inject_output(s);
    }
    rs__saf_compact_pending(s);
    d->step = s->step;
    d->accepted = s->step_accepted;
    /* nothing moved and no store changed: a fixed point (docs/model-saf.md; the driver's
     * stall rule) */
    d->moved = s->n_moves + (uint64_t)injected + s->made;
    d->live = s->remaining;
    return 0;
}

static int open_life_check(void *st, struct rs_err *err)
{
    return rs__saf_check(st, err);
}

static void open_life_describe(void *st, char *buf, size_t n)
{
    struct saf *s = st;
    if (s->dist && rs__saf_dist_gather(s)) { /* over ranks: the whole state first */
        snprintf(buf, n, "deadlock at step %u (the state could not be gathered over the ranks)",
                 s->step);
        return;
    }
    rs__saf_describe_deadlock(st, buf, n);
}

/* The waiting cycle as data, over ranks on the gathered state. */
static int open_life_cycle(void *st, struct rs_deadlock *out)
{
    struct saf *s = st;
    int rc = s->dist ? rs__saf_dist_gather(s) : 0;
    return rc ? rc : rs__saf_life_cycle(st, out);
}

static int open_life_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    (void)d;
    struct saf *s = st;
    int rc = s->dist ? rs__saf_dist_open_collect(s) : 0; /* over ranks: the sums first */
    if (rc)
        return rc;
    open_result(st, res, deadlock);
    return 0;
}

const struct rs_engine_life rs__saf_open_life = {
    .size = sizeof(struct saf),
    .plan_fields = 0,
    .init = open_life_init,
    .step = open_life_step,
    .check = open_life_check,
    .auto_check = 1,
    .stall = RS_STALL_DEADLOCK,
    .describe_deadlock = open_life_describe,
    .deadlock_cycle = open_life_cycle,
    .collect = open_life_collect,
    .columns = open_columns,
    .n_columns = sizeof open_columns / sizeof *open_columns,
    .free = rs__saf_life_free,
};
