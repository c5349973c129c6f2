/* Lemma 8 of 000 §4.1: Columnsort [Lei85a] on an s x w array of real words, recursed on
 * "virtual columns" when Leighton's shape condition fails; every phase sorts the real
 * columns and applies one (combined) permutation. Also the checked sort of r keys. */
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/flexsort.h"

static int is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

/* Leighton's condition for a Columnsort of n words in columns of rows words. */
static int leighton_ok(uint64_t rows, uint64_t n)
{
    uint64_t cols = n / rows;
    return rows >= 2 * (cols - 1) * (cols - 1) && rows % cols == 0 && rows % 2 == 0;
}

uint32_t rs_fsort_block(uint32_t s, uint32_t n)
{
    RS_ASSERT(is_pow2(s) && is_pow2(n) && s <= n);
    if (n == s || leighton_ok(s, n))
        return s;
    uint32_t S = 2 * s;
    while (S < n && !leighton_ok(S, n))
        S *= 2;
    RS_ASSERT(S < n); /* S = n/2 always qualifies for n >= 8 */
    return S;
}

static int check_shape(uint32_t s, uint32_t w, struct rs_err *err)
{
    if (!is_pow2(s) || s < 4 || s > RS_FSORT_MAX_S)
        return rs_err_set(err, RS_EINVAL, "flexible sorter: s must be a power of two in "
                          "[4, %u], not %u", RS_FSORT_MAX_S, s);
    if (!is_pow2(w) || (uint64_t)s * w > RS_FSORT_MAX_WORDS)
        return rs_err_set(err, RS_EINVAL, "flexible sorter: w must be a power of two with "
                          "s*w <= %u, not w=%u", RS_FSORT_MAX_WORDS, w);
    return 0;
}

/* Phases (sort steps) of a sort of n words on real columns of s words. */
static uint32_t phases_of(uint32_t s, uint32_t n, uint32_t *depth)
{
    if (n == s) {
        *depth = 0;
        return 1;
    }
    uint32_t d, p = 4 * phases_of(s, rs_fsort_block(s, n), &d);
    *depth = d + 1;
    return p;
}

int rs_fsort_shape(uint32_t s, uint32_t w, struct rs_fsort_shape *out, struct rs_err *err)
{
    int rc = check_shape(s, w, err);
    if (rc)
        return rc;
    out->s = s;
    out->w = w;
    out->phases = phases_of(s, s * w, &out->depth);
    out->perm_steps = out->depth ? out->phases : 0;
    return 0;
}

/* ---- the run ----------------------------------------------------------------------------- */

enum perm_kind { TRANSPOSE, UNTRANSPOSE, SHIFT, UNSHIFT };

struct run {
    struct rs_fsort_word *a, *tmp;
    uint32_t s, w, n;
    uint8_t *masks; /* (depth + 1) x w: the real columns a sort step sorts, per level */
    rs_fsort_trace_fn trace;
    void *ctx;
    uint32_t phases, perm_steps;
    int pending; /* a permutation was applied since the last sort step */
};

/* Stable merge sort of a[0..n) by key, tmp n words of scratch. */
static void merge_sort(struct rs_fsort_word *a, struct rs_fsort_word *tmp, uint32_t n)
{
    for (uint32_t width = 1; width < n; width *= 2) {
        for (uint32_t lo = 0; lo < n; lo += 2 * width) {
            uint32_t mid = lo + width < n ? lo + width : n;
            uint32_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                tmp[k++] = a[j].key < a[i].key ? a[j++] : a[i++];
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof *a);
    }
}

/* A sort step: every real column whose mask is set passes through the s-word sorter. */
static void sort_step(struct run *x, const uint8_t *mask)
{
    if (x->pending && x->trace)
        x->trace(x->ctx, RS_FSORT_PERMUTED, x->phases - 1, x->a, x->n);
    x->pending = 0;
    for (uint32_t c = 0; c < x->w; c++)
        if (mask[c])
            merge_sort(x->a + (size_t)c * x->s, x->tmp, x->s);
    if (x->trace)
        x->trace(x->ctx, RS_FSORT_SORTED, x->phases, x->a, x->n);
    x->phases++;
}

/* Where the word at position p of a block of nb words in columns of rows words goes. */
static uint32_t target(enum perm_kind k, uint32_t p, uint32_t rows, uint32_t nb)
{
    uint32_t cols = nb / rows;
    switch (k) {
    case TRANSPOSE: /* taken in column-major order, laid down in row-major order */
        return (p % cols) * rows + p / cols;
    case UNTRANSPOSE:
        return (p % rows) * cols + p / rows;
    case SHIFT: /* down by rows/2, the last half column wrapping into column 0 */
        return (p + rows / 2) % nb;
    default: /* UNSHIFT */
        return (p + nb - rows / 2) % nb;
    }
}

/* Apply one Columnsort permutation to every block of nb words at once. */
static void permute(struct run *x, enum perm_kind k, uint32_t rows, uint32_t nb)
{
    if (!x->pending)
        x->perm_steps++;
    x->pending = 1;
    for (uint32_t base = 0; base < x->n; base += nb)
        for (uint32_t p = 0; p < nb; p++)
            x->tmp[base + target(k, p, rows, nb)] = x->a[base + p];
    memcpy(x->a, x->tmp, (size_t)x->n * sizeof *x->a);
}

/* Sort every block of nb consecutive words (a multiple of s) in column-major order;
 * level indexes the mask of the real columns a sort step may sort at this depth. */
static void sort_blocks(struct run *x, uint32_t nb, uint32_t level)
{
    const uint8_t *mask = x->masks + (size_t)level * x->w;
    if (nb == x->s) {
        sort_step(x, mask);
        return;
    }
    uint32_t rows = rs_fsort_block(x->s, nb);
    RS_ASSERT(leighton_ok(rows, nb));
    uint8_t *next = x->masks + (size_t)(level + 1) * x->w;
    memcpy(next, mask, x->w);
    sort_blocks(x, rows, level + 1); /* Leighton's step 1 */
    permute(x, TRANSPOSE, rows, nb); /* 2 */
    memcpy(next, mask, x->w);
    sort_blocks(x, rows, level + 1); /* 3 */
    permute(x, UNTRANSPOSE, rows, nb); /* 4 */
    memcpy(next, mask, x->w);
    sort_blocks(x, rows, level + 1); /* 5 */
    permute(x, SHIFT, rows, nb); /* 6 */
    /* 7: the wrap-around column 0 of each block holds the bottom half of the last column
     * over the top half of the first, Leighton's two half columns padded with -inf and
     * +inf, which his step 7 leaves as they are: its real columns skip this sort */
    memcpy(next, mask, x->w);
    for (uint32_t base = 0; base < x->n; base += nb)
        memset(next + base / x->s, 0, rows / x->s);
    sort_blocks(x, rows, level + 1);
    permute(x, UNSHIFT, rows, nb); /* 8 */
}

int rs_fsort_columnsort(struct rs_fsort_word *a, uint32_t s, uint32_t w,
                        rs_fsort_trace_fn trace, void *ctx, struct rs_fsort_shape *done,
                        struct rs_err *err)
{
    struct rs_fsort_shape sh;
    int rc = rs_fsort_shape(s, w, &sh, err);
    if (rc)
        return rc;
    RS_ASSERT(a != NULL);
    struct run x = {.a = a, .s = s, .w = w, .n = s * w, .trace = trace, .ctx = ctx};
    x.tmp = rs_malloc((size_t)x.n * sizeof *x.tmp);
    x.masks = rs_malloc((size_t)(sh.depth + 1) * w);
    if (!x.tmp || !x.masks) {
        rs_free(x.tmp);
        rs_free(x.masks);
        return rs_err_set(err, RS_ENOMEM, "flexible sorter: out of memory for %u words", x.n);
    }
    memset(x.masks, 1, w);
    sort_blocks(&x, x.n, 0);
    if (x.pending && trace)
        trace(ctx, RS_FSORT_PERMUTED, x.phases - 1, a, x.n);
    RS_ASSERT(x.phases == sh.phases && x.perm_steps == sh.perm_steps);
    if (done) {
        *done = sh;
        done->phases = x.phases;
        done->perm_steps = x.perm_steps;
    }
    rs_free(x.tmp);
    rs_free(x.masks);
    return 0;
}

/* ---- the checked sort -------------------------------------------------------------------- */

static uint32_t next_pow2(uint32_t x)
{
    uint32_t p = 1;
    while (p < x)
        p *= 2;
    return p;
}

/* The first r cells must hold every input word once, keys nondecreasing; the rest empty. */
static int check_output(const struct rs_fsort_word *a, uint32_t n, const uint64_t *keys,
                        uint32_t r, uint8_t *seen, struct rs_err *err)
{
    for (uint32_t p = 0; p < n; p++) {
        if (p >= r) {
            if (a[p].key != RS_FSORT_EMPTY)
                return rs_err_set(err, RS_EINVARIANT, "flexible sorter: position %u (of %u "
                                  "words) holds a word, not an empty cell", p, r);
            continue;
        }
        if (a[p].id >= r || seen[a[p].id] || a[p].key != keys[a[p].id])
            return rs_err_set(err, RS_EINVARIANT, "flexible sorter: position %u does not "
                              "hold an input word once (not a permutation)", p);
        seen[a[p].id] = 1;
        if (p && a[p].key < a[p - 1].key)
            return rs_err_set(err, RS_EINVARIANT, "flexible sorter: position %u holds key "
                              "%llu after %llu (not sorted)", p,
                              (unsigned long long)a[p].key, (unsigned long long)a[p - 1].key);
    }
    return 0;
}

int rs_fsort_sort(const uint64_t *keys, uint32_t r, uint32_t s, uint64_t *sorted,
                  struct rs_fsort_shape *sh, struct rs_err *err)
{
    if (r < 1 || r > RS_FSORT_MAX_WORDS)
        return rs_err_set(err, RS_EINVAL, "flexible sorter: r must be in [1, %u], not %u",
                          RS_FSORT_MAX_WORDS, r);
    uint32_t w = next_pow2((r + s - 1) / s);
    int rc = check_shape(s, w, err);
    if (rc)
        return rc;
    uint32_t n = s * w;
    struct rs_fsort_word *a = rs_malloc((size_t)n * sizeof *a);
    uint8_t *seen = rs_calloc(r, 1);
    if (!a || !seen) {
        rs_free(a);
        rs_free(seen);
        return rs_err_set(err, RS_ENOMEM, "flexible sorter: out of memory for %u words", n);
    }
    for (uint32_t p = 0; p < n; p++) {
        RS_ASSERT(p >= r || keys[p] != RS_FSORT_EMPTY);
        a[p].key = p < r ? keys[p] : RS_FSORT_EMPTY;
        a[p].id = p < r ? p : UINT32_MAX;
    }
    rc = rs_fsort_columnsort(a, s, w, NULL, NULL, sh, err);
    if (!rc)
        rc = check_output(a, n, keys, r, seen, err);
    for (uint32_t p = 0; !rc && sorted && p < r; p++)
        sorted[p] = a[p].key;
    rs_free(a);
    rs_free(seen);
    return rc;
}
