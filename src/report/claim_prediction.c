/* Prediction claims (see docs/reproduce.md): the simulation's mean ± 95% CI beside a
 * predicted value (an expression over the row, e.g. a column the run writes); holds when
 * in every row the whole 95% interval of the mean is within the relative tolerance the
 * claim states and justifies, does not hold when a row's interval lies wholly outside. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/claim.h"
#include "routesim/alloc.h"

static const struct rs_optdef prediction_options[] = {
    {"predicted", RS_OPT_STRING, NULL, 0, 0, NULL,
     "the predicted value: an expression over the row's columns, or a column", "-"},
    {"tol", RS_OPT_DOUBLE, NULL, 0, 1e6, NULL,
     "largest relative error |mean - predicted| / |predicted| that counts as agreement", "1"},
    {"tolerance_reason", RS_OPT_STRING, NULL, 0, 0, NULL,
     "why this tolerance: the paper's wording it follows (quoted in the report)", "-"},
    {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL},
};

struct prediction {
    const char *expr;
    double tol;
};

static int prepare(struct rs__claim *c, void **state)
{
    struct prediction *p = rs_calloc(1, sizeof *p);
    if (!p)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    *state = p;
    const char *reason;
    int rc = rs__claim_require(c, prediction_options, "predicted", &p->expr);
    rc = rc ? rc : rs__claim_double(c, prediction_options, "tol", &p->tol, NULL);
    rc = rc ? rc : rs__claim_require(c, prediction_options, "tolerance_reason", &reason);
    if (rc)
        return rc;
    rs_buf_printf(c->md, ": `%s` against the prediction `%s`; test: in every row the relative "
                         "error |mean − predicted| / |predicted| is at most %g%% over the whole 95%% "
                         "interval of the mean (holds), above it over the whole interval (does "
                         "not hold), else inconclusive. Why this tolerance: %s\n\n",
                  c->metric, p->expr, 100 * p->tol, reason);
    return 0;
}

static int judge(struct rs__claim *c, void *state, const struct rs__claim_group *g,
                 int *verdict, char *why, size_t wn, char *note, size_t nn)
{
    const struct prediction *p = state;
    char h1[256], h2[300];
    snprintf(h1, sizeof h1, "%s mean ± 95%% CI", c->metric);
    snprintf(h2, sizeof h2, "predicted `%s`", p->expr);
    const char *cols[] = {"runs", h1, h2, "relative error", "prediction inside the CI"};
    rs__claim_table_head(c, g->label, NULL, cols, 5);
    size_t bad = 0, worst = 0, missing = 0, unsure = 0, first_unsure = 0;
    double worst_err = -1;
    for (size_t i = 0; i < g->n; i++) {
        size_t r = g->rows[i];
        double pred, mean = rs__claim_stat(c, r, "mean"), ci = rs__claim_stat(c, r, "ci95");
        int rc = rs__claim_eval(c, r, "predicted", p->expr, &pred);
        if (rc)
            return rc;
        /* a prediction of 0 is met only exactly */
        double err = pred != 0 ? fabs(mean - pred) / fabs(pred) : mean == 0 ? 0 : INFINITY;
        char m[64], v[64], e[64];
        rs__claim_mean_ci(m, sizeof m, mean, ci);
        rs__claim_num(v, sizeof v, pred);
        rs__claim_table_row(c, r, NULL);
        if (mean != mean) {
            missing++;
            rs_buf_printf(c->md, " %s | %s | %s | no value | |\n", c->t.rows[r][c->cruns], m, v);
            continue;
        }
        /* the ends of the mean's 95% interval against the band pred (1 -+ tol) */
        double band = p->tol * fabs(pred), lo = mean - ci, hi = mean + ci;
        int inside = rs__claim_within(lo, pred - band, pred + band) &&
                     rs__claim_within(hi, pred - band, pred + band);
        int outside = (hi == hi && !rs__claim_within(hi, pred - band, INFINITY)) ||
                      (lo == lo && !rs__claim_within(lo, -INFINITY, pred + band));
        snprintf(e, sizeof e, "%.2f%%", 100 * err);
        rs_buf_printf(c->md, " %s | %s | %s | %s%s%s%s | %s |\n", c->t.rows[r][c->cruns], m, v,
                      outside ? "**" : "", e, outside ? "**" : "",
                      inside ? "" : outside ? " (interval outside)" : " (interval straddles)",
                      ci != ci ? "— (1 run)" : fabs(mean - pred) <= ci ? "yes" : "no");
        bad += outside;
        if (!inside && !outside && !unsure++)
            first_unsure = r;
        if (err > worst_err) {
            worst_err = err;
            worst = r;
        }
    }
    if (missing == g->n) {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        snprintf(why, wn, "no row has a value of %s", c->metric);
        return 0;
    }
    char label[512], ul[512];
    rs__claim_row_label(c, worst, label, sizeof label);
    rs__claim_row_label(c, first_unsure, ul, sizeof ul);
    if (bad)
        snprintf(why, wn, "%zu of %zu rows off by more than %g%% over their whole 95%% "
                          "interval; largest relative error %.2f%% (%s)",
                 bad, g->n, 100 * p->tol, 100 * worst_err, label);
    else if (unsure)
        snprintf(why, wn, "largest relative error %.2f%% (%s); the 95%% interval of %zu of %zu "
                          "rows reaches beyond %g%% (the first: %s): more runs needed",
                 100 * worst_err, label, unsure, g->n - missing, 100 * p->tol, ul);
    else
        snprintf(why, wn, "largest relative error %.2f%% (%s), within %g%% in all %zu rows, "
                          "over every 95%% interval",
                 100 * worst_err, label, 100 * p->tol, g->n - missing);
    *verdict = bad                  ? RS_VERDICT_FAILS
               : missing || unsure ? RS_VERDICT_INCONCLUSIVE
                                   : RS_VERDICT_HOLDS;
    if (missing && !bad)
        snprintf(note, nn, "%zu rows have no value of %s.", missing, c->metric);
    return 0;
}

const struct rs__claim_kind rs__claim_prediction = {
    "prediction", "mean ± CI beside a predicted value; relative error within a stated tolerance",
    prediction_options, prepare, judge, rs_free};
