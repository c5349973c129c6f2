/* The leveled store-and-forward kernel for the butterfly (docs/model-saf.md, "The leveled
 * butterfly kernel"): the general engine's batch FIFO model (input queues, block, capacity
 * c) on an N = 2^n input butterfly without wrap-around, every packet released at step 0 and
 * routed by bit-fixing. A packet at level l, row r crosses port ((r ^ dst) >> l) & 1 into
 * input slot `port` of row r ^ (port << l) at level l+1 (delivered when l+1 = n), so a
 * queue entry needs only its destination and the step it entered (FIFO arbitration).
 *
 * State per level 1..n-1, allocated when the level first holds a packet and freed when it
 * and every level below it are empty. Dense form: a header byte per queue (count | head
 * << 4), a ring of c entries per queue and a bitmap of the queues that lost a packet this
 * step; a freed dense level's arrays wait in a spare pool for the next level allocated, so
 * a run faults in the pages of its most occupied moment only. Sparse form, for the tail of
 * the wave: once a level holds fewer than N/8 packets and the level below it is sparse or
 * done, only the rows that hold packets have a slot (an open-addressed table keyed by row,
 * each slot with the node's two rings and the step at which they last lost a packet); a
 * level allocated above a sparse one is sparse from the start, so a dense level never
 * feeds a sparse one. Congestion is not counted per hop: a route's channel out of level l
 * depends only on its source and destination, so it is counted from them at the end (one
 * level at a time). Sources keep their messages in id order in the problem's own
 * array. A step walks the occupied levels from the highest to the lowest, each in row order:
 * a level's departures are made before the level below decides, and the room a queue had at
 * the start of the step is its count plus its departure bit, so every decision reads the
 * state at the start of the step, as in the general engine (one feeder per input queue:
 * the order of the nodes does not change the outcome). */
#include "engine/saf_wave.h"
#include "engine/saf_wave_impl.h"

#include <omp.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/hugemem.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/route.h"

/* Bytes of one dense ring entry: compact (4) until the run turns wide (8). */
static inline uint64_t ent_bytes(const struct saf_wave *w)
{
    return w->wide ? sizeof(struct wave_ent) : sizeof(uint32_t);
}

/* Most bits a compact entry gives its entry step (relative to the level's base): what
 * dst >> l leaves of 32 bits, at most 16. */
#define WAVE_KBITS_MAX 16u

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

/* The sparse table's arrays for size slots (a power of two >= 16) into *t, empty. Returns
 * 0 or RS_ENOMEM. */
static int sparse_arrays(struct wave_sparse *t, uint32_t size, uint32_t cap)
{
    t->size = size;
    t->used = 0;
    t->shift = 32u - (uint32_t)__builtin_ctz(size);
    t->key = rs__huge_alloc((uint64_t)size * sizeof *t->key);
    t->hdr = rs__huge_alloc(2ull * size);
    t->dstep = rs__huge_alloc((uint64_t)size * sizeof *t->dstep);
    t->dmask = rs__huge_alloc(size);
    t->ent = rs__huge_alloc(2ull * size * cap * sizeof *t->ent);
    return t->key && t->hdr && t->dstep && t->dmask && t->ent ? 0 : RS_ENOMEM;
}

static void sparse_arrays_free(struct wave_sparse *t, uint32_t cap)
{
    uint64_t size = t->size;
    rs__huge_free(t->key, t->key ? size * sizeof *t->key : 0);
    rs__huge_free(t->hdr, t->hdr ? 2 * size : 0);
    rs__huge_free(t->dstep, t->dstep ? size * sizeof *t->dstep : 0);
    rs__huge_free(t->dmask, t->dmask ? size : 0);
    rs__huge_free(t->ent, t->ent ? 2 * size * cap * sizeof *t->ent : 0);
}

/* The slot of row r in t, or the free slot where it would go. */
static inline uint32_t sparse_find(const struct wave_sparse *t, uint32_t r)
{
    uint32_t i = (r * 0x9E3779B1u) >> t->shift, m = t->size - 1;
    while (t->key[i] && t->key[i] != r + 1)
        i = (i + 1) & m;
    return i;
}

/* Put slot i of t (key, queues, departure stamp) into table u. */
static void sparse_move(struct wave_sparse *u, const struct wave_sparse *t, uint32_t i,
                        uint32_t cap)
{
    uint32_t j = sparse_find(u, t->key[i] - 1);
    u->key[j] = t->key[i];
    u->hdr[2 * j] = t->hdr[2 * i];
    u->hdr[2 * j + 1] = t->hdr[2 * i + 1];
    u->dstep[j] = t->dstep[i];
    u->dmask[j] = t->dmask[i];
    memcpy(&u->ent[2ull * j * cap], &t->ent[2ull * i * cap], 2 * cap * sizeof *t->ent);
    u->used++;
}

/* t rebuilt with size slots (a power of two >= 16), keeping the rows whose queues hold
 * packets (with keep_all, every keyed row). Returns 0 or RS_ENOMEM (t unchanged). */
static int sparse_rebuild(struct wave_sparse *t, uint32_t size, uint32_t cap, int keep_all)
{
    struct wave_sparse u = {0};
    if (sparse_arrays(&u, size, cap)) {
        sparse_arrays_free(&u, cap);
        return RS_ENOMEM;
    }
    for (uint32_t k = 0; k < t->size; k++)
        if (t->key[k] && (keep_all || t->hdr[2 * k] | t->hdr[2 * k + 1]))
            sparse_move(&u, t, k, cap);
    sparse_arrays_free(t, cap);
    *t = u;
    return 0;
}

/* The slot of row r in t, keyed now if it was not (the table doubles past 3/4 full; rows
 * keyed this step must keep their departure stamps, so every keyed row moves). Returns
 * the slot, or UINT32_MAX when out of memory. */
static uint32_t sparse_slot(struct wave_sparse *t, uint32_t r, uint32_t cap)
{
    uint32_t i = sparse_find(t, r);
    if (t->key[i])
        return i;
    if (4ull * (t->used + 1) > 3ull * t->size) {
        if (t->size >= (1u << 31) || sparse_rebuild(t, t->size * 2, cap, 1))
            return UINT32_MAX;
        i = sparse_find(t, r);
    }
    t->key[i] = r + 1;
    t->used++;
    return i;
}

/* The table size for n rows: a power of two >= 4n/3 (at most 3/4 full) and >= 16. */
static uint32_t sparse_size(uint64_t n)
{
    uint32_t size = 16;
    while (3ull * size < 4 * n && size < (1u << 31))
        size <<= 1;
    return size;
}

/* Allocate level l's queues (l >= 1). Returns 0 or RS_ENOMEM. */
static int level_alloc(struct saf_wave *w, uint32_t l)
{
    struct wave_level *v = &w->lv[l];
    uint64_t nq = 2ull * w->rows;
    if (l >= 2 && w->lv[l - 1].sp) {
        /* above a sparse level: at most its packets come (a sparse level only feeds one) */
        if (!(v->sp = rs_calloc(1, sizeof *v->sp)) ||
            sparse_arrays(v->sp, sparse_size(w->lv[l - 1].pk), w->cap))
            return RS_ENOMEM;
        v->alloc = 1;
        return 0;
    }
    if (l >= 1 && w->n_spare) {
        /* a freed level's arrays: the counters and bits zeroed as a fresh block is; the
         * ring entries are written before they are read */
        *v = w->spare[--w->n_spare];
        memset(v->hdr, 0, nq);
        memset(v->dep, 0, (nq / 64 + 1) * sizeof *v->dep);
        v->pk = 0;
    } else if (l >= 1) {
        v->hdr = rs__huge_alloc(nq);
        v->ent = rs__huge_alloc(nq * w->cap * ent_bytes(w));
        v->dep = rs__huge_alloc((nq / 64 + 1) * sizeof *v->dep);
        if (!v->hdr || !v->ent || !v->dep)
            return RS_ENOMEM;
    }
    /* compact entries count steps from now (this step's arrivals are the first) */
    uint32_t free_bits = 32u - (w->n - l);
    v->base = w->step;
    v->kbits = free_bits < WAVE_KBITS_MAX ? free_bits : WAVE_KBITS_MAX;
    v->alloc = 1;
    v->dep_dirty = 0;
    return 0;
}

/* Free level l; with keep, a level >= 1 puts its arrays into the spare pool for the next
 * level allocated. */
static void level_free(struct saf_wave *w, uint32_t l, int keep)
{
    struct wave_level *v = &w->lv[l];
    uint64_t nq = 2ull * w->rows;
    if (v->sp) {
        sparse_arrays_free(v->sp, w->cap);
        rs_free(v->sp);
        v->sp = NULL;
        v->alloc = 0;
        return;
    }
    if (l >= 1 && keep && v->hdr && v->ent && v->dep) {
        w->spare[w->n_spare++] = *v; /* n - 1 levels >= 1: the pool never overflows */
    } else {
        rs__huge_free(v->hdr, v->hdr ? nq : 0);
        rs__huge_free(v->ent, v->ent ? nq * w->cap * ent_bytes(w) : 0);
        rs__huge_free(v->dep, v->dep ? (nq / 64 + 1) * sizeof *v->dep : 0);
    }
    v->hdr = NULL;
    v->ent = NULL;
    v->dep = NULL;
    v->alloc = 0;
}

void rs__saf_wave_free(struct saf_wave *w)
{
    if (!w)
        return;
    for (uint32_t l = 0; w->lv && l < w->n; l++)
        level_free(w, l, 0);
    uint64_t nq = 2ull * w->rows;
    for (uint32_t i = 0; i < w->n_spare; i++) {
        struct wave_level *v = &w->spare[i];
        rs__huge_free(v->hdr, nq);
        rs__huge_free(v->ent, nq * w->cap * ent_bytes(w));
        rs__huge_free(v->dep, (nq / 64 + 1) * sizeof *v->dep);
    }
    rs_free(w->spare);
    rs_free(w->lv);
    rs_free(w->order);
    rs_free(w->spos);
    rs_free(w->send);
    rs_lat_hist_free(&w->lat);
    rs__wave_dist_free(w);
    rs_free(w);
}

int rs__saf_wave_init(struct saf_wave **out, struct rs_driver *d, uint32_t cap,
                      uint32_t threads, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_problem *pb = in->pb;
    const struct rs_exchange *xc = in->exchange && in->exchange->size > 1 ? in->exchange : NULL;
    struct saf_wave *w = rs_calloc(1, sizeof *w);
    *out = w;
    if (!w)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the butterfly kernel");
    w->N = in->net->N;
    w->n = in->net->log2n;
    w->R0 = 0;
    w->rows = w->N;
    if (xc) { /* rank k holds rows [k N / P, (k + 1) N / P) (docs/distributed.md) */
        uint64_t P = (uint64_t)xc->size, k = (uint64_t)xc->rank;
        if (w->N < P)
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "a butterfly of N=%u inputs over %llu MPI ranks: every rank needs "
                              "a row of its own (N >= ranks); run it on at most %u ranks",
                              w->N, (unsigned long long)P, w->N);
        w->R0 = (uint32_t)(k * w->N / P);
        w->rows = (uint32_t)((k + 1) * w->N / P) - w->R0;
    }
    w->cap = cap;
    for (uint32_t h = 0; h < 256; h++) { /* the header tables (headers of count 0: unused) */
        uint32_t c = h & 15u, hd = h >> 4, nh = hd + 1 == cap ? 0 : hd + 1, pos = hd + c;
        w->after_pop[h] = (uint8_t)(c <= 1 ? 0 : (nh << 4) | (c - 1));
        w->push_pos[h] = (uint8_t)(pos >= cap ? pos - cap : pos);
    }
    /* over ranks one thread per rank (the walks keep their records for other ranks in one
     * list) */
    w->threads = xc || threads < 1 ? 1
                 : threads > SAF_WAVE_MAX_THREADS ? SAF_WAVE_MAX_THREADS : threads;
    w->n_msgs = pb->n_msgs;
    w->dst = pb->dst;
    w->src = pb->src;
    w->per_input = pb->per_input;
    w->remaining = pb->n_msgs;
    rs_lat_hist_init(&w->lat);
    w->lv = rs_calloc(w->n, sizeof *w->lv);
    w->spare = rs_calloc(w->n, sizeof *w->spare);
    w->spos = rs_malloc(w->rows * sizeof *w->spos);
    w->send = rs_malloc(w->rows * sizeof *w->send);
    if (!w->lv || !w->spare || !w->spos || !w->send || (xc && rs__wave_dist_init(w, xc)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the butterfly kernel");
    const uint32_t R0 = w->R0, rows = w->rows;
    uint64_t mine = 0; /* this rank's messages */
    if (pb->src) { /* group the message ids by source, keeping id order (a counting sort) */
        memset(w->send, 0, rows * sizeof *w->send);
        for (uint64_t m = 0; m < pb->n_msgs; m++)
            if (pb->src[m] - R0 < rows)
                w->send[pb->src[m] - R0]++;
        for (uint32_t t = 0; t < rows; t++) {
            w->spos[t] = mine;
            mine += w->send[t];
            w->send[t] = w->spos[t];
        }
        if (!(w->order = rs_malloc(mine * sizeof *w->order + 1)))
            return rs_err_set(err, RS_ENOMEM, "out of memory for the sources' messages");
        for (uint64_t m = 0; m < pb->n_msgs; m++)
            if (pb->src[m] - R0 < rows)
                w->order[w->send[pb->src[m] - R0]++] = (uint32_t)m;
    } else {
        for (uint32_t t = 0; t < rows; t++) {
            w->spos[t] = (uint64_t)(R0 + t) * pb->per_input;
            w->send[t] = w->spos[t] + pb->per_input;
        }
        mine = (uint64_t)rows * pb->per_input;
    }
    w->lv[0].pk = mine;
    w->lv[0].alloc = pb->n_msgs != 0;
    if (w->dist)
        w->dist->gpk[0] = pb->n_msgs;
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

/* Append (dst, step) to queue tq of dense level l, v (the caller counts it in v->pk), as a
 * compact entry unless wide. Returns its new count. */
static inline __attribute__((always_inline)) uint32_t
push_at(struct wave_level *v, uint32_t l, uint64_t tq, uint32_t cap, uint32_t dst,
        uint32_t step, const int wide)
{
    uint32_t h = v->hdr[tq], c = h & 15u, pos = (h >> 4) + c;
    if (pos >= cap)
        pos -= cap;
    if (wide)
        ((struct wave_ent *)v->ent)[tq * cap + pos] = (struct wave_ent){dst, step};
    else
        ((uint32_t *)v->ent)[tq * cap + pos] = ((dst >> l) << v->kbits) | (step - v->base);
    v->hdr[tq] = (uint8_t)(h + 1);
    return c + 1;
}

/* push_at for a run that may be either (the sources, sparse levels, arrivals from other
 * ranks). */
static inline uint32_t push(const struct saf_wave *w, struct wave_level *v, uint32_t l,
                            uint64_t tq, uint32_t dst, uint32_t step)
{
    return w->wide ? push_at(v, l, tq, w->cap, dst, step, 1)
                   : push_at(v, l, tq, w->cap, dst, step, 0);
}

/* Entry j of dense level l, v, in a queue of global row r: compact unless wide. */
static inline __attribute__((always_inline)) struct wave_ent
entry_at(const struct wave_level *v, uint32_t l, uint64_t j, uint32_t r, const int wide)
{
    if (wide)
        return ((const struct wave_ent *)v->ent)[j];
    uint32_t x = ((const uint32_t *)v->ent)[j], kb = v->kbits;
    return (struct wave_ent){((x >> kb) << l) | (r & ((1u << l) - 1u)),
                             v->base + (x & ((1u << kb) - 1u))};
}

/* Room at the start of step s in queue p of row r of a sparse level (a row without a slot
 * is empty). */
static inline int sparse_room(const struct wave_sparse *t, uint32_t r, uint32_t p, uint32_t cap,
                              uint32_t s)
{
    uint32_t i = sparse_find(t, r);
    if (!t->key[i])
        return 1;
    uint32_t c = (t->hdr[2 * i + p] & 15u) + (t->dstep[i] == s ? (t->dmask[i] >> p) & 1u : 0);
    return c < cap;
}

/* Append (dst, s) to queue p of row r of sparse level v. Returns its new count, or 0 when
 * out of memory. */
static inline uint32_t sparse_push(struct wave_level *v, uint32_t r, uint32_t p, uint32_t cap,
                                   uint32_t dst, uint32_t s)
{
    struct wave_sparse *t = v->sp;
    uint32_t i = sparse_slot(t, r, cap);
    if (i == UINT32_MAX)
        return 0;
    uint32_t h = t->hdr[2 * i + p], c = h & 15u, pos = (h >> 4) + c;
    if (pos >= cap)
        pos -= cap;
    t->ent[(2ull * i + p) * cap + pos] = (struct wave_ent){dst, s};
    t->hdr[2 * i + p] = (uint8_t)(h + 1);
    v->pk++;
    return c + 1;
}

uint32_t rs__wave_push_any(struct saf_wave *w, uint32_t l, uint32_t rl, uint32_t p,
                           uint32_t dst, uint32_t s)
{
    struct wave_level *v = &w->lv[l];
    RS_ASSERT(v->alloc);
    if (v->sp)
        return sparse_push(v, rl, p, w->cap, dst, s); /* counted there */
    v->pk++;
    return push(w, v, l, 2ull * rl + p, dst, s);
}

/* Over ranks: the credit for a packet that left slot 1 of global row r at level l >= 1,
 * when that queue's feeder (row r ^ 2^(l-1) at level l - 1) is another rank's. */
static inline void credit_if_remote(struct saf_wave *w, uint32_t l, uint32_t r)
{
    uint32_t fr = r ^ (1u << (l - 1));
    if (fr - w->R0 >= w->rows)
        rs__wave_emit(w, rs__wave_owner(w, fr), (l - 1) | WAVE_CREDIT, fr, 0);
}

/* Walk sparse level l (1 <= l < n) at step s: the rule of walk_level, slot by slot (each
 * input queue has one feeder and room is judged on the start of the step, so the order of
 * the nodes does not matter); the level above may be dense or sparse, or (over ranks)
 * another rank's. Returns the moves; *ndel counts the deliveries; *oom is set when a
 * sparse level above ran out of memory. */
static uint64_t walk_sparse(struct saf_wave *w, uint32_t l, uint32_t s, uint64_t *ndel,
                            int *oom)
{
    struct wave_level *v = &w->lv[l];
    struct wave_sparse *t = v->sp;
    struct wave_level *nx = l + 1 < w->n ? &w->lv[l + 1] : NULL;
    const uint32_t cap = w->cap, R0 = w->R0, rows = w->rows;
    uint8_t *sh = w->dist ? w->dist->shadow[l] : NULL; /* NULL: port 1 stays on this rank */
    const int credits = w->dist && w->dist->shadow[l - 1];
    uint64_t moves = 0, del = 0;
    uint32_t maxq = w->max_queue;
    for (uint32_t i = 0; i < t->size; i++) {
        uint32_t h[2] = {t->hdr[2 * i], t->hdr[2 * i + 1]};
        if (!(h[0] | h[1]))
            continue;
        uint32_t rl = t->key[i] - 1, r = R0 + rl;
        struct wave_ent e[2] = {{0, 0}, {0, 0}};
        uint32_t p[2] = {0, 0};
        int mv[2] = {0, 0};
        for (uint32_t k = 0; k < 2; k++) {
            if (!h[k])
                continue;
            e[k] = t->ent[(2ull * i + k) * cap + (h[k] >> 4)];
            p[k] = ((r ^ e[k].dst) >> l) & 1u;
            uint32_t tl = (r ^ (p[k] << l)) - R0;
            mv[k] = !nx || (tl >= rows  ? sh[rl] < cap
                            : nx->sp    ? sparse_room(nx->sp, tl, p[k], cap, s)
                                        : has_room(nx, 2ull * tl + p[k], cap));
        }
        if (mv[0] && mv[1] && p[0] == p[1]) { /* one channel: the older arrival, ties to 0 */
            if (e[1].entered < e[0].entered)
                mv[0] = 0;
            else
                mv[1] = 0;
        }
        for (uint32_t k = 0; k < 2; k++) {
            if (!mv[k])
                continue;
            uint32_t hd = (h[k] >> 4) + 1;
            if (hd == cap)
                hd = 0;
            t->hdr[2 * i + k] = (h[k] & 15u) == 1 ? 0 : (uint8_t)((hd << 4) | ((h[k] & 15u) - 1));
            if (t->dstep[i] != s) {
                t->dstep[i] = s;
                t->dmask[i] = 0;
            }
            t->dmask[i] |= (uint8_t)(1u << k);
            v->pk--;
            moves++;
            if (k && credits)
                credit_if_remote(w, l, r);
            if (!nx) {
                del++;
                continue;
            }
            uint32_t tr = r ^ (p[k] << l), tl = tr - R0, c;
            if (tl >= rows) { /* another rank's queue: sent at the end of the step */
                sh[rl]++;
                rs__wave_emit(w, rs__wave_owner(w, tr), l + 1, tr, e[k].dst);
                continue;
            }
            if (nx->sp) {
                if (!(c = sparse_push(nx, tl, p[k], cap, e[k].dst, s))) {
                    *oom = 1;
                    return moves;
                }
            } else {
                c = push(w, nx, l + 1, 2ull * tl + p[k], e[k].dst, s);
                nx->pk++;
            }
            maxq = c > maxq ? c : maxq;
        }
    }
    w->max_queue = maxq;
    *ndel += del;
    return moves;
}

/* Level l (dense, l >= 1) into the sparse form: a slot for each row that holds a packet,
 * its two rings copied as they are; the dense arrays go to the spare pool. Returns 0 or
 * RS_ENOMEM. */
static int level_to_sparse(struct saf_wave *w, uint32_t l)
{
    struct wave_level *v = &w->lv[l];
    const uint32_t cap = w->cap;
    uint64_t rows = 0;
    for (uint32_t r = 0; r < w->rows; r++)
        rows += (v->hdr[2ull * r] | v->hdr[2ull * r + 1]) != 0;
    struct wave_sparse *t = rs_calloc(1, sizeof *t);
    if (!t || sparse_arrays(t, sparse_size(rows), cap)) {
        if (t)
            sparse_arrays_free(t, cap);
        rs_free(t);
        return RS_ENOMEM;
    }
    for (uint32_t r = 0; r < w->rows; r++) { /* local rows */
        uint64_t q0 = 2ull * r;
        if (!(v->hdr[q0] | v->hdr[q0 + 1]))
            continue;
        uint32_t i = sparse_find(t, r);
        t->key[i] = r + 1;
        t->hdr[2 * i] = v->hdr[q0];
        t->hdr[2 * i + 1] = v->hdr[q0 + 1];
        for (uint32_t j = 0; j < 2 * cap; j++) /* the rings as they are, entries widened */
            t->ent[2ull * i * cap + j] = w->wide ? entry_at(v, l, q0 * cap + j, w->R0 + r, 1)
                                                 : entry_at(v, l, q0 * cap + j, w->R0 + r, 0);
        t->used++;
    }
    w->spare[w->n_spare++] = *v; /* n - 1 levels >= 1: the pool never overflows */
    v->hdr = NULL;
    v->ent = NULL;
    v->dep = NULL;
    v->sp = t;
    return 0;
}

/* What a walk of part of a dense level did: moves, deliveries and moves to other ranks among
 * them, largest queue. */
struct walk_out {
    uint64_t moves, del, away;
    uint32_t maxq;
};

/* One queue head of the walk: what walk_groups_at reads of it. Compact entries are not
 * decoded: the port, the tie and the next level's entry read the destination's bits from l
 * up (hi = dst >> l) and the entry step less the level's base (lo, one base per level). */
struct walk_head {
    uint32_t hi, lo, dst; /* dst: the whole destination (wide entries; over ranks, rebuilt) */
    uint32_t p;           /* the port it takes */
    int go;               /* it moves */
};

/* What a walk of one level reads, copied out of w and the two levels once: the walk writes
 * queue headers through uint8_t pointers, which may alias anything, so that fields read
 * through w or the levels would be loaded again after every header written. */
struct walk_ctx {
    uint32_t l, s, cap, N, R0;
    const void *ent;        /* level l's ring entries */
    uint32_t kb;            /* level l's compact bits */
    uint8_t *hdr;           /* level l's headers */
    uint8_t *nhdr;          /* level l + 1's headers, dep bits, entries, compact bits and
                               base; nhdr NULL at level n-1 (its moves deliver) */
    const uint64_t *ndep;
    void *nent;
    uint32_t nkb, nstamp;   /* nstamp: s less level l + 1's base, its compact entry step */
    const uint8_t *after_pop, *push_pos;
    uint8_t *sh;            /* over ranks: the shadow counts of port 1's remote queues */
    int credits;            /* over ranks: slot-1 departures may owe a credit */
};

/* Read the head of queue q (header h != 0) in global row r (local rl), and whether its next
 * queue had room at the start of the step (the count now plus the packet it gave up this
 * step; at level n-1 it delivers). */
static inline __attribute__((always_inline)) struct walk_head
walk_head_at(const struct walk_ctx *c, uint64_t q, uint32_t h, uint32_t r, uint32_t rl,
             const int dist, const int wide)
{
    struct walk_head e;
    uint64_t j = q * c->cap + (h >> 4);
    if (wide) {
        struct wave_ent x = ((const struct wave_ent *)c->ent)[j];
        e.dst = x.dst;
        e.hi = x.dst >> c->l;
        e.lo = x.entered;
    } else {
        uint32_t x = ((const uint32_t *)c->ent)[j];
        e.hi = x >> c->kb;
        e.lo = x & ((1u << c->kb) - 1u);
        e.dst = dist ? (e.hi << c->l) | (r & ((1u << c->l) - 1u)) : 0;
    }
    e.p = (e.hi ^ (r >> c->l)) & 1u;
    uint32_t tl = (r ^ (e.p << c->l)) - c->R0;
    if (!c->nhdr)
        e.go = 1;
    else if (dist && tl >= c->N)
        e.go = c->sh[rl] < c->cap;
    else {
        uint64_t tq = 2ull * tl + e.p;
        e.go = (c->nhdr[tq] & 15u) + (uint32_t)((c->ndep[tq >> 6] >> (tq & 63)) & 1) < c->cap;
    }
    return e;
}

/* Move head e out of queue q of row r (local rl): pop it, deliver it (level n-1), send it to
 * another rank's row, or push it into the next level's queue. */
static inline __attribute__((always_inline)) void
walk_move(struct saf_wave *w, const struct walk_ctx *c, uint64_t q, uint32_t r, uint32_t rl,
          const struct walk_head *e, int slot1, struct walk_out *o, const int dist,
          const int wide)
{
    c->hdr[q] = c->after_pop[c->hdr[q]];
    o->moves++;
    if (dist && slot1 && c->credits)
        credit_if_remote(w, c->l, r);
    if (!c->nhdr) {
        o->del++;
        return;
    }
    uint32_t tr = r ^ (e->p << c->l), tl = tr - c->R0;
    if (dist && tl >= c->N) { /* another rank's queue: sent at the end of the step */
        c->sh[rl]++;
        rs__wave_emit(w, rs__wave_owner(w, tr), c->l + 1, tr, e->dst);
        o->away++;
        return;
    }
    uint64_t tq = 2ull * tl + e->p;
    uint32_t h = c->nhdr[tq], pos = c->push_pos[h];
    if (wide)
        ((struct wave_ent *)c->nent)[tq * c->cap + pos] = (struct wave_ent){e->dst, c->s};
    else /* dst >> (l + 1) = hi >> 1 */
        ((uint32_t *)c->nent)[tq * c->cap + pos] = ((e->hi >> 1) << c->nkb) | c->nstamp;
    c->nhdr[tq] = (uint8_t)(h + 1);
    uint32_t n = (h & 15u) + 1;
    o->maxq = n > o->maxq ? n : o->maxq;
}

/* Walk the nodes of groups [g0, g1) (32 rows each) of dense level l (1 <= l < n, the level
 * above dense) at step s: every node offers its queues' heads; a head moves when its next
 * queue had room at the start of the step (always at level n-1, whose moves deliver); two
 * movable heads wanting one port: the one that entered first, ties to slot 0. Levels'
 * packet counts are left to the caller. Distinct groups touch distinct queues (each input
 * queue has one feeder), so ranges may be walked at once. dist (a constant in each
 * instance): over ranks, where a port-1 move may lead to another rank's row (room judged on
 * the shadow count, the packet kept as a record) and a slot-1 departure may owe a credit
 * to another rank's feeder. */
static inline __attribute__((always_inline)) struct walk_out
walk_groups_at(struct saf_wave *w, uint32_t l, uint32_t s, uint32_t g0, uint32_t g1,
               const int dist, const int wide)
{
    struct wave_level *v = &w->lv[l];
    struct wave_level *nx = l + 1 < w->n ? &w->lv[l + 1] : NULL;
    const struct walk_ctx c = {
        .l = l, .s = s, .cap = w->cap, .N = w->rows, .R0 = dist ? w->R0 : 0,
        .ent = v->ent, .kb = v->kbits, .hdr = v->hdr,
        .nhdr = nx ? nx->hdr : NULL, .ndep = nx ? nx->dep : NULL, .nent = nx ? nx->ent : NULL,
        .nkb = nx ? nx->kbits : 0, .nstamp = nx ? s - nx->base : 0,
        .after_pop = w->after_pop, .push_pos = w->push_pos,
        .sh = dist ? w->dist->shadow[l] : NULL, /* NULL: port 1 stays on this rank */
        .credits = dist && w->dist->shadow[l - 1]};
    const uint8_t *hdr = c.hdr;
    uint64_t *dep = v->dep;
    const uint32_t N = c.N, R0 = c.R0;
    struct walk_out o = {0, 0, 0, 0};
    for (uint32_t g = g0; g < g1; g++) { /* 32 nodes: 64 queue headers, one line */
        uint32_t r0 = g * 32u, r1 = r0 + 32u < N ? r0 + 32u : N;
        uint64_t word = 0;
        if (r1 - r0 == 32) {
            const uint64_t *h8 = (const uint64_t *)(const void *)(hdr + 2ull * r0);
            if (!(h8[0] | h8[1] | h8[2] | h8[3] | h8[4] | h8[5] | h8[6] | h8[7])) {
                dep[g] = 0;
                continue;
            }
        }
        for (uint32_t rl = r0; rl < r1; rl++) { /* local row rl, global row r */
            uint64_t q0 = 2ull * rl;
            uint32_t h0 = hdr[q0], h1 = hdr[q0 + 1], r = R0 + rl;
            if (!(h0 | h1))
                continue;
            struct walk_head e0 = {0, 0, 0, 0, 0}, e1 = {0, 0, 0, 0, 0};
            if (h0)
                e0 = walk_head_at(&c, q0, h0, r, rl, dist, wide);
            if (h1)
                e1 = walk_head_at(&c, q0 + 1, h1, r, rl, dist, wide);
            if (e0.go && e1.go && e0.p == e1.p) { /* one channel: the older arrival, ties to
                                                     slot 0 (lo: one base per level) */
                if (e1.lo < e0.lo)
                    e0.go = 0;
                else
                    e1.go = 0;
            }
            uint64_t bit = 1ull << (2u * (rl - r0));
            if (e0.go) {
                word |= bit;
                walk_move(w, &c, q0, r, rl, &e0, 0, &o, dist, wide);
            }
            if (e1.go) {
                word |= bit << 1;
                walk_move(w, &c, q0 + 1, r, rl, &e1, 1, &o, dist, wide);
            }
        }
        dep[g] = word;
    }
    return o;
}

static struct walk_out walk_groups(struct saf_wave *w, uint32_t l, uint32_t s, uint32_t g0,
                                   uint32_t g1)
{
    return w->wide ? walk_groups_at(w, l, s, g0, g1, 0, 1) : walk_groups_at(w, l, s, g0, g1, 0, 0);
}

static struct walk_out walk_groups_dist(struct saf_wave *w, uint32_t l, uint32_t s)
{
    uint32_t ng = (w->rows + 31) / 32;
    return w->wide ? walk_groups_at(w, l, s, 0, ng, 1, 1) : walk_groups_at(w, l, s, 0, ng, 1, 0);
}

/* Walk dense level l at step s on w->threads threads (contiguous ranges of groups, results
 * summed: the order of the nodes does not change the outcome). Returns the moves; *ndel
 * counts the deliveries. */
static uint64_t walk_level(struct saf_wave *w, uint32_t l, uint32_t s, uint64_t *ndel)
{
    struct wave_level *v = &w->lv[l];
    struct wave_level *nx = l + 1 < w->n ? &w->lv[l + 1] : NULL;
    uint32_t ng = (w->rows + 31) / 32, T = w->threads;
    struct walk_out o = {0, 0, 0, 0};
    RS_ASSERT(!nx || !nx->sp); /* a dense level never feeds a sparse one */
    if (w->dist) {
        o = walk_groups_dist(w, l, s);
    } else if (T <= 1 || ng < 64u * T) {
        o = walk_groups(w, l, s, 0, ng);
    } else {
        struct walk_out part[SAF_WAVE_MAX_THREADS];
#pragma omp parallel num_threads(T)
        {
            uint32_t j = (uint32_t)omp_get_thread_num(), nt = (uint32_t)omp_get_num_threads();
            uint64_t a = (uint64_t)ng * j / nt, b = (uint64_t)ng * (j + 1) / nt;
            part[j] = walk_groups(w, l, s, (uint32_t)a, (uint32_t)b);
            if (j == 0) /* a team smaller than asked: its ranges cover every group */
                for (uint32_t k = nt; k < T; k++)
                    part[k] = (struct walk_out){0, 0, 0, 0};
        }
        for (uint32_t j = 0; j < T; j++) {
            o.moves += part[j].moves;
            o.del += part[j].del;
            o.maxq = part[j].maxq > o.maxq ? part[j].maxq : o.maxq;
        }
    }
    v->dep_dirty = 1;
    v->pk -= o.moves;
    if (nx)
        nx->pk += o.moves - o.away;
    w->max_queue = o.maxq > w->max_queue ? o.maxq : w->max_queue;
    *ndel += o.del;
    return o.moves;
}

/* The sources at step s: each injects its oldest message into input slot `port` of row
 * t ^ port at level 1 if that queue had room at the start of the step (N = 2: delivered;
 * over ranks, row t ^ 1 may be another rank's). Returns the moves; *ndel counts the
 * deliveries. */
static uint64_t walk_sources(struct saf_wave *w, uint32_t s, uint64_t *ndel)
{
    struct wave_level *src = &w->lv[0];
    struct wave_level *nx = w->n > 1 ? &w->lv[1] : NULL;
    const uint32_t cap = w->cap, R0 = w->R0, rows = w->rows;
    uint8_t *sh = w->dist ? w->dist->shadow[0] : NULL; /* NULL: port 1 stays on this rank */
    uint64_t moves = 0;
    uint32_t maxq = w->max_queue;
    for (uint32_t tl = 0; tl < rows; tl++) {
        uint64_t i = w->spos[tl];
        if (i == w->send[tl])
            continue;
        uint32_t t = R0 + tl, dst = w->dst[w->order ? w->order[i] : i];
        uint32_t p = (t ^ dst) & 1u, ql = (t ^ p) - R0;
        if (nx && (ql >= rows ? sh[tl] >= cap : !has_room(nx, 2ull * ql + p, cap)))
            continue;
        w->spos[tl] = i + 1;
        src->pk--;
        moves++;
        if (!nx) {
            (*ndel)++;
            continue;
        }
        if (ql >= rows) { /* another rank's queue: sent at the end of the step */
            sh[tl]++;
            rs__wave_emit(w, rs__wave_owner(w, t ^ p), 1, t ^ p, dst);
            continue;
        }
        uint32_t c = push(w, nx, 1, 2ull * ql + p, dst, s);
        nx->pk++;
        maxq = c > maxq ? c : maxq;
    }
    w->max_queue = maxq;
    return moves;
}

/* Every dense level's entries become wide (a level lived longer than its compact entries
 * count; wide for the rest of the run); the spare pool, sized for compact entries, is
 * released. Returns 0 or RS_ENOMEM (nothing changed). */
static int to_wide(struct saf_wave *w)
{
    const uint64_t nq = 2ull * w->rows, cap = w->cap;
    struct wave_ent **wide = rs_calloc(w->n, sizeof *wide);
    int oom = !wide;
    for (uint32_t l = 1; !oom && l < w->n; l++)
        if (w->lv[l].alloc && !w->lv[l].sp)
            oom = !(wide[l] = rs__huge_alloc(nq * cap * sizeof **wide));
    for (uint32_t l = 1; wide && l < w->n; l++) {
        struct wave_level *v = &w->lv[l];
        if (!wide[l])
            continue;
        if (oom) {
            rs__huge_free(wide[l], nq * cap * sizeof **wide);
            continue;
        }
        for (uint64_t q = 0; q < nq; q++) { /* the queued entries, where they are */
            uint32_t h = v->hdr[q], c = h & 15u, r = w->R0 + (uint32_t)(q >> 1);
            for (uint32_t k = 0, j = h >> 4; k < c; k++, j = j + 1 == cap ? 0 : j + 1)
                wide[l][q * cap + j] = entry_at(v, l, q * cap + j, r, 0);
        }
        rs__huge_free(v->ent, nq * cap * sizeof(uint32_t));
        v->ent = wide[l];
    }
    rs_free(wide);
    if (oom)
        return RS_ENOMEM;
    for (uint32_t i = 0; i < w->n_spare; i++) {
        struct wave_level *v = &w->spare[i];
        rs__huge_free(v->hdr, nq);
        rs__huge_free(v->ent, nq * cap * sizeof(uint32_t));
        rs__huge_free(v->dep, (nq / 64 + 1) * sizeof *v->dep);
    }
    w->n_spare = 0;
    w->wide = 1;
    return 0;
}

int rs__saf_wave_step(struct saf_wave *w, struct rs_driver *d, struct rs_err *err)
{
    uint32_t s = ++w->step, n = w->n;
    uint64_t present = w->remaining, moves = 0, ndel = 0;
    /* the levels' packets: over ranks, over every rank (the same levels are allocated and
     * freed on every rank, so arrivals from another rank find theirs) */
    const uint64_t *pk_all = w->dist ? w->dist->gpk : NULL;
#define LEVEL_PK(l) (pk_all ? pk_all[l] : w->lv[l].pk)
    for (uint32_t l = 0; l + 1 < n; l++) /* room for this step's arrivals */
        if (LEVEL_PK(l) && !w->lv[l + 1].alloc && level_alloc(w, l + 1))
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    /* compact entries: this step's arrivals count s - base steps in kbits bits (over ranks
     * each rank decides for its own levels: a layout, not a rule) */
    for (uint32_t l = 1; !w->wide && l < n; l++) {
        const struct wave_level *v = &w->lv[l];
        if (v->alloc && !v->sp && s - v->base >= (1u << v->kbits) && to_wide(w))
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    }
    for (uint32_t l = n - 1; l >= 1; l--) { /* highest first: departures before deciding */
        struct wave_level *v = &w->lv[l];
        if (!v->alloc)
            continue;
        if (v->sp) {
            int oom = 0;
            if (v->pk)
                moves += walk_sparse(w, l, s, &ndel, &oom);
            if (oom)
                return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
        } else if (v->pk)
            moves += walk_level(w, l, s, &ndel);
        else if (v->dep_dirty) { /* walked no more: no departures this step */
            memset(v->dep, 0, (2ull * w->rows / 64 + 1) * sizeof *v->dep);
            v->dep_dirty = 0;
        }
    }
    if (w->lv[0].pk)
        moves += walk_sources(w, s, &ndel);
    if (w->dist) { /* the records to and from other ranks, the step's sums over the ranks */
        int rc = rs__wave_dist_step(w, s, &moves, &ndel);
        if (rc == RS_EIO)
            return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in step %u", s);
        if (rc)
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    }

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
    while (lo < n && !LEVEL_PK(lo))
        lo++;
#undef LEVEL_PK
    for (uint32_t l = 0; l < lo; l++)
        if (w->lv[l].alloc)
            level_free(w, l, 1);
    /* a sparse table whose rows mostly emptied is rebuilt with the rows that hold packets
     * (at the end of a step no departure stamp is needed any more) */
    for (uint32_t l = lo; l < n; l++) {
        struct wave_sparse *t = w->lv[l].sp;
        if (t && t->size > 64 && w->lv[l].pk * 4 < t->size &&
            sparse_rebuild(t, sparse_size(w->lv[l].pk), w->cap, 0))
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    }
    /* the sparse tail: a dense level holding fewer than N/8 packets whose level below is
     * sparse or done becomes sparse (so a dense level never feeds a sparse one); over ranks,
     * per rank: fewer than rows/8 of its own rows' packets */
    for (uint32_t l = 1; l < n; l++) {
        struct wave_level *v = &w->lv[l], *b = &w->lv[l - 1];
        if (!v->alloc || v->sp)
            continue;
        if ((b->alloc && !b->sp) || v->pk * 8 >= w->rows)
            break;
        if (level_to_sparse(w, l))
            return rs_err_set(err, RS_ENOMEM, "out of memory during the run");
    }
    d->step = s;
    d->remaining = w->remaining;
    d->moved = moves;
    d->live = present;
    return 0;
}

/* The most loaded channel out of level l: message m leaves level l from row (dst & low) |
 * (src & ~low), low = 2^l - 1, by port ((src ^ dst) >> l) & 1, so the sources of one block
 * of 2^l rows load only that block's 2^(l+1) channels: each block is counted in win
 * ([2^(l+1)], zero on entry and on return) and its maximum taken before the next. */
static uint32_t level_max_load(const struct saf_wave *w, uint32_t l, uint32_t *win)
{
    uint32_t c = 0, low = (1u << l) - 1, rows = 1u << l;
    uint64_t q = w->per_input, at = 0;
    for (uint32_t b0 = 0; b0 < w->N; b0 += rows) {
        /* the port: bit l of src ^ dst, and bit l of src is b0's in the whole block */
        if (w->order) { /* explicit sources: the block's messages, grouped by source */
            for (uint64_t end = w->send[b0 + rows - 1]; at < end; at++) {
                uint32_t dst = w->dst[w->order[at]];
                win[2 * (dst & low) + (((b0 ^ dst) >> l) & 1u)]++;
            }
        } else { /* source t sends messages t q .. t q + q - 1: the block's are contiguous */
            const uint32_t *dst = w->dst + (uint64_t)b0 * q;
            uint64_t k = 0, nk = (uint64_t)rows * q;
            for (; rows > 8192 && k + 16 < nk; k++) { /* a window beyond L2: fetch ahead */
                __builtin_prefetch(&win[2 * (dst[k + 16] & low)], 1);
                win[2 * (dst[k] & low) + (((b0 ^ dst[k]) >> l) & 1u)]++;
            }
            for (; k < nk; k++)
                win[2 * (dst[k] & low) + (((b0 ^ dst[k]) >> l) & 1u)]++;
        }
        for (uint32_t i = 0; i < 2 * rows; i++) {
            c = win[i] > c ? win[i] : c;
            win[i] = 0;
        }
    }
    return c;
}

/* The congestion of the routes: the most messages whose bit-fixing route crosses one
 * channel. A route's channels depend only on its source and destination, whatever the
 * dynamics, so this is what the general engine's per-hop counters reach when every packet
 * crossed, and what `run` computes from the routes otherwise. cnt: [2N] uint32, zero. */
static uint32_t route_congestion(const struct saf_wave *w, uint32_t *cnt)
{
    uint32_t c = 0;
    for (uint32_t l = 0; l < w->n; l++) {
        uint32_t k = level_max_load(w, l, cnt);
        c = k > c ? k : c;
    }
    return c;
}

int rs__saf_wave_collect(struct saf_wave *w, struct rs_driver *d, struct rs_result *res)
{
    struct rs_result r = *res;
    uint32_t maxq = w->max_queue, dist_congestion = 0;
    for (uint32_t l = 0; l < w->n; l++) /* fold what is still held (an empty run) */
        if (w->lv[l].alloc)
            level_free(w, l, 0);
    /* over ranks: the largest queue and the routes' congestion over every rank (collective:
     * every rank, whatever it is asked) */
    int rc = w->dist ? rs__wave_dist_collect(w, &dist_congestion, &maxq) : 0;
    if (rc)
        return rc;
    r.makespan = w->last_event;
    r.messages = (int64_t)w->n_msgs;
    r.delivered = (int64_t)w->delivered;
    r.dropped = 0;
    r.delivered_fraction = w->n_msgs ? (double)w->delivered / (double)w->n_msgs : 1.0;
    r.max_queue = maxq;
    rs_hist_summary(w->lat.count, w->lat.cap, &r);
    r.hops = (int64_t)w->hops;
    r.steps = w->step;
    r.deadlock = 0;
    r.rank_levels_used = 0;
    r.top_rank_messages = 0;
    r.top_rank_delivered = 0;
    *res = r;
    struct rs_engine_paths *out = d->in->paths;
    if (out) { /* the static routes' figures, whether or not every packet crossed */
        /* the count array: a spare level's ring entries (16 N bytes or more) when there is
         * one, as the levels are gone by now */
        if (w->dist) {
            out->congestion = w->n_msgs ? dist_congestion : 0;
            out->dilation = w->n_msgs ? w->n : 0;
            out->filled = 1;
            return 0;
        }
        uint64_t bytes = 2ull * w->N * sizeof(uint32_t);
        uint32_t *cnt = w->n_spare ? (uint32_t *)(void *)w->spare[0].ent : rs__huge_alloc(bytes);
        if (!cnt)
            return RS_ENOMEM;
        if (w->n_spare)
            memset(cnt, 0, bytes);
        out->congestion = w->n_msgs ? route_congestion(w, cnt) : 0;
        if (!w->n_spare)
            rs__huge_free(cnt, bytes);
        out->dilation = w->n_msgs ? w->n : 0;
        out->filled = 1;
    }
    return 0;
}
