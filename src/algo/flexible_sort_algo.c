/* algorithm=flexible_sort: the (b, s, l)-flexible sorter of 000 §4.1 as a self-contained
 * run (no network, workload or engine): its keys, the input keys it sorts, the checked sort
 * and the time model's metrics (docs/flexible-sorter.md). */
#include <string.h>

#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/flexsort.h"
#include "routesim/metrics.h"
#include "routesim/rng.h"

static const char *const key_kinds[] = {"random", "sorted", "reversed", "adversarial", NULL};
enum { KEYS_RANDOM, KEYS_SORTED, KEYS_REVERSED, KEYS_ADVERSARIAL };

static const struct rs_optdef fsort_options[] = {
    {"b", RS_OPT_INT, "16", 1, 32, NULL, "bits of a key (the word length b of Theorem 2)", "bits"},
    {"s", RS_OPT_INT, "16", 4, RS_FSORT_MAX_S, NULL,
     "words one column sort takes (the s-word sorter of Lemma 9); a power of two", "words"},
    {"r", RS_OPT_INT, "256", 4, RS_FSORT_MAX_WORDS, NULL, "words to sort, s <= r <= l", "words"},
    {"l", RS_OPT_INT, NULL, 4, RS_FSORT_MAX_WORDS, NULL,
     "most words the sorter takes (s times a power of two, >= r; default: s times the "
     "next power of two >= r/s); it sizes the control registers (beta)", "words"},
    {"keys", RS_OPT_CHOICE, "random", 0, 0, key_kinds,
     "input keys: random (uniform b-bit, by seed), sorted, reversed (spread over [0, 2^b)), "
     "adversarial (0-1 keys, loaded column c holding floor(c s / ceil(r/s)) ones on top)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

struct fsort_params {
    uint32_t b, s, r, l;
    int keys;
};

static int read_params(const struct rs_params *p, struct fsort_params *f, struct rs_err *err)
{
    int64_t b, s, r, l = 0;
    int rc;
    if ((rc = rs_opt_int(p, fsort_options, "b", &b, err)) ||
        (rc = rs_opt_int(p, fsort_options, "s", &s, err)) ||
        (rc = rs_opt_int(p, fsort_options, "r", &r, err)) ||
        (rc = rs_opt_choice(p, fsort_options, "keys", &f->keys, err)))
        return rc;
    if (rs_params_find(p, "l") && (rc = rs_opt_int(p, fsort_options, "l", &l, err)))
        return rc;
    if (s & (s - 1))
        return rs_err_set(err, RS_EINVAL, "key 's': expected a power of two, got %lld",
                          (long long)s);
    if (r < s)
        return rs_err_set(err, RS_EINVAL, "key 'r': expected r >= s=%lld (Theorem 2 sorts "
                          "s <= r <= l words), got %lld", (long long)s, (long long)r);
    int64_t w = 1;
    while (w * s < r)
        w *= 2;
    if (!l)
        l = w * s;
    if (l < r || l % s || ((l / s) & (l / s - 1)) || l > RS_FSORT_MAX_WORDS)
        return rs_err_set(err, RS_EINVAL, "key 'l': expected s=%lld times a power of two, "
                          ">= r=%lld and <= %u, got %lld", (long long)s, (long long)r,
                          RS_FSORT_MAX_WORDS, (long long)l);
    f->b = (uint32_t)b;
    f->s = (uint32_t)s;
    f->r = (uint32_t)r;
    f->l = (uint32_t)l;
    return 0;
}

/* The input keys of kind f->keys, each < 2^b. */
static void make_keys(const struct fsort_params *f, uint64_t seed, uint64_t *k)
{
    uint64_t top = ((uint64_t)1 << f->b) - 1;
    uint32_t cols = (f->r + f->s - 1) / f->s;
    struct rs_rng g;
    rs_rng_init(&g, seed, RS_STREAM_FSORT_KEYS, 0, 0);
    for (uint32_t i = 0; i < f->r; i++) {
        uint32_t c = i / f->s, row = i % f->s;
        switch (f->keys) {
        case KEYS_RANDOM:
            k[i] = rs_rng_u64(&g) & top;
            break;
        case KEYS_SORTED:
            k[i] = ((uint64_t)i << f->b) / f->r;
            break;
        case KEYS_REVERSED:
            k[i] = ((uint64_t)(f->r - 1 - i) << f->b) / f->r;
            break;
        default: /* every loaded column a different number of ones, on top */
            k[i] = row < (uint64_t)c * f->s / cols ? top : 0;
            break;
        }
    }
}

static int fsort_model(const struct rs_params *p, uint64_t seed, struct rs_record *out,
                       struct rs_err *err)
{
    struct fsort_params f;
    struct rs_fsort_time t;
    struct rs_fsort_shape sh;
    int rc = read_params(p, &f, err);
    if (!rc)
        rc = rs_fsort_time(f.b, f.s, f.r, f.l, &t, err);
    if (rc || !out)
        return rc;
    uint64_t *keys = rs_malloc((size_t)f.r * sizeof *keys);
    if (!keys)
        return rs_err_set(err, RS_ENOMEM, "flexible sorter: out of memory for %u keys", f.r);
    make_keys(&f, seed, keys);
    rc = rs_fsort_sort(keys, f.r, f.s, NULL, &sh, err);
    rs_free(keys);
    if (rc)
        return rc;
    double bound = rs_fsort_bound(f.b, f.s, f.r);
    int e = 0;
    e |= rs_metric_int(out, RS_M_BIT_STEPS, (int64_t)t.total);
    e |= rs_metric_int(out, RS_M_PHASES, sh.phases);
    e |= rs_metric_int(out, RS_M_PERM_STEPS, sh.perm_steps);
    e |= rs_metric_int(out, RS_M_COLUMN_SORTS, (int64_t)sh.phases * sh.w);
    e |= rs_metric_int(out, RS_M_SORT_DEPTH, sh.depth);
    e |= rs_metric_int(out, RS_M_COLUMNS, sh.w);
    e |= rs_metric_int(out, RS_M_SORT_BIT_STEPS, (int64_t)t.sort);
    e |= rs_metric_int(out, RS_M_PERMUTE_BIT_STEPS, (int64_t)t.permute);
    e |= rs_metric_double(out, RS_M_BOUND_BIT_STEPS, bound);
    e |= rs_metric_double(out, RS_M_BIT_STEPS_OVER_BOUND, (double)t.total / bound);
    e |= rs_metric_double(out, RS_M_BOUND_PHASES, rs_fsort_bound_phases(f.s, f.r));
    return e ? rs_err_set(err, RS_ENOMEM, "out of memory for the result record") : 0;
}

const struct rs_algo_ops rs_algo_flexible_sort = {
    .name = "flexible_sort",
    .summary = "the (b,s,l)-flexible sorter of 000 §4.1 on r real keys: Columnsort in "
               "bit steps (no network)",
    .options = fsort_options,
    .switching = NULL,
    .needs = 0,
    .run = NULL,
    .model = fsort_model,
};
