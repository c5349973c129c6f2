/* Claim checks on sweep statistics (see claims.h): grouping and filtering of rows,
 * least-squares fits with Student-t intervals (GSL), verdicts and their Markdown. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/claims.h"
#include "routesim/table.h"

#define CLAIM_MAX_COLS 16
#define RATIO_GROWTH_LIMIT 0.10 /* bounded_ratio: growth over the window counted as none */

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

static const char *ckey(const struct rs_params *c, const char *key, const char *def)
{
    const struct rs_param *p = rs_params_find(c, key);
    return p ? p->value : def;
}

/* Split "a,b" (sep ',') or "k=v;k=v" (sep ';') into at most max trimmed items in buf. */
static int split(const char *text, char sep, char items[][128], int max)
{
    int n = 0;
    const char *s = text;
    while (s && *s && n < max) {
        const char *e = strchr(s, sep);
        size_t len = e ? (size_t)(e - s) : strlen(s);
        while (len && (*s == ' ' || *s == '\t')) {
            s++;
            len--;
        }
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (len >= 128)
            len = 127;
        memcpy(items[n], s, len);
        items[n][len] = '\0';
        if (len)
            n++;
        s = e ? e + 1 : NULL;
    }
    return n;
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
    double x, mean, ci, ratio;
    size_t index;
};

static int cmp_row(const void *a, const void *b)
{
    double p = ((const struct row *)a)->x, q = ((const struct row *)b)->x;
    return (p > q) - (p < q);
}

/* The rows of one group, sorted by x. */
static size_t group_rows(const struct rs_table *t, long cx, long cm, long cc, const long *gcols,
                         int ng, size_t first, const long *fcols, char fvals[][128], int nf,
                         struct row *rows)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        int match = 1;
        for (int k = 0; k < nf && match; k++)
            match = !strcmp(t->rows[r][fcols[k]], fvals[k]);
        for (int k = 0; k < ng && match; k++)
            match = !strcmp(t->rows[r][gcols[k]], t->rows[first][gcols[k]]);
        if (!match)
            continue;
        rows[n].x = rs_table_num(t, r, cx);
        rows[n].mean = rs_table_num(t, r, cm);
        rows[n].ci = cc >= 0 ? rs_table_num(t, r, cc) : NAN;
        rows[n].index = r;
        n++;
    }
    qsort(rows, n, sizeof *rows, cmp_row);
    return n;
}

static void fmt_ci(char *buf, size_t n, double mean, double ci)
{
    if (ci == ci)
        snprintf(buf, n, "%.3f ± %.3f", mean, ci);
    else
        snprintf(buf, n, "%.3f", mean);
}

static const char *verdict_text(int v)
{
    return v == RS_VERDICT_HOLDS ? "holds" : v == RS_VERDICT_FAILS ? "does not hold"
                                                                   : "inconclusive";
}

static void count(struct rs_claim_outcome *o, int v)
{
    if (v == RS_VERDICT_HOLDS)
        o->holds++;
    else if (v == RS_VERDICT_FAILS)
        o->fails++;
    else
        o->inconclusive++;
}

/* bounded_ratio: ratio = mean / f(x); over the last window+1 sizes, fit the ratio against
 * log2 x; the claim holds when the growth over the window is under 10% of the mean ratio
 * or not significantly positive (95% interval of the slope reaches 0). */
static int judge_ratio(struct row *rows, size_t n, const char *metric, const char *f,
                       const char *xcol, int window, char *why, size_t wn)
{
    if (n < 4) {
        snprintf(why, wn, "inconclusive: %zu sizes, at least 4 needed", n);
        return RS_VERDICT_INCONCLUSIVE;
    }
    size_t k = (size_t)window + 1 < n ? (size_t)window + 1 : n;
    double lx[64], r[64], mr = 0;
    for (size_t i = 0; i < k && i < 64; i++) {
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
             "ratio %s/%s(%s) from %.3f to %.3f over the last %zu sizes (%s = %.0f .. %.0f): "
             "fitted growth %+.1f%% (slope %.4f ± %.4f per doubling of %s)%s",
             metric, f, xcol, r[0], r[k - 1], k, xcol, rows[n - k].x, rows[n - 1].x,
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

int rs_claim_check(const char *name, const struct rs_params *c, const char *dir,
                   struct rs_buf *md, struct rs_claim_outcome *out, struct rs_err *err)
{
    const char *kind = ckey(c, "kind", NULL), *exp_name = ckey(c, "experiment", NULL);
    const char *metric = ckey(c, "metric", "makespan"), *xcol = ckey(c, "x", "N");
    const char *f = ckey(c, "f", "log2");
    if (!kind || (strcmp(kind, "bounded_ratio") && strcmp(kind, "exponent") &&
                  strcmp(kind, "report")))
        return rs_err_set(err, RS_EINVAL,
                          "claim '%s': key 'kind' must be bounded_ratio, exponent or report", name);
    if (!exp_name)
        return rs_err_set(err, RS_EINVAL, "claim '%s': missing key 'experiment'", name);
    if (strcmp(f, "log2") && strcmp(f, "sqrt") && strcmp(f, "linear"))
        return rs_err_set(err, RS_EINVAL, "claim '%s': key 'f' must be log2, sqrt or linear",
                          name);
    char path[4096], mcol[256], ccol[256];
    snprintf(path, sizeof path, "%s/%s.csv", dir, exp_name);
    snprintf(mcol, sizeof mcol, "%s_mean", metric);
    snprintf(ccol, sizeof ccol, "%s_ci95", metric);
    struct rs_table t;
    int rc = rs_table_read(&t, path, err);
    if (rc)
        return rc;
    long cx = rs_table_col(&t, xcol), cm = rs_table_col(&t, mcol), cc = rs_table_col(&t, ccol);
    char gnames[CLAIM_MAX_COLS][128], fitems[CLAIM_MAX_COLS][128], fvals[CLAIM_MAX_COLS][128];
    long gcols[CLAIM_MAX_COLS], fcols[CLAIM_MAX_COLS];
    int ng = split(ckey(c, "group", ""), ',', gnames, CLAIM_MAX_COLS);
    int nf = split(ckey(c, "filter", ""), ';', fitems, CLAIM_MAX_COLS);
    for (int k = 0; k < ng && !rc; k++)
        if ((gcols[k] = rs_table_col(&t, gnames[k])) < 0)
            rc = rs_err_set(err, RS_EINVAL, "claim '%s': '%s' has no column '%s'", name, path,
                            gnames[k]);
    for (int k = 0; k < nf && !rc; k++) {
        char *eq = strchr(fitems[k], '=');
        if (!eq)
            rc = rs_err_set(err, RS_EINVAL, "claim '%s': filter item '%s' is not KEY=VALUE",
                            name, fitems[k]);
        else {
            *eq = '\0';
            snprintf(fvals[k], sizeof fvals[k], "%s", eq + 1);
            if ((fcols[k] = rs_table_col(&t, fitems[k])) < 0)
                rc = rs_err_set(err, RS_EINVAL, "claim '%s': '%s' has no column '%s'", name,
                                path, fitems[k]);
        }
    }
    if (!rc && (cx < 0 || cm < 0))
        rc = rs_err_set(err, RS_EINVAL, "claim '%s': '%s' has no column '%s'", name, path,
                        cx < 0 ? xcol : mcol);
    struct row *rows = rc ? NULL : calloc(t.nrows + 1, sizeof *rows);
    uint8_t *seen = rc ? NULL : calloc(t.nrows + 1, 1);
    if (!rc && (!rows || !seen))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory");
    if (rc) {
        free(rows);
        free(seen);
        rs_table_free(&t);
        return rc;
    }
    /* the statement may be split over statement, statement2 .. statement9 (INI lines are
     * limited in length); its pieces are joined with spaces */
    rs_buf_printf(md, "### %s\n\n> %s", name, ckey(c, "statement", "(no statement given)"));
    for (int k = 2; k <= 9; k++) {
        char key[16];
        snprintf(key, sizeof key, "statement%d", k);
        if (ckey(c, key, NULL))
            rs_buf_printf(md, " %s", ckey(c, key, ""));
    }
    rs_buf_puts(md, "\n\n");
    rs_buf_printf(md, "Experiment `%s`%s%s: `%s` against `%s`", exp_name, nf ? ", rows with " : "",
                  nf ? ckey(c, "filter", "") : "", metric, xcol);
    if (!strcmp(kind, "bounded_ratio"))
        rs_buf_printf(md, "; test: the ratio %s / %s(%s) must not grow over the last %s "
                          "doublings (fitted growth under 10%%, or a 95%% interval of its "
                          "slope that reaches 0).\n\n",
                      metric, f, xcol, ckey(c, "window", "3"));
    else if (!strcmp(kind, "exponent"))
        rs_buf_printf(md, "; test: the exponent of %s against %s on log-log axes (least "
                          "squares, 95%% Student-t interval) within %s ± %s.\n\n",
                      metric, xcol, ckey(c, "expect", "?"), ckey(c, "tol", "?"));
    else
        rs_buf_puts(md, "; reported, not judged.\n\n");
    for (size_t first = 0; first < t.nrows; first++) {
        int match = 1;
        for (int k = 0; k < nf && match; k++)
            match = !strcmp(t.rows[first][fcols[k]], fvals[k]);
        if (!match || seen[first])
            continue;
        size_t n = group_rows(&t, cx, cm, cc, gcols, ng, first, fcols, fvals, nf, rows);
        for (size_t i = 0; i < n; i++)
            seen[rows[i].index] = 1;
        char label[512] = "";
        size_t len = 0;
        for (int k = 0; k < ng && len < sizeof label; k++)
            len += (size_t)snprintf(label + len, sizeof label - len, "%s%s=%s", k ? ", " : "",
                                    gnames[k], t.rows[first][gcols[k]]);
        if (!ng)
            snprintf(label, sizeof label, "all rows");
        rs_buf_printf(md, "| %s | %s | %s | %s(%s) | ratio |\n| --- | --- | --- | --- | --- |\n",
                      label, xcol, metric, f, xcol);
        for (size_t i = 0; i < n; i++) {
            char m[64];
            rows[i].ratio = rows[i].mean / apply_f(f, rows[i].x);
            fmt_ci(m, sizeof m, rows[i].mean, rows[i].ci);
            rs_buf_printf(md, "| | %.0f | %s | %.3f | %.3f |\n", rows[i].x, m,
                          apply_f(f, rows[i].x), rows[i].ratio);
        }
        char why[512];
        int v;
        if (!strcmp(kind, "bounded_ratio")) {
            v = judge_ratio(rows, n, metric, f, xcol, atoi(ckey(c, "window", "3")), why,
                            sizeof why);
        } else if (!strcmp(kind, "exponent")) {
            v = judge_exponent(rows, n, xcol, atof(ckey(c, "expect", "0")),
                               atof(ckey(c, "tol", "0")), why, sizeof why);
        } else {
            v = RS_VERDICT_INCONCLUSIVE;
            snprintf(why, sizeof why, "reported only");
        }
        if (strcmp(kind, "report"))
            count(out, v);
        rs_buf_printf(md, "\n**Verdict (%s): %s** — %s.\n\n", label, verdict_text(v), why);
    }
    free(rows);
    free(seen);
    rs_table_free(&t);
    return 0;
}
