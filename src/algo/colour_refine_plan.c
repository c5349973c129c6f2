/* The off-line colour-refinement schedule (001 §2.1: Lemma 2.1.5, Theorem 2.1.6), made
 * constructive by Moser-Tardos resampling. Contracts in colour_refine_plan.h; the model and
 * every decision where the paper leaves room are in docs/colour-refine.md. */
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "algo/colour_refine_plan.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/rng.h"

#define E_CONST 2.718281828459045

/* ---- the steps of Theorem 2.1.6 ----------------------------------------------------- */

/* log2 D, with D <= 1 read as 2 (the proof assumes D >= 2: condition 2 divides by it). */
static double log_d(uint32_t D)
{
    return log2(D < 2 ? 2.0 : (double)D);
}

static int add_step(struct rs__cr_step *steps, int *n, int condition, double m_s, double m_f,
                    double r, struct rs_err *err)
{
    double rr = ceil(r);
    if (rr < 1)
        rr = 1;
    if (rr > 4294967295.0)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "colour refinement: step %d (Lemma 2.1.5 condition %d, m_s=%.6g) "
                          "needs r=%.6g colours per class (at most 2^32-1)",
                          *n + 1, condition, m_s, r);
    if (*n == RS__CR_MAX_STEPS)
        return rs_err_set(err, RS_ECONSTRAINT, "colour refinement needs more than %d steps",
                          RS__CR_MAX_STEPS);
    struct rs__cr_step *s = &steps[(*n)++];
    memset(s, 0, sizeof *s);
    s->condition = condition;
    s->m_s = m_s;
    s->m_f = (uint32_t)floor(m_f);
    s->r = s->r_proof = (uint64_t)rr;
    return 0;
}

/* Condition 1 (log D >= m_s > B): m_f = B, r = 3e (D m_s)^(1/B) m_s / B. */
static int cond1(struct rs__cr_step *steps, int *n, double m_s, uint32_t D, uint32_t B,
                 struct rs_err *err)
{
    double r = 3 * E_CONST * pow((double)D * m_s, 1.0 / B) * m_s / B;
    return add_step(steps, n, 1, m_s, B, r, err);
}

/* Condition 2 (D >= m_s > log D): m_f = log D, r = 32e m_s / log D; the integer bound is
 * never taken below B (the last step's target). */
static int cond2(struct rs__cr_step *steps, int *n, double m_s, uint32_t D, uint32_t B,
                 struct rs_err *err)
{
    double lg = log_d(D), m_f = floor(lg) > B ? floor(lg) : B;
    return add_step(steps, n, 2, m_s, m_f, 32 * E_CONST * m_s / lg, err);
}

int rs__cr_steps(uint32_t C, uint32_t D, uint32_t B, struct rs__cr_step *steps, int *n,
                 enum rs__cr_case *thm, struct rs_err *err)
{
    double lg = log_d(D);
    int rc = 0;
    *n = 0;
    if (C <= B) { /* "otherwise all messages can be routed simultaneously" */
        *thm = RS__CR_FEW;
        return 0;
    }
    if (C <= lg) { /* Case 1: m_s = C, m_f = B, r = 3e (D C)^(1/B) C / B */
        *thm = RS__CR_CASE1;
        return cond1(steps, n, C, D, B, err);
    }
    double m = C;
    if (C > D) { /* Case 2, first step: condition 3 until the multiplex size is D */
        *thm = RS__CR_CASE2;
        while (m > D && log(m) > 1) {
            double m_f = fmax(D, 15 * pow(log(m), 3));
            double r = m / ((1 - 1 / log(m)) * m_f);
            if (r < 2) /* 15 ln^3 m is not below m/2: no step of condition 3 can help */
                break;
            if ((rc = add_step(steps, n, 3, m, m_f, r, err)))
                return rc;
            m = floor(m_f);
        }
    } else {
        *thm = RS__CR_CASE2A;
    }
    /* Case 2a's first step / case 2's second: condition 2 down to log D */
    if ((rc = cond2(steps, n, m, D, B, err)))
        return rc;
    /* then condition 1 from log D to B, unless condition 2 already reached B */
    if (floor(lg) > B)
        rc = cond1(steps, n, lg, D, B, err);
    return rc;
}

/* ---- (colour, edge) counts ---------------------------------------------------------- */

/* Open-addressing map from (colour, edge) to a count. Counts that drop to 0 stay as
 * entries; the map is rebuilt from the current colours when half full. */
struct counts {
    uint64_t cap, used;
    uint64_t *colour; /* colour + 1; 0 = empty */
    uint32_t *edge, *count;
};

static uint64_t mix(uint64_t colour, uint32_t edge)
{
    uint64_t k = colour * 0x9e3779b97f4a7c15ull ^ ((uint64_t)edge * 0xc2b2ae3d27d4eb4full);
    k ^= k >> 31;
    k *= 0xbf58476d1ce4e5b9ull;
    return k ^ (k >> 29);
}

static int counts_alloc(struct counts *t, uint64_t cap)
{
    rs_free(t->colour);
    rs_free(t->edge);
    rs_free(t->count);
    t->cap = cap;
    t->used = 0;
    t->colour = rs_calloc(cap, sizeof *t->colour);
    t->edge = rs_malloc(cap * sizeof *t->edge);
    t->count = rs_malloc(cap * sizeof *t->count);
    return t->colour && t->edge && t->count ? 0 : RS_ENOMEM;
}

static void counts_free(struct counts *t)
{
    rs_free(t->colour);
    rs_free(t->edge);
    rs_free(t->count);
    memset(t, 0, sizeof *t);
}

/* Slot of (colour, edge), inserting it with count 0 when absent. The caller keeps the map
 * below half full. */
static uint32_t *counts_slot(struct counts *t, uint64_t colour, uint32_t edge)
{
    uint64_t j = mix(colour, edge) & (t->cap - 1);
    while (t->colour[j]) {
        if (t->colour[j] == colour + 1 && t->edge[j] == edge)
            return &t->count[j];
        j = (j + 1) & (t->cap - 1);
    }
    t->colour[j] = colour + 1;
    t->edge[j] = edge;
    t->count[j] = 0;
    t->used++;
    return &t->count[j];
}

static uint32_t counts_get(const struct counts *t, uint64_t colour, uint32_t edge)
{
    uint64_t j = mix(colour, edge) & (t->cap - 1);
    while (t->colour[j]) {
        if (t->colour[j] == colour + 1 && t->edge[j] == edge)
            return t->count[j];
        j = (j + 1) & (t->cap - 1);
    }
    return 0;
}

/* ---- candidate events: a min-heap of (colour, edge) -------------------------------- */

struct event {
    uint64_t colour;
    uint32_t edge;
};

struct heap {
    struct event *v;
    uint64_t n, cap;
};

static int ev_less(struct event a, struct event b)
{
    return a.colour < b.colour || (a.colour == b.colour && a.edge < b.edge);
}

static int heap_push(struct heap *h, uint64_t colour, uint32_t edge)
{
    if (h->n == h->cap) {
        uint64_t cap = h->cap ? 2 * h->cap : 1024;
        struct event *v = rs_realloc(h->v, cap * sizeof *v);
        if (!v)
            return RS_ENOMEM;
        h->v = v;
        h->cap = cap;
    }
    uint64_t i = h->n++;
    struct event e = {colour, edge};
    while (i > 0 && ev_less(e, h->v[(i - 1) / 2])) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = e;
    return 0;
}

static struct event heap_pop(struct heap *h)
{
    struct event top = h->v[0], last = h->v[--h->n];
    uint64_t i = 0;
    for (;;) {
        uint64_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && ev_less(h->v[c + 1], h->v[c]))
            c++;
        if (!ev_less(h->v[c], last))
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

/* ---- the planner -------------------------------------------------------------------- */

/* Working state: paths as dense edge indices, the messages on each edge, colours. */
struct work {
    uint64_t n_msgs, n_hops;
    const uint64_t *off;  /* [n_msgs+1] from the path set */
    uint32_t *hop_edge;   /* [n_hops] dense edge index of each hop */
    uint32_t n_edges;
    uint64_t *emsg_off;   /* [n_edges+1] */
    uint32_t *emsg;       /* messages on each edge, increasing */
    uint32_t *colour;     /* [n_msgs] class before the step (0 .. classes-1) */
    uint64_t *nc;         /* [n_msgs] colour in the step: colour * r + choice */
    uint32_t *draws;      /* [n_msgs] draws of the message in this step */
    uint32_t *pick;       /* [max m_f + 1] messages of the event being resampled */
    struct counts cnt;
    struct heap heap;
};

static void work_free(struct work *w)
{
    rs_free(w->hop_edge);
    rs_free(w->emsg_off);
    rs_free(w->emsg);
    rs_free(w->colour);
    rs_free(w->nc);
    rs_free(w->draws);
    rs_free(w->pick);
    counts_free(&w->cnt);
    rs_free(w->heap.v);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Dense edge indices, the edge -> messages lists, C, D; refuses non-edge-simple paths. */
static int work_init(struct work *w, const struct rs_path_set *ps, uint32_t *C, uint32_t *D,
                     struct rs_err *err)
{
    memset(w, 0, sizeof *w);
    w->n_msgs = ps->n_msgs;
    w->off = ps->off;
    w->n_hops = ps->off[ps->n_msgs];
    uint64_t H = w->n_hops, M = w->n_msgs;
    uint64_t *ids = rs_malloc((size_t)(H ? H : 1) * sizeof *ids);
    w->hop_edge = rs_malloc((size_t)(H ? H : 1) * sizeof *w->hop_edge);
    w->colour = rs_calloc((size_t)(M ? M : 1), sizeof *w->colour);
    w->nc = rs_malloc((size_t)(M ? M : 1) * sizeof *w->nc);
    w->draws = rs_malloc((size_t)(M ? M : 1) * sizeof *w->draws);
    w->emsg = rs_malloc((size_t)(H ? H : 1) * sizeof *w->emsg);
    if (!ids || !w->hop_edge || !w->colour || !w->nc || !w->draws || !w->emsg) {
        rs_free(ids);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu hops", (unsigned long long)H);
    }
    memcpy(ids, ps->chan, (size_t)H * sizeof *ids);
    qsort(ids, (size_t)H, sizeof *ids, cmp_u64);
    uint64_t E = 0;
    for (uint64_t i = 0; i < H; i++)
        if (E == 0 || ids[i] != ids[E - 1])
            ids[E++] = ids[i];
    w->n_edges = (uint32_t)E;
    w->emsg_off = rs_calloc((size_t)E + 1, sizeof *w->emsg_off);
    if (!w->emsg_off) {
        rs_free(ids);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channels",
                          (unsigned long long)E);
    }
    *C = *D = 0;
    for (uint64_t m = 0; m < M; m++) {
        uint64_t len = ps->off[m + 1] - ps->off[m];
        if (len > *D)
            *D = (uint32_t)len;
        for (uint64_t h = ps->off[m]; h < ps->off[m + 1]; h++) {
            const uint64_t *at = bsearch(&ps->chan[h], ids, (size_t)E, sizeof *ids, cmp_u64);
            w->hop_edge[h] = (uint32_t)(at - ids);
            w->emsg_off[w->hop_edge[h] + 1]++;
        }
        /* edge-simple: a sorted copy of the message's edges has no neighbours alike */
        memcpy(w->emsg, w->hop_edge + ps->off[m], (size_t)len * sizeof *w->emsg);
        qsort(w->emsg, (size_t)len, sizeof *w->emsg, cmp_u32);
        for (uint64_t i = 1; i < len; i++)
            if (w->emsg[i] == w->emsg[i - 1]) {
                uint64_t c = ids[w->emsg[i]];
                rs_free(ids);
                return rs_err_set(err, RS_EINVAL,
                                  "message %llu takes channel %llu twice: the colour-refinement "
                                  "schedule needs edge-simple paths (001 §1.4)",
                                  (unsigned long long)m, (unsigned long long)c);
            }
    }
    rs_free(ids);
    for (uint64_t e = 0; e < E; e++) {
        if (w->emsg_off[e + 1] > *C)
            *C = (uint32_t)w->emsg_off[e + 1];
        w->emsg_off[e + 1] += w->emsg_off[e];
    }
    uint64_t *fill = rs_malloc(((size_t)E + 1) * sizeof *fill);
    if (!fill)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channels",
                          (unsigned long long)E);
    memcpy(fill, w->emsg_off, ((size_t)E + 1) * sizeof *fill);
    for (uint64_t m = 0; m < M; m++) /* messages in increasing id on every edge */
        for (uint64_t h = ps->off[m]; h < ps->off[m + 1]; h++)
            w->emsg[fill[w->hop_edge[h]]++] = (uint32_t)m;
    rs_free(fill);
    return 0;
}

/* (Re)build the counts of the current colours nc[] in a map of at least 4 * hops slots. */
static int recount(struct work *w)
{
    uint64_t cap = 1024;
    while (cap < 4 * w->n_hops)
        cap *= 2;
    if (counts_alloc(&w->cnt, cap))
        return RS_ENOMEM;
    for (uint64_t m = 0; m < w->n_msgs; m++)
        for (uint64_t h = w->off[m]; h < w->off[m + 1]; h++)
            (*counts_slot(&w->cnt, w->nc[m], w->hop_edge[h]))++;
    return 0;
}

/* Draw message m's colour in step s (0-based) with r colours per class: colour * r + a
 * uniform choice from the stream (seed, RS_STREAM_COLOUR, m, s * 2^24 + draw). */
static int draw(struct work *w, uint64_t seed, int s, uint64_t r, uint64_t m)
{
    if (w->draws[m] >= (1u << 24))
        return RS_ECONSTRAINT;
    struct rs_rng g;
    rs_rng_init(&g, seed, RS_STREAM_COLOUR, m, ((uint32_t)s << 24) | w->draws[m]++);
    w->nc[m] = (uint64_t)w->colour[m] * r + rs_rng_below(&g, (uint32_t)r);
    return 0;
}

/* Move message m from its colour to a fresh one: counts down, draw, counts up (and
 * candidate events for the counts now above m_f). */
static int resample(struct work *w, uint64_t seed, int s, const struct rs__cr_step *st,
                    uint64_t m)
{
    uint64_t len = w->off[m + 1] - w->off[m];
    if (2 * (w->cnt.used + len) > w->cnt.cap && recount(w)) /* half full: rebuild */
        return RS_ENOMEM;
    for (uint64_t h = w->off[m]; h < w->off[m + 1]; h++)
        (*counts_slot(&w->cnt, w->nc[m], w->hop_edge[h]))--;
    int rc = draw(w, seed, s, st->r, m);
    if (rc)
        return rc;
    for (uint64_t h = w->off[m]; h < w->off[m + 1]; h++) {
        uint32_t e = w->hop_edge[h], *c = counts_slot(&w->cnt, w->nc[m], e);
        if (++*c > st->m_f && heap_push(&w->heap, w->nc[m], e))
            return RS_ENOMEM;
    }
    return 0;
}

/* One step of Lemma 2.1.5: random colours, then Moser-Tardos. The bad events are the
 * proof's: for a new colour c, an edge e and a set S of m_f + 1 messages crossing e,
 * "every message of S has colour c". While one occurs, the one with the lowest id (c, then
 * e, then S in increasing message ids) is resampled: the messages of S draw new colours. */
static int refine(struct work *w, uint64_t seed, int s, struct rs__cr_step *st, uint64_t cap,
                  struct rs_err *err)
{
    int rc = 0;
    memset(w->draws, 0, (size_t)w->n_msgs * sizeof *w->draws);
    for (uint64_t m = 0; m < w->n_msgs; m++)
        draw(w, seed, s, st->r, m);
    if (recount(w))
        return rs_err_set(err, RS_ENOMEM, "out of memory for colour counts");
    w->heap.n = 0;
    for (uint64_t m = 0; m < w->n_msgs && !rc; m++)
        for (uint64_t h = w->off[m]; h < w->off[m + 1] && !rc; h++)
            if (counts_get(&w->cnt, w->nc[m], w->hop_edge[h]) > st->m_f)
                rc = heap_push(&w->heap, w->nc[m], w->hop_edge[h]);
    rs_free(w->pick);
    w->pick = rs_malloc(((size_t)st->m_f + 1) * sizeof *w->pick);
    if (rc || !w->pick)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the resampling");
    while (w->heap.n) {
        struct event ev = heap_pop(&w->heap);
        if (counts_get(&w->cnt, ev.colour, ev.edge) <= st->m_f)
            continue; /* no longer occurs */
        if (st->resamples == cap)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "colour refinement: step %d (Lemma 2.1.5 condition %d, m_f=%u, "
                              "r=%llu) still has a bad event after %llu resamplings "
                              "(max_resamples)",
                              s + 1, st->condition, st->m_f, (unsigned long long)st->r,
                              (unsigned long long)cap);
        st->resamples++;
        uint32_t k = 0;
        for (uint64_t i = w->emsg_off[ev.edge]; i < w->emsg_off[ev.edge + 1] && k <= st->m_f; i++)
            if (w->nc[w->emsg[i]] == ev.colour)
                w->pick[k++] = w->emsg[i];
        for (uint32_t i = 0; i < k; i++) {
            rc = resample(w, seed, s, st, w->pick[i]);
            if (rc == RS_ECONSTRAINT)
                return rs_err_set(err, rc, "colour refinement: message %u drew 2^24 colours "
                                  "in step %d", w->pick[i], s + 1);
            if (rc)
                return rs_err_set(err, rc, "out of memory for colour counts");
        }
        if (heap_push(&w->heap, ev.colour, ev.edge)) /* it may still occur */
            return rs_err_set(err, RS_ENOMEM, "out of memory for the resampling");
    }
    return 0;
}

/* The multiplex size of the current classes: the most messages of one class on an edge.
 * Leaves nc[] = colour[]. */
static int multiplex(struct work *w, uint32_t *out)
{
    for (uint64_t m = 0; m < w->n_msgs; m++)
        w->nc[m] = w->colour[m];
    if (recount(w))
        return RS_ENOMEM;
    *out = 0;
    for (uint64_t j = 0; j < w->cnt.cap; j++)
        if (w->cnt.colour[j] && w->cnt.count[j] > *out)
            *out = w->cnt.count[j];
    return 0;
}

/* RS__CR_TIGHT: the smallest r for step st that the search finds converging within cap
 * resamplings. The lemma's r (st->r on entry) must converge (else the error of the proof's
 * constants); fewer than ceil(multiplex / m_f) colours cannot (pigeonhole). Between the two
 * the search takes geometric means while the bracket spans more than a factor 2, then
 * halves it. Ends with the state of a run with the r found (nc[], counts), as refine does. */
static int search_r(struct work *w, uint64_t seed, int s, struct rs__cr_step *st, uint64_t cap,
                    struct rs_err *err)
{
    uint32_t mult;
    int rc;
    if ((rc = refine(w, seed, s, st, cap, err)))
        return rc;
    if (multiplex(w, &mult))
        return rs_err_set(err, RS_ENOMEM, "out of memory for colour counts");
    uint64_t hi = st->r, need = (mult + st->m_f - 1) / st->m_f;
    uint64_t lo = need > 1 ? need - 1 : 0; /* r = lo is known to fail (0: none) */
    if (lo >= hi)
        lo = hi - 1;
    while (hi - lo > 1) {
        uint64_t base = lo ? lo : 1, mid;
        if (hi > 2 * base)
            mid = (uint64_t)sqrt((double)base * (double)hi);
        else
            mid = lo + (hi - lo) / 2;
        if (mid <= lo)
            mid = lo + 1;
        if (mid >= hi)
            mid = hi - 1;
        struct rs__cr_step t = *st;
        struct rs_err scratch;
        t.r = mid;
        t.resamples = 0;
        st->trials++;
        rc = refine(w, seed, s, &t, cap, &scratch);
        if (rc == 0)
            hi = mid;
        else if (rc == RS_ECONSTRAINT) /* over the cap: too few colours */
            lo = mid;
        else
            return rs_err_set(err, rc, "%s", scratch.msg);
    }
    st->r = hi;
    st->resamples = 0;
    return refine(w, seed, s, st, cap, err); /* the r found, once more: the plan's state */
}

/* Renumber the colours nc[] into classes 0..k-1 in increasing colour order. */
static int compact(struct work *w, uint64_t *classes)
{
    uint64_t M = w->n_msgs, *sorted = rs_malloc((size_t)(M ? M : 1) * sizeof *sorted), k = 0;
    if (!sorted)
        return RS_ENOMEM;
    memcpy(sorted, w->nc, (size_t)M * sizeof *sorted);
    qsort(sorted, (size_t)M, sizeof *sorted, cmp_u64);
    for (uint64_t i = 0; i < M; i++)
        if (k == 0 || sorted[i] != sorted[k - 1])
            sorted[k++] = sorted[i];
    for (uint64_t m = 0; m < M; m++) {
        const uint64_t *at = bsearch(&w->nc[m], sorted, (size_t)k, sizeof *sorted, cmp_u64);
        w->colour[m] = (uint32_t)(at - sorted);
    }
    rs_free(sorted);
    *classes = k;
    return 0;
}

/* The promise of the plan, checked on the result: at most B messages of one class on any
 * edge. */
static int check_final(struct work *w, uint32_t B, struct rs_err *err)
{
    for (uint64_t m = 0; m < w->n_msgs; m++)
        w->nc[m] = w->colour[m];
    if (recount(w))
        return rs_err_set(err, RS_ENOMEM, "out of memory for colour counts");
    for (uint64_t j = 0; j < w->cnt.cap; j++)
        if (w->cnt.colour[j] && w->cnt.count[j] > B)
            return rs_err_set(err, RS_EINVARIANT,
                              "colour refinement: class %llu puts %u messages on one channel "
                              "(B=%u)",
                              (unsigned long long)(w->cnt.colour[j] - 1), w->cnt.count[j], B);
    return 0;
}

int rs__cr_plan_build(struct rs__cr_plan *plan, const struct rs__cr_input *in,
                      struct rs_err *err)
{
    struct work w;
    int rc;
    RS_ASSERT(plan != NULL && in != NULL);
    memset(plan, 0, sizeof *plan);
    if (in->B == 0 || in->L == 0)
        return rs_err_set(err, RS_EINVAL, "colour refinement needs B >= 1 and L >= 1 (got B=%u "
                          "L=%u)", in->B, in->L);
    if (in->paths->n_msgs >= (1ull << 32))
        return rs_err_set(err, RS_ECONSTRAINT, "colour refinement supports fewer than 2^32 "
                          "messages");
    plan->B = in->B;
    plan->L = in->L;
    plan->n_msgs = in->paths->n_msgs;
    if ((rc = work_init(&w, in->paths, &plan->congestion, &plan->dilation, err)) ||
        (rc = rs__cr_steps(plan->congestion, plan->dilation, in->B, plan->steps,
                           &plan->n_steps, &plan->thm_case, err)))
        goto out;
    uint64_t cap = in->max_resamples ? in->max_resamples : 100 * plan->n_msgs + 1000;
    uint64_t classes = plan->n_msgs ? 1 : 0;
    plan->kappa = 1;
    for (int s = 0; s < plan->n_steps; s++) {
        struct rs__cr_step *st = &plan->steps[s];
        if ((rc = in->constants == RS__CR_TIGHT ? search_r(&w, in->seed, s, st, cap, err)
                                                : refine(&w, in->seed, s, st, cap, err)))
            goto out;
        if ((rc = compact(&w, &classes))) {
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the colour classes");
            goto out;
        }
        st->classes = classes;
        plan->kappa *= (double)st->r;
    }
    if ((rc = check_final(&w, in->B, err)))
        goto out;
    plan->n_classes = classes;
    plan->period = (uint64_t)in->L + plan->dilation - 1;
    plan->length = classes * plan->period;
    plan->colour = w.colour;
    w.colour = NULL;
    plan->release = rs_malloc((size_t)(plan->n_msgs ? plan->n_msgs : 1) * sizeof *plan->release);
    if (!plan->release) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the release steps");
        goto out;
    }
    for (uint64_t m = 0; m < plan->n_msgs; m++)
        plan->release[m] = plan->colour[m] * plan->period;
out:
    work_free(&w);
    if (rc)
        rs__cr_plan_free(plan);
    return rc;
}

void rs__cr_plan_free(struct rs__cr_plan *plan)
{
    rs_free(plan->colour);
    rs_free(plan->release);
    memset(plan, 0, sizeof *plan);
}
