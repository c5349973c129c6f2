/* The adversary of 004 Theorem 3.1: the store-and-forward step on the butterfly with one
 * queue of threshold q per switch, in which each packet's next edge is decided only when
 * its switch first selects it; a lifecycle run by the driver's loop (src/engine/driver.c).
 * Contracts in include/routesim/hard_perm.h; the rules are in docs/workloads.md
 * (hard_permutation). */
#include <stdio.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/driver.h"
#include "routesim/hard_perm.h"

#define HS_NONE UINT32_MAX
#define HS_DELIVER (UINT32_MAX - 1)

struct hsim {
    const struct rs_hard_params *hp;
    enum rs_hard_proto proto;
    uint32_t n, N, busy_n;     /* busy_n = N / r: inputs t < busy_n feed the input trees */
    uint32_t *head, *tail, *cnt; /* [n*N] queue of switch l*N + row (levels 0..n-1) */
    uint32_t *sel;             /* [n*N] priority: sticky selection + 1 (0 = none) */
    uint32_t *nsel;            /* [n*N] packets the switch has selected so far */
    uint32_t *next, *entered;  /* [N] per packet (= its source t, the message id) */
    uint32_t *dst;             /* [N] destination bits decided so far */
    uint8_t *chosen;           /* [N] the bit of the packet's current level is decided */
    uint64_t *nonempty;        /* bitmap of switches whose queue holds packets */
    uint32_t *mv_pkt, *mv_from, *mv_to; /* [N] this step's moves (from HS_NONE: a source) */
};

/* The edge the adversary gives the i-th packet switch <l, row> selects (its bit l). */
static uint32_t adversary_bit(const struct hsim *h, uint32_t l, uint32_t i)
{
    const struct rs_hard_params *hp = h->hp;
    uint32_t k = hp->k, r = hp->r, q2 = hp->q + 2;
    if (l < k) /* input tree: towards its root, whose low k bits are 0 */
        return 0;
    if (l < h->n - k) { /* busy sub-butterfly, depth j: the proof's recursion */
        uint32_t j = l - k, rj = r - j * q2, half = (rj - q2) / 2;
        RS_DASSERT(rj >= q2);
        if (i < half)
            return 0;
        if (i < 2 * half)
            return 1;
        return i < r / 2 + half ? 0 : 1; /* the last packets: r/2 to each side in all */
    }
    uint32_t R = r >> (l - (h->n - k)); /* output tree, depth l - (n-k): R packets */
    return i < R / 2 ? 0 : 1;
}

/* The packet switch v offers (docs/model-saf.md): fifo its oldest, priority its lowest id
 * (sticky), furthest_first the earliest arrival, then the lowest id (every packet at a
 * level of the butterfly has the same distance left). */
static uint32_t select_pkt(struct hsim *h, uint32_t v)
{
    uint32_t best = h->head[v];
    if (h->proto == RS_HARD_FIFO)
        return best;
    if (h->proto == RS_HARD_PRIORITY && h->sel[v])
        return h->sel[v] - 1;
    for (uint32_t m = h->next[best]; m != HS_NONE; m = h->next[m])
        if (h->proto == RS_HARD_PRIORITY ? m < best
                                         : (h->entered[m] < h->entered[best] ||
                                            (h->entered[m] == h->entered[best] && m < best)))
            best = m;
    if (h->proto == RS_HARD_PRIORITY)
        h->sel[v] = best + 1;
    return best;
}

/* Where packet m goes from switch v = <l, row> (selected there, its bit l decided). */
static uint32_t target_of(const struct hsim *h, uint32_t m, uint32_t v)
{
    uint32_t l = v / h->N, row = v % h->N, bit = (h->dst[m] >> l) & 1;
    if (l + 1 == h->n)
        return HS_DELIVER;
    return (l + 1) * h->N + ((row & ~(1u << l)) | (bit << l));
}

/* Decide bit l of busy packet m, selected by switch v at level l. */
static void decide(struct hsim *h, uint32_t m, uint32_t v)
{
    if (h->chosen[m])
        return;
    h->chosen[m] = 1;
    if (m >= h->busy_n) /* outside the busy structure: fixed in advance */
        return;
    uint32_t l = v / h->N, b = adversary_bit(h, l, h->nsel[v]++);
    h->dst[m] = (h->dst[m] & ~(1u << l)) | (b << l);
}

static void unlink_pkt(struct hsim *h, uint32_t v, uint32_t m)
{
    if (h->head[v] == m) {
        h->head[v] = h->next[m];
    } else {
        uint32_t p = h->head[v];
        while (h->next[p] != m)
            p = h->next[p];
        h->next[p] = h->next[m];
        if (h->tail[v] == m)
            h->tail[v] = p;
    }
    if (--h->cnt[v] == 0)
        h->nonempty[v / 64] &= ~(1ull << (v % 64));
    h->sel[v] = 0;
}

static void push_pkt(struct hsim *h, uint32_t v, uint32_t m, uint32_t step)
{
    h->next[m] = HS_NONE;
    if (h->cnt[v]++ == 0)
        h->head[v] = m;
    else
        h->next[h->tail[v]] = m;
    h->tail[v] = m;
    h->entered[m] = step;
    h->nonempty[v / 64] |= 1ull << (v % 64);
}

/* One step: every switch holding packets offers its selection, which moves if its next
 * queue held at most q packets at the start of the step (or it is delivered); then the
 * sources inject (increasing t); departures, then arrivals in that order. Returns the
 * number of deliveries, or -1 when nothing moved. */
static int64_t step_once(struct hsim *h, uint32_t step, uint8_t *at_source)
{
    uint32_t nm = 0, q = h->hp->q;
    uint64_t words = ((uint64_t)h->n * h->N + 63) / 64;
    for (uint64_t w = 0; w < words; w++)
        for (uint64_t bits = h->nonempty[w]; bits; bits &= bits - 1) {
            uint32_t v = (uint32_t)(w * 64 + (uint64_t)__builtin_ctzll(bits));
            uint32_t m = select_pkt(h, v);
            decide(h, m, v);
            uint32_t to = target_of(h, m, v);
            if (to == HS_DELIVER || h->cnt[to] <= q) {
                h->mv_pkt[nm] = m;
                h->mv_from[nm] = v;
                h->mv_to[nm++] = to;
            }
        }
    for (uint32_t t = 0; t < h->N; t++) {
        if (!at_source[t])
            continue;
        decide(h, t, t); /* its source at <0, t> selects it */
        uint32_t to = target_of(h, t, t);
        if (to == HS_DELIVER || h->cnt[to] <= q) {
            h->mv_pkt[nm] = t;
            h->mv_from[nm] = HS_NONE;
            h->mv_to[nm++] = to;
        }
    }
    if (nm == 0)
        return -1;
    for (uint32_t i = 0; i < nm; i++)
        if (h->mv_from[i] == HS_NONE)
            at_source[h->mv_pkt[i]] = 0;
        else
            unlink_pkt(h, h->mv_from[i], h->mv_pkt[i]);
    int64_t delivered = 0;
    for (uint32_t i = 0; i < nm; i++) {
        h->chosen[h->mv_pkt[i]] = 0;
        if (h->mv_to[i] == HS_DELIVER)
            delivered++;
        else
            push_pkt(h, h->mv_to[i], h->mv_pkt[i], step);
    }
    return delivered;
}

static void hsim_free(struct hsim *h)
{
    rs_free(h->head);
    rs_free(h->tail);
    rs_free(h->cnt);
    rs_free(h->sel);
    rs_free(h->nsel);
    rs_free(h->next);
    rs_free(h->entered);
    rs_free(h->chosen);
    rs_free(h->nonempty);
    rs_free(h->mv_pkt);
    rs_free(h->mv_from);
    rs_free(h->mv_to);
}

/* ---- the lifecycle (the loop is the driver's, src/engine/driver.c) ----------------------- */

/* The typed set-up argument (rs_driver.extra). */
struct hsim_args {
    const struct rs_hard_params *hp;
    enum rs_hard_proto proto;
    uint32_t *dst, *makespan;
};

/* The simulation: the state above, the sources still holding their packet, the count. */
struct hsim_run {
    struct hsim h;
    uint8_t *at_source; /* [N] */
    uint32_t left, step;
};

static int hsim_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct hsim_run *r = st;
    const struct hsim_args *a = d->extra;
    const struct rs_hard_params *hp = a->hp;
    struct hsim *h = &r->h;
    uint32_t *dst = a->dst;
    h->hp = hp;
    h->proto = a->proto;
    h->n = hp->n;
    h->N = 1u << hp->n;
    h->busy_n = h->N >> hp->k;
    h->dst = dst;
    size_t nodes = (size_t)h->n * h->N;
    h->head = rs_malloc(nodes * sizeof *h->head);
    h->tail = rs_malloc(nodes * sizeof *h->tail);
    h->cnt = rs_calloc(nodes, sizeof *h->cnt);
    h->sel = rs_calloc(nodes, sizeof *h->sel);
    h->nsel = rs_calloc(nodes, sizeof *h->nsel);
    h->next = rs_malloc(h->N * sizeof *h->next);
    h->entered = rs_calloc(h->N, sizeof *h->entered);
    h->chosen = rs_calloc(h->N, 1);
    h->nonempty = rs_calloc((nodes + 63) / 64, sizeof *h->nonempty);
    h->mv_pkt = rs_malloc(h->N * sizeof *h->mv_pkt);
    h->mv_from = rs_malloc(h->N * sizeof *h->mv_from);
    h->mv_to = rs_malloc(h->N * sizeof *h->mv_to);
    r->at_source = rs_malloc(h->N);
    if (!h->head || !h->tail || !h->cnt || !h->sel || !h->nsel || !h->next || !h->entered ||
        !h->chosen || !h->nonempty || !h->mv_pkt || !h->mv_from || !h->mv_to || !r->at_source)
        return rs_err_set(err, RS_ENOMEM, "traffic=hard_permutation: out of memory for N=%u",
                          h->N);
    memset(r->at_source, 1, h->N);
    /* the packets outside the busy structure (top k bits of the source not all 0) go to the
     * outputs whose low k bits are not all 0: the two k-bit fields swapped. Their paths
     * never meet the input trees, the busy sub-butterfly or the output trees. */
    uint32_t k = hp->k, low = (1u << k) - 1, shift = h->n - k;
    for (uint32_t t = 0; t < h->N; t++)
        dst[t] = t < h->busy_n ? 0
                               : (t & ~(low | (low << shift))) | ((t >> shift) & low) |
                                     ((t & low) << shift);
    d->remaining = r->left = h->N;
    return 0;
}

static int hsim_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct hsim_run *r = st;
    (void)err;
    int64_t got = step_once(&r->h, ++r->step, r->at_source);
    d->step = r->step;
    d->live = r->left;
    if (got < 0) /* nothing moved: the driver's stall rule reports the defect */
        return 0;
    d->moved = 1;
    r->left -= (uint32_t)got;
    d->remaining = r->left;
    return 0;
}

static void hsim_describe(void *st, char *buf, size_t n)
{
    const struct hsim_run *r = st;
    snprintf(buf, n, "%u of %u packets undelivered (a butterfly's sinks always drain)", r->left,
             r->h.N);
}

static int hsim_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    const struct hsim_run *r = st;
    const struct hsim_args *a = d->extra;
    (void)res;
    (void)deadlock;
    if (a->makespan)
        *a->makespan = r->step;
    return 0;
}

static void hsim_life_free(void *st)
{
    struct hsim_run *r = st;
    hsim_free(&r->h);
    rs_free(r->at_source);
}

static const struct rs_engine_life hsim_life = {
    .size = sizeof(struct hsim_run),
    .init = hsim_init,
    .step = hsim_step,
    .stall = RS_STALL_DEFECT,
    .describe_deadlock = hsim_describe,
    .collect = hsim_collect,
    .free = hsim_life_free,
};

int rs_hard_build(const struct rs_hard_params *hp, enum rs_hard_proto proto, uint32_t *dst,
                  uint32_t *makespan, struct rs_err *err)
{
    RS_ASSERT(hp->n >= 2 && hp->n <= 31 && hp->k >= 1 && 2 * hp->k <= hp->n);
    struct hsim_args a = {.hp = hp, .proto = proto, .dst = dst, .makespan = makespan};
    struct rs_engine_input in = {.check = 0};
    return rs__driver_run_life("traffic=hard_permutation's adversary", &hsim_life, &in, &a,
                               NULL, NULL, 0, err);
}
