/* One stage of a circuit cycle, serially or on `threads` OpenMP threads (the run key
 * threads=T, issue 23 item 2). A stage's decisions are made resource by resource, each a
 * function of that resource's requests only (keys from Philox streams keyed by message,
 * stage and cycle; ties by message id), and a message makes one request per stage (every
 * channel of its path in the all-at-once mode, where a lost channel only sets its fail
 * flag). So the threads split the stage twice: thread j builds the requests of items
 * [j n / T, (j+1) n / T), then the requests are redistributed by resource id over T equal
 * ranges of [lo, hi] (the stage's smallest and largest ids), and thread k groups and decides
 * range k. Counters are per thread and summed (locks) or maxed (max_circ) after the stage;
 * touched channels are per thread. The outcome is the same bytes for every T. */
#include <omp.h>
#include <string.h>

#include "engine/circuit.h"
#include "routesim/alloc.h"

/* One thread's share: its view of the engine (c's fields with its own scratch and
 * counters) and the requests it built. */
struct circ_thr {
    struct circ tc;
    struct circ_req *own; /* requests built from its items */
    struct circ_ranked *run;
    uint32_t *cnt, *sigma, *ucnt, *touched;
    uint64_t cap, touch_cap, n_touched;
    uint32_t n_own, lo, hi;
    uint64_t *dcnt;       /* [T] its requests per range */
    uint64_t *cur;        /* [T] where its next request of each range goes in c->req */
    uint64_t part, n_part; /* its range's requests: c->req / c->grp [part, part + n_part) */
};

void rs__circ_par_free(struct circ *c)
{
    if (c->thr)
        for (uint32_t j = 0; j < c->threads; j++) {
            struct circ_thr *th = &c->thr[j];
            rs_free(th->own);
            rs_free(th->run);
            rs_free(th->cnt);
            rs_free(th->sigma);
            rs_free(th->ucnt);
            rs_free(th->touched);
            rs_free(th->dcnt);
            rs_free(th->cur);
        }
    rs_free(c->thr);
    c->thr = NULL;
}

/* Allocate (first call) and grow the threads' scratch. Returns 0 or RS_ENOMEM. */
static int par_alloc(struct circ *c, uint64_t n_req, uint64_t n_touch)
{
    uint32_t T = c->threads;
    if (!c->thr) {
        if (!(c->thr = rs_calloc(T, sizeof *c->thr)))
            return RS_ENOMEM;
        uint32_t dmax = 1, umax = 1;
        for (uint32_t i = 0; c->lc && i < c->lc->l; i++) {
            dmax = c->lc->d[i] > dmax ? c->lc->d[i] : dmax;
            umax = c->lc->u[i] > umax ? c->lc->u[i] : umax;
        }
        for (uint32_t j = 0; j < T; j++) {
            struct circ_thr *th = &c->thr[j];
            th->cnt = rs_malloc((size_t)c->cnt_cap * sizeof *th->cnt);
            th->dcnt = rs_malloc((size_t)T * sizeof *th->dcnt);
            th->cur = rs_malloc((size_t)T * sizeof *th->cur);
            th->sigma = rs_malloc(dmax * sizeof *th->sigma);
            th->ucnt = rs_malloc(umax * sizeof *th->ucnt);
            if (!th->cnt || !th->dcnt || !th->cur || !th->sigma || !th->ucnt)
                return RS_ENOMEM;
        }
    }
    for (uint32_t j = 0; j < T; j++) {
        struct circ_thr *th = &c->thr[j];
        if (th->cap < n_req) {
            struct circ_req *own = rs_realloc(th->own, (size_t)(n_req + 1) * sizeof *own);
            if (own)
                th->own = own;
            struct circ_ranked *run = rs_realloc(th->run, (size_t)(n_req + 1) * sizeof *run);
            if (run)
                th->run = run;
            if (!own || !run)
                return RS_ENOMEM;
            th->cap = n_req;
        }
        if (th->touch_cap < n_touch) {
            uint32_t *t = rs_realloc(th->touched, (size_t)(n_touch + 1) * sizeof *t);
            if (!t)
                return RS_ENOMEM;
            th->touched = t;
            th->touch_cap = n_touch;
        }
    }
    return 0;
}

void rs__circ_par_begin(struct circ *c, uint64_t n_req, uint64_t n_touch)
{
    c->par_now = c->threads > 1 && par_alloc(c, n_req, n_touch) == 0;
}

void rs__circ_par_untouch(struct circ *c)
{
    for (uint32_t j = 0; c->thr && j < c->threads; j++) {
        struct circ_thr *th = &c->thr[j];
        for (uint64_t t = 0; t < th->n_touched; t++)
            c->used[th->touched[t]] = 0;
        th->n_touched = 0;
    }
}

/* The range of resource res: [lo, hi] cut into T equal parts. */
static inline uint32_t range_of(uint32_t res, uint32_t lo, uint64_t span, uint32_t T)
{
    return (uint32_t)((uint64_t)(res - lo) * T / span);
}

/* Phase 1, thread j: its view, and the requests of its items. */
static void ph_build(struct circ *c, const struct circ_stage *s, uint32_t j)
{
    uint32_t T = c->threads;
    struct circ_thr *th = &c->thr[j];
    struct circ *tc = &th->tc;
    *tc = *c;
    tc->run = th->run;
    tc->run_cap = (uint32_t)(th->cap < UINT32_MAX ? th->cap : UINT32_MAX);
    tc->cnt = th->cnt;
    tc->sigma = th->sigma;
    tc->ucnt = th->ucnt;
    tc->touched = th->touched;
    tc->n_touched = th->n_touched;
    tc->locks = 0;
    uint32_t k0 = (uint32_t)((uint64_t)s->n_items * j / T);
    uint32_t k1 = (uint32_t)((uint64_t)s->n_items * (j + 1) / T);
    th->n_own = s->build(tc, s, k0, k1, th->own);
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < th->n_own; i++) {
        uint32_t v = th->own[i].res;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    th->lo = lo;
    th->hi = hi;
}

/* The stage's range of resource ids, from every thread's requests (after phase 1). */
static void stage_span(const struct circ *c, uint32_t *lo, uint64_t *span)
{
    uint32_t l = UINT32_MAX, h = 0;
    for (uint32_t j = 0; j < c->threads; j++)
        if (c->thr[j].n_own) {
            l = c->thr[j].lo < l ? c->thr[j].lo : l;
            h = c->thr[j].hi > h ? c->thr[j].hi : h;
        }
    *lo = l;
    *span = l <= h ? (uint64_t)h - l + 1 : 1;
}

/* Phase 2, thread j: how many of its requests fall in each range. */
static void ph_count(struct circ *c, uint32_t j)
{
    uint32_t T = c->threads, lo;
    uint64_t span;
    struct circ_thr *th = &c->thr[j];
    stage_span(c, &lo, &span);
    memset(th->dcnt, 0, (size_t)T * sizeof *th->dcnt);
    for (uint32_t i = 0; i < th->n_own; i++)
        th->dcnt[range_of(th->own[i].res, lo, span, T)]++;
}

/* Phase 3, thread j: its requests to their ranges in c->req (threads in order within a
 * range), and where its own range lies (after phase 2: every thread's counts). */
static void ph_scatter(struct circ *c, uint32_t j)
{
    uint32_t T = c->threads, lo;
    uint64_t span, base = 0;
    struct circ_thr *th = &c->thr[j];
    uint64_t *cur = th->cur;
    stage_span(c, &lo, &span);
    for (uint32_t k = 0; k < T; k++) {
        uint64_t in_k = 0, before = 0;
        for (uint32_t i = 0; i < T; i++) {
            in_k += c->thr[i].dcnt[k];
            if (i < j)
                before += c->thr[i].dcnt[k];
        }
        cur[k] = base + before;
        if (k == j) {
            th->part = base;
            th->n_part = in_k;
        }
        base += in_k;
    }
    for (uint32_t i = 0; i < th->n_own; i++)
        c->req[cur[range_of(th->own[i].res, lo, span, T)]++] = th->own[i];
}

/* Phase 4, thread j: group and decide its range. */
static void ph_decide(struct circ *c, const struct circ_stage *s, uint32_t j)
{
    struct circ_thr *th = &c->thr[j];
    struct circ *tc = &th->tc;
    uint32_t n = (uint32_t)th->n_part;
    tc->req = c->req + th->part;
    tc->grp = c->grp + th->part;
    if (n)
        s->decide(tc, s, rs__circ_group(tc, n, s->stage), n);
}

/* After the phases: the threads' counters into c. */
static void par_sum(struct circ *c)
{
    for (uint32_t j = 0; j < c->threads; j++) {
        struct circ_thr *th = &c->thr[j];
        c->locks += th->tc.locks;
        if (th->tc.max_circ > c->max_circ)
            c->max_circ = th->tc.max_circ;
        th->n_touched = th->tc.n_touched;
    }
}

uint32_t rs__circ_stage(struct circ *c, const struct circ_stage *s)
{
    if (c->xc) /* over MPI ranks (circuit_dist.c) */
        return rs__circ_dist_stage(c, s);
    if (!c->par_now) {
        uint32_t n = s->build(c, s, 0, s->n_items, c->req);
        if (n)
            s->decide(c, s, rs__circ_group(c, n, s->stage), n);
        return n;
    }
    uint32_t T = c->threads;
    int team_ok = 1;
#pragma omp parallel num_threads(T)
    {
        uint32_t j = (uint32_t)omp_get_thread_num();
        if (omp_get_num_threads() != (int)T) { /* never split differently */
#pragma omp atomic write
            team_ok = 0;
        } else {
            ph_build(c, s, j);
#pragma omp barrier
            ph_count(c, j);
#pragma omp barrier
            ph_scatter(c, j);
#pragma omp barrier
            ph_decide(c, s, j);
        }
    }
    if (!team_ok) { /* fewer threads than asked: each of the T shares in turn, here */
        for (uint32_t j = 0; j < T; j++)
            ph_build(c, s, j);
        for (uint32_t j = 0; j < T; j++)
            ph_count(c, j);
        for (uint32_t j = 0; j < T; j++)
            ph_scatter(c, j);
        for (uint32_t j = 0; j < T; j++)
            ph_decide(c, s, j);
    }
    par_sum(c);
    uint32_t n = 0;
    for (uint32_t j = 0; j < T; j++)
        n += c->thr[j].n_own;
    return n;
}
