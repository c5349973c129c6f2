/* The line simulator of include/routesim/ms_line.h: ports with waiting lists and a current
 * packet, one step at a time over the active ports only (paper 003 §2 and §4.1), as a
 * lifecycle run by the driver's loop (src/engine/driver.c); the per-step invariant checker of
 * check=1; the paper's line bounds. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/driver.h"
#include "routesim/ms_line.h"

/* One port: the outgoing channel of a processor in one direction. */
struct port {
    int32_t cur;   /* packet being transmitted, -1 none */
    uint32_t sent; /* flits of cur already sent */
    int32_t whead, wtail; /* waiting list (packets linked by st->next) */
    uint32_t nwait;
    uint32_t locals; /* local packets placed here at set-up */
};

struct arrival {
    int32_t pkt;
    uint32_t port;
};

struct state {
    const struct rs_ms_line_problem *pb;
    uint32_t n, k, nports;
    struct port *port;
    uint8_t *active;        /* port is in act[] */
    uint32_t *act, nact;    /* active ports */
    struct arrival *arr;    /* arrivals of this step, applied next step */
    uint32_t narr;
    struct arrival *arr2;   /* the other half of the double buffer */
    int8_t *dir;            /* per packet: +1 / -1 */
    uint32_t *dist;         /* per packet: hops */
    int32_t *next;          /* per packet: waiting-list link */
    uint64_t *avail;        /* per packet: step from which it may be picked */
    /* check=1 only */
    uint32_t *fpos;         /* m*k: hops done by each flit */
    uint64_t *stamp;        /* per port: last step it sent */
    uint64_t *last_avail;   /* per port: (avail of last started packet) */
    int32_t *last_id;       /* per port: id of last started packet */
    uint32_t *pcount;       /* per port: flits counted this step */
    bool fifo_k_check;      /* at most one local packet per port */
};

double rs__ms_bound_thm1(uint32_t n, uint32_t k)
{
    return (double)n * ((double)k + 1.0) / 2.0 + (double)k;
}

double rs__ms_bound_thm23(uint32_t n, uint32_t k, uint64_t m)
{
    return ((double)k - 1.0) * (double)m + (double)n;
}

double rs__ms_bound_lemma6(uint32_t n, uint32_t k)
{
    return (double)k * (double)n / 4.0;
}

double rs__ms_bound_lemma7(uint32_t n, uint32_t k)
{
    return (double)k * (double)n / 2.0;
}

/* Direction a valid packet takes (+1 or -1; +1 when dst == src). */
static int pkt_dir(const struct rs_ms_line_problem *pb, const struct rs_ms_packet *p)
{
    if (p->dir != 0)
        return p->dir;
    if (pb->shape == RS_MS_CHAIN)
        return p->dst >= p->src ? 1 : -1;
    uint32_t fwd = (p->dst + pb->n - p->src) % pb->n;
    return 2 * fwd <= pb->n ? 1 : -1;
}

/* Hops from position pos to dst going in direction d (the line is valid for it). */
static inline uint32_t hops_to(uint32_t n, uint32_t pos, uint32_t dst, int d)
{
    return d > 0 ? (dst + n - pos) % n : (pos + n - dst) % n;
}

uint32_t rs__ms_line_distance(const struct rs_ms_line_problem *prob,
                              const struct rs_ms_packet *p)
{
    RS_ASSERT(prob && p && p->src < prob->n && p->dst < prob->n);
    return hops_to(prob->n, p->src, p->dst, pkt_dir(prob, p));
}

static int validate(const struct rs_ms_line_problem *pb, struct rs_err *err)
{
    if (pb->lines < 1 || pb->n < 1)
        return rs_err_set(err, RS_EINVAL, "ms_line: lines and n must be >= 1");
    if ((uint64_t)pb->lines * pb->n > (1u << 29))
        return rs_err_set(err, RS_EINVAL, "ms_line: lines * n = %llu exceeds 2^29",
                          (unsigned long long)pb->lines * pb->n);
    if (pb->k < 1 || pb->k > 65535)
        return rs_err_set(err, RS_EINVAL, "ms_line: k = %u, expected 1..65535", pb->k);
    if (pb->shape != RS_MS_CHAIN && pb->shape != RS_MS_RING)
        return rs_err_set(err, RS_EINVAL, "ms_line: unknown shape %d", (int)pb->shape);
    if (pb->disc != RS_MS_FIFO && pb->disc != RS_MS_FARTHEST && pb->disc != RS_MS_SAF_DELAYED)
        return rs_err_set(err, RS_EINVAL, "ms_line: unknown discipline %d", (int)pb->disc);
    if (pb->m > 0 && !pb->pkt)
        return rs_err_set(err, RS_EINVAL, "ms_line: %u packets but no packet array", pb->m);
    if (pb->m > (uint32_t)INT32_MAX)
        return rs_err_set(err, RS_EINVAL, "ms_line: too many packets (%u)", pb->m);
    for (uint32_t i = 0; i < pb->m; i++) {
        const struct rs_ms_packet *p = &pb->pkt[i];
        if (p->line >= pb->lines || p->src >= pb->n || p->dst >= pb->n)
            return rs_err_set(err, RS_EINVAL,
                              "ms_line: packet %u (line %u, %u -> %u) is off its %u x %u lines",
                              i, p->line, p->src, p->dst, pb->lines, pb->n);
        if (p->dir < -1 || p->dir > 1)
            return rs_err_set(err, RS_EINVAL, "ms_line: packet %u has dir %d, expected -1, 0 or 1",
                              i, (int)p->dir);
        if (pb->shape == RS_MS_CHAIN && p->dir != 0 && p->dst != p->src &&
            (p->dir > 0) != (p->dst > p->src))
            return rs_err_set(err, RS_EINVAL,
                              "ms_line: packet %u (%u -> %u) cannot go in direction %d on a chain",
                              i, p->src, p->dst, (int)p->dir);
    }
    return 0;
}

static inline uint32_t port_of(const struct state *st, uint32_t line, uint32_t pos, int d)
{
    return ((line * st->n + pos) << 1) | (d > 0 ? 1u : 0u);
}

static inline void activate(struct state *st, uint32_t pt)
{
    if (!st->active[pt]) {
        st->active[pt] = 1;
        st->act[st->nact++] = pt;
    }
}

static inline void wait_append(struct state *st, uint32_t pt, int32_t p)
{
    struct port *po = &st->port[pt];
    st->next[p] = -1;
    if (po->wtail >= 0)
        st->next[po->wtail] = p;
    else
        po->whead = p;
    po->wtail = p;
    po->nwait++;
}

/* Remove p (whose predecessor in the list is prev, -1 for the head) from the list. */
static inline void wait_remove(struct state *st, struct port *po, int32_t prev, int32_t p)
{
    int32_t nx = st->next[p];
    if (prev >= 0)
        st->next[prev] = nx;
    else
        po->whead = nx;
    if (po->wtail == p)
        po->wtail = prev;
    po->nwait--;
}

/* Pick the next packet of port po at position pos in step s by the discipline, or -1. */
static int32_t pick(struct state *st, struct port *po, uint32_t pos, uint64_t s)
{
    const struct rs_ms_line_problem *pb = st->pb;
    if (pb->disc == RS_MS_FIFO) {
        int32_t p = po->whead;
        if (p >= 0 && st->avail[p] <= s) {
            wait_remove(st, po, -1, p);
            return p;
        }
        return -1;
    }
    int32_t best = -1, bprev = -1;
    uint32_t brem = 0;
    for (int32_t prev = -1, p = po->whead; p >= 0; prev = p, p = st->next[p]) {
        if (st->avail[p] > s)
            continue;
        if (pb->disc == RS_MS_FARTHEST) {
            uint32_t rem = hops_to(st->n, pos, pb->pkt[p].dst, st->dir[p]);
            if (best < 0 || rem > brem ||
                (rem == brem && (st->avail[p] < st->avail[best] ||
                                 (st->avail[p] == st->avail[best] && p < best)))) {
                best = p, bprev = prev, brem = rem;
            }
        } else if (best < 0 || st->avail[p] < st->avail[best] ||
                   (st->avail[p] == st->avail[best] && p < best)) {
            best = p, bprev = prev;
        }
    }
    if (best >= 0)
        wait_remove(st, po, bprev, best);
    return best;
}

static int check_step(struct state *st, uint64_t s, struct rs_ms_line_result *res,
                      const uint64_t *finish_or_null, struct rs_err *err);

static void state_free(struct state *st)
{
    rs_free(st->port);
    rs_free(st->active);
    rs_free(st->act);
    rs_free(st->arr);
    rs_free(st->arr2);
    rs_free(st->dir);
    rs_free(st->dist);
    rs_free(st->next);
    rs_free(st->avail);
    rs_free(st->fpos);
    rs_free(st->stamp);
    rs_free(st->last_avail);
    rs_free(st->last_id);
    rs_free(st->pcount);
}

static int state_alloc(struct state *st, struct rs_err *err)
{
    const struct rs_ms_line_problem *pb = st->pb;
    size_t np = st->nports, m = pb->m ? pb->m : 1;
    st->port = rs_malloc(np * sizeof *st->port);
    st->active = rs_calloc(np, 1);
    st->act = rs_malloc(np * sizeof *st->act);
    st->arr = rs_malloc(np * sizeof *st->arr);
    st->arr2 = rs_malloc(np * sizeof *st->arr2);
    st->dir = rs_malloc(m);
    st->dist = rs_malloc(m * sizeof *st->dist);
    st->next = rs_malloc(m * sizeof *st->next);
    st->avail = rs_malloc(m * sizeof *st->avail);
    bool ok = st->port && st->active && st->act && st->arr && st->arr2 && st->dir &&
              st->dist && st->next && st->avail;
    if (ok && pb->check) {
        st->fpos = rs_calloc(m * pb->k, sizeof *st->fpos);
        st->stamp = rs_calloc(np, sizeof *st->stamp);
        st->last_avail = rs_calloc(np, sizeof *st->last_avail);
        st->last_id = rs_malloc(np * sizeof *st->last_id);
        st->pcount = rs_calloc(np, sizeof *st->pcount);
        ok = st->fpos && st->stamp && st->last_avail && st->last_id && st->pcount;
    }
    if (!ok)
        return rs_err_set(err, RS_ENOMEM, "ms_line: out of memory for %u x %u lines, %u packets",
                          pb->lines, pb->n, pb->m);
    return 0;
}

/* ---- the lifecycle (the loop is the driver's, src/engine/driver.c) ----------------------- */

/* The typed set-up argument (rs_driver.extra): the problem and where the results go. */
struct line_args {
    const struct rs_ms_line_problem *prob;
    struct rs_ms_line_result *res;
    uint64_t *finish, *line_steps;
};

/* The simulation: the state above, the outputs and the loop's counters. */
struct line_run {
    struct state st;
    struct rs_ms_line_result *res;
    uint64_t *finish, *line_steps;
    uint64_t s, cap, hops_done;
    uint32_t moving, delivered;
};

static int line_init(void *sp, struct rs_driver *d, struct rs_err *err)
{
    struct line_run *r = sp;
    const struct line_args *a = d->extra;
    const struct rs_ms_line_problem *prob = a->prob;
    struct rs_ms_line_result *res = a->res;
    int rc = validate(prob, err);
    if (rc)
        return rc;
    memset(res, 0, sizeof *res);
    r->res = res;
    r->finish = a->finish;
    r->line_steps = a->line_steps;
    struct state *stp = &r->st;
    *stp = (struct state){.pb = prob, .n = prob->n, .k = prob->k};
    stp->nports = prob->lines * prob->n * 2;
    if ((rc = state_alloc(stp, err)))
        return rc;
#define st (*stp)
    const uint32_t n = prob->n, k = prob->k, m = prob->m;
    const bool saf = prob->disc == RS_MS_SAF_DELAYED;
    uint64_t *finish = r->finish;
    if (r->line_steps)
        memset(r->line_steps, 0, (size_t)prob->lines * sizeof *r->line_steps);
    for (uint32_t i = 0; i < st.nports; i++) {
        st.port[i] = (struct port){.cur = -1, .whead = -1, .wtail = -1};
        if (st.last_id)
            st.last_id[i] = -1;
    }
    /* Horizon of the delayed start (ms_line.h, RS_MS_SAF_DELAYED). */
    uint32_t horizon = prob->shape == RS_MS_RING ? n / 2 : n - 1;
    for (uint32_t i = 0; i < m; i++)
        if (prob->pkt[i].dir != 0)
            horizon = n - 1;
    uint32_t moving = 0;
    uint64_t cap = 2;
    for (uint32_t i = 0; i < m; i++) {
        const struct rs_ms_packet *p = &prob->pkt[i];
        st.dir[i] = (int8_t)pkt_dir(prob, p);
        st.dist[i] = hops_to(n, p->src, p->dst, st.dir[i]);
        if (finish)
            finish[i] = 0;
        if (st.dist[i] == 0)
            continue;
        moving++;
        uint64_t release = saf ? (uint64_t)(horizon - st.dist[i]) * k : 0;
        st.avail[i] = release + 1;
        uint32_t pt = port_of(&st, p->line, p->src, st.dir[i]);
        wait_append(&st, pt, (int32_t)i);
        st.port[pt].locals++;
        activate(&st, pt);
        res->flit_hops += (uint64_t)k * st.dist[i];
        if (release + 1 > cap)
            cap = release + 1;
    }
    /* Every step with an eligible packet moves a flit, and only SAF start steps can leave
     * every port idle: the run ends within the last release plus all flit hops. */
    cap += res->flit_hops + 2;
    st.fifo_k_check = prob->disc == RS_MS_FIFO;
    for (uint32_t i = 0; i < st.nports && st.fifo_k_check; i++)
        if (st.port[i].locals > 1)
            st.fifo_k_check = false;
#undef st
    if (cap > UINT32_MAX) /* the driver counts steps in 32 bits */
        return rs_err_set(err, RS_ERESOURCE, "ms_line: up to %llu steps, more than 2^32 - 1",
                          (unsigned long long)cap);
    r->cap = cap;
    r->moving = moving;
    d->remaining = moving;
    return 0;
}

/* Step s: the arrivals of step s-1 join their ports, then every active port picks and
 * sends one flit (order-independent: arrivals wait in arr until the next step). */
static int line_step(void *sp, struct rs_driver *drv, struct rs_err *err)
{
    struct line_run *r = sp;
    /* a local copy for the step (its fields stay in registers in the per-port loop, as
     * nothing else can alias them), written back at the end: also on error, for free */
    struct state st = r->st;
    const struct rs_ms_line_problem *prob = st.pb;
    struct rs_ms_line_result *res = r->res;
    uint64_t *finish = r->finish, *line_steps = r->line_steps;
    const uint32_t n = st.n, k = st.k;
    const bool saf = prob->disc == RS_MS_SAF_DELAYED;
    uint32_t delivered = r->delivered;
    uint64_t hops_done = r->hops_done, s = ++r->s;
    int rc = 0;
    if (s > r->cap)
        return rs_err_set(err, RS_EINVARIANT, "ms_line: not finished after %llu steps",
                          (unsigned long long)r->cap);
    {
        /* 1. Arrivals of step s-1 join their ports. */
        struct arrival *in = st.arr;
        uint32_t nin = st.narr;
        st.arr = st.arr2, st.arr2 = in, st.narr = 0;
        for (uint32_t a = 0; a < nin; a++) {
            st.avail[in[a].pkt] = s;
            wait_append(&st, in[a].port, in[a].pkt);
            activate(&st, in[a].port);
        }
        /* 2-3. Every active port picks and sends. Order-independent: arrivals wait in
         * st.arr until the next step. */
        uint32_t keep = 0;
        for (uint32_t a = 0; a < st.nact; a++) {
            uint32_t pt = st.act[a];
            struct port *po = &st.port[pt];
            uint32_t line = (pt >> 1) / n, pos = (pt >> 1) % n;
            int d = (pt & 1) ? 1 : -1;
            uint32_t q = po->nwait + (po->cur >= 0);
            if (q > res->max_queue)
                res->max_queue = q;
            if (po->cur < 0) {
                po->cur = pick(&st, po, pos, s);
                po->sent = 0;
                if (po->cur >= 0 && st.last_id) {
                    int32_t p = po->cur;
                    if (prob->disc == RS_MS_FIFO && st.last_id[pt] >= 0 &&
                        (st.avail[p] < st.last_avail[pt] ||
                         (st.avail[p] == st.last_avail[pt] && p < st.last_id[pt]))) {
                        rc = rs_err_set(err, RS_EINVARIANT,
                                        "ms_line: step %llu: packet %d overtakes packet %d at "
                                        "line %u position %u",
                                        (unsigned long long)s, p, st.last_id[pt], line, pos);
                        goto out;
                    }
                    st.last_avail[pt] = st.avail[p];
                    st.last_id[pt] = p;
                }
            }
            if (saf && po->nwait > 0) {
                for (int32_t p = po->whead; p >= 0; p = st.next[p])
                    if (st.avail[p] <= s)
                        res->blocked_starts++;
            }
            if (po->cur < 0) {
                if (po->nwait == 0)
                    st.active[pt] = 0;
                else
                    st.act[keep++] = pt;
                continue;
            }
            int32_t p = po->cur;
            uint32_t f = po->sent++;
            uint32_t nxt = d > 0 ? (pos + 1 == n ? 0 : pos + 1) : (pos == 0 ? n - 1 : pos - 1);
            RS_DASSERT(prob->shape == RS_MS_RING || (d > 0 ? pos + 1 < n : pos > 0));
            hops_done++;
            if (st.fpos) {
                uint32_t want = hops_to(n, prob->pkt[p].src, pos, st.dir[p]);
                if (st.stamp[pt] == s || st.fpos[(size_t)p * k + f] != want) {
                    rc = rs_err_set(err, RS_EINVARIANT,
                                    "ms_line: step %llu: flit %u of packet %d is not at line %u "
                                    "position %u when sent, or the channel sent twice",
                                    (unsigned long long)s, f, p, line, pos);
                    goto out;
                }
                st.stamp[pt] = s;
                st.fpos[(size_t)p * k + f]++;
            }
            if (nxt == prob->pkt[p].dst) {
                if (f + 1 == k) {
                    delivered++;
                    if (finish)
                        finish[p] = s;
                    if (s > res->steps)
                        res->steps = s;
                    if (line_steps && s > line_steps[line])
                        line_steps[line] = s;
                }
            } else if (f + 1 == (saf ? k : 1)) {
                st.arr[st.narr++] = (struct arrival){.pkt = p, .port = port_of(&st, line, nxt, d)};
            }
            if (f + 1 == k)
                po->cur = -1;
            if (po->cur >= 0 || po->nwait > 0)
                st.act[keep++] = pt;
            else
                st.active[pt] = 0;
        }
        st.nact = keep;
    }
out:
    r->st = st;
    r->delivered = delivered;
    r->hops_done = hops_done;
    drv->step = (uint32_t)s;
    drv->remaining = r->moving - delivered;
    RS_ASSERT(rc || drv->remaining || hops_done == res->flit_hops);
    return rc;
}

/* The per-step checker (check=1), and the tests' view of every step (on_step). */
static int line_check(void *sp, struct rs_err *err)
{
    struct line_run *r = sp;
    const struct rs_ms_line_problem *prob = r->st.pb;
    if (r->s > 0) {
        int rc = check_step(&r->st, r->s, r->res, r->finish, err);
        if (rc)
            return rc;
    }
    if (prob->on_step)
        prob->on_step(prob->ctx, r->s, r->st.fpos);
    return 0;
}

static int line_collect(void *sp, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    (void)sp; /* the results were written to the caller's rs_ms_line_result as they came */
    (void)d;
    (void)res;
    (void)deadlock;
    return 0;
}

static void line_free(void *sp)
{
    state_free(&((struct line_run *)sp)->st);
}

static const struct rs_engine_life line_life = {
    .size = sizeof(struct line_run),
    .init = line_init,
    .step = line_step,
    .check = line_check,
    /* a step may legitimately move nothing (a store-and-forward start delay): the cap on
     * steps in the step op is the defect check */
    .stall = RS_STALL_OWN,
    .collect = line_collect,
    .free = line_free,
};

int rs__ms_line_route(const struct rs_ms_line_problem *prob, struct rs_ms_line_result *res,
                      uint64_t *finish, uint64_t *line_steps, struct rs_err *err)
{
    RS_ASSERT(prob && res);
    struct line_args a = {.prob = prob, .res = res, .finish = finish, .line_steps = line_steps};
    struct rs_engine_input in = {.check = prob->check};
    return rs__driver_run_life("ms_line", &line_life, &in, &a, NULL, NULL, 0, err);
}

/* After step s (check=1): snakes, store-and-forward extent, flits per port. */
static int check_step(struct state *st, uint64_t s, struct rs_ms_line_result *res,
                      const uint64_t *finish_or_null, struct rs_err *err)
{
    (void)finish_or_null;
    const struct rs_ms_line_problem *pb = st->pb;
    const uint32_t k = st->k, n = st->n;
    const bool saf = pb->disc == RS_MS_SAF_DELAYED;
    uint32_t touched = 0;
    for (uint32_t p = 0; p < pb->m; p++) {
        const uint32_t *fp = &st->fpos[(size_t)p * k];
        uint32_t dist = st->dist[p];
        for (uint32_t f = 0; f + 1 < k; f++) {
            if (fp[f + 1] > fp[f] || fp[f] - fp[f + 1] > 1 || fp[f] > dist)
                return rs_err_set(err, RS_EINVARIANT,
                                  "ms_line: step %llu: snake of packet %u broken between "
                                  "flits %u and %u (hops %u and %u)",
                                  (unsigned long long)s, p, f, f + 1, fp[f], fp[f + 1]);
        }
        if (saf && fp[0] - fp[k - 1] > 1)
            return rs_err_set(err, RS_EINVARIANT,
                              "ms_line: step %llu: store-and-forward packet %u on more than "
                              "two processors", (unsigned long long)s, p);
        for (uint32_t f = 0; f < k; f++) {
            if (fp[f] >= dist)
                continue;
            const struct rs_ms_packet *pk = &pb->pkt[p];
            uint32_t pos = st->dir[p] > 0 ? (pk->src + fp[f]) % n : (pk->src + n - fp[f]) % n;
            uint32_t pt = port_of(st, pk->line, pos, st->dir[p]);
            if (st->pcount[pt]++ == 0)
                st->arr2[touched++].port = pt; /* arr2 is free until the next step */
        }
    }
    int rc = 0;
    for (uint32_t t = 0; t < touched; t++) {
        uint32_t pt = st->arr2[t].port, c = st->pcount[pt];
        st->pcount[pt] = 0;
        if (c > res->max_port_flits)
            res->max_port_flits = c;
        if (!rc && st->fifo_k_check && c > k)
            rc = rs_err_set(err, RS_EINVARIANT,
                            "ms_line: step %llu: %u flits at one FIFO (line %u position %u), "
                            "more than k = %u", (unsigned long long)s, c, (pt >> 1) / n,
                            (pt >> 1) % n, k);
    }
    return rc;
}
