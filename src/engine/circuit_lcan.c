/* One network cycle of the circuit engine on an LCAN (Scherson & Chien 002 §3), level-
 * synchronous: the PE links, the up choices of levels 0..l-2, the down channels of levels
 * l-1..1, then the links to the PEs. A message that loses a contention fails for the cycle;
 * what it locked below stays locked. docs/model-circuit.md has the exact rules. */
#include <string.h>

#include "engine/circuit.h"
#include "routesim/rng.h"

/* Stage numbers (they key the conflict draws): injection 0, up from level i 1 + i, down
 * from level i l + (l-1-i), the PE links 2l - 1. */
static uint32_t stage_up(const struct rs_lcan *lc, uint32_t i)
{
    return 1 + i;
}

static uint32_t stage_down(const struct rs_lcan *lc, uint32_t i)
{
    return lc->l + (lc->l - 1 - i);
}

/* Decide every run of the n grouped requests g of one stage for resources of wires wires
 * with cap circuits each: all win when they fit, else the wires*cap best by key. Losers
 * get fail. Winners get slot[p] = their wire in the bundle (0 when wires == 1), wires
 * being handed out round-robin in message-id order. */
static void decide(struct circ *c, const struct circ_req *g, uint32_t n, uint32_t stage,
                   uint32_t wires)
{
    uint32_t avail = wires * c->cap;
    for (uint32_t s = 0; s < n;) {
        uint32_t e = s + 1;
        while (e < n && g[e].res == g[s].res)
            e++;
        uint32_t len = e - s, win = len;
        if (len > avail) {
            rs__circ_order(c, g + s, len, stage);
            for (uint32_t k = avail; k < len; k++)
                c->fail[c->run[k].p] = 1;
            win = avail;
        }
        if (wires > 1) { /* winners in message-id order take wires 0, 1, .., round-robin */
            uint32_t w = 0;
            for (uint32_t k = s; k < e; k++)
                if (!c->fail[g[k].p]) {
                    c->run[w].key = c->act[g[k].p];
                    c->run[w].m = c->act[g[k].p];
                    c->run[w++].p = g[k].p;
                }
            rs__circ_sort_run(c->run, w);
            for (uint32_t k = 0; k < w; k++)
                c->slot[c->run[k].p] = k % wires;
        } else {
            for (uint32_t k = s; k < e; k++)
                c->slot[g[k].p] = 0;
        }
        uint32_t per_wire = (win + wires - 1) / wires;
        if (per_wire > c->max_circ)
            c->max_circ = per_wire;
        s = e;
    }
}

/* The up setting of switch node w (d downers): sigma, a permutation of the downers giving
 * each its priority (lower first) and its preferred upper sigma mod u. fixed: identity;
 * random_per_permutation: drawn from (seed, RS_STREAM_CIRCUIT_UP, w, step 0) once for the
 * run; random_per_cycle: from step = cycle. */
static void up_setting(struct circ *c, uint32_t w, uint32_t d)
{
    uint32_t *sigma = c->sigma;
    for (uint32_t j = 0; j < d; j++)
        sigma[j] = j;
    if (c->up == CIRC_UP_FIXED)
        return;
    struct rs_rng r;
    rs_rng_init(&r, c->seed, RS_STREAM_CIRCUIT_UP, w,
                c->up == CIRC_UP_RANDOM_PER_CYCLE ? c->cycle : 0);
    for (uint32_t i = d; i > 1; i--) {
        uint32_t j = rs_rng_below(&r, i), t = sigma[i - 1];
        sigma[i - 1] = sigma[j];
        sigma[j] = t;
    }
}

/* The up choices of one switch of level i for its requests g[0..len) (a concentrator):
 * requests are served in the order (sigma of their downer, message id); the t-th request
 * of a downer prefers upper (sigma + t) mod u and takes the first upper with room from
 * there on, cyclically; when every upper carries cap circuits the rest fail. Winners get
 * slot[p] = their upper. */
static void up_choice(struct circ *c, const struct circ_req *g, uint32_t len, uint32_t i)
{
    const struct rs_lcan *lc = c->lc;
    uint32_t d = lc->d[i], u = lc->u[i], room = u * c->cap;
    up_setting(c, g[0].res, d);
    for (uint32_t k = 0; k < len; k++) {
        uint32_t p = g[k].p;
        c->run[k].key = (uint64_t)c->sigma[c->slot[p]] << 32;
        c->run[k].m = c->act[p];
        c->run[k].p = p;
    }
    rs__circ_sort_run(c->run, len);
    memset(c->ucnt, 0, u * sizeof *c->ucnt);
    uint64_t prev = UINT64_MAX;
    uint32_t t = 0, used = 0;
    for (uint32_t k = 0; k < len; k++) {
        uint32_t p = c->run[k].p;
        t = c->run[k].key == prev ? t + 1 : 0;
        prev = c->run[k].key;
        if (used == room) {
            c->fail[p] = 1;
            continue;
        }
        uint32_t kk = (uint32_t)((c->run[k].key >> 32) + t) % u;
        while (c->ucnt[kk] >= c->cap)
            kk = kk + 1 == u ? 0 : kk + 1;
        c->ucnt[kk]++;
        used++;
        if (c->ucnt[kk] > c->max_circ)
            c->max_circ = c->ucnt[kk];
        c->slot[p] = kk;
    }
}

/* Upper of level i that a circuit planned through switch via takes (CB-LCAN): digit k_i of
 * via's low part (its base-u digits k_0 .. k_{T-1}, T = via's level). */
static uint32_t planned_upper(const struct rs_lcan *lc, uint32_t via, uint32_t i)
{
    uint32_t T = (uint32_t)rs__lcan_level(lc, via), lo = (via - lc->first[T]) % lc->U[T];
    return (lo / (lc->U[T] / lc->U[i + 1])) % lc->u[i];
}

/* The stages (struct circ_stage): items are entries k of c->tb from st->c on; a = level
 * i; b = wires of the down bundles of level i. */

/* The PE links: a terminal sends at most cap circuits. */
static uint32_t build_inject(struct circ *c, const struct circ_stage *st, uint32_t k0,
                             uint32_t k1, struct circ_req *out)
{
    uint32_t n = 0;
    for (uint32_t k = st->c + k0; k < st->c + k1; k++) {
        uint32_t p = c->tb[k];
        out[n++] = (struct circ_req){rs_problem_src(c->pb, c->act[p]), p};
    }
    return n;
}

static void decide_inject(struct circ *c, const struct circ_stage *st, struct circ_req *g,
                          uint32_t n)
{
    const struct rs_lcan *lc = c->lc;
    decide(c, g, n, st->stage, 1);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = g[k].p, s = g[k].res, j;
        if (c->fail[p])
            continue;
        rs__circ_lock(c, p, s * c->P);
        c->pos[p] = rs__lcan_switch(lc, 0, rs__lcan_pe_switch(lc, s, &j));
        c->slot[p] = j;
    }
}

/* Up from level i: the live messages turning above i request their switch (or, under a
 * plan off a tree, the planned upper). */
static uint32_t build_up(struct circ *c, const struct circ_stage *st, uint32_t k0, uint32_t k1,
                         struct circ_req *out)
{
    const struct rs_lcan *lc = c->lc;
    uint32_t i = st->a, P = c->P, n = 0;
    int forced = c->via && !lc->tree;
    for (uint32_t k = st->c + k0; k < st->c + k1; k++) {
        uint32_t p = c->tb[k];
        if (c->fail[p])
            continue;
        uint32_t res = forced ? c->pos[p] * P + lc->d[i] + planned_upper(lc, c->via[c->act[p]], i)
                              : c->pos[p];
        out[n++] = (struct circ_req){res, p};
    }
    return n;
}

static void decide_up(struct circ *c, const struct circ_stage *st, struct circ_req *g, uint32_t n)
{
    const struct rs_lcan *lc = c->lc;
    uint32_t i = st->a, P = c->P;
    if (c->via && !lc->tree) {
        decide(c, g, n, st->stage, 1);
        for (uint32_t k = 0; k < n; k++)
            if (!c->fail[g[k].p])
                c->slot[g[k].p] = g[k].res - c->pos[g[k].p] * P - lc->d[i];
    } else {
        for (uint32_t s = 0; s < n;) {
            uint32_t e = s + 1;
            while (e < n && g[e].res == g[s].res)
                e++;
            up_choice(c, g + s, e - s, i);
            s = e;
        }
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = g[k].p, downer;
        if (c->fail[p])
            continue;
        uint32_t x = c->pos[p] - lc->first[i], up = c->slot[p];
        rs__circ_lock(c, p, c->pos[p] * P + lc->d[i] + up);
        c->pos[p] = rs__lcan_switch(lc, i + 1, rs__lcan_up(lc, i, x, up, &downer));
        c->slot[p] = downer;
    }
}

/* Down from level i (to i - 1, or at i = 0 to the PEs): the live messages turning at i or
 * above request the down channel (bundle) towards their destination. */
static uint32_t build_down(struct circ *c, const struct circ_stage *st, uint32_t k0,
                           uint32_t k1, struct circ_req *out)
{
    const uint32_t *dst = c->pb->dst;
    uint32_t i = st->a, P = c->P, n = 0, wires;
    for (uint32_t k = st->c + k0; k < st->c + k1; k++) {
        uint32_t p = c->tb[k];
        if (c->fail[p])
            continue;
        uint32_t j = rs__lcan_downer_to(c->lc, i, dst[c->act[p]], &wires);
        out[n++] = (struct circ_req){c->pos[p] * P + j, p};
    }
    return n;
}

static void decide_down(struct circ *c, const struct circ_stage *st, struct circ_req *g,
                        uint32_t n)
{
    const struct rs_lcan *lc = c->lc;
    uint32_t i = st->a;
    decide(c, g, n, st->stage, st->b);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t p = g[k].p, upper;
        if (c->fail[p])
            continue;
        uint32_t ch = g[k].res + c->slot[p];
        rs__circ_lock(c, p, ch);
        if (i == 0)
            continue; /* at its PE */
        uint32_t x = c->pos[p] - lc->first[i], j = ch - c->pos[p] * c->P;
        c->pos[p] = rs__lcan_switch(lc, i - 1, rs__lcan_down(lc, i, x, j, &upper));
        c->slot[p] = upper;
    }
}

/* The cycle. Positions are first sorted by turn level into c->tb: after the up phase of
 * levels below i every live message with turn level >= i is at level i, so the messages
 * taking part in the up choice of level i are the live ones of the suffix with turn > i,
 * and those in the down phase of level i the live ones with turn >= i. The work of a
 * stage is the number of messages in it. */
void rs__circ_lcan_cycle(struct circ *c)
{
    const struct rs_lcan *lc = c->lc;
    uint32_t start[RS_LCAN_MAX_LEVELS + 1] = {0}, fill[RS_LCAN_MAX_LEVELS + 1], total;
    for (uint32_t p = 0; p < c->n_act; p++) {
        uint32_t t = c->turn[c->act[p]];
        c->fail[p] = 0;
        if (c->cpath)
            c->cplen[p] = 0;
        if (t != UINT8_MAX)
            start[t + 1]++;
    }
    for (uint32_t i = 0; i < lc->l; i++)
        start[i + 1] += start[i];
    total = start[lc->l];
    memcpy(fill, start, sizeof fill);
    for (uint32_t p = 0; p < c->n_act; p++) {
        uint32_t t = c->turn[c->act[p]];
        if (t != UINT8_MAX)
            c->tb[fill[t]++] = p;
    }
    rs__circ_par_begin(c, total, 0);
    struct circ_stage st = {build_inject, decide_inject, 0, total, 0, 1, 0};
    rs__circ_stage(c, &st);
    /* up: level i to i+1, the live messages turning above i */
    for (uint32_t i = 0; i + 1 < lc->l; i++) {
        st = (struct circ_stage){build_up, decide_up, stage_up(lc, i), total - start[i + 1], i, 1,
                                 start[i + 1]};
        rs__circ_stage(c, &st);
    }
    /* down: level i to i-1 for the live messages turning at i or above, then (i = 0) the
     * links to the PEs */
    for (uint32_t i = lc->l; i-- > 0;) {
        uint32_t wires;
        rs__lcan_downer_to(lc, i, 0, &wires); /* the same for every destination */
        st = (struct circ_stage){build_down, decide_down, i ? stage_down(lc, i) : 2 * lc->l - 1,
                                 total - start[i], i, wires, start[i]};
        rs__circ_stage(c, &st);
    }
}
