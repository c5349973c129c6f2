/* Exact claims (see docs/reproduce.md): bound (every run of every row within an upper or
 * lower bound given as an expression over the row; the worst row, its margin and its
 * worst run are named; a lower bound of 0 or below is vacuous: no metric is negative) and
 * equal (every run of every row equals an expression). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim.h"
#include "routesim/alloc.h"

#define END_OPTION {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL}

static const char *const directions[] = {"at_most", "at_least", NULL};

static const struct rs_optdef bound_options[] = {
    {"bound", RS_OPT_STRING, NULL, 0, 0, NULL,
     "the bound: an expression over the row's columns (e.g. N/(4*(queue_size+2)*(log2(N)+1)))",
     "-"},
    {"direction", RS_OPT_CHOICE, "at_most", 0, 0, directions,
     "at_most: upper bound, judged on <metric>_max; at_least: lower bound, on <metric>_min", "-"},
    END_OPTION,
};

static const struct rs_optdef equal_options[] = {
    {"value", RS_OPT_STRING, NULL, 0, 0, NULL,
     "the exact value: an expression over the row's columns (e.g. log2(N))", "-"},
    END_OPTION,
};

struct exact {
    int equal;    /* equal claim (else bound) */
    int at_least; /* bound: lower bound */
    const char *expr, *key;
};

static int prepare(struct rs__claim *c, void **state, int equal)
{
    struct exact *e = rs_calloc(1, sizeof *e);
    if (!e)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    *state = e;
    e->equal = equal;
    e->key = equal ? "value" : "bound";
    const struct rs_optdef *table = equal ? equal_options : bound_options;
    int rc = rs__claim_require(c, table, e->key, &e->expr);
    if (!rc && !equal)
        rc = rs__claim_choice(c, table, "direction", &e->at_least);
    long col;
    char name[256];
    snprintf(name, sizeof name, "%s_min", c->metric);
    rc = rc ? rc : rs__claim_col(c, name, &col);
    snprintf(name, sizeof name, "%s_max", c->metric);
    rc = rc ? rc : rs__claim_col(c, name, &col);
    if (rc)
        return rc;
    if (equal)
        rs_buf_printf(c->md, ": `%s`; test: in every row the smallest and the largest value "
                             "over the runs (`%s_min`, `%s_max`) both equal `%s` (to 8 "
                             "significant digits: the statistics file keeps 9).\n\n",
                      c->metric, c->metric, c->metric, e->expr);
    else
        rs_buf_printf(c->md, ": `%s`; test: in every row the %s value over the runs (`%s_%s`) "
                             "is %s the bound `%s` (to 8 significant digits: the statistics "
                             "file keeps 9); the report names the row with the smallest margin "
                             "and its %s run.\n\n",
                      c->metric, e->at_least ? "smallest" : "largest", c->metric,
                      e->at_least ? "min" : "max", e->at_least ? "at least" : "at most", e->expr,
                      e->at_least ? "lowest" : "highest");
    return 0;
}

static int judge(struct rs__claim *c, void *state, const struct rs__claim_group *g,
                 int *verdict, char *why, size_t wn, char *note, size_t nn)
{
    const struct exact *e = state;
    char h1[256], h2[256], h3[300];
    size_t bad = 0, worst = 0, missing = 0, vacuous = 0;
    double worst_margin = INFINITY;
    if (e->equal) {
        snprintf(h1, sizeof h1, "%s min", c->metric);
        snprintf(h2, sizeof h2, "%s max", c->metric);
        snprintf(h3, sizeof h3, "`%s`", e->expr);
        const char *cols[] = {h1, h2, h3, "equal"};
        rs__claim_table_head(c, g->label, NULL, cols, 4);
    } else {
        snprintf(h1, sizeof h1, "%s mean ± 95%% CI", c->metric);
        snprintf(h2, sizeof h2, "%s %s", c->metric, e->at_least ? "min" : "max");
        snprintf(h3, sizeof h3, "bound `%s`", e->expr);
        const char *cols[] = {h1, h2, h3, "margin"};
        rs__claim_table_head(c, g->label, NULL, cols, 4);
    }
    for (size_t i = 0; i < g->n; i++) {
        size_t r = g->rows[i];
        double ref, lo = rs__claim_stat(c, r, "min"), hi = rs__claim_stat(c, r, "max");
        int rc = rs__claim_eval(c, r, e->key, e->expr, &ref);
        if (rc)
            return rc;
        char a[64], b[64], d[64];
        double margin; /* how far inside (>= 0) or outside (< 0) */
        int ok;
        if (e->equal) {
            double dev = lo != lo || hi != hi ? NAN : fmax(fabs(lo - ref), fabs(hi - ref));
            margin = -dev;
            ok = dev <= rs__claim_slack(ref);
            rs__claim_num(a, sizeof a, lo);
            rs__claim_num(b, sizeof b, hi);
            rs__claim_num(d, sizeof d, ref);
        } else {
            double v = e->at_least ? lo : hi;
            margin = e->at_least ? v - ref : ref - v;
            ok = margin >= -rs__claim_slack(ref);
            rs__claim_mean_ci(a, sizeof a, rs__claim_stat(c, r, "mean"),
                              rs__claim_stat(c, r, "ci95"));
            rs__claim_num(b, sizeof b, v);
            rs__claim_num(d, sizeof d, ref);
        }
        char m[64];
        rs__claim_table_row(c, r, NULL);
        if (e->at_least && ref <= 0) { /* every metric is a count, time or fraction: >= 0 */
            vacuous++;
            rs_buf_printf(c->md, " %s | %s | %s | vacuous (bound ≤ 0) |\n", a, b, d);
            continue;
        }
        if (margin != margin) {
            missing++;
            rs_buf_printf(c->md, " %s | %s | %s | no value |\n", a, b, d);
            continue;
        }
        if (e->equal)
            rs_buf_printf(c->md, " %s | %s | %s | %s |\n", a, b, d, ok ? "yes" : "**no**");
        else {
            rs__claim_num(m, sizeof m, margin);
            rs_buf_printf(c->md, " %s | %s | %s | %s%s%s |\n", a, b, d, ok ? "" : "**", m,
                          ok ? "" : "**");
        }
        bad += !ok;
        if (margin < worst_margin) {
            worst_margin = margin;
            worst = r;
        }
    }
    char label[512], v[64], ref[64], run[2048];
    size_t judged = g->n - vacuous; /* rows whose bound can be broken */
    if (!judged) {
        *verdict = RS_VERDICT_VACUOUS;
        snprintf(why, wn, "the lower bound is 0 or below in all %zu rows, and %s is never "
                          "negative: the claim cannot fail here",
                 g->n, c->metric);
        return 0;
    }
    if (missing == judged) {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        snprintf(why, wn, "no row has a value of %s", c->metric);
        return 0;
    }
    rs__claim_row_label(c, worst, label, sizeof label);
    double wv, wref;
    rs__claim_eval(c, worst, e->key, e->expr, &wref);
    rs__claim_num(ref, sizeof ref, wref);
    if (e->equal) {
        double lo = rs__claim_stat(c, worst, "min"), hi = rs__claim_stat(c, worst, "max");
        int far_hi = fabs(hi - wref) >= fabs(lo - wref);
        char a[64], b[64];
        rs__claim_num(a, sizeof a, lo);
        rs__claim_num(b, sizeof b, hi);
        if (bad)
            snprintf(why, wn, "%zu of %zu rows differ; the farthest, %s: %s from %s to %s "
                              "against %s",
                     bad, judged, label, c->metric, a, b, ref);
        else
            snprintf(why, wn, "%s_min = %s_max = `%s` in all %zu rows", c->metric, c->metric,
                     e->expr, g->n);
        if (bad && !rs__claim_worst_run(c, worst, far_hi, run, sizeof run))
            snprintf(note, nn, "Farthest run: %s.", run);
    } else {
        wv = rs__claim_stat(c, worst, e->at_least ? "min" : "max");
        rs__claim_num(v, sizeof v, wv);
        char m[64];
        rs__claim_num(m, sizeof m, worst_margin);
        if (bad)
            snprintf(why, wn, "%zu of %zu rows %s the bound; worst row %s: %s %s %s against "
                              "the bound %s (margin %s)",
                     bad, judged, e->at_least ? "fall below" : "exceed", label, c->metric,
                     e->at_least ? "min" : "max", v, ref, m);
        else
            snprintf(why, wn, "all %zu rows within the bound; worst row %s: %s %s %s against "
                              "the bound %s (margin %s)",
                     g->n, label, c->metric, e->at_least ? "min" : "max", v, ref, m);
        if (!rs__claim_worst_run(c, worst, !e->at_least, run, sizeof run))
            snprintf(note, nn, "Worst instance: %s.", run);
    }
    if (missing && !bad) {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        size_t len = strlen(why);
        snprintf(why + len, wn - len, "; %zu rows have no value", missing);
    } else {
        *verdict = bad ? RS_VERDICT_FAILS : RS_VERDICT_HOLDS;
    }
    if (vacuous) {
        size_t len = strlen(why);
        snprintf(why + len, wn - len, "; %zu more row%s vacuous (bound ≤ 0, not counted)",
                 vacuous, vacuous == 1 ? "" : "s");
    }
    return 0;
}

static int prepare_bound(struct rs__claim *c, void **state)
{
    return prepare(c, state, 0);
}

static int prepare_equal(struct rs__claim *c, void **state)
{
    return prepare(c, state, 1);
}

const struct rs__claim_kind rs__claim_bound = {
    "bound", "exact bound: every run of every row within an upper (at_most) or lower bound",
    bound_options, prepare_bound, judge, rs_free};
const struct rs__claim_kind rs__claim_equal = {
    "equal", "exact equality: every run of every row equals an expression", equal_options,
    prepare_equal, judge, rs_free};
