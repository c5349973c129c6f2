/* Edge colouring of k-regular bipartite multigraphs with k colours (König): Euler splits for
 * even degrees (the looping algorithm when k = 2) and, for odd degrees, a perfect matching by
 * random walks (Goel-Kapralov-Khanna). The colouring step of the Lev-Pippenger-Valiant
 * off-line router (lpv.c). */
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "algo/lcan_plan.h"
#include "routesim/rng.h"

int rs__colour_init(struct rs__colourer *c, uint32_t n, uint32_t k, struct rs_err *err)
{
    memset(c, 0, sizeof *c);
    if (n == 0 || k == 0 || (uint64_t)n * k >= ((uint64_t)1 << 31))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "edge colouring: %u vertices of degree %u is out of range", n, k);
    c->n = n;
    c->k = k;
    c->m = n * k;
    size_t m = c->m;
    c->ids = rs_malloc(m * sizeof *c->ids);
    c->tmp = rs_malloc(m * sizeof *c->tmp);
    c->off = rs_malloc(((size_t)n + 1) * sizeof *c->off);
    c->cur = rs_malloc(2 * (size_t)n * sizeof *c->cur);
    c->inc = rs_malloc(m * sizeof *c->inc);
    c->lp = rs_malloc(m * sizeof *c->lp);
    c->rp = rs_malloc(m * sizeof *c->rp);
    c->side = rs_malloc(m);
    c->mate = rs_malloc(2 * (size_t)n * sizeof *c->mate);
    c->via = rs_malloc((size_t)n * sizeof *c->via);
    c->pool = rs_malloc((size_t)n * sizeof *c->pool);
    c->where = rs_malloc((size_t)n * sizeof *c->where);
    if (!c->ids || !c->tmp || !c->off || !c->cur || !c->inc || !c->lp || !c->rp || !c->side ||
        !c->mate || !c->via || !c->pool || !c->where)
        return rs_err_set(err, RS_ENOMEM, "out of memory for colouring %u edges", c->m);
    return 0;
}

void rs__colour_free(struct rs__colourer *c)
{
    rs_free(c->ids);
    rs_free(c->tmp);
    rs_free(c->off);
    rs_free(c->cur);
    rs_free(c->inc);
    rs_free(c->lp);
    rs_free(c->rp);
    rs_free(c->side);
    rs_free(c->mate);
    rs_free(c->via);
    rs_free(c->pool);
    rs_free(c->where);
    memset(c, 0, sizeof *c);
}

/* Euler split of the edges ids[0..cnt), every vertex of even degree among them: side[e] =
 * 0 or 1 so that every vertex has as many edges on each side. The edges at each vertex
 * are paired in list order (the 1st with the 2nd, the 3rd with the 4th, ...: lp at the left
 * end, rp at the right end); the pairs chain the edges into closed walks e, rp[e],
 * lp[rp[e]], ..., which alternate sides (a walk crosses from the left to the right side of
 * the graph on side-0 edges and back on side-1 edges). Time O(cnt + n). */
static void euler_split(struct rs__colourer *c, const uint32_t *ids, uint32_t cnt)
{
    uint32_t n = c->n, *pend = c->cur; /* the unpaired edge at each vertex */
    memset(pend, 0xff, 2 * (size_t)n * sizeof *pend);
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t e = ids[i], *l = &pend[c->left[e]], *r = &pend[n + c->right[e]];
        if (*l == UINT32_MAX) {
            *l = e;
        } else {
            c->lp[e] = *l;
            c->lp[*l] = e;
            *l = UINT32_MAX;
        }
        if (*r == UINT32_MAX) {
            *r = e;
        } else {
            c->rp[e] = *r;
            c->rp[*r] = e;
            *r = UINT32_MAX;
        }
        c->side[e] = 2;
    }
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t e = ids[i];
        while (c->side[e] == 2) {
            uint32_t f = c->rp[e];
            c->side[e] = 0;
            c->side[f] = 1;
            e = c->lp[f];
        }
    }
}

/* Mark a perfect matching of the k-regular graph ids[0..cnt) (k odd >= 3, cnt = n k) with
 * side[e] = 1 (side[e] = 0 for the others): Goel, Kapralov and Khanna's random walks
 * ("Perfect matchings in O(n log n) time in regular bipartite graphs", STOC 2010). While a
 * left vertex is free: start at a uniformly random free left vertex; at a left vertex take
 * a uniformly random one of its k edges other than its matched one (k or k-1 choices) to
 * a right vertex w, remembering it as the vertex's last exit; stop at a free w, else go on
 * from w's mate. Following the last exits from the start is a simple augmenting path (the
 * walk with its loops erased); flip it. The expected number of steps is O(n log n) in all
 * (the i-th walk takes O(n / (n - i)) in expectation). Draws come from (seed,
 * RS_STREAM_MATCHING, entity, step = the matching's number in this colouring). */
static void perfect_matching(struct rs__colourer *c, const uint32_t *ids, uint32_t cnt,
                             uint32_t k)
{
    uint32_t n = c->n, *off = c->off, *inc = c->inc, *mate = c->mate, nfree = n;
    memset(off, 0, ((size_t)n + 1) * sizeof *off);
    for (uint32_t i = 0; i < cnt; i++)
        off[c->left[ids[i]] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        off[v + 1] += off[v];
    memcpy(c->cur, off, (size_t)n * sizeof *c->cur);
    for (uint32_t i = 0; i < cnt; i++) {
        inc[c->cur[c->left[ids[i]]]++] = ids[i];
        c->side[ids[i]] = 0;
    }
    for (uint32_t v = 0; v < n; v++) {
        mate[v] = mate[n + v] = UINT32_MAX; /* left v's edge, right v's edge */
        c->pool[v] = c->where[v] = v;       /* the free left vertices */
    }
    struct rs_rng r;
    rs_rng_init(&r, c->seed, RS_STREAM_MATCHING, c->entity, c->matchings++);
    while (nfree) {
        uint32_t start = c->pool[rs_rng_below(&r, nfree)], v = start, w;
        for (;;) {
            uint32_t me = mate[v], x = rs_rng_below(&r, me == UINT32_MAX ? k : k - 1);
            uint32_t e = inc[off[v] + x];
            if (e == me)
                e = inc[off[v] + k - 1]; /* the matched edge's slot stands for the last one */
            c->via[v] = e;
            w = c->right[e];
            if (mate[n + w] == UINT32_MAX)
                break;
            v = c->left[mate[n + w]];
        }
        for (v = start;;) { /* augment along the last exits */
            uint32_t e = c->via[v], old = mate[n + c->right[e]];
            mate[v] = e;
            mate[n + c->right[e]] = e;
            if (old == UINT32_MAX)
                break;
            v = c->left[old];
        }
        uint32_t at = c->where[start], last = c->pool[--nfree];
        c->pool[at] = last;
        c->where[last] = at;
    }
    for (uint32_t v = 0; v < n; v++)
        c->side[mate[v]] = 1;
}

/* Move the edges of ids[0..cnt) with side == 0 to the front (order kept); returns how
 * many there are. */
static uint32_t partition(struct rs__colourer *c, uint32_t *ids, uint32_t cnt)
{
    uint32_t z = 0, o = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        if (c->side[ids[i]] == 0)
            ids[z++] = ids[i];
        else
            c->tmp[o++] = ids[i];
    }
    memcpy(ids + z, c->tmp, (size_t)o * sizeof *ids);
    return z;
}

/* Colour the k-regular graph ids[0..cnt) with colours base .. base+k-1. */
static void colour_rec(struct rs__colourer *c, uint32_t *ids, uint32_t cnt, uint32_t k,
                       uint32_t base)
{
    while (k > 1) {
        if (k & 1) { /* a perfect matching takes the last colour */
            perfect_matching(c, ids, cnt, k);
            uint32_t z = partition(c, ids, cnt);
            for (uint32_t i = z; i < cnt; i++)
                c->colour[ids[i]] = base + k - 1;
            cnt = z;
            k--;
            continue;
        }
        euler_split(c, ids, cnt);
        uint32_t z = partition(c, ids, cnt);
        colour_rec(c, ids + z, cnt - z, k / 2, base + k / 2);
        cnt = z;
        k /= 2;
    }
    for (uint32_t i = 0; i < cnt; i++)
        c->colour[ids[i]] = base;
}

int rs__colour_run(struct rs__colourer *c, const uint32_t *left, const uint32_t *right,
                   uint64_t seed, uint64_t entity, uint32_t *colour, struct rs_err *err)
{
    RS_ASSERT(c->n > 0 && left != NULL && right != NULL && colour != NULL); /* initialised */
    uint32_t n = c->n;
    memset(c->cur, 0, 2 * (size_t)n * sizeof *c->cur);
    for (uint32_t e = 0; e < c->m; e++) {
        if (left[e] >= n || right[e] >= n)
            return rs_err_set(err, RS_EINVARIANT, "edge colouring: edge %u has an end out of "
                              "0..%u", e, n - 1);
        c->cur[left[e]]++;
        c->cur[n + right[e]]++;
    }
    for (uint32_t v = 0; v < 2 * n; v++)
        if (c->cur[v] != c->k)
            return rs_err_set(err, RS_EINVARIANT,
                              "edge colouring: %s vertex %u has degree %u, not %u",
                              v < n ? "left" : "right", v % n, c->cur[v], c->k);
    c->left = left;
    c->right = right;
    c->colour = colour;
    c->seed = seed;
    c->entity = entity;
    c->matchings = 0;
    for (uint32_t e = 0; e < c->m; e++)
        c->ids[e] = e;
    colour_rec(c, c->ids, c->m, c->k, 0);
    return 0;
}
