/* Claims on growth with size (see docs/reproduce.md): bounded_ratio (O(f): the ratio
 * metric / f must not grow over the last doublings), exponent (Θ(x^a): the log-log
 * slope) and report (tabulated only); f is log2, sqrt or linear in x, or an expression
 * over the row. Fits weighted by each point's standard error, with 95% intervals that
 * also cover the scatter about the line (GSL); a verdict needs the whole interval. */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_fit.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"

/* bounded_ratio: the ratio's growth exponent in log2 x (ratio ∝ (log2 x)^β over the window)
 * that separates levelling off (95% interval of β wholly below) from growth (wholly at or
 * above): a ratio that grows like √(log x) or faster is not O(f) at these sizes. */
#define RATIO_BETA_LIMIT 0.5

static const char *const f_names[] = {"log2", "sqrt", "linear", NULL};

#define X_OPTION {"x", RS_OPT_STRING, "N", 0, 0, NULL, "the size column", "-"}
#define F_OPTION(help)                                                                    \
    {"f", RS_OPT_STRING, "log2", 0, 0, NULL,                                              \
     help "; log2, sqrt, linear (of x) or an expression over the row's columns, e.g. "   \
          "log2(N)^(-1/circuits)", "-"}
#define END_OPTION {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL}

static const struct rs_optdef ratio_options[] = {
    X_OPTION,
    F_OPTION("the bound's function of x: metric = O(f(x))"),
    {"window", RS_OPT_INT, "3", 1, 62, NULL, "doublings of x examined at the largest sizes", "1"},
    END_OPTION,
};

static const struct rs_optdef exponent_options[] = {
    X_OPTION,
    F_OPTION("a function of x tabulated beside the metric (not judged)"),
    {"expect", RS_OPT_DOUBLE, NULL, -1e6, 1e6, NULL, "the claimed exponent a of x^a", "1"},
    {"tol", RS_OPT_DOUBLE, NULL, 0, 1e6, NULL, "tolerance on the fitted exponent", "1"},
    END_OPTION,
};

static const struct rs_optdef report_options[] = {
    X_OPTION,
    F_OPTION("a function of x tabulated beside the metric"),
    END_OPTION,
};

enum growth_kind { GROWTH_RATIO, GROWTH_EXPONENT, GROWTH_REPORT };

struct growth {
    enum growth_kind kind;
    const char *x, *f;
    int named;       /* f is log2, sqrt or linear of x; else f is an expression */
    char flabel[256]; /* "log2(N)", or "(EXPR)" */
    long cx, cmean, cci, csd;
    int window;
    double expect, tol;
};

struct fit {
    double slope, intercept, ci; /* ci: half-width of the 95% interval of the slope */
    int n, weighted;
};

/* Straight line y = a + b x through n >= 2 points and the 95% interval of b (NaN for
 * n = 2: no verdict from two points). When every
 * se[i] (the standard error of y[i]; se may be NULL) is positive and finite the fit is
 * weighted by 1/se^2 and the interval is the wider of z(0.975) sqrt(var b), from the
 * points' own errors, and t(0.975, n-2) sqrt(var b chi^2/(n-2)), from their scatter about
 * the line (lack of fit). Otherwise (exact points, or single runs) the fit is unweighted
 * and the interval is Student's, from the residuals alone. */
static void fit_line(const double *x, const double *y, const double *se, int n, struct fit *f)
{
    double c0, c1, c00, c01, c11, chi2, w[256];
    RS_ASSERT(n >= 2);
    f->n = n;
    f->weighted = se != NULL && n <= 256;
    for (int i = 0; i < n && f->weighted; i++) {
        f->weighted = isfinite(se[i]) && se[i] > 0;
        w[i] = f->weighted ? 1 / (se[i] * se[i]) : 0;
    }
    double t = n > 2 ? gsl_cdf_tdist_Pinv(0.975, n - 2) : NAN;
    if (f->weighted) {
        gsl_fit_wlinear(x, 1, w, 1, y, 1, (size_t)n, &c0, &c1, &c00, &c01, &c11, &chi2);
        double own = gsl_cdf_ugaussian_Pinv(0.975) * sqrt(c11);
        double scatter = n > 2 ? t * sqrt(c11 * chi2 / (n - 2)) : NAN;
        f->ci = scatter > own ? scatter : own;
    } else {
        gsl_fit_linear(x, 1, y, 1, (size_t)n, &c0, &c1, &c00, &c01, &c11, &chi2);
        f->ci = n > 2 ? t * sqrt(c11) : NAN; /* c11 is scaled by chi2/(n-2) already */
    }
    f->slope = c1;
    f->intercept = c0;
}

static double apply_f(const char *f, double x)
{
    if (!strcmp(f, "log2"))
        return log2(x);
    if (!strcmp(f, "sqrt"))
        return sqrt(x);
    return x;
}

struct row {
    double x, mean, ci, se, f, ratio; /* se: standard error of the mean (NaN: unknown) */
};

static int cmp_row(const void *a, const void *b)
{
    double p = ((const struct row *)a)->x, q = ((const struct row *)b)->x;
    return (p > q) - (p < q);
}

static void fmt_ci(char *buf, size_t n, double mean, double ci)
{
    if (ci == ci)
        snprintf(buf, n, "%.3f ± %.3f", mean, ci);
    else
        snprintf(buf, n, "%.3f", mean);
}

/* bounded_ratio: ratio = mean / f(x); over the last window+1 sizes, fit the ratio against
 * L = log2 x (weighted, fit_line) and read the growth exponent β = slope · Lc / ratio(Lc)
 * at the window's centre Lc (ratio ∝ L^β locally), with the slope's 95% interval. Holds
 * when the interval of β lies below RATIO_BETA_LIMIT, does not hold when it lies at or
 * above, inconclusive when it straddles (too few runs or sizes for a verdict). */
static int judge_ratio(struct row *rows, size_t n, const char *metric, const char *flabel,
                       const char *xcol, int window, int exact, char *why, size_t wn)
{
    if (n < 4) {
        snprintf(why, wn, "%zu sizes, at least 4 needed", n);
        return RS_VERDICT_INCONCLUSIVE;
    }
    size_t k = (size_t)window + 1 < n ? (size_t)window + 1 : n;
    if (k > 64)
        k = 64;
    double lx[64], r[64], se[64];
    for (size_t i = 0; i < k; i++) {
        const struct row *w = &rows[n - k + i];
        lx[i] = log2(w->x);
        r[i] = w->ratio;
        se[i] = w->se / fabs(w->f);
    }
    struct fit ft;
    fit_line(lx, r, exact ? NULL : se, (int)k, &ft);
    if (exact)
        ft.ci = 0; /* deterministic: the fit through the exact values, read at its estimate */
    double lc = (lx[0] + lx[k - 1]) / 2, rc = ft.intercept + ft.slope * lc;
    double beta = ft.slope * lc / rc, blo = (ft.slope - ft.ci) * lc / rc,
           bhi = (ft.slope + ft.ci) * lc / rc;
    int v = !(rc > 0) || ft.ci != ft.ci   ? RS_VERDICT_INCONCLUSIVE
            : bhi < RATIO_BETA_LIMIT      ? RS_VERDICT_HOLDS
            : blo >= RATIO_BETA_LIMIT     ? RS_VERDICT_FAILS
                                          : RS_VERDICT_INCONCLUSIVE;
    size_t len = (size_t)snprintf(why, wn, "ratio %s/%s from %.3f to %.3f over the last %zu "
                                           "sizes (%s = %.0f .. %.0f): ",
                                  metric, flabel, r[0], r[k - 1], k, xcol, rows[n - k].x,
                                  rows[n - 1].x);
    if (exact && len < wn) { /* the fit through exact values: no interval */
        snprintf(why + len, wn - len, "growth exponent in log2 %s β = %.3f (exact fit, slope "
                                      "%.4f per doubling)%s",
                 xcol, beta, ft.slope,
                 !(rc > 0)               ? ": the fitted ratio is not positive"
                 : v == RS_VERDICT_HOLDS ? ": below 1/2, levelling off"
                                         : ": at or above 1/2, growing like √(log x) or faster");
        return v;
    }
    snprintf(why, wn,
             "ratio %s/%s from %.3f to %.3f over the last %zu sizes (%s = %.0f .. %.0f): "
             "growth exponent in log2 %s β = %.3f, 95%% interval [%.3f, %.3f] (%s fit, slope "
             "%.4f ± %.4f per doubling)%s",
             metric, flabel, r[0], r[k - 1], k, xcol, rows[n - k].x, rows[n - 1].x, xcol, beta,
             blo, bhi, ft.weighted ? "weighted" : "unweighted", ft.slope, ft.ci,
             !(rc > 0)                   ? ": the fitted ratio is not positive"
             : v == RS_VERDICT_HOLDS     ? ": below 1/2, levelling off"
             : v == RS_VERDICT_FAILS     ? ": at or above 1/2, growing like √(log x) or faster"
                                         : ": straddles 1/2, more runs or sizes needed");
    return v;
}

/* exponent: fit ln mean = a + b ln x over every size (weighted by the standard errors of
 * ln mean); holds when b's 95% interval lies within expect ± tol, does not hold when it
 * lies wholly outside, inconclusive when it straddles an end. */
static int judge_exponent(const struct row *rows, size_t n, const char *xcol, double expect,
                          double tol, int exact, char *why, size_t wn)
{
    if (n < 3) {
        snprintf(why, wn, "%zu sizes, at least 3 needed", n);
        return RS_VERDICT_INCONCLUSIVE;
    }
    double lx[256], ly[256], se[256];
    size_t k = n < 256 ? n : 256;
    for (size_t i = 0; i < k; i++) {
        lx[i] = log(rows[i].x);
        ly[i] = log(rows[i].mean);
        se[i] = rows[i].se / rows[i].mean;
    }
    struct fit ft;
    fit_line(lx, ly, exact ? NULL : se, (int)k, &ft);
    if (exact)
        ft.ci = 0; /* deterministic: the exact least-squares exponent */
    double lo = ft.slope - ft.ci, hi = ft.slope + ft.ci;
    int v = ft.ci != ft.ci ? RS_VERDICT_INCONCLUSIVE
            : rs__claim_within(lo, expect - tol, expect + tol) &&
                    rs__claim_within(hi, expect - tol, expect + tol)
                ? RS_VERDICT_HOLDS
            : !rs__claim_within(hi, expect - tol, INFINITY) ||
                    !rs__claim_within(lo, -INFINITY, expect + tol)
                ? RS_VERDICT_FAILS
                : RS_VERDICT_INCONCLUSIVE;
    if (exact) {
        snprintf(why, wn, "fitted exponent %.3f (exact fit, %s = %.0f .. %.0f) against the "
                          "claimed %.2f ± %.2f%s",
                 ft.slope, xcol, rows[0].x, rows[n - 1].x, expect, tol,
                 v == RS_VERDICT_HOLDS ? ": the exact exponent lies inside"
                                       : ": the exact exponent lies outside");
        return v;
    }
    snprintf(why, wn, "fitted exponent %.3f ± %.3f (%s, %s = %.0f .. %.0f) against the claimed "
             "%.2f ± %.2f%s",
             ft.slope, ft.ci, ft.weighted ? "weighted" : "unweighted", xcol, rows[0].x,
             rows[n - 1].x, expect, tol,
             v == RS_VERDICT_HOLDS   ? ": the interval lies inside"
             : v == RS_VERDICT_FAILS ? ": the interval lies outside"
                                     : ": the interval reaches outside, more runs or sizes "
                                       "needed");
    return v;
}

static int prepare(struct rs__claim *c, void **state, enum growth_kind kind,
                   const struct rs_optdef *table)
{
    struct growth *g = rs_calloc(1, sizeof *g);
    if (!g)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    *state = g;
    g->kind = kind;
    g->x = rs__claim_text(c, table, "x");
    g->f = rs__claim_text(c, table, "f");
    int rc = 0;
    for (int i = 0; f_names[i]; i++)
        g->named |= !strcmp(g->f, f_names[i]);
    if (g->named)
        snprintf(g->flabel, sizeof g->flabel, "%s(%s)", g->f, g->x);
    else
        snprintf(g->flabel, sizeof g->flabel, "(%s)", g->f);
    if (!rc && kind == GROWTH_RATIO) {
        int64_t w = 3;
        rc = rs_params_int(c->keys, rs_optdef_find(table, "window"), &w, c->err);
        g->window = (int)w;
    }
    if (!rc && kind == GROWTH_EXPONENT) {
        rc = rs__claim_double(c, table, "expect", &g->expect, NULL);
        rc = rc ? rc : rs__claim_double(c, table, "tol", &g->tol, NULL);
    }
    char col[256];
    rc = rc ? rc : rs__claim_col(c, g->x, &g->cx);
    snprintf(col, sizeof col, "%s_mean", c->metric);
    rc = rc ? rc : rs__claim_col(c, col, &g->cmean);
    snprintf(col, sizeof col, "%s_ci95", c->metric);
    g->cci = rs_table_col(&c->t, col);
    snprintf(col, sizeof col, "%s_sd", c->metric);
    g->csd = rs_table_col(&c->t, col);
    if (rc)
        return rc;
    rs_buf_printf(c->md, ": `%s` against `%s`", c->metric, g->x);
    if (kind == GROWTH_RATIO)
        rs_buf_printf(c->md, "; test: over the last %d doublings the ratio %s / %s must level "
                             "off: fitted against log2 %s (weighted by each size's standard "
                             "error), its growth exponent β (ratio ∝ (log2 %s)^β) has a 95%% "
                             "interval below 1/2 (holds), at or above 1/2 (does not hold), "
                             "else inconclusive.\n\n",
                      g->window, c->metric, g->flabel, g->x, g->x);
    else if (kind == GROWTH_EXPONENT)
        rs_buf_printf(c->md, "; test: the exponent of %s against %s on log-log axes (least "
                             "squares weighted by each size's standard error) has its 95%% "
                             "interval within %s ± %s (holds), wholly outside (does not hold), "
                             "else inconclusive.\n\n",
                      c->metric, g->x, rs__claim_text(c, table, "expect"),
                      rs__claim_text(c, table, "tol"));
    else
        rs_buf_puts(c->md, "; reported, not judged.\n\n");
    return 0;
}

static int judge(struct rs__claim *c, void *state, const struct rs__claim_group *grp,
                 int *verdict, char *why, size_t wn, char *note, size_t nn)
{
    const struct growth *g = state;
    struct row *rows = rs_calloc(grp->n, sizeof *rows);
    if (!rows)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    for (size_t i = 0; i < grp->n; i++) {
        rows[i].x = rs_table_num(&c->t, grp->rows[i], g->cx);
        rows[i].mean = rs_table_num(&c->t, grp->rows[i], g->cmean);
        rows[i].ci = g->cci >= 0 ? rs_table_num(&c->t, grp->rows[i], g->cci) : NAN;
        double runs = rs_table_num(&c->t, grp->rows[i], c->cruns);
        rows[i].se = g->csd >= 0 && runs >= 2
                         ? rs_table_num(&c->t, grp->rows[i], g->csd) / sqrt(runs)
                         : NAN;
    }
    for (size_t i = 0; i < grp->n; i++) { /* f at each row, before sorting by x */
        int rc = 0;
        if (g->named)
            rows[i].f = apply_f(g->f, rows[i].x);
        else
            rc = rs__claim_eval(c, grp->rows[i], "f", g->f, &rows[i].f);
        if (!rc && rows[i].f == 0)
            rc = rs_err_set(c->err, RS_EINVAL, "claim '%s': key 'f': '%s' is 0 at %s = %.0f",
                            c->name, g->f, g->x, rows[i].x);
        if (rc) {
            rs_free(rows);
            return rc;
        }
    }
    qsort(rows, grp->n, sizeof *rows, cmp_row);
    rs_buf_printf(c->md, "| %s | %s | %s | %s | ratio |\n| --- | --- | --- | --- | --- |\n",
                  grp->label, g->x, c->metric, g->flabel);
    for (size_t i = 0; i < grp->n; i++) {
        char m[64];
        rows[i].ratio = rows[i].mean / rows[i].f;
        fmt_ci(m, sizeof m, rows[i].mean, rows[i].ci);
        rs_buf_printf(c->md, "| | %.0f | %s | %.3f | %.3f |\n", rows[i].x, m, rows[i].f,
                      rows[i].ratio);
    }
    if (g->kind == GROWTH_RATIO) {
        *verdict = judge_ratio(rows, grp->n, c->metric, g->flabel, g->x, g->window, c->exact, why, wn);
    } else if (g->kind == GROWTH_EXPONENT) {
        *verdict = judge_exponent(rows, grp->n, g->x, g->expect, g->tol, c->exact, why, wn);
    } else {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        snprintf(why, wn, "reported only");
    }
    rs_free(rows);
    return 0;
}

static int prepare_ratio(struct rs__claim *c, void **state)
{
    return prepare(c, state, GROWTH_RATIO, ratio_options);
}

static int prepare_exponent(struct rs__claim *c, void **state)
{
    return prepare(c, state, GROWTH_EXPONENT, exponent_options);
}

static int prepare_report(struct rs__claim *c, void **state)
{
    return prepare(c, state, GROWTH_REPORT, report_options);
}

const struct rs__claim_kind rs__claim_bounded_ratio = {
    "bounded_ratio", "asymptotic upper bound O(f(x)): metric / f(x) stops growing",
    ratio_options, prepare_ratio, judge, rs_free};
const struct rs__claim_kind rs__claim_exponent = {
    "exponent", "growth rate Θ(x^a): the log-log slope of the metric against x",
    exponent_options, prepare_exponent, judge, rs_free};
const struct rs__claim_kind rs__claim_report = {
    "report", "the metric against x, tabulated and not judged", report_options, prepare_report,
    judge, rs_free};
