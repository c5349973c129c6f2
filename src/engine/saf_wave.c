/* The leveled store-and-forward kernel for the butterfly (docs/model-saf.md, "The leveled
 * butterfly kernel"): the general engine's batch FIFO model (input queues, block, capacity
 * c) on an N = 2^n input butterfly without wrap-around, every packet released at step 0 and
 * routed by bit-fixing. A packet at level l, row r crosses port ((r ^ dst) >> l) & 1 into
 * input slot `port` of row r ^ (port << l) at level l+1 (delivered when l+1 = n), so a
 * queue entry needs only its destination and the step it entered (FIFO arbitration).
 *
 * State per level 1..n-1, allocated when the level first holds a packet and freed when it
 * and every level below it are empty: a header byte per queue (count | head << 4), a ring
 * of c entries per queue, a bitmap of the queues that lost a packet this step and, when
 * congestion is asked for, a counter per channel out of the level (folded into the maximum
 * when the level is freed); a freed level's arrays wait in a spare pool for the next level
 * allocated, so a run faults in the pages of its most occupied moment only. Sources keep their messages in id order in the problem's own
 * array. A step walks the occupied levels from the highest to the lowest, each in row order:
 * a level's departures are made before the level below decides, and the room a queue had at
 * the start of the step is its count plus its departure bit, so every decision reads the
 * state at the start of the step, as in the general engine (one feeder per input queue:
 * the order of the nodes does not change the outcome). */
#include "engine/saf_wave.h"

#include <string.h>

#include "routesim/alloc.h"
#include "routesim/hugemem.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"

/* One queued packet: its destination terminal and the step it entered the queue. */
struct wave_ent {
    uint32_t dst, entered;
};

struct wave_level {
    uint8_t *hdr;          /* [2N] queue row*2+slot: count (bits 0-3), head (bits 4-7) */
    struct wave_ent *ent;  /* [2N * cap] ring buffers */
    uint64_t *dep;         /* [2N / 64 + 1] queues that lost a packet this step */
    uint32_t *load;        /* [2N] packets that crossed channel row*2+port out of the level */
    uint64_t pk;           /* packets held (level 0: in the sources' stores) */
    int alloc;             /* queues (levels >= 1) or counters (level 0) allocated */
    int dep_dirty;         /* dep may hold bits */
};

struct saf_wave {
    uint32_t N, n, cap;
    uint64_t n_msgs;
    const uint32_t *dst;   /* the problem's destinations, [n_msgs] */
    uint32_t *order;       /* explicit sources: message ids grouped by source, in id order;
                              NULL: source t's messages are t*q .. t*q + q-1 */
    uint64_t *spos, *send; /* [N] next and end position of each source's messages */
    struct wave_level *lv; /* [n] */
    struct wave_level *spare; /* [n] arrays of freed levels >= 1, reused by the next level
                                 allocated (its pages are already faulted in) */
    uint32_t n_spare;
    int count_load;        /* congestion asked for (d->in->paths) */
    uint32_t congestion;
    uint32_t step, last_event, max_queue;
    uint64_t remaining, delivered, hops;
    struct rs_lat_hist lat;
};

int rs__saf_wave_fits(const struct rs_driver *d, uint32_t cap)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_net *net = in->net;
    if (cap < 1 || cap > SAF_WAVE_MAX_CAP || d->ol || in->check || in->plan || in->events ||
        d->release || d->mid || !rs_route_plain(in->routing, 0))
        return 0;
    if (!(net->caps & RS_CAP_BUTTERFLY) || net->wrap || net->max_ports != 2 ||
        net->log2n < 1 || net->log2n > 26 || net->N != (1u << net->log2n) ||
        net->n_levels != net->log2n + 1 || in->pb->n_terminals != net->N)
        return 0;
    /* the numbering the kernel relies on (topo/butterfly.c): sources at level 0, row t;
     * destinations at level n, row t */
    uint32_t last = net->N - 1;
    if (net->ops->src_node(net, 0) != 0 || net->ops->src_node(net, last) != last ||
        net->ops->dst_node(net, last) != net->log2n * net->N + last)
        return 0;
    /* the general engine's own limits (saf.c) are left to it to report */
    return in->pb->n_msgs < 0x80000000ull &&
           2ull * net->n_nodes + net->N < (uint64_t)UINT32_MAX - 3;
}

/* Allocate level l's queues (l >= 1) and its channel counters. Returns 0 or RS_ENOMEM. */
static int level_alloc(struct saf_wave *w, uint32_t l)
{
    struct wave_level *v = &w->lv[l];
    uint64_t nq = 2ull * w->N;
    if (l >= 1 && w->n_spare) {
        /* a freed level's arrays: the counters and bits zeroed as a fresh block is; the
         * ring entries are written before they are read */
        *v = w->spare[--w->n_spare];
        memset(v->hdr, 0, nq);
        memset(v->dep, 0, (nq / 64 + 1) * sizeof *v->dep);
        if (v->load)
            memset(v->load, 0, nq * sizeof *v->load);
        v->pk = 0;
        v->alloc = 1;
        v->dep_dirty = 0;
        return 0;
    }
    if (l >= 1) {
        v->hdr = rs__huge_alloc(nq);
        v->ent = rs__huge_alloc(nq * w->cap * sizeof *v->ent);
        v->dep = rs__huge_alloc((nq / 64 + 1) * sizeof *v->dep);
        if (!v->hdr || !v->ent || !v->dep)
            return RS_ENOMEM;
    }
    if (w->count_load && !(v->load = rs__huge_alloc(nq * sizeof *v->load)))
        return RS_ENOMEM;
    v->alloc = 1;
    v->dep_dirty = 0;
    return 0;
}

/* Free level l, folding its channel counters into the congestion; with keep, a level >= 1
 * puts its arrays into the spare pool for the next level allocated. */
static void level_free(struct saf_wave *w, uint32_t l, int keep)
{
    struct wave_level *v = &w->lv[l];
    uint64_t nq = 2ull * w->N;
    if (v->load) {
        uint32_t c = w->congestion;
        for (uint64_t i = 0; i < nq; i++)
            c = v->load[i] > c ? v->load[i] : c;
        w->congestion = c;
    }
    if (l >= 1 && keep && v->hdr && v->ent && v->dep) {
        w->spare[w->n_spare++] = *v; /* n - 1 levels >= 1: the pool never overflows */
    } else {
        rs__huge_free(v->hdr, v->hdr ? nq : 0);
        rs__huge_free(v->ent, v->ent ? nq * w->cap * sizeof *v->ent : 0);
        rs__huge_free(v->dep, v->dep ? (nq / 64 + 1) * sizeof *v->dep : 0);
        rs__huge_free(v->load, v->load ? nq * sizeof *v->load : 0);
    }
    v->hdr = NULL;
    v->ent = NULL;
    v->dep = NULL;
    v->load = NULL;
    v->alloc = 0;
}

void rs__saf_wave_free(struct saf_wave *w)
{
    if (!w)
        return;
    for (uint32_t l = 0; w->lv && l < w->n; l++)
        level_free(w, l, 0);
    uint64_t nq = 2ull * w->N;
    for (uint32_t i = 0; i < w->n_spare; i++) {
        struct wave_level *v = &w->spare[i];
        rs__huge_free(v->hdr, nq);
        rs__huge_free(v->ent, nq * w->cap * sizeof *v->ent);
        rs__huge_free(v->dep, (nq / 64 + 1) * sizeof *v->dep);
        rs__huge_free(v->load, v->load ? nq * sizeof *v->load : 0);
    }
    rs_free(w->spare);
    rs_free(w->lv);
    rs_free(w->order);
    rs_free(w->spos);
    rs_free(w->send);
    rs_lat_hist_free(&w->lat);
    rs_free(w);
}

int rs__saf_wave_init(struct saf_wave **out, struct rs_driver *d, uint32_t cap,
                      struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_problem *pb = in->pb;
    struct saf_wave *w = rs_calloc(1, sizeof *w);
    *out = w;
    if (!w)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the butterfly kernel");
    w->N = in->net->N;
    w->n = in->net->log2n;
    w->cap = cap;
    w->n_msgs = pb->n_msgs;
    w->dst = pb->dst;
    w->count_load = in->paths != NULL;
    w->remaining = pb->n_msgs;
    rs_lat_hist_init(&w->lat);
    w->lv = rs_calloc(w->n, sizeof *w->lv);
    w->spare = rs_calloc(w->n, sizeof *w->spare);
    w->spos = rs_malloc(w->N * sizeof *w->spos);
    w->send = rs_malloc(w->N * sizeof *w->send);
    if (!w->lv || !w->spare || !w->spos || !w->send)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the butterfly kernel");
    if (pb->src) { /* group the message ids by source, keeping id order (a counting sort) */
        if (!(w->order = rs_malloc(pb->n_msgs * sizeof *w->order + 1)))
            return rs_err_set(err, RS_ENOMEM, "out of memory for the sources' messages");
        memset(w->send, 0, w->N * sizeof *w->send);
        for (uint64_t m = 0; m < pb->n_msgs; m++)
            w->send[pb->src[m]]++;
        uint64_t at = 0;
        for (uint32_t t = 0; t < w->N; t++) {
            w->spos[t] = at;
            at += w->send[t];
            w->send[t] = w->spos[t];
        }
        for (uint64_t m = 0; m < pb->n_msgs; m++)
            w->order[w->send[pb->src[m]]++] = (uint32_t)m;
    } else {
        for (uint32_t t = 0; t < w->N; t++) {
            w->spos[t] = (uint64_t)t * pb->per_input;
            w->send[t] = w->spos[t] + pb->per_input;
        }
    }
    w->lv[0].pk = pb->n_msgs;
    if (pb->n_msgs && level_alloc(w, 0))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the butterfly kernel");
    d->remaining = w->remaining;
    return 0;
}

/* Room at the start of the step in queue tq of level v: its count now plus the packet it
 * gave up this step (its level was walked before), against the capacity. */
static inline int has_room(const struct wave_level *v, uint64_t tq, uint32_t cap)
{
    uint32_t c = (v->hdr[tq] & 15u) + (uint32_t)((v->dep[tq >> 6] >> (tq & 63)) & 1);
    return c < cap;
}

/* Append (dst, step) to queue tq of level v. Returns its new count. */
static inline uint32_t push(struct wave_level *v, uint64_t tq, uint32_t cap, uint32_t dst,
                            uint32_t step)
{
    uint32_t h = v->hdr[tq], c = h & 15u, pos = (h >> 4) + c;
    if (pos >= cap)
        pos -= cap;
    v->ent[tq * cap + pos] = (struct wave_ent){dst, step};
    v->hdr[tq] = (uint8_t)(h + 1);
    v->pk++;
    return c + 1;
}

/* Drop the head of queue q of level v. An empty queue's header is 0 (head reset), so that
 * a zero byte (and a zero line of headers) means empty. */
static inline void pop(struct wave_level *v, uint64_t q, uint32_t cap)
{
    uint32_t h = v->hdr[q], hd = (h >> 4) + 1;
    if (hd == cap)
        hd = 0;
    v->hdr[q] = (h & 15u) == 1 ? 0 : (uint8_t)((hd << 4) | ((h & 15u) - 1));
    v->pk--;
}

/* Walk level l (1 <= l < n) at step s: every node offers its queues' heads; a head moves
 * when its next queue had room at the start of the step (always at level n-1, whose moves
 * deliver); two movable heads wanting one port: the one that entered first, ties to slot
 * 0. Returns the moves; *ndel counts the deliveries. */
static uint64_t walk_level(struct saf_wave *w, uint32_t l, uint32_t s, uint64_t *ndel)
{
    struct wave_level *v = &w->lv[l];
    struct wave_level *nx = l + 1 < w->n ? &w->lv[l + 1] : NULL;
    const uint32_t cap = w->cap, N = w->N;
    uint8_t *hdr = v->hdr;
    const struct wave_ent *ent = v->ent;
    uint32_t *load = v->load;
    uint64_t moves = 0, del = 0;
    uint32_t maxq = w->max_queue;
    for (uint32_t g = 0; g * 32u < N; g++) { /* 32 nodes: 64 queue headers, one line */
        uint32_t r0 = g * 32u, r1 = r0 + 32u < N ? r0 + 32u : N;
        uint64_t word = 0;
        if (r1 - r0 == 32) {
            const uint64_t *h8 = (const uint64_t *)(const void *)(hdr + 2ull * r0);
            if (!(h8[0] | h8[1] | h8[2] | h8[3] | h8[4] | h8[5] | h8[6] | h8[7])) {
                v->dep[g] = 0;
                continue;
            }
        }
        for (uint32_t r = r0; r < r1; r++) {
            uint64_t q0 = 2ull * r;
            uint32_t h0 = hdr[q0], h1 = hdr[q0 + 1];
            if (!(h0 | h1))
                continue;
            struct wave_ent e0 = {0, 0}, e1 = {0, 0};
            uint32_t p0 = 0, p1 = 0;
            int m0 = 0, m1 = 0;
            if (h0) {
                e0 = ent[q0 * cap + (h0 >> 4)];
                p0 = ((r ^ e0.dst) >> l) & 1u;
                m0 = !nx || has_room(nx, 2ull * (r ^ (p0 << l)) + p0, cap);
            }
            if (h1) {
                e1 = ent[(q0 + 1) * cap + (h1 >> 4)];
                p1 = ((r ^ e1.dst) >> l) & 1u;
                m1 = !nx || has_room(nx, 2ull * (r ^ (p1 << l)) + p1, cap);
            }
            if (m0 && m1 && p0 == p1) { /* one channel: the older arrival, ties to slot 0 */
                if (e1.entered < e0.entered)
                    m0 = 0;
                else
                    m1 = 0;
            }
            for (uint32_t i = 0; i < 2; i++) {
                if (!(i ? m1 : m0))
                    continue;
                uint32_t p = i ? p1 : p0, dst = i ? e1.dst : e0.dst;
                pop(v, q0 + i, cap);
                word |= 1ull << (2u * (r - r0) + i);
                if (load)
                    load[q0 + p]++;
                moves++;
                if (!nx) {
                    del++;
                    continue;
                }
                uint32_t c = push(nx, 2ull * (r ^ (p << l)) + p, cap, dst, s);
                maxq = c > maxq ? c : maxq;
            }
        }
        v->dep[g] = word;
    }
    v->dep_dirty = 1;
    w->max_queue = maxq;
    *ndel += del;
    return moves;
}

/* The sources at step s: each injects its oldest message into input slot `port` of row
 * t ^ port at level 1 if that queue had room at the start of the step (N = 2: delivered).
 * Returns the moves; *ndel counts the deliveries. */
static uint64_t walk_sources(struct saf_wave *w, uint32_t s, uint64_t *ndel)
{
    struct wave_level *src = &w->lv[0];
    struct wave_level *nx = w->n > 1 ? &w->lv[1] : NULL;
    const uint32_t cap = w->cap;
    uint64_t moves = 0;
    uint32_t maxq = w->max_queue;
    for (uint32_t t = 0; t < w->N; t++) {
        uint64_t i = w->spos[t];
        if (i == w->send[t])
            continue;
        uint32_t dst = w->dst[w->order ? w->order[i] : i];
        uint32_t p = (t ^ dst) & 1u;
        uint64_t tq = 2ull * (t ^ p) + p;
        if (nx && !has_room(nx, tq, cap))
            continue;
        w->spos[t] = i + 1;
        src->pk--;
        if (src->load)
            src->load[2ull * t + p]++;
        moves++;
        if (!nx) {
            (*ndel)++;
            continue;
        }
        uint32_t c = push(nx, tq, cap, dst, s);
        maxq = c > maxq ? c : maxq;
    }
    w->max_queue = maxq;
    return moves;
}

int rs__saf_wave_step(struct saf_wave *w, struct rs_driver *d, struct rs_err *err)
{
    uint32_t s = ++w->step, n = w->n;
    uint64_t present = w->remaining, moves = 0, ndel = 0;
    for (uint32_t l = 0; l + 1 < n; l++) /* room for this step's arrivals */
        if (w->lv[l].pk && !w->lv[l + 1].alloc && level_alloc(w, l + 1))
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    for (uint32_t l = n - 1; l >= 1; l--) { /* highest first: departures before deciding */
        struct wave_level *v = &w->lv[l];
        if (!v->alloc)
            continue;
        if (v->pk)
            moves += walk_level(w, l, s, &ndel);
        else if (v->dep_dirty) { /* walked no more: no departures this step */
            memset(v->dep, 0, (2ull * w->N / 64 + 1) * sizeof *v->dep);
            v->dep_dirty = 0;
        }
    }
    if (w->lv[0].pk)
        moves += walk_sources(w, s, &ndel);

    w->hops += moves;
    if (ndel) {
        if (rs_lat_hist_add(&w->lat, s))
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
        w->lat.count[s] += ndel - 1; /* every packet was released at step 0 */
        w->lat.n += ndel - 1;
        w->delivered += ndel;
        w->remaining -= ndel;
        w->last_event = s;
    }
    /* levels below the lowest occupied one are done for good */
    uint32_t lo = 0;
    while (lo < n && !w->lv[lo].pk)
        lo++;
    for (uint32_t l = 0; l < lo; l++)
        if (w->lv[l].alloc)
            level_free(w, l, 1);
    d->step = s;
    d->remaining = w->remaining;
    d->moved = moves;
    d->live = present;
    return 0;
}

int rs__saf_wave_collect(struct saf_wave *w, struct rs_driver *d, struct rs_result *res)
{
    struct rs_result r = *res;
    for (uint32_t l = 0; l < w->n; l++) /* fold what is still held (an empty run) */
        if (w->lv[l].alloc)
            level_free(w, l, 0);
    r.makespan = w->last_event;
    r.messages = (int64_t)w->n_msgs;
    r.delivered = (int64_t)w->delivered;
    r.dropped = 0;
    r.delivered_fraction = w->n_msgs ? (double)w->delivered / (double)w->n_msgs : 1.0;
    r.max_queue = w->max_queue;
    rs_hist_summary(w->lat.count, w->lat.cap, &r);
    r.hops = (int64_t)w->hops;
    r.steps = w->step;
    r.deadlock = 0;
    r.rank_levels_used = 0;
    r.top_rank_messages = 0;
    r.top_rank_delivered = 0;
    *res = r;
    struct rs_engine_paths *out = d->in->paths;
    if (out && w->delivered == w->n_msgs) { /* every route crossed whole: counted once */
        out->congestion = w->congestion;
        out->dilation = w->n_msgs ? w->n : 0;
        out->filled = 1;
    }
    return 0;
}
