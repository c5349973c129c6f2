/* The circuit engine on fixed paths (butterfly, Beneš, meshes, tori, ...): every message's
 * circuit is its oblivious route (with its Valiant intermediate, or the intermediate row
 * of Ranade's first stage on back-to-back butterflies with routing=ranade, 004 §5). Leveled networks lock the
 * paths hop by hop in path order; other networks resolve every hop of every path at once. */
#include <stdlib.h>
#include <string.h>

#include "engine/circuit.h"
#include "routesim/alloc.h"
#include "routesim/exchange.h"
#include "routesim/rng.h"

enum circ_mode rs__circ_mode(const struct rs_net *net, const struct rs_routing_ops *routing,
                             int lcan)
{
    if (lcan)
        return CIRC_MODE_LCAN;
    if (!net->n_levels || (net->wrap && !rs_route_is_direct(routing)))
        return CIRC_MODE_ALL_AT_ONCE;
    return CIRC_MODE_STAGED;
}

/* The route of message m. */
static struct rs_route_state route_of(const struct circ *c, const struct rs_driver *d, uint32_t m)
{
    return (struct rs_route_state){rs_problem_src(c->pb, m), c->pb->dst[m],
                                   rs_driver_mid_of(d, m), 0, m};
}

/* Pass 1 over messages m0..m1: their path lengths into off[m + 1]. Returns the first m
 * whose route does not end, or m1. */
static uint32_t lengths(struct circ *c, const struct rs_driver *d, uint32_t m0, uint32_t m1)
{
    uint32_t max_hops = 4 * c->net->n_nodes + 16;
    for (uint32_t m = m0; m < m1; m++) {
        struct rs_route_state st = route_of(c, d, m);
        int64_t len = rs_route_length(c->net, c->routing, &st, max_hops);
        if (len < 0)
            return m;
        c->off[m + 1] = (uint64_t)len;
    }
    return m1;
}

/* Pass 2 over messages m0..m1: their channels into hop (tmp: max_len + 1 ids; used: zero,
 * left zero). Returns the first m whose path uses a channel more than cap times (err set),
 * or m1. */
static uint32_t walks(struct circ *c, const struct rs_driver *d, uint32_t m0, uint32_t m1,
                      uint64_t *tmp, uint16_t *used, struct rs_err *err)
{
    uint32_t max_hops = 4 * c->net->n_nodes + 16;
    for (uint32_t m = m0; m < m1; m++) {
        struct rs_route_state st = route_of(c, d, m);
        uint32_t len = (uint32_t)(c->off[m + 1] - c->off[m]), bad = 0;
        rs_route_walk(c->net, c->routing, &st, tmp, len, max_hops, NULL);
        for (uint32_t h = 0; h < len; h++) /* a path using one channel more than cap times */
            if (++used[tmp[h]] > c->cap && !bad) { /* could never be established */
                bad = 1;
                (void)rs_err_set(err, RS_EUNSUPPORTED,
                                 "the path of message %u (%u -> %u) uses channel %llu more "
                                 "than circuits=%u times",
                                 m, st.src, st.dst, (unsigned long long)tmp[h], c->cap);
            }
        for (uint32_t h = 0; h < len; h++) {
            used[tmp[h]] = 0;
            c->hop[c->off[m] + h] = (uint32_t)tmp[h];
        }
        if (bad)
            return m;
    }
    return m1;
}

/* The threads' scratch of the two passes (threads > 1). */
struct paths_thr {
    uint64_t *tmp;
    uint16_t *used; /* thread 0: c->used */
    uint32_t bad;   /* the first failing message of its share, or its end */
    struct rs_err err;
};

/* Both passes on T threads, each over an equal share of the messages, the first failure
 * in message order reported (the serial passes' outcome). Returns 1 when the scratch
 * cannot be had (then the serial passes run), else 0 or RS_E.. */
static int paths_init_par(struct circ *c, const struct rs_driver *d, struct rs_err *err)
{
    uint32_t T = c->threads, n = c->n;
    uint64_t n_ch = (uint64_t)c->net->n_nodes * c->P;
    struct paths_thr *th = rs_calloc(T, sizeof *th);
    int rc = th ? 0 : 1;
    for (uint32_t j = 1; j < T && !rc; j++)
        if (!(th[j].used = rs_calloc(n_ch + 1, sizeof *th[j].used)))
            rc = 1;
    if (!rc) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (uint32_t j = 0; j < T; j++) {
            uint32_t m1 = (uint32_t)((uint64_t)n * (j + 1) / T);
            th[j].bad = lengths(c, d, (uint32_t)((uint64_t)n * j / T), m1);
        }
        uint32_t bad = RS_NONE;
        for (uint32_t j = 0; j < T && bad == RS_NONE; j++)
            if (th[j].bad != (uint32_t)((uint64_t)n * (j + 1) / T))
                bad = th[j].bad;
        c->off[0] = 0;
        for (uint32_t m = 0; m < n && bad == RS_NONE; m++) {
            uint64_t len = c->off[m + 1];
            c->off[m + 1] = c->off[m] + len;
            if ((uint32_t)len > c->max_len)
                c->max_len = (uint32_t)len;
        }
        if (bad != RS_NONE) {
            struct rs_route_state st = route_of(c, d, bad);
            rc = rs_err_set(err, RS_EINVARIANT,
                            "route of message %u (%u -> %u) does not end at its destination",
                            bad, st.src, st.dst);
        }
    }
    if (!rc) {
        c->hop = rs_malloc((size_t)c->off[n] * sizeof *c->hop + 4);
        if (!c->hop)
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for %llu path hops",
                            (unsigned long long)c->off[n]);
        for (uint32_t j = 0; j < T && !rc; j++)
            if (!(th[j].tmp = rs_malloc(((size_t)c->max_len + 1) * sizeof *th[j].tmp)))
                rc = rs_err_set(err, RS_ENOMEM, "out of memory for %llu path hops",
                                (unsigned long long)c->off[n]);
    }
    if (!rc) {
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (uint32_t j = 0; j < T; j++) {
            uint32_t m1 = (uint32_t)((uint64_t)n * (j + 1) / T);
            th[j].bad = walks(c, d, (uint32_t)((uint64_t)n * j / T), m1, th[j].tmp,
                              j ? th[j].used : c->used, &th[j].err);
        }
        for (uint32_t j = 0; j < T && !rc; j++)
            if (th[j].bad != (uint32_t)((uint64_t)n * (j + 1) / T)) {
                *err = th[j].err;
                rc = RS_EUNSUPPORTED;
            }
    }
    for (uint32_t j = 0; th && j < T; j++) {
        rs_free(th[j].tmp);
        rs_free(th[j].used);
    }
    rs_free(th);
    return rc;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

uint32_t rs__circ_over_cap(const struct circ *c, const uint64_t *tmp, uint32_t len, uint64_t *key)
{
    if (len <= 64) { /* a short path: each hop's channel counted among the hops so far */
        for (uint32_t h = 0; h < len; h++) {
            uint32_t n = 1;
            for (uint32_t g = 0; g < h; g++)
                n += tmp[g] == tmp[h];
            if (n > c->cap)
                return h;
        }
        return len;
    }
    for (uint32_t h = 0; h < len; h++) /* channel ids < 2^32 (checked at set-up) */
        key[h] = tmp[h] << 32 | h;
    qsort(key, len, sizeof *key, cmp_u64);
    uint32_t best = len;
    for (uint32_t s = 0; s < len;) {
        uint32_t e = s + 1;
        while (e < len && key[e] >> 32 == key[s] >> 32)
            e++;
        if (e - s > c->cap && (uint32_t)key[s + c->cap] < best) /* its (cap + 1)-th use */
            best = (uint32_t)key[s + c->cap];
        s = e;
    }
    return best;
}

/* Over ranks: message m's path (len hops, walked into tmp) when it uses a channel more than
 * cap times: the serial pass's error, and 1; else 0. */
static int path_error(const struct circ *c, const struct rs_driver *d, uint32_t m, uint64_t *tmp,
                      uint64_t *key, struct rs_err *err)
{
    uint32_t max_hops = 4 * c->net->n_nodes + 16;
    struct rs_route_state st = route_of(c, d, m);
    int64_t len = rs_route_length(c->net, c->routing, &st, max_hops);
    if (len < 0 || (uint64_t)len > c->max_len)
        return 0;
    rs_route_walk(c->net, c->routing, &st, tmp, (uint32_t)len, max_hops, NULL);
    uint32_t h = rs__circ_over_cap(c, tmp, (uint32_t)len, key);
    if (h == (uint32_t)len)
        return 0;
    st = route_of(c, d, m);
    (void)rs_err_set(err, RS_EUNSUPPORTED,
                     "the path of message %u (%u -> %u) uses channel %llu more than "
                     "circuits=%u times",
                     m, st.src, st.dst, (unsigned long long)tmp[h], c->cap);
    return 1;
}

/* rs__circ_paths_init over ranks (circuit_dist.c): only this rank's messages [m0, m1) are
 * expanded; the first failure over all ranks (in the serial passes' order: an unending
 * route first, then a channel used too often) is reported by every rank, with the serial
 * text; max_len is the largest over all ranks (every rank runs the same stages). */
static int paths_init_dist(struct circ *c, const struct rs_driver *d, struct rs_err *err)
{
    uint64_t P = (uint64_t)c->xc->size, r = (uint64_t)c->xc->rank;
    c->m0 = (uint32_t)(c->n * r / P);
    c->m1 = (uint32_t)(c->n * (r + 1) / P);
    uint64_t *off = rs_malloc(((size_t)(c->m1 - c->m0) + 1) * sizeof *off);
    if (!off)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u paths", c->m1 - c->m0);
    c->off = off - c->m0; /* indexed by message id m0..m1 */
    uint32_t bad = lengths(c, d, c->m0, c->m1);
    bad = rs__circ_dist_agree(c, bad == c->m1 ? c->n : bad, 0);
    if (c->xfail)
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed at set-up");
    if (bad < c->n) {
        struct rs_route_state st = route_of(c, d, bad);
        return rs_err_set(err, RS_EINVARIANT,
                          "route of message %u (%u -> %u) does not end at its destination", bad,
                          st.src, st.dst);
    }
    c->off[c->m0] = 0;
    for (uint32_t m = c->m0; m < c->m1; m++) {
        uint64_t len = c->off[m + 1];
        c->off[m + 1] = c->off[m] + len;
        if ((uint32_t)len > c->max_len)
            c->max_len = (uint32_t)len;
    }
    c->max_len = rs__circ_dist_agree(c, c->max_len, 1);
    if (c->xfail)
        return rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed at set-up");
    c->hop = rs_malloc((size_t)c->off[c->m1] * sizeof *c->hop + 4);
    uint64_t *tmp = rs_malloc(2 * ((size_t)c->max_len + 1) * sizeof *tmp);
    if (!c->hop || !tmp) {
        rs_free(tmp);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu path hops",
                          (unsigned long long)(c->off[c->m1]));
    }
    uint64_t *key = tmp + c->max_len + 1;
    uint32_t max_hops = 4 * c->net->n_nodes + 16;
    bad = c->n;
    for (uint32_t m = c->m0; m < c->m1; m++) {
        struct rs_route_state st = route_of(c, d, m);
        uint32_t len = (uint32_t)(c->off[m + 1] - c->off[m]);
        rs_route_walk(c->net, c->routing, &st, tmp, len, max_hops, NULL);
        if (bad == c->n && rs__circ_over_cap(c, tmp, len, key) < len)
            bad = m;
        for (uint32_t h = 0; h < len; h++)
            c->hop[c->off[m] + h] = (uint32_t)tmp[h];
    }
    bad = rs__circ_dist_agree(c, bad, 0);
    int rc = 0;
    if (c->xfail)
        rc = rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed at set-up");
    else if (bad < c->n && path_error(c, d, bad, tmp, key, err))
        rc = RS_EUNSUPPORTED;
    rs_free(tmp);
    if (!rc && rs__circ_dist_congestion(c)) /* `run` then needs no walk of every path */
        rc = rs_err_set(err, RS_EIO, "the exchange between MPI ranks failed at set-up");
    return rc;
}

int rs__circ_paths_init(struct circ *c, const struct rs_driver *d, struct rs_err *err)
{
    if (c->xc)
        return paths_init_dist(c, d, err);
    c->off = rs_malloc(((size_t)c->n + 1) * sizeof *c->off);
    if (!c->off)
        return rs_err_set(err, RS_ENOMEM, "out of memory for %u paths", c->n);
    if (c->threads > 1) {
        int rc = paths_init_par(c, d, err);
        if (rc != 1)
            return rc;
        rs_free(c->hop); /* the threads' scratch was not had: serially */
        c->hop = NULL;
        c->max_len = 0;
    }
    uint32_t bad = lengths(c, d, 0, c->n);
    if (bad < c->n) {
        struct rs_route_state st = route_of(c, d, bad);
        return rs_err_set(err, RS_EINVARIANT,
                          "route of message %u (%u -> %u) does not end at its destination", bad,
                          st.src, st.dst);
    }
    c->off[0] = 0;
    for (uint32_t m = 0; m < c->n; m++) {
        uint64_t len = c->off[m + 1];
        c->off[m + 1] = c->off[m] + len;
        if ((uint32_t)len > c->max_len)
            c->max_len = (uint32_t)len;
    }
    c->hop = rs_malloc((size_t)c->off[c->n] * sizeof *c->hop + 4);
    uint64_t *tmp = rs_malloc(((size_t)c->max_len + 1) * sizeof *tmp);
    if (!c->hop || !tmp) {
        rs_free(tmp);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu path hops",
                          (unsigned long long)c->off[c->n]);
    }
    bad = walks(c, d, 0, c->n, tmp, c->used, err);
    rs_free(tmp);
    return bad < c->n ? RS_EUNSUPPORTED : 0;
}

/* Decide one stage's requests, grouped by channel (g[0..n)): every channel carries at most
 * cap - used circuits (all requests win when they fit, else the best by key); losers fail
 * and the winners lock the channel (in the all-at-once mode also a winner whose message
 * loses on another channel: what it locked stays locked for the cycle; its fail flag may
 * then be set by several threads at once, hence the atomic store). */
static void decide_hops(struct circ *c, const struct circ_stage *st, struct circ_req *g,
                        uint32_t n)
{
    uint32_t stage = st->stage;
    for (uint32_t s = 0; s < n;) {
        uint32_t e = s + 1;
        while (e < n && g[e].res == g[s].res)
            e++;
        uint32_t ch = g[s].res, len = e - s, avail = c->cap - c->used[ch];
        if (len > avail) {
            rs__circ_order(c, g + s, len, stage);
            for (uint32_t k = 0; k < len; k++) {
                if (k < avail)
                    rs__circ_lock(c, c->run[k].p, ch);
                else
                    __atomic_store_n(&c->fail[c->run[k].p], 1, __ATOMIC_RELAXED);
            }
            len = avail;
        } else {
            for (uint32_t k = s; k < e; k++)
                rs__circ_lock(c, g[k].p, ch);
        }
        if (len && !c->used[ch])
            c->touched[c->n_touched++] = ch;
        c->used[ch] = (uint16_t)(c->used[ch] + len);
        if (c->used[ch] > c->max_circ)
            c->max_circ = c->used[ch];
        s = e;
    }
}

/* Staged mode: hop st->a of the live messages at positions k0..k1. */
static uint32_t build_hop(struct circ *c, const struct circ_stage *st, uint32_t k0, uint32_t k1,
                          struct circ_req *out)
{
    uint32_t n = 0, h = st->a;
    for (uint32_t p = k0; p < k1; p++) {
        uint32_t m = c->act[p];
        if (!c->fail[p] && c->off[m] + h < c->off[m + 1])
            out[n++] = (struct circ_req){c->hop[c->off[m] + h], p};
    }
    return n;
}

/* All-at-once mode: every hop of the messages at positions k0..k1. */
static uint32_t build_all(struct circ *c, const struct circ_stage *st, uint32_t k0, uint32_t k1,
                          struct circ_req *out)
{
    uint32_t n = 0;
    (void)st;
    for (uint32_t p = k0; p < k1; p++) {
        uint32_t m = c->act[p];
        for (uint64_t h = c->off[m]; h < c->off[m + 1]; h++)
            out[n++] = (struct circ_req){c->hop[h], p};
    }
    return n;
}

void rs__circ_paths_cycle(struct circ *c)
{
    for (uint32_t p = 0; p < c->n_act; p++) {
        c->fail[p] = 0;
        if (c->cpath)
            c->cplen[p] = 0;
    }
    /* every thread may touch every channel of the cycle's paths (off is indexed by id) */
    uint64_t n_hops = 0;
    if (c->threads > 1)
        for (uint32_t p = 0; p < c->n_act; p++)
            n_hops += c->off[c->act[p] + 1] - c->off[c->act[p]];
    rs__circ_par_begin(c, c->mode == CIRC_MODE_STAGED ? c->n_act : n_hops, n_hops);
    struct circ_stage st = {.decide = decide_hops, .n_items = c->n_act};
    if (c->mode == CIRC_MODE_STAGED) { /* hop h of every path, h = 0, 1, ... */
        st.build = build_hop;
        for (uint32_t h = 0; h < c->max_len; h++) {
            st.stage = st.a = h;
            if (!rs__circ_stage(c, &st))
                break;
        }
    } else { /* every hop of every path at once, one key per message and cycle */
        st.build = build_all;
        rs__circ_stage(c, &st);
    }
    for (uint64_t t = 0; t < c->n_touched; t++)
        c->used[c->touched[t]] = 0;
    c->n_touched = 0;
    if (c->par_now)
        rs__circ_par_untouch(c);
    if (c->xc) /* over ranks: every rank's fail flags (circuit_dist.c) */
        rs__circ_dist_cycle_end(c);
}
