/* Claims on growth with size (see docs/reproduce.md): bounded_ratio (O(f): the ratio
 * metric / f must not grow over the last doublings), exponent (Θ(x^a): the log-log
 * slope) and report (tabulated only); f is log2, sqrt or linear in x, or an expression
 * over the row. Least-squares fits with Student-t intervals (GSL). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim.h"

#define RATIO_GROWTH_LIMIT 0.10 /* bounded_ratio: growth over the window counted as none */

static const char *const f_names[] = {"log2", "sqrt", "linear", NULL};

#define X_OPTION {"x", RS_OPT_STRING, "N", 0, 0, NULL, "the size column"}
#define F_OPTION(help)                                                                    \
    {"f", RS_OPT_STRING, "log2", 0, 0, NULL,                                              \
     help "; log2, sqrt, linear (of x) or an expression over the row's columns, e.g. "   \
          "log2(N)^(-1/circuits)"}
#define END_OPTION {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL}

static const struct rs_optdef ratio_options[] = {
    X_OPTION,
    F_OPTION("the bound's function of x: metric = O(f(x))"),
    {"window", RS_OPT_INT, "3", 1, 62, NULL, "doublings of x examined at the largest sizes"},
    END_OPTION,
};

static const struct rs_optdef exponent_options[] = {
    X_OPTION,
    F_OPTION("a function of x tabulated beside the metric (not judged)"),
    {"expect", RS_OPT_DOUBLE, NULL, -1e6, 1e6, NULL, "the claimed exponent a of x^a"},
    {"tol", RS_OPT_DOUBLE, NULL, 0, 1e6, NULL, "tolerance on the fitted exponent"},
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
    long cx, cmean, cci;
    int window;
    double expect, tol;
};

struct fit {
    double slope, intercept, ci; /* ci: half-width of the 95% interval of the slope */
    int n;
};

/* Least squares y = a + b x with the 95% Student-t interval of b (NaN when n < 3). */
static void fit_line(const double *x, const double *y, int n, struct fit *f)
{
    double mx = 0, my = 0, sxx = 0, sxy = 0, sse = 0;
    for (int i = 0; i < n; i++) {
        mx += x[i];
        my += y[i];
    }
    mx /= n;
    my /= n;
    for (int i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    f->n = n;
    f->slope = sxx > 0 ? sxy / sxx : NAN;
    f->intercept = my - f->slope * mx;
    for (int i = 0; i < n; i++) {
        double r = y[i] - f->intercept - f->slope * x[i];
        sse += r * r;
    }
    f->ci = n > 2 && sxx > 0
                ? gsl_cdf_tdist_Pinv(0.975, n - 2) * sqrt(sse / (n - 2) / sxx)
                : NAN;
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
    double x, mean, ci, f, ratio;
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
 * log2 x; the claim holds when the growth over the window is under 10% of the mean ratio
 * or not significantly positive (95% interval of the slope reaches 0). */
static int judge_ratio(struct row *rows, size_t n, const char *metric, const char *flabel,
                       const char *xcol, int window, char *why, size_t wn)
{
    if (n < 4) {
        snprintf(why, wn, "inconclusive: %zu sizes, at least 4 needed", n);
        return RS_VERDICT_INCONCLUSIVE;
    }
    size_t k = (size_t)window + 1 < n ? (size_t)window + 1 : n;
    double lx[64], r[64], mr = 0;
    for (size_t i = 0; i < k; i++) {
        lx[i] = log2(rows[n - k + i].x);
        r[i] = rows[n - k + i].ratio;
        mr += r[i];
    }
    mr /= (double)k;
    struct fit ft;
    fit_line(lx, r, (int)k, &ft);
    double growth = ft.slope * (lx[k - 1] - lx[0]) / mr;
    int significant = ft.ci == ft.ci ? ft.slope - ft.ci > 0 : ft.slope > 0;
    int ok = growth < RATIO_GROWTH_LIMIT || !significant;
    snprintf(why, wn,
             "ratio %s/%s from %.3f to %.3f over the last %zu sizes (%s = %.0f .. %.0f): "
             "fitted growth %+.1f%% (slope %.4f ± %.4f per doubling of %s)%s",
             metric, flabel, r[0], r[k - 1], k, xcol, rows[n - k].x, rows[n - 1].x,
             100 * growth, ft.slope, ft.ci, xcol,
             ok ? (growth < RATIO_GROWTH_LIMIT ? ", under 10%" : ", not significant")
                : ", significant and over 10%");
    return ok ? RS_VERDICT_HOLDS : RS_VERDICT_FAILS;
}

/* exponent: fit ln mean = a + b ln x over every size; holds when |b - expect| <= tol. */
static int judge_exponent(const struct row *rows, size_t n, const char *xcol, double expect,
                          double tol, char *why, size_t wn)
{
    if (n < 3) {
        snprintf(why, wn, "inconclusive: %zu sizes, at least 3 needed", n);
        return RS_VERDICT_INCONCLUSIVE;
    }
    double lx[256], ly[256];
    size_t k = n < 256 ? n : 256;
    for (size_t i = 0; i < k; i++) {
        lx[i] = log(rows[i].x);
        ly[i] = log(rows[i].mean);
    }
    struct fit ft;
    fit_line(lx, ly, (int)k, &ft);
    int ok = fabs(ft.slope - expect) <= tol;
    snprintf(why, wn, "fitted exponent %.3f ± %.3f (%s = %.0f .. %.0f) against the claimed %.2f "
             "± %.2f",
             ft.slope, ft.ci, xcol, rows[0].x, rows[n - 1].x, expect, tol);
    return ok ? RS_VERDICT_HOLDS : RS_VERDICT_FAILS;
}

static int prepare(struct rs__claim *c, void **state, enum growth_kind kind,
                   const struct rs_optdef *table)
{
    struct growth *g = calloc(1, sizeof *g);
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
    if (rc)
        return rc;
    rs_buf_printf(c->md, ": `%s` against `%s`", c->metric, g->x);
    if (kind == GROWTH_RATIO)
        rs_buf_printf(c->md, "; test: the ratio %s / %s must not grow over the last %d "
                             "doublings (fitted growth under 10%%, or a 95%% interval of its "
                             "slope that reaches 0).\n\n",
                      c->metric, g->flabel, g->window);
    else if (kind == GROWTH_EXPONENT)
        rs_buf_printf(c->md, "; test: the exponent of %s against %s on log-log axes (least "
                             "squares, 95%% Student-t interval) within %s ± %s.\n\n",
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
    struct row *rows = calloc(grp->n, sizeof *rows);
    if (!rows)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    for (size_t i = 0; i < grp->n; i++) {
        rows[i].x = rs_table_num(&c->t, grp->rows[i], g->cx);
        rows[i].mean = rs_table_num(&c->t, grp->rows[i], g->cmean);
        rows[i].ci = g->cci >= 0 ? rs_table_num(&c->t, grp->rows[i], g->cci) : NAN;
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
            free(rows);
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
        *verdict = judge_ratio(rows, grp->n, c->metric, g->flabel, g->x, g->window, why, wn);
    } else if (g->kind == GROWTH_EXPONENT) {
        *verdict = judge_exponent(rows, grp->n, g->x, g->expect, g->tol, why, wn);
    } else {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        snprintf(why, wn, "reported only");
    }
    free(rows);
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
    ratio_options, prepare_ratio, judge, free};
const struct rs__claim_kind rs__claim_exponent = {
    "exponent", "growth rate Θ(x^a): the log-log slope of the metric against x",
    exponent_options, prepare_exponent, judge, free};
const struct rs__claim_kind rs__claim_report = {
    "report", "the metric against x, tabulated and not judged", report_options, prepare_report,
    judge, free};
