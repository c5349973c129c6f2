/* Effect-size claims between two sides (see docs/reproduce.md): factor (the ratio of means
 * A / B about an expected factor, or at least / at most a value, with its 95% interval by
 * Fieller's theorem or the delta method) and difference (mean(A) - mean(B) within at_most /
 * at_least, with Welch's 95% interval). Judged on the interval: inside the allowed range
 * holds, wholly outside does not hold, else inconclusive; a factor of at least 0 or less
 * (a ratio of means that are never negative) is vacuous. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim.h"
#include "routesim/alloc.h"
#include "routesim/stats.h"

static const char *const methods[] = {"fieller", "delta", NULL};

#define SIDE_OPTIONS                                                                          \
    {"a", RS_OPT_STRING, NULL, 0, 0, NULL, "side A: KEY=VALUE;... (e.g. u=16)", "-"},         \
        {"b", RS_OPT_STRING, NULL, 0, 0, NULL, "side B: KEY=VALUE;... (e.g. u=64)", "-"},     \
    {                                                                                         \
        "match", RS_OPT_STRING, NULL, 0, 0, NULL,                                             \
            "comma list of columns pairing A with B (default: every parameter but seed and " \
            "the sides' own keys)", "-"                                                       \
    }

static const struct rs_optdef factor_options[] = {
    SIDE_OPTIONS,
    {"expect", RS_OPT_DOUBLE, NULL, -1e300, 1e300, NULL,
     "the expected ratio mean(A) / mean(B) (with tol; or give at_least / at_most)", "1"},
    {"tol", RS_OPT_DOUBLE, NULL, 0, 1e6, NULL,
     "relative tolerance: the ratio must lie within expect * (1 -+ tol)", "1"},
    {"at_least", RS_OPT_DOUBLE, NULL, -1e300, 1e300, NULL,
     "smallest allowed ratio mean(A) / mean(B), instead of expect and tol (optional)", "1"},
    {"at_most", RS_OPT_DOUBLE, NULL, -1e300, 1e300, NULL,
     "largest allowed ratio mean(A) / mean(B), instead of expect and tol (optional)", "1"},
    {"interval", RS_OPT_CHOICE, "fieller", 0, 0, methods,
     "95% interval of the ratio shown: Fieller's theorem or the delta method", "-"},
    {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL},
};

static const struct rs_optdef difference_options[] = {
    SIDE_OPTIONS,
    {"at_most", RS_OPT_DOUBLE, NULL, -1e300, 1e300, NULL,
     "largest allowed mean(A) - mean(B) (optional)", "<metric>"},
    {"at_least", RS_OPT_DOUBLE, NULL, -1e300, 1e300, NULL,
     "smallest allowed mean(A) - mean(B) (optional)", "<metric>"},
    {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL},
};

struct effect {
    struct rs__claim_sides sides;
    int ratio;   /* factor (else difference) */
    int method;  /* enum rs_ratio_method */
    double lo, hi; /* allowed range of the estimate */
    int vacuous;   /* factor with at_least <= 0 and no at_most */
    char range[128];
};

static int prepare(struct rs__claim *c, void **state, int ratio)
{
    struct effect *e = rs_calloc(1, sizeof *e);
    if (!e)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    *state = e;
    e->ratio = ratio;
    const struct rs_optdef *table = ratio ? factor_options : difference_options;
    long k;
    char col[256];
    int rc = rs__claim_sides_parse(c, table, &e->sides);
    snprintf(col, sizeof col, "%s_var", c->metric);
    rc = rc ? rc : rs__claim_col(c, col, &k);
    if (rc)
        return rc;
    int has_most, has_least;
    e->lo = -INFINITY;
    e->hi = INFINITY;
    rc = rs__claim_double(c, table, "at_most", &e->hi, &has_most);
    rc = rc ? rc : rs__claim_double(c, table, "at_least", &e->lo, &has_least);
    if (rc)
        return rc;
    if (ratio && (rc = rs__claim_choice(c, table, "interval", &e->method)))
        return rc;
    const char *method =
        e->method == RS_RATIO_FIELLER ? "Fieller's theorem" : "the delta method";
    if (ratio && !has_most && !has_least) { /* expect and tol */
        double expect, tol;
        rc = rs__claim_double(c, table, "expect", &expect, NULL);
        rc = rc ? rc : rs__claim_double(c, table, "tol", &tol, NULL);
        if (rc)
            return rc;
        e->lo = fmin(expect * (1 - tol), expect * (1 + tol));
        e->hi = fmax(expect * (1 - tol), expect * (1 + tol));
        snprintf(e->range, sizeof e->range, "[%.6g, %.6g]", e->lo, e->hi);
        rs_buf_printf(c->md, ": `%s`, ", c->metric);
        rs__claim_sides_describe(c, &e->sides);
        rs_buf_printf(c->md, "; test: in every pair the ratio mean(A) / mean(B) lies within "
                             "%g · (1 ± %g) = %s, judged on its 95%% interval (by %s with "
                             "Welch–Satterthwaite degrees of freedom): inside holds, wholly "
                             "outside does not hold, else inconclusive.\n\n",
                      expect, tol, e->range, method);
        return 0;
    }
    if (ratio && (rs_params_find(c->keys, "expect") || rs_params_find(c->keys, "tol")))
        return rs_err_set(c->err, RS_EINVAL,
                          "claim '%s': a factor takes either expect and tol, or at_least / "
                          "at_most",
                          c->name);
    if (!has_most && !has_least)
        return rs_err_set(c->err, RS_EINVAL,
                          "claim '%s': a difference needs key 'at_most', 'at_least' or both",
                          c->name);
    if (e->lo > e->hi)
        return rs_err_set(c->err, RS_ECONSTRAINT, "claim '%s': at_least = %g is above at_most = %g",
                          c->name, e->lo, e->hi);
    if (has_most && has_least)
        snprintf(e->range, sizeof e->range, "between %.6g and %.6g", e->lo, e->hi);
    else
        snprintf(e->range, sizeof e->range, "%s %.6g", has_most ? "at most" : "at least",
                 has_most ? e->hi : e->lo);
    rs_buf_printf(c->md, ": `%s`, ", c->metric);
    rs__claim_sides_describe(c, &e->sides);
    if (ratio)
        rs_buf_printf(c->md, "; test: in every pair the ratio mean(A) / mean(B) is %s, judged "
                             "on its 95%% interval (by %s with Welch–Satterthwaite degrees of "
                             "freedom): inside holds, wholly outside does not hold, else "
                             "inconclusive.\n\n",
                      e->range, method);
    else
        rs_buf_printf(c->md, "; test: in every pair mean(A) − mean(B) is %s, judged on its 95%% "
                             "interval (Welch): inside holds, wholly outside does not hold, else "
                             "inconclusive.\n\n",
                      e->range);
    e->vacuous = ratio && has_least && !has_most && e->lo <= 0;
    return 0;
}

static void sample(const struct rs__claim *c, size_t row, struct rs_sample *s)
{
    s->mean = rs__claim_stat(c, row, "mean");
    s->var = rs__claim_stat(c, row, "var");
    double n = rs_table_num(&c->t, row, c->cruns);
    s->n = n >= 1 && n < 4e9 ? (uint32_t)n : 0;
}

/* Estimate and 95% interval of one pair (exact: the estimate itself); returns 0 when the
 * estimate is undefined. */
static int estimate(const struct effect *e, int exact, const struct rs_sample *a,
                    const struct rs_sample *b, double *est, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (a->mean != a->mean || b->mean != b->mean || (e->ratio && b->mean == 0))
        return 0;
    if (exact) { /* deterministic points: the ratio or difference is known exactly */
        *est = *lo = *hi = e->ratio ? a->mean / b->mean : a->mean - b->mean;
        return 1;
    }
    if (e->ratio) {
        struct rs_ratio r;
        *est = a->mean / b->mean;
        if (!rs_ratio_interval(a, b, (enum rs_ratio_method)e->method, &r)) {
            *lo = r.lo;
            *hi = r.hi;
        }
    } else {
        struct rs_welch w;
        *est = a->mean - b->mean;
        if (!rs_welch(a, b, &w)) {
            *lo = w.lo;
            *hi = w.hi;
        }
    }
    return 1;
}

static void fmt_interval(char *buf, size_t n, double lo, double hi)
{
    char a[64], b[64];
    if (lo != lo) {
        snprintf(buf, n, "— (runs < 2)");
        return;
    }
    if (lo == hi) { /* exact points */
        rs__claim_num(a, sizeof a, lo);
        snprintf(buf, n, "exact: %s", a);
        return;
    }
    if (isinf(lo) && isinf(hi)) {
        snprintf(buf, n, "unbounded (B not significantly ≠ 0)");
        return;
    }
    rs__claim_num(a, sizeof a, lo);
    rs__claim_num(b, sizeof b, hi);
    snprintf(buf, n, "[%s, %s]", a, b);
}

static int judge(struct rs__claim *c, void *state, const struct rs__claim_group *g,
                 int *verdict, char *why, size_t wn, char *note, size_t nn)
{
    const struct effect *e = state;
    size_t *pa = rs_malloc(g->n * sizeof *pa), *pb = rs_malloc(g->n * sizeof *pb), np = 0, un = 0;
    size_t side[2];
    int rc = pa && pb ? rs__claim_pairs(c, &e->sides, g, pa, pb, &np, side, &un)
                      : rs_err_set(c->err, RS_ENOMEM, "out of memory");
    if (rc) {
        rs_free(pa);
        rs_free(pb);
        return rc;
    }
    const char *cols[] = {"A: mean ± 95% CI", "B: mean ± 95% CI",
                          e->ratio ? "A / B" : "A − B", "95% interval", "estimate within",
                          "interval"};
    struct rs__claim_filter skip = e->sides.a;
    for (int k = 0; k < e->sides.b.n && skip.n < RS__CLAIM_MAX_COLS; k++)
        skip.col[skip.n++] = e->sides.b.col[k];
    if (np)
        rs__claim_table_head(c, g->label, &skip, cols, 6);
    size_t bad = 0, undefined = 0, unsure = 0, unknown = 0, first_bad = 0, first_unsure = 0,
           rmin = 0, rmax = 0;
    double vmin = INFINITY, vmax = -INFINITY;
    char last_iv[160] = "";
    for (size_t i = 0; i < np; i++) {
        struct rs_sample a, b;
        double est, lo, hi;
        sample(c, pa[i], &a);
        sample(c, pb[i], &b);
        char ma[64], mb[64], v[64], iv[160];
        rs__claim_mean_ci(ma, sizeof ma, a.mean, rs__claim_stat(c, pa[i], "ci95"));
        rs__claim_mean_ci(mb, sizeof mb, b.mean, rs__claim_stat(c, pb[i], "ci95"));
        rs__claim_table_row(c, pa[i], &skip);
        if (!estimate(e, c->exact, &a, &b, &est, &lo, &hi)) {
            rs_buf_printf(c->md, " %s | %s | undefined | | | |\n", ma, mb);
            undefined++;
            continue;
        }
        rs__claim_num(v, sizeof v, est);
        fmt_interval(iv, sizeof iv, lo, hi);
        snprintf(last_iv, sizeof last_iv, "%s", iv);
        int ok = rs__claim_within(est, e->lo, e->hi);
        /* inside: the whole interval allowed; outside: wholly below or above (NaN ends:
         * no interval, runs < 2) */
        int inside = rs__claim_within(lo, e->lo, e->hi) && rs__claim_within(hi, e->lo, e->hi);
        int outside = (hi == hi && !rs__claim_within(hi, e->lo, INFINITY)) ||
                      (lo == lo && !rs__claim_within(lo, -INFINITY, e->hi));
        rs_buf_printf(c->md, " %s | %s | %s | %s | %s | %s |\n", ma, mb, v, iv,
                      ok ? "yes" : "no",
                      inside    ? "inside"
                      : outside ? "**outside**"
                      : lo != lo ? "unknown"
                                 : "straddles");
        if (outside && !bad)
            first_bad = pa[i];
        bad += outside;
        if (!inside && !outside && !unsure++)
            first_unsure = pa[i];
        unknown += lo != lo;
        if (est < vmin) {
            vmin = est;
            rmin = pa[i];
        }
        if (est > vmax) {
            vmax = est;
            rmax = pa[i];
        }
    }
    rs_free(pa);
    rs_free(pb);
    if (un)
        snprintf(note, nn, "%zu row%s of side A or B ha%s no partner (pairs need equal values "
                           "of the match columns).",
                 un, un == 1 ? "" : "s", un == 1 ? "s" : "ve");
    const char *what = e->ratio ? "ratio A / B" : "difference A − B";
    if (np == undefined) {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        if (np)
            snprintf(why, wn, "the %s is undefined in every pair", what);
        else
            rs__claim_no_pair(c, side, why, wn);
        return 0;
    }
    char a[64], b[64], la[512], lb[512], lf[512];
    rs__claim_num(a, sizeof a, vmin);
    rs__claim_num(b, sizeof b, vmax);
    rs__claim_pair_label(c, &e->sides, rmin, la, sizeof la);
    rs__claim_pair_label(c, &e->sides, rmax, lb, sizeof lb);
    const char *range_word = e->range[0] == '[' ? "within " : "";
    size_t defined = np - undefined;
    if (e->vacuous) {
        snprintf(why, wn, "%s from %s (%s) to %s (%s); '%s' with no upper limit: a ratio of "
                          "means that are never negative cannot fail it",
                 what, a, la, b, lb, e->range);
        *verdict = RS_VERDICT_VACUOUS;
        return 0;
    }
    if (defined == 1 && c->exact) { /* one pair of exact values */
        snprintf(why, wn, "%s = %s exactly (%s): %s%s", what, a, la,
                 bad ? "wholly outside " : range_word, e->range);
    } else if (defined == 1) { /* one pair: its estimate and interval */
        snprintf(why, wn, "%s = %s, 95%% interval %s (%s): %s%s", what, a, last_iv, la,
                 bad       ? "wholly outside "
                 : unknown ? "no interval to place against "
                 : unsure  ? "reaches outside "
                           : range_word,
                 e->range);
    } else if (bad) {
        rs__claim_pair_label(c, &e->sides, first_bad, lf, sizeof lf);
        snprintf(why, wn, "%zu of %zu pairs have their %s wholly outside %s%s (the "
                          "first: %s); %s from %s (%s) to %s (%s)",
                 bad, defined, c->exact ? "exact value" : "95% interval", range_word, e->range,
                 lf, what, a, la, b, lb);
    } else if (unsure) {
        rs__claim_pair_label(c, &e->sides, first_unsure, lf, sizeof lf);
        char single[96] = "";
        if (unknown)
            snprintf(single, sizeof single, "; %zu pair%s of a single run: no interval", unknown,
                     unknown == 1 ? "" : "s");
        snprintf(why, wn, "%s from %s (%s) to %s (%s); the 95%% interval of %zu of %zu pairs "
                          "reaches outside %s%s or is unknown (the first: %s)%s: more runs needed",
                 what, a, la, b, lb, unsure, defined, range_word, e->range, lf, single);
    } else {
        snprintf(why, wn, "%s from %s (%s) to %s (%s): %s%s in all %zu pairs, every %s inside",
                 what, a, la, b, lb, range_word, e->range, defined,
                 c->exact ? "exact value" : "95% interval");
    }
    *verdict = bad ? RS_VERDICT_FAILS
               : undefined || unsure ? RS_VERDICT_INCONCLUSIVE
                                     : RS_VERDICT_HOLDS;
    if (undefined && !bad) {
        size_t len = strlen(why);
        snprintf(why + len, wn - len, "; undefined in %zu pairs", undefined);
    }
    return 0;
}

static int prepare_factor(struct rs__claim *c, void **state)
{
    return prepare(c, state, 1);
}

static int prepare_difference(struct rs__claim *c, void **state)
{
    return prepare(c, state, 0);
}

const struct rs__claim_kind rs__claim_factor = {
    "factor",
    "the ratio of means between side A and side B within expect * (1 -+ tol), or at least / at "
    "most a value",
    factor_options, prepare_factor, judge, rs_free};
const struct rs__claim_kind rs__claim_difference = {
    "difference", "mean(A) - mean(B) at most / at least a value", difference_options,
    prepare_difference, judge, rs_free};
