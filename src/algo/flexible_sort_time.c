/* The time of the (b, s, l)-flexible sorter of 000 §4.1 (proof of Theorem 2) in bit steps,
 * Theorem 2's bound (b + log s) r/s and Lemma 8's phase count. */
#include <math.h>

#include "routesim/assert.h"
#include "routesim/flexsort.h"

static uint32_t lg(uint64_t x) /* log2 of a power of two */
{
    uint32_t k = 0;
    while (x > 1) {
        x >>= 1;
        k++;
    }
    return k;
}

int rs_fsort_time(uint32_t b, uint32_t s, uint32_t r, uint32_t l, struct rs_fsort_time *t,
                  struct rs_err *err)
{
    struct rs_fsort_shape sh, big;
    if (b < 1 || b > 63)
        return rs_err_set(err, RS_EINVAL, "flexible sorter: b must be in [1, 63], not %u", b);
    if (r < 1 || r > l || l % s)
        return rs_err_set(err, RS_EINVAL, "flexible sorter: need 1 <= r <= l with l a "
                          "multiple of s (s=%u, r=%u, l=%u)", s, r, l);
    uint32_t w = 1, cols = (r + s - 1) / s;
    while (w < cols)
        w *= 2;
    int rc = rs_fsort_shape(s, w, &sh, err);
    if (!rc)
        rc = rs_fsort_shape(s, l / s, &big, err);
    if (rc)
        return rc;
    RS_ASSERT(w <= l / s);
    /* beta: the permuting steps of the largest w; every field of a control register is
     * sized for it (the paper's constant beta) */
    t->beta = 0;
    for (uint32_t v = 1; v <= l / s; v *= 2) {
        struct rs_fsort_shape o;
        rc = rs_fsort_shape(s, v, &o, err);
        RS_ASSERT(rc == 0);
        if (o.perm_steps > t->beta)
            t->beta = o.perm_steps;
    }
    uint64_t lw = lg(w), ls = lg(s);
    t->load = (uint64_t)b * cols;
    t->unload = t->load;
    /* the Omega network's registers hold 2 beta v bits for each smaller v, the cells' (at
     * label 2) 2 beta log v: both shift at once, one bit a step */
    uint64_t omega = 2ull * t->beta * (w - 1), cells = (uint64_t)t->beta * lw * (lw ? lw - 1 : 0);
    t->select = sh.perm_steps ? (omega > cells ? omega : cells) : 0;
    t->sort = (uint64_t)sh.phases * w * (RS_FSORT_SORT_CB * (uint64_t)b + RS_FSORT_SORT_CLOG * ls);
    t->permute = (uint64_t)sh.perm_steps * RS_FSORT_PERM_PASSES * ((uint64_t)w * b + ls);
    t->total = t->load + t->select + t->sort + t->permute + t->unload;
    return 0;
}

double rs_fsort_bound(uint32_t b, uint32_t s, uint32_t r)
{
    RS_ASSERT(s >= 1);
    return ((double)b + log2((double)s)) * ceil((double)r / s);
}

double rs_fsort_bound_phases(uint32_t s, uint32_t r)
{
    RS_ASSERT(s >= 4 && r >= 1);
    return pow(log2((double)r) / log2(s / 2.0), 2.0 / log2(1.5));
}
