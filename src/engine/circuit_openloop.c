/* Open-loop injection (injection_process=bernoulli, SPEC W4) for the circuit engine: one
 * network cycle per step of the open-loop module; each cycle the oldest waiting packets of
 * every terminal (a window of W = circuits x the out-channels of its node) try to lock
 * their circuits through the engine's own cycle (LCAN or fixed paths), as the message set
 * of that cycle. The model: docs/openloop.md ("Circuit switching"), docs/model-circuit.md. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "engine/circuit.h"
#include "routesim/alloc.h"
#include "routesim/exchange.h"
#include "routesim/rng.h"

/* The two ways a packet's path can be refused (the same text whoever finds it: serial,
 * threads, ranks). */
#define NO_END_TEXT "route of a packet %u -> %u does not end at its destination"
#define OVER_CAP_TEXT "the path of a packet %u -> %u uses channel %llu more than circuits=%u times"

/* ---- set-up ------------------------------------------------------------------------------ */

/* One thread's share of a cycle's path expansion (threads > 1, fixed paths): positions
 * next..end, their channels in hop[0..n_hop) (lengths in c->off until the serial prefix). */
struct circ_xthr {
    uint64_t *tmp;
    uint32_t *hop;
    uint16_t *used; /* share 0: NULL (c->used) */
    uint32_t tmp_cap;
    uint64_t hop_cap, n_hop;
    uint32_t start, next, end;
    int rc; /* 0 done, 1 stopped for memory, else the RS_E... of position next (err) */
    struct rs_err err;
};

static void xt_free(struct circ_open *o, uint32_t T)
{
    if (o->xt)
        for (uint32_t j = 0; j < T; j++) {
            rs_free(o->xt[j].tmp);
            rs_free(o->xt[j].hop);
            rs_free(o->xt[j].used);
        }
    rs_free(o->xt);
    rs_free(o->wk);
    o->xt = NULL;
    o->wk = NULL;
}

static void open_free(struct circ_open *o, uint32_t T)
{
    xt_free(o, T);
    rs_free(o->first);
    rs_free(o->n);
    rs_free(o->win);
    rs_free(o->pend);
    rs_free(o->pend2);
    rs_free(o->cyc.src);
    rs_free(o->cyc.dst);
    rs_free(o->tmp);
    memset(o, 0, sizeof *o);
}

/* The threads' expansion scratch, once. Returns 0 or RS_ENOMEM (the cycles then expand
 * serially). */
static int xt_alloc(struct circ *c)
{
    struct circ_open *o = c->open;
    uint32_t T = c->threads;
    if (o->xt)
        return 0;
    uint64_t n_ch = (uint64_t)c->net->n_nodes * c->P;
    o->xt = rs_calloc(T, sizeof *o->xt);
    o->wk = rs_malloc(((size_t)c->n + 1) * sizeof *o->wk);
    if (!o->xt || !o->wk)
        return RS_ENOMEM;
    for (uint32_t j = 0; j < T; j++) {
        struct circ_xthr *x = &o->xt[j];
        x->tmp_cap = 64;
        x->hop_cap = 8 * ((uint64_t)c->n / T + 1) + 64;
        x->tmp = rs_malloc(x->tmp_cap * sizeof *x->tmp);
        x->hop = rs_malloc((size_t)x->hop_cap * sizeof *x->hop);
        x->used = j ? rs_calloc(n_ch + 1, sizeof *x->used) : NULL;
        if (!x->tmp || !x->hop || (j && !x->used))
            return RS_ENOMEM;
    }
    return 0;
}

/* W_t: at most `circuits` circuits leave the terminal's node on each of its out-channels
 * in one cycle, so no more of its packets can be established together (LCAN: one PE link,
 * W = circuits). At least 1, so that a packet to its own terminal is delivered anyway. */
static uint32_t window_of(const struct circ *c, uint32_t t)
{
    const struct rs_net *net = c->net;
    uint32_t v = net->ops->src_node(net, t), out = 0;
    for (uint32_t p = 0; p < c->P; p++)
        out += net->ops->neighbor(net, v, p, NULL) != RS_NONE;
    return out ? out * c->cap : 1;
}

/* Grow the room for the cycle's path hops (fixed paths) to at least need: c->hop,
 * c->touched and, in the all-at-once mode, the request arrays. Between cycles only. */
static int grow_hops(struct circ *c, uint64_t need)
{
    struct circ_open *o = c->open;
    uint64_t cap = 2 * o->hop_cap > need ? 2 * o->hop_cap : need;
    uint32_t *hop = rs_realloc(c->hop, (size_t)cap * sizeof *hop + 4);
    if (hop)
        c->hop = hop;
    uint32_t *touched = rs_realloc(c->touched, (size_t)cap * sizeof *touched + 4);
    if (touched)
        c->touched = touched;
    if (!hop || !touched)
        return RS_ENOMEM;
    /* (over ranks the request arrays grow with the stages' own bookkeeping instead:
     * rs__circ_dist_reserve) */
    if (c->mode == CIRC_MODE_ALL_AT_ONCE && !c->xc && cap > c->req_cap) {
        struct circ_req *req = rs_realloc(c->req, (size_t)(cap + 1) * sizeof *req);
        if (req)
            c->req = req;
        struct circ_req *grp = rs_realloc(c->grp, (size_t)(cap + 1) * sizeof *grp);
        if (grp)
            c->grp = grp;
        struct circ_ranked *run = rs_realloc(c->run, (size_t)(cap + 1) * sizeof *run);
        if (run)
            c->run = run;
        if (!req || !grp || !run)
            return RS_ENOMEM;
        c->req_cap = cap;
    }
    o->hop_cap = cap;
    return 0;
}

static int open_init(struct circ *c, struct circ_open *o, struct rs_openloop *ol,
                     const struct rs_engine_input *in, const struct rs_openloop_cfg *cfg,
                     uint64_t shuffle, int check, struct rs_err *err)
{
    const struct rs_net *net = in->net;
    int rc;
    memset(c, 0, sizeof *c);
    memset(o, 0, sizeof *o);
    c->net = net;
    c->routing = in->routing;
    c->pb = &o->cyc;
    c->seed = in->seed;
    c->shuffle = shuffle;
    c->lc = rs__lcan_of(net);
    c->P = net->max_ports;
    c->open = o;
    if (cfg->len_max != 1)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "length_max=%u: a circuit carries one message per cycle (it has no "
                          "length)",
                          cfg->len_max);
    if ((uint64_t)net->n_nodes * c->P >= UINT32_MAX)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "switching=circuit numbers channels in 32 bits: topology=%s with %u "
                          "nodes x %u ports is too large",
                          net->name, net->n_nodes, c->P);
    if ((rc = rs__circ_read_options(c, in, err)))
        return rc;
    o->ol = ol;
    c->mode = rs__circ_mode(net, in->routing, c->lc != NULL);
    uint64_t n_ch = (uint64_t)net->n_nodes * c->P, n_req;
    c->n_res = n_ch ? n_ch : 1;
    /* over MPI ranks the checker would hold a rank's own positions only: check=1 is refused
     * (rs__circ_read_options), the check Debug builds make by themselves skipped */
    if (c->xc)
        check = 0;
    uint32_t N = in->pb->n_terminals;
    o->n_term = N;
    o->first = rs_malloc(((size_t)N + 1) * sizeof *o->first);
    o->n = rs_calloc((size_t)N + 1, sizeof *o->n);
    o->pend = rs_malloc(((size_t)N + 1) * sizeof *o->pend);
    o->pend2 = rs_malloc(((size_t)N + 1) * sizeof *o->pend2);
    if (!o->first || !o->n || !o->pend || !o->pend2)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u terminals", N);
    uint64_t K = 0;
    for (uint32_t t = 0; t < N; t++) {
        o->first[t] = (uint32_t)K;
        K += window_of(c, t);
        if (K >= UINT32_MAX / 2)
            return rs_err_set(err, RS_ECONSTRAINT, "too many circuits per cycle for one run");
    }
    o->first[N] = (uint32_t)K;
    c->n = (uint32_t)K; /* positions of a cycle */
    o->win = rs_malloc(((size_t)K + 1) * sizeof *o->win);
    o->cyc.n_terminals = N;
    o->cyc.per_input = 1;
    o->cyc.src = rs_malloc(((size_t)K + 1) * sizeof *o->cyc.src);
    o->cyc.dst = rs_malloc(((size_t)K + 1) * sizeof *o->cyc.dst);
    c->act = rs_malloc(((size_t)K + 1) * sizeof *c->act);
    c->fail = rs_malloc((size_t)K + 1);
    if (!o->win || !o->cyc.src || !o->cyc.dst || !c->act || !c->fail)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu waiting packets",
                          (unsigned long long)K);
    n_req = K;
    if (c->xc && !(o->wk = rs_malloc(((size_t)K + 1) * sizeof *o->wk)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu waiting packets",
                          (unsigned long long)K);
    if (c->lc) {
        const struct rs_lcan *lc = c->lc;
        uint32_t dmax = 1, umax = 1;
        for (uint32_t i = 0; i < lc->l; i++) {
            dmax = lc->d[i] > dmax ? lc->d[i] : dmax;
            umax = lc->u[i] > umax ? lc->u[i] : umax;
        }
        c->turn = rs_malloc((size_t)K + 1);
        c->pos = rs_malloc(((size_t)K + 1) * sizeof *c->pos);
        c->slot = rs_malloc(((size_t)K + 1) * sizeof *c->slot);
        c->tb = rs_malloc(((size_t)K + 1) * sizeof *c->tb);
        c->sigma = rs_malloc(dmax * sizeof *c->sigma);
        c->ucnt = rs_malloc(umax * sizeof *c->ucnt);
        if (!c->turn || !c->pos || !c->slot || !c->tb || !c->sigma || !c->ucnt)
            return rs_err_set(err, RS_ENOMEM, "out of memory for %llu waiting packets",
                              (unsigned long long)K);
        c->cp_max = 2 * lc->l + 2;
    } else {
        if (c->xc) { /* over ranks: this rank's channels only (circuit_dist.c) */
            if ((rc = rs__circ_dist_alloc_used(c, err)))
                return rc;
        } else {
            c->used = rs_calloc(n_ch + 1, sizeof *c->used);
        }
        c->off = rs_malloc(((size_t)K + 1) * sizeof *c->off);
        o->tmp_cap = 64;
        o->tmp = rs_malloc(2 * (size_t)o->tmp_cap * sizeof *o->tmp); /* + over ranks: keys */
        if (!c->used || !c->off || !o->tmp)
            return rs_err_set(err, RS_ENOMEM, "out of memory for %llu channels",
                              (unsigned long long)n_ch);
        /* room for paths of up to 8 hops per position to start with; grow_hops adds more
         * before a cycle that needs it */
        o->hop_cap = 8 * K + 64;
        c->hop = rs_malloc((size_t)o->hop_cap * sizeof *c->hop + 4);
        c->touched = rs_malloc((size_t)o->hop_cap * sizeof *c->touched + 4);
        if (!c->hop || !c->touched)
            return rs_err_set(err, RS_ENOMEM, "out of memory for the paths of a cycle");
        if (c->mode == CIRC_MODE_ALL_AT_ONCE)
            n_req = o->hop_cap;
        c->cp_max = 8;
    }
    if ((rc = rs__circ_alloc_requests(c, n_req, n_ch, err)))
        return rc;
    if (c->down == CIRC_DOWN_RANK && !(c->rank = rs_malloc(((size_t)K + 1) * sizeof *c->rank)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for ranks");
    if (check) {
        c->cpath = rs_malloc(((size_t)K + 1) * c->cp_max * sizeof *c->cpath + 4);
        c->cplen = rs_malloc((size_t)K + 1);
        c->chk = rs_calloc(n_ch + 1, sizeof *c->chk);
        if (!c->cpath || !c->cplen || !c->chk)
            return rs_err_set(err, RS_ENOMEM, "out of memory for the invariant checker");
    }
    return 0;
}

/* ---- one cycle ---------------------------------------------------------------------------- */

/* Expand the route st into o->tmp (grown as needed; 2 * tmp_cap words, the second half
 * scratch for rs__circ_over_cap); returns its length, -1 when the route does not end, -2
 * when out of memory. */
static int64_t expand(struct circ *c, const struct rs_route_state *st)
{
    struct circ_open *o = c->open;
    uint32_t max_hops = 4 * c->net->n_nodes + 16;
    int64_t len = rs_route_walk(c->net, c->routing, st, o->tmp, o->tmp_cap, max_hops, NULL);
    if (len > (int64_t)o->tmp_cap) {
        uint64_t *t = rs_realloc(o->tmp, (size_t)len * 4 * sizeof *t);
        if (!t)
            return -2;
        o->tmp = t;
        o->tmp_cap = (uint32_t)len * 2;
        len = rs_route_walk(c->net, c->routing, st, o->tmp, o->tmp_cap, max_hops, NULL);
    }
    return len;
}

/* Walk the route of packet e of terminal t into o->tmp. Returns its length, or a negative
 * RS_E... with err set (out of memory, or a route that does not end). */
static int64_t walk_packet(struct circ *c, uint32_t t, const struct circ_wait *e,
                           struct rs_err *err)
{
    struct rs_route_state st = {t, e->dst, e->mid, 0, e->msg};
    int64_t len = expand(c, &st);
    if (len == -2)
        return rs_err_set(err, RS_ENOMEM, "out of memory for a path");
    if (len < 0)
        return rs_err_set(err, RS_EINVARIANT, NO_END_TEXT, t, e->dst);
    return len;
}

/* Fixed paths: write the channels of position k (packet e of terminal t) at c->hop[total..]
 * and refuse a path that needs a channel more than `circuits` times (it could never be
 * established; rs__circ_paths_init refuses it in a batch run). Returns its length, or a
 * negative RS_E... with err set. */
static int64_t add_path(struct circ *c, uint32_t t, const struct circ_wait *e, uint64_t total,
                        struct rs_err *err)
{
    struct circ_open *o = c->open;
    int64_t len = walk_packet(c, t, e, err);
    if (len < 0)
        return len;
    if (total + (uint64_t)len > o->hop_cap && grow_hops(c, total + (uint64_t)len))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the paths of a cycle");
    int rc = 0;
    for (int64_t h = 0; h < len; h++)
        if (++c->used[o->tmp[h]] > c->cap && !rc)
            rc = rs_err_set(err, RS_EUNSUPPORTED, OVER_CAP_TEXT, t, e->dst,
                            (unsigned long long)o->tmp[h], c->cap);
    for (int64_t h = 0; h < len; h++) {
        c->used[o->tmp[h]] = 0;
        c->hop[total + (uint64_t)h] = (uint32_t)o->tmp[h];
    }
    return rc ? rc : len;
}

/* The cycle's message set: every waiting packet of every window, terminal by terminal,
 * oldest first; position k is message k (its conflict keys are drawn per position, stage
 * and cycle, and positions are a function of the state). Returns 0 or RS_E... */
static int build_cycle(struct circ *c, struct rs_err *err)
{
    struct circ_open *o = c->open;
    uint64_t total = 0;
    uint32_t k = 0, max_len = 0;
    for (uint32_t i = 0; i < o->n_pend; i++) {
        uint32_t t = o->pend[i];
        for (uint32_t j = 0; j < o->n[t]; j++, k++) {
            const struct circ_wait *e = &o->win[o->first[t] + j];
            o->cyc.src[k] = t;
            o->cyc.dst[k] = e->dst;
            c->act[k] = k;
            if (c->rank)
                c->rank[k] = e->rank;
            if (c->lc) {
                c->turn[k] = t == e->dst ? UINT8_MAX : (uint8_t)rs__lcan_lca_level(c->lc, t, e->dst);
                continue;
            }
            c->off[k] = total;
            int64_t len = add_path(c, t, e, total, err);
            if (len < 0)
                return (int)len;
            total += (uint64_t)len;
            max_len = (uint32_t)len > max_len ? (uint32_t)len : max_len;
        }
    }
    c->n_act = k;
    o->cyc.n_msgs = k;
    if (c->lc)
        return 0;
    c->off[k] = total;
    c->max_len = max_len;
    if (c->cpath && max_len > c->cp_max) { /* the checker records every locked channel */
        uint32_t *cp = rs_realloc(c->cpath, ((size_t)c->n + 1) * max_len * sizeof *cp + 4);
        if (!cp)
            return rs_err_set(err, RS_ENOMEM, "out of memory for the invariant checker");
        c->cpath = cp;
        c->cp_max = max_len;
    }
    return 0;
}

/* Expand share x's positions x->next..x->end into x->hop, refusing a path that needs a
 * channel more than `circuits` times, as add_path does (same messages). Without may_alloc
 * (on a thread) it stops with rc 1 where it would need more memory. Returns x->rc. */
static int expand_share(struct circ *c, struct circ_xthr *x, int may_alloc)
{
    struct circ_open *o = c->open;
    uint32_t max_hops = 4 * c->net->n_nodes + 16;
    uint16_t *used = x->used ? x->used : c->used;
    for (; x->next < x->end; x->next++) {
        uint32_t k = x->next, t = o->cyc.src[k];
        const struct circ_wait *e = &o->win[o->wk[k]];
        struct rs_route_state st = {t, e->dst, e->mid, 0, e->msg};
        int64_t len = rs_route_walk(c->net, c->routing, &st, x->tmp, x->tmp_cap, max_hops, NULL);
        if (len < 0)
            return x->rc = rs_err_set(&x->err, RS_EINVARIANT, NO_END_TEXT, t, e->dst);
        if (len > (int64_t)x->tmp_cap || x->n_hop + (uint64_t)len > x->hop_cap) {
            if (!may_alloc)
                return x->rc = 1;
            uint64_t need = x->n_hop + (uint64_t)len, cap = 2 * x->hop_cap;
            uint32_t *hop = rs_realloc(x->hop, (size_t)(cap > need ? cap : need) * sizeof *hop);
            if (hop) {
                x->hop = hop;
                x->hop_cap = cap > need ? cap : need;
            }
            uint64_t *tmp = len > (int64_t)x->tmp_cap
                                ? rs_realloc(x->tmp, (size_t)len * 2 * sizeof *tmp)
                                : x->tmp;
            if (tmp && tmp != x->tmp) {
                x->tmp = tmp;
                x->tmp_cap = (uint32_t)len * 2;
                len = rs_route_walk(c->net, c->routing, &st, x->tmp, x->tmp_cap, max_hops, NULL);
            }
            if (!hop || !tmp)
                return x->rc = rs_err_set(&x->err, RS_ENOMEM, "out of memory for a path");
        }
        int rc = 0;
        for (int64_t h = 0; h < len; h++)
            if (++used[x->tmp[h]] > c->cap && !rc)
                rc = rs_err_set(&x->err, RS_EUNSUPPORTED, OVER_CAP_TEXT, t, e->dst,
                                (unsigned long long)x->tmp[h], c->cap);
        for (int64_t h = 0; h < len; h++) {
            used[x->tmp[h]] = 0;
            x->hop[x->n_hop + (uint64_t)h] = (uint32_t)x->tmp[h];
        }
        if (rc)
            return x->rc = rc;
        c->off[k] = (uint64_t)len;
        x->n_hop += (uint64_t)len;
    }
    return x->rc = 0;
}

/* The cycle's positions without their paths (threads and ranks expand them afterwards):
 * every waiting packet of every window, terminal by terminal, oldest first, as
 * build_cycle lists them, with o->wk[k] the window slot of position k. Returns n_act. */
static uint32_t list_positions(struct circ *c)
{
    struct circ_open *o = c->open;
    uint32_t k = 0;
    for (uint32_t i = 0; i < o->n_pend; i++) {
        uint32_t t = o->pend[i];
        for (uint32_t j = 0; j < o->n[t]; j++, k++) {
            const struct circ_wait *e = &o->win[o->first[t] + j];
            o->cyc.src[k] = t;
            o->cyc.dst[k] = e->dst;
            c->act[k] = k;
            o->wk[k] = o->first[t] + j;
            if (c->rank)
                c->rank[k] = e->rank;
        }
    }
    c->n_act = k;
    o->cyc.n_msgs = k;
    return k;
}

/* build_cycle on fixed paths with threads > 1: the positions serially, their paths
 * expanded by T threads (equal shares of the positions, each into its own buffer; a share
 * that needs more memory is finished serially), then laid out in position order. The
 * same positions, paths and first error as build_cycle. Returns 1 when the scratch cannot
 * be had (build_cycle then does the work), else 0 or RS_E... */
static int build_cycle_par(struct circ *c, struct rs_err *err)
{
    struct circ_open *o = c->open;
    uint32_t T = c->threads;
    if (xt_alloc(c))
        return 1;
    uint32_t k = list_positions(c);
    for (uint32_t j = 0; j < T; j++) {
        struct circ_xthr *x = &o->xt[j];
        x->start = x->next = (uint32_t)((uint64_t)k * j / T);
        x->end = (uint32_t)((uint64_t)k * (j + 1) / T);
        x->n_hop = 0;
        x->rc = 1;
    }
#pragma omp parallel num_threads(T)
    if (omp_get_num_threads() == (int)T) /* else every share is expanded below */
        expand_share(c, &o->xt[omp_get_thread_num()], 0);
    uint64_t total = 0;
    uint32_t max_len = 0;
    for (uint32_t j = 0; j < T; j++) { /* shares in position order: the first error */
        struct circ_xthr *x = &o->xt[j];
        if (x->rc == 1)
            expand_share(c, x, 1);
        if (x->rc) {
            *err = x->err;
            return x->rc;
        }
        for (uint32_t p = x->start; p < x->end; p++) {
            uint64_t len = c->off[p];
            c->off[p] = total;
            total += len;
            max_len = (uint32_t)len > max_len ? (uint32_t)len : max_len;
        }
    }
    if (total > o->hop_cap && grow_hops(c, total))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the paths of a cycle");
    for (uint32_t j = 0; j < T; j++) {
        struct circ_xthr *x = &o->xt[j];
        if (x->n_hop)
            memcpy(c->hop + c->off[x->start], x->hop, (size_t)x->n_hop * sizeof *c->hop);
    }
    c->off[k] = total;
    c->max_len = max_len;
    if (c->cpath && max_len > c->cp_max) { /* the checker records every locked channel */
        uint32_t *cp = rs_realloc(c->cpath, ((size_t)c->n + 1) * max_len * sizeof *cp + 4);
        if (!cp)
            return rs_err_set(err, RS_ENOMEM, "out of memory for the invariant checker");
        c->cpath = cp;
        c->cp_max = max_len;
    }
    return 0;
}

/* Over ranks: expand position k's path into o->tmp and refuse it as add_path would
 * (every rank reports the same text for the first refused position). Returns its length, or
 * a negative RS_E... with err set. */
static int64_t own_path(struct circ *c, uint32_t k, struct rs_err *err)
{
    struct circ_open *o = c->open;
    uint32_t t = o->cyc.src[k];
    const struct circ_wait *e = &o->win[o->wk[k]];
    int64_t len = walk_packet(c, t, e, err);
    if (len < 0)
        return len;
    uint32_t h = rs__circ_over_cap(c, o->tmp, (uint32_t)len, o->tmp + o->tmp_cap);
    if (h < (uint32_t)len)
        return rs_err_set(err, RS_EUNSUPPORTED, OVER_CAP_TEXT, t, e->dst,
                          (unsigned long long)o->tmp[h], c->cap);
    return len;
}

/* build_cycle on fixed paths over MPI ranks (docs/distributed.md, "Circuit switching in
 * open loop"): every rank lists every position (the open-loop state is the same on every
 * rank), rank r expands the paths of positions [r n / P, (r + 1) n / P) only (the stages
 * build the requests of those, circuit_dist.c), and one all-reduce agrees on the first
 * refused position (its error is then derived again by every rank, with the serial
 * text), on the longest path (every rank runs as many stages) and on running out of
 * memory. Returns 0 or RS_E... (the same on every rank but for RS_ENOMEM's text). */
static int build_cycle_dist(struct circ *c, struct rs_err *err)
{
    struct circ_open *o = c->open;
    uint32_t k = list_positions(c);
    uint64_t P = (uint64_t)c->xc->size, r = (uint64_t)c->xc->rank;
    c->m0 = (uint32_t)(k * r / P);
    c->m1 = (uint32_t)(k * (r + 1) / P);
    uint64_t total = 0;
    uint32_t max_len = 0, bad = c->n;
    int oom = 0;
    struct rs_err own = {0};
    c->off[c->m0] = 0;
    for (uint32_t p = c->m0; p < c->m1; p++) {
        int64_t len = own_path(c, p, &own);
        if (len == RS_ENOMEM || (len >= 0 && total + (uint64_t)len > o->hop_cap &&
                                 grow_hops(c, total + (uint64_t)len))) {
            oom = 1;
            break;
        }
        if (len < 0) {
            bad = p;
            break;
        }
        for (int64_t h = 0; h < len; h++)
            c->hop[total + (uint64_t)h] = (uint32_t)o->tmp[h];
        total += (uint64_t)len;
        c->off[p + 1] = total;
        max_len = (uint32_t)len > max_len ? (uint32_t)len : max_len;
    }
    if (!oom && c->mode == CIRC_MODE_ALL_AT_ONCE && rs__circ_dist_reserve(c, total))
        oom = 1;
    uint64_t v[3] = {(uint64_t)UINT32_MAX - bad, max_len, (uint64_t)oom};
    if (c->xc->allreduce(c->xc->ctx, v, 3, RS_EXCHANGE_MAX)) {
        c->xfail = 1;
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in cycle %u",
                          c->cycle);
    }
    if (v[2])
        return rs_err_set(err, RS_ENOMEM, "out of memory for the paths of a cycle (on %s)",
                          oom ? "this rank" : "another rank");
    bad = (uint32_t)(UINT32_MAX - v[0]);
    if (bad < k) { /* the first refused position, whoever owns it */
        int64_t len = own_path(c, bad, err);
        return len < 0 ? (int)len : rs_err_set(err, RS_EINVARIANT, "position %u refused on one "
                                                                   "rank only", bad);
    }
    c->max_len = (uint32_t)v[1];
    return 0;
}

/* After the cycle: routed packets are delivered at this cycle, failed ones tried once more
 * and are dropped after `passes` tries; the windows keep the rest in order. Returns the
 * number routed. */
static uint32_t settle(struct circ *c)
{
    struct circ_open *o = c->open;
    uint32_t k = 0, routed = 0;
    for (uint32_t i = 0; i < o->n_pend; i++) {
        uint32_t t = o->pend[i], kept = 0;
        struct circ_wait *w = &o->win[o->first[t]];
        for (uint32_t j = 0; j < o->n[t]; j++, k++) {
            if (!c->fail[k]) {
                rs_openloop_finish(o->ol, w[j].gen, 1, c->cycle, 1);
                routed++;
            } else if (++w[j].tries == c->passes) { /* passes = 0: never */
                rs_openloop_finish(o->ol, w[j].gen, 1, c->cycle, 0);
                c->dropped++;
            } else {
                w[kept++] = w[j];
            }
        }
        o->n[t] = kept;
    }
    c->delivered += routed;
    c->conflicts += c->n_act - routed;
    return routed;
}

/* Fill terminal t's window from its module FIFO, oldest first. */
static void refill(struct circ *c, uint32_t t)
{
    struct circ_open *o = c->open;
    uint32_t room = o->first[t + 1] - o->first[t];
    while (o->n[t] < room && o->ol->term[t].pending) {
        struct rs_ol_packet pk;
        struct circ_wait *e = &o->win[o->first[t] + o->n[t]++];
        rs_openloop_front(o->ol, t, &pk);
        rs_openloop_start(o->ol, t);
        e->dst = pk.dst;
        e->mid = pk.mid;
        e->msg = pk.msg;
        e->gen = pk.gen;
        e->tries = 0;
        /* down=rank: once per packet, keyed by its identity (source, generation cycle) */
        e->rank = c->rank ? 1 + rs_rand_below(c->seed, RS_STREAM_CIRCUIT_RANK, t, pk.gen,
                                              c->ranks)
                          : 0;
    }
}

/* End of cycle: the windows of the waiting terminals and of those with new arrivals
 * (newly, increasing) are refilled; the list keeps the terminals with waiting packets. */
static void refill_all(struct circ *c, const uint32_t *newly, uint32_t n_new)
{
    struct circ_open *o = c->open;
    uint32_t i = 0, j = 0, n = 0;
    while (i < o->n_pend || j < n_new) {
        uint32_t t;
        if (j >= n_new || (i < o->n_pend && o->pend[i] < newly[j]))
            t = o->pend[i++];
        else if (i < o->n_pend && o->pend[i] == newly[j])
            t = (i++, newly[j++]);
        else
            t = newly[j++];
        refill(c, t);
        if (o->n[t])
            o->pend2[n++] = t;
    }
    uint32_t *tmp = o->pend;
    o->pend = o->pend2;
    o->pend2 = tmp;
    o->n_pend = n;
}

int rs__circ_open_check(const struct circ *c, struct rs_err *err)
{
    const struct circ_open *o = c->open;
    for (uint32_t t = 0; t < o->n_term; t++) {
        const struct circ_wait *w = &o->win[o->first[t]];
        if (o->n[t] > o->first[t + 1] - o->first[t])
            return rs_err_set(err, RS_EINVARIANT, "cycle %u: terminal %u has %u packets in a "
                              "window of %u", c->cycle, t, o->n[t], o->first[t + 1] - o->first[t]);
        for (uint32_t j = 0; j < o->n[t]; j++)
            if ((j && w[j].gen < w[j - 1].gen) || (c->passes && w[j].tries >= c->passes) ||
                w[j].gen >= c->cycle + 1)
                return rs_err_set(err, RS_EINVARIANT,
                                  "cycle %u: terminal %u: waiting packet %u (generated at %u, "
                                  "%u tries) is out of order or over its passes",
                                  c->cycle, t, j, w[j].gen, w[j].tries);
    }
    if (o->ol->delivered != c->delivered || o->ol->dropped != c->dropped)
        return rs_err_set(err, RS_EINVARIANT,
                          "cycle %u: the module counts %llu delivered and %llu dropped, the "
                          "engine %llu and %llu",
                          c->cycle, (unsigned long long)o->ol->delivered,
                          (unsigned long long)o->ol->dropped, (unsigned long long)c->delivered,
                          (unsigned long long)c->dropped);
    return 0;
}

/* ---- the run -------------------------------------------------------------------------------- */

/* The metrics of an open-loop run, in this order: the module's, then the engine's. */
static const enum rs_metric open_columns[] = {RS_OPENLOOP_COLUMNS, RS_M_CYCLES,
                                              RS_M_CONFLICTS,      RS_M_MAX_CIRCUITS,
                                              RS_M_LOCKS,          RS_M_RANKS_USED};

static void open_result(const struct circ *c, struct rs_result *r)
{
    rs_openloop_result(c->open->ol, r);
    r->cycles = c->cycle;
    r->conflicts = (int64_t)c->conflicts;
    r->max_circuits = c->max_circ;
    r->locks = (int64_t)c->locks;
    r->ranks_used = c->ranks;
}

/* ---- the lifecycle (the loop is the driver's, src/engine/driver.c) ------------------------ */

/* The state of an open-loop run: the engine's (first, so that the check op of batch runs
 * reads it) and the windows. */
struct circ_run_open {
    struct circ c;
    struct circ_open o;
};

static int open_life_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct circ_run_open *r = st;
    const uint64_t *shuffle = d->extra;
    return open_init(&r->c, &r->o, d->ol, d->in, &d->cfg, shuffle ? *shuffle : 0, d->check,
                     err);
}

static int open_life_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct circ *c = &((struct circ_run_open *)st)->c;
    int rc;
    c->cycle++;
    if (c->xc && !c->lc) /* over MPI ranks: this rank's positions' paths */
        rc = build_cycle_dist(c, err);
    else if ((rc = c->threads > 1 && !c->lc ? build_cycle_par(c, err) : 1) == 1)
        rc = build_cycle(c, err);
    if (rc)
        return rc;
    if (c->mode == CIRC_MODE_LCAN)
        rs__circ_lcan_cycle(c);
    else
        rs__circ_paths_cycle(c);
    if (c->xfail)
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed in cycle %u",
                          c->cycle);
    uint32_t routed = settle(c);
    c->routed_now = routed;
    if (!routed && c->n_act) /* the best key always wins: see rs__circ_mode */
        return rs_err_set(err, RS_EINVARIANT, "cycle %u routed none of %u packets", c->cycle,
                          c->n_act);
    const uint32_t *newly;
    uint32_t n_new = rs_driver_arrivals(d, c->cycle, &newly);
    refill_all(c, newly, n_new);
    d->step = c->cycle;
    d->accepted = routed;
    return 0;
}

static int open_life_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    struct circ *c = &((struct circ_run_open *)st)->c;
    (void)d;
    (void)deadlock; /* every cycle routes a packet: no deadlock */
    if (c->xc && rs__circ_dist_reduce(c)) /* over ranks: locks and max_circuits are per rank */
        return RS_EIO;
    open_result(c, res);
    return 0;
}

static void open_life_free(void *st)
{
    struct circ_run_open *r = st;
    uint32_t T = r->c.threads;
    r->c.open = NULL;
    r->c.m0 = 0; /* off is indexed by position here, not shifted (rs__circ_free) */
    rs__circ_free(&r->c);
    open_free(&r->o, T);
}

const struct rs_engine_life rs__circ_open_life = {
    .size = sizeof(struct circ_run_open),
    .plan_fields = 0,
    .init = open_life_init,
    .step = open_life_step,
    .check = rs__circ_life_check,
    .auto_check = 1,
    .describe_deadlock = NULL,
    .collect = open_life_collect,
    .columns = open_columns,
    .n_columns = sizeof open_columns / sizeof *open_columns,
    .free = open_life_free,
};
