/* Range claims (see docs/reproduce.md): a statistic of the metric (its mean, variance over
 * the runs, ...) lies in [lo, hi] in every row, e.g. "variances ranging from 0.02 to
 * 0.28" (002 §3), judged on the statistic's 95% interval; a range every value meets
 * (lo <= 0, no hi: no statistic is negative) is vacuous. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim.h"
#include "routesim/alloc.h"

static const char *const statistics[] = {"mean", "var", "sd", "min", "max", "ci95", NULL};

static const struct rs_optdef range_options[] = {
    {"statistic", RS_OPT_CHOICE, "mean", 0, 0, statistics,
     "which statistic of the metric: column <metric>_<statistic> (var: variance over the runs)",
     "-"},
    {"lo", RS_OPT_DOUBLE, NULL, -1e300, 1e300, NULL, "smallest allowed value (optional)",
     "<metric>"},
    {"hi", RS_OPT_DOUBLE, NULL, -1e300, 1e300, NULL, "largest allowed value (optional)",
     "<metric>"},
    {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL},
};

struct range {
    const char *stat;
    double lo, hi;
    int vacuous; /* lo <= 0 and no hi */
    char cond[320]; /* "0.02 ≤ x_var ≤ 0.28", "x_mean ≥ 3" */
};

static int prepare(struct rs__claim *c, void **state)
{
    struct range *g = rs_calloc(1, sizeof *g);
    if (!g)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    *state = g;
    int si = 0, has_lo, has_hi;
    g->lo = -INFINITY;
    g->hi = INFINITY;
    int rc = rs__claim_choice(c, range_options, "statistic", &si);
    rc = rc ? rc : rs__claim_double(c, range_options, "lo", &g->lo, &has_lo);
    rc = rc ? rc : rs__claim_double(c, range_options, "hi", &g->hi, &has_hi);
    if (rc)
        return rc;
    if (!has_lo && !has_hi)
        return rs_err_set(c->err, RS_EINVAL, "claim '%s': a range needs key 'lo', 'hi' or both",
                          c->name);
    if (g->lo > g->hi)
        return rs_err_set(c->err, RS_ECONSTRAINT, "claim '%s': lo = %g is above hi = %g",
                          c->name, g->lo, g->hi);
    g->stat = statistics[si];
    char col[256];
    long k;
    snprintf(col, sizeof col, "%s_%s", c->metric, g->stat);
    rc = rs__claim_col(c, col, &k);
    if (rc)
        return rc;
    if (has_lo && has_hi)
        snprintf(g->cond, sizeof g->cond, "%g ≤ %s ≤ %g", g->lo, col, g->hi);
    else
        snprintf(g->cond, sizeof g->cond, "%s %s %g", col, has_lo ? "≥" : "≤",
                 has_lo ? g->lo : g->hi);
    g->vacuous = !has_hi && g->lo <= 0;
    rs_buf_printf(c->md, ": `%s`; test: in every row %s, judged on the statistic's 95%% "
                         "interval: holds when every row's interval lies inside, does not hold "
                         "when one lies wholly outside, else inconclusive.\n\n",
                  col, g->cond);
    return 0;
}

/* The 95% interval [*lo, *hi] of the statistic v of row r: mean ± ci95; var by the
 * chi-square distribution of (n-1) s^2 / sigma^2 (normal data), sd and ci95 from it; min
 * and max are observed, exact. NaN ends when unknown (one run). */
static void interval(const struct rs__claim *c, size_t r, const char *stat, double v,
                     double *lo, double *hi)
{
    double n = rs_table_num(&c->t, r, c->cruns);
    *lo = *hi = NAN;
    if (c->exact || !strcmp(stat, "min") || !strcmp(stat, "max")) { /* exact: the value */
        *lo = *hi = v;
        return;
    }
    if (!strcmp(stat, "mean")) {
        double ci = rs__claim_stat(c, r, "ci95");
        *lo = v - ci;
        *hi = v + ci;
        return;
    }
    if (!(n >= 2))
        return;
    double var = rs__claim_stat(c, r, "var");
    double vlo = (n - 1) * var / gsl_cdf_chisq_Pinv(0.975, n - 1);
    double vhi = (n - 1) * var / gsl_cdf_chisq_Pinv(0.025, n - 1);
    double k = !strcmp(stat, "ci95") ? gsl_cdf_tdist_Pinv(0.975, n - 1) / sqrt(n) : 1;
    if (!strcmp(stat, "var")) {
        *lo = vlo;
        *hi = vhi;
    } else {
        *lo = k * sqrt(vlo);
        *hi = k * sqrt(vhi);
    }
}

static int judge(struct rs__claim *c, void *state, const struct rs__claim_group *g,
                 int *verdict, char *why, size_t wn, char *note, size_t nn)
{
    const struct range *rg = state;
    char h1[256], h2[256];
    snprintf(h1, sizeof h1, "%s mean ± 95%% CI", c->metric);
    snprintf(h2, sizeof h2, "%s_%s", c->metric, rg->stat);
    const char *cols[] = {"runs", h1, h2, "95% interval", "in range"};
    rs__claim_table_head(c, g->label, NULL, cols, 5);
    size_t bad = 0, missing = 0, rmin = 0, rmax = 0, first_bad = 0, unsure = 0, first_unsure = 0;
    double vmin = INFINITY, vmax = -INFINITY;
    for (size_t i = 0; i < g->n; i++) {
        size_t r = g->rows[i];
        double v = rs__claim_stat(c, r, rg->stat);
        char m[64], s[64];
        rs__claim_mean_ci(m, sizeof m, rs__claim_stat(c, r, "mean"), rs__claim_stat(c, r, "ci95"));
        rs__claim_num(s, sizeof s, v);
        rs__claim_table_row(c, r, NULL);
        if (v != v) {
            missing++;
            rs_buf_printf(c->md, " %s | %s | %s | | no value |\n", c->t.rows[r][c->cruns], m, s);
            continue;
        }
        double lo, hi;
        char a[64], b[64];
        interval(c, r, rg->stat, v, &lo, &hi);
        rs__claim_num(a, sizeof a, lo);
        rs__claim_num(b, sizeof b, hi);
        /* inside: the whole interval in [lo, hi]; outside: wholly below or above */
        int in = rs__claim_within(lo, rg->lo, rg->hi) && rs__claim_within(hi, rg->lo, rg->hi);
        int below = hi == hi && !rs__claim_within(hi, rg->lo, INFINITY);
        int above = lo == lo && !rs__claim_within(lo, -INFINITY, rg->hi);
        rs_buf_printf(c->md, " %s | %s | %s | [%s, %s] | %s |\n", c->t.rows[r][c->cruns], m, s,
                      a, b,
                      in      ? "yes"
                      : below ? "**below**"
                      : above ? "**above**"
                      : lo != lo ? "unknown (1 run)"
                                 : "straddles");
        if ((below || above) && !bad)
            first_bad = r;
        bad += below || above;
        if (!in && !below && !above && !unsure++)
            first_unsure = r;
        if (v < vmin) {
            vmin = v;
            rmin = r;
        }
        if (v > vmax) {
            vmax = v;
            rmax = r;
        }
    }
    if (missing == g->n) {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        snprintf(why, wn, "no row has a value of %s_%s", c->metric, rg->stat);
        return 0;
    }
    char a[64], b[64], la[512], lb[512], lf[512], lu[512];
    rs__claim_num(a, sizeof a, vmin);
    rs__claim_num(b, sizeof b, vmax);
    rs__claim_row_label(c, rmin, la, sizeof la);
    rs__claim_row_label(c, rmax, lb, sizeof lb);
    rs__claim_row_label(c, first_bad, lf, sizeof lf);
    rs__claim_row_label(c, first_unsure, lu, sizeof lu);
    if (rg->vacuous)
        snprintf(why, wn, "%s with no upper end: %s_%s is never negative, the claim cannot "
                          "fail (%s_%s from %s to %s)",
                 rg->cond, c->metric, rg->stat, c->metric, rg->stat, a, b);
    else if (bad)
        snprintf(why, wn, "%zu of %zu rows break %s, their 95%% interval wholly outside (the "
                          "first: %s); %s_%s from %s (%s) to %s (%s)",
                 bad, g->n, rg->cond, lf, c->metric, rg->stat, a, la, b, lb);
    else if (unsure)
        snprintf(why, wn, "%s_%s from %s (%s) to %s (%s); the 95%% interval of %zu of %zu rows "
                          "reaches outside %s (the first: %s): more runs needed",
                 c->metric, rg->stat, a, la, b, lb, unsure, g->n - missing, rg->cond, lu);
    else
        snprintf(why, wn, "%s_%s from %s (%s) to %s (%s): %s in all %zu rows, every 95%% "
                          "interval inside",
                 c->metric, rg->stat, a, la, b, lb, rg->cond, g->n - missing);
    *verdict = rg->vacuous ? RS_VERDICT_VACUOUS
               : bad       ? RS_VERDICT_FAILS
               : missing || unsure ? RS_VERDICT_INCONCLUSIVE
                                   : RS_VERDICT_HOLDS;
    if (missing)
        snprintf(note, nn, "%zu rows have no value of %s_%s.", missing, c->metric, rg->stat);
    return 0;
}

const struct rs__claim_kind rs__claim_range = {
    "range", "a statistic of the metric (mean, var, ...) inside [lo, hi] in every row",
    range_options, prepare, judge, rs_free};
