/* Edge colouring of k-regular bipartite multigraphs with k colours (König): Euler splits for
 * even degrees (the looping algorithm when k = 2) and, for odd degrees, a perfect matching by
 * Alon's halving of a 2^t-regular multiple of the graph. The colouring step of the
 * Lev-Pippenger-Valiant off-line router (lpv.c). */
#include <stdlib.h>
#include <string.h>

#include "algo/lcan_plan.h"

int rs__colour_init(struct rs__colourer *c, uint32_t n, uint32_t k, struct rs_err *err)
{
    memset(c, 0, sizeof *c);
    if (n == 0 || k == 0 || (uint64_t)n * k >= ((uint64_t)1 << 31))
        return rs_err_set(err, RS_ECONSTRAINT,
                          "edge colouring: %u vertices of degree %u is out of range", n, k);
    c->n = n;
    c->k = k;
    c->m = n * k;
    size_t e = (size_t)c->m + n;
    c->ids = malloc((size_t)c->m * sizeof *c->ids);
    c->tmp = malloc(e * sizeof *c->tmp);
    c->off = malloc((2 * (size_t)n + 1) * sizeof *c->off);
    c->cur = malloc(2 * (size_t)n * sizeof *c->cur);
    c->inc = malloc(2 * e * sizeof *c->inc);
    c->lp = malloc(e * sizeof *c->lp);
    c->rp = malloc(e * sizeof *c->rp);
    c->w = malloc(e * sizeof *c->w);
    c->lst = malloc(e * sizeof *c->lst);
    c->side = malloc(e);
    if (!c->ids || !c->tmp || !c->off || !c->cur || !c->inc || !c->lp || !c->rp || !c->w ||
        !c->lst || !c->side)
        return rs_err_set(err, RS_ENOMEM, "out of memory for colouring %u edges", c->m);
    return 0;
}

void rs__colour_free(struct rs__colourer *c)
{
    free(c->ids);
    free(c->tmp);
    free(c->off);
    free(c->cur);
    free(c->inc);
    free(c->lp);
    free(c->rp);
    free(c->w);
    free(c->lst);
    free(c->side);
    memset(c, 0, sizeof *c);
}

/* Endpoints of edge e: a graph edge (e < m), or the added edge m + v = (v, v) of the
 * matching search. */
static uint32_t end_left(const struct rs__colourer *c, uint32_t e)
{
    return e < c->m ? c->left[e] : e - c->m;
}

static uint32_t end_right(const struct rs__colourer *c, uint32_t e)
{
    return e < c->m ? c->right[e] : e - c->m;
}

/* Euler split of the edges ids[0..cnt), every vertex of even degree among them: side[e] =
 * 0 or 1 so that every vertex has as many edges on each side. The edges at each vertex
 * are paired in list order (lp at the left end, rp at the right end); the pairs chain the
 * edges into closed walks e, rp[e], lp[rp[e]], ..., which alternate sides (a walk crosses
 * from the left to the right side of the graph on side-0 edges and back on side-1 edges).
 * Time O(cnt + n). */
static void euler_split(struct rs__colourer *c, const uint32_t *ids, uint32_t cnt)
{
    uint32_t n = c->n, *off = c->off, *cur = c->cur, *inc = c->inc;
    memset(off, 0, (2 * (size_t)n + 1) * sizeof *off);
    for (uint32_t i = 0; i < cnt; i++) {
        off[end_left(c, ids[i]) + 1]++;
        off[n + end_right(c, ids[i]) + 1]++;
    }
    for (uint32_t v = 0; v < 2 * n; v++)
        off[v + 1] += off[v];
    memcpy(cur, off, 2 * (size_t)n * sizeof *cur);
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t e = ids[i];
        inc[cur[end_left(c, e)]++] = e;
        inc[cur[n + end_right(c, e)]++] = e;
        c->side[e] = 2;
    }
    for (uint32_t v = 0; v < 2 * n; v++) {
        uint32_t *pair = v < n ? c->lp : c->rp;
        for (uint32_t x = off[v]; x + 1 < off[v + 1]; x += 2) {
            pair[inc[x]] = inc[x + 1];
            pair[inc[x + 1]] = inc[x];
        }
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

/* Mark a perfect matching of the k-regular graph ids[0..cnt) (k odd, cnt = n k) with
 * side[e] = 1 (side[e] = 0 for the others). Alon: with 2^t >= cnt, a = 2^t div k and
 * b = 2^t - a k, the multigraph H = a G + b M0 (M0 = the added edges (v, v), "bad") is
 * 2^t-regular. t times: split H into two 2^(t-1)-regular halves (an edge of multiplicity w
 * gives w div 2 to each, and the odd ones are Euler-split) and keep the half holding fewer
 * bad edges. The bad multiplicity starts at b n < k n <= 2^t and at least halves every
 * time, so after t halvings it is 0 and H is a perfect matching of good edges. */
static void perfect_matching(struct rs__colourer *c, const uint32_t *ids, uint32_t cnt,
                             uint32_t k)
{
    uint32_t n = c->n, t = 0, *wl = c->tmp, nw = 0;
    while (((uint64_t)1 << t) < cnt)
        t++;
    uint64_t two_t = (uint64_t)1 << t;
    uint32_t a = (uint32_t)(two_t / k), b = (uint32_t)(two_t - (uint64_t)a * k);
    for (uint32_t i = 0; i < cnt; i++) {
        wl[nw++] = ids[i];
        c->w[ids[i]] = a;
    }
    for (uint32_t v = 0; b && v < n; v++) {
        wl[nw++] = c->m + v;
        c->w[c->m + v] = b;
    }
    for (uint32_t step = 0; step < t; step++) {
        uint32_t *odd = c->lst, no = 0;
        uint64_t bad[2] = {0, 0};
        for (uint32_t i = 0; i < nw; i++)
            if (c->w[wl[i]] & 1)
                odd[no++] = wl[i];
        euler_split(c, odd, no);
        for (uint32_t i = 0; i < nw; i++) { /* half 0 gets w div 2, plus 1 if odd and side 0 */
            uint32_t e = wl[i], h0 = c->w[e] / 2 + ((c->w[e] & 1) && c->side[e] == 0);
            if (e >= c->m) {
                bad[0] += h0;
                bad[1] += c->w[e] - h0;
            }
        }
        int half = bad[1] < bad[0];
        uint32_t w2 = 0;
        for (uint32_t i = 0; i < nw; i++) {
            uint32_t e = wl[i], h0 = c->w[e] / 2 + ((c->w[e] & 1) && c->side[e] == 0);
            uint32_t h = half ? c->w[e] - h0 : h0;
            if (h) {
                c->w[e] = h;
                wl[w2++] = e;
            }
        }
        nw = w2;
    }
    for (uint32_t i = 0; i < cnt; i++)
        c->side[ids[i]] = 0;
    for (uint32_t i = 0; i < nw; i++)
        c->side[wl[i]] = 1;
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
                   uint32_t *colour, struct rs_err *err)
{
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
    for (uint32_t e = 0; e < c->m; e++)
        c->ids[e] = e;
    colour_rec(c, c->ids, c->m, c->k, 0);
    return 0;
}
