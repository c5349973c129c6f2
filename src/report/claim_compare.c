/* Qualitative comparisons (see docs/reproduce.md): side A against side B, paired by the
 * remaining columns; in every pair the difference of means has the claimed sign and is
 * significant at 95% by Welch's two-sided t test on the stored means, variances and runs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/claim.h"
#include "routesim/alloc.h"
#include "routesim/stats.h"

static const char *const signs[] = {"less", "greater", NULL};

static const struct rs_optdef compare_options[] = {
    {"a", RS_OPT_STRING, NULL, 0, 0, NULL, "side A: KEY=VALUE;... (e.g. traffic=root)", "-"},
    {"b", RS_OPT_STRING, NULL, 0, 0, NULL, "side B: KEY=VALUE;... (e.g. traffic=randperm)", "-"},
    {"match", RS_OPT_STRING, NULL, 0, 0, NULL,
     "comma list of columns pairing A with B (default: every parameter but seed and the "
     "sides' own keys)", "-"},
    {"sign", RS_OPT_CHOICE, NULL, 0, 0, signs,
     "the claim: side A's mean is less (or greater) than side B's", "-"},
    {NULL, RS_OPT_STRING, NULL, 0, 0, NULL, NULL, NULL},
};

struct compare {
    struct rs__claim_sides sides;
    int greater;
};

static int prepare(struct rs__claim *c, void **state)
{
    struct compare *p = rs_calloc(1, sizeof *p);
    if (!p)
        return rs_err_set(c->err, RS_ENOMEM, "out of memory");
    *state = p;
    long k;
    char col[256];
    int rc = rs__claim_sides_parse(c, compare_options, &p->sides);
    rc = rc ? rc : rs__claim_choice(c, compare_options, "sign", &p->greater);
    snprintf(col, sizeof col, "%s_var", c->metric);
    rc = rc ? rc : rs__claim_col(c, col, &k);
    if (rc)
        return rc;
    rs_buf_printf(c->md, ": `%s`, ", c->metric);
    rs__claim_sides_describe(c, &p->sides);
    rs_buf_printf(c->md, "; test: in every pair mean(A) %s mean(B), significant at 95%% "
                         "(Welch's two-sided t test from the stored means, variances and runs: "
                         "p < 0.05, i.e. the 95%% interval of mean(A) − mean(B) excludes 0). "
                         "Holds when every pair does; does not hold when a pair differs "
                         "significantly the other way; otherwise inconclusive.\n\n",
                  p->greater ? ">" : "<");
    return 0;
}

static void sample(const struct rs__claim *c, size_t row, struct rs_sample *s)
{
    s->mean = rs__claim_stat(c, row, "mean");
    s->var = rs__claim_stat(c, row, "var");
    double n = rs_table_num(&c->t, row, c->cruns);
    s->n = n >= 1 && n < 4e9 ? (uint32_t)n : 0;
}

static int judge(struct rs__claim *c, void *state, const struct rs__claim_group *g,
                 int *verdict, char *why, size_t wn, char *note, size_t nn)
{
    const struct compare *p = state;
    size_t *pa = rs_malloc(g->n * sizeof *pa), *pb = rs_malloc(g->n * sizeof *pb), np = 0, un = 0;
    size_t side[2];
    int rc = pa && pb ? rs__claim_pairs(c, &p->sides, g, pa, pb, &np, side, &un)
                      : rs_err_set(c->err, RS_ENOMEM, "out of memory");
    if (rc) {
        rs_free(pa);
        rs_free(pb);
        return rc;
    }
    const char *cols[] = {"A: mean ± 95% CI", "B: mean ± 95% CI", "A − B [95% CI]", "t", "df",
                          "p", "result"};
    struct rs__claim_filter skip = p->sides.a;
    for (int k = 0; k < p->sides.b.n && skip.n < RS__CLAIM_MAX_COLS; k++)
        skip.col[skip.n++] = p->sides.b.col[k];
    if (np)
        rs__claim_table_head(c, g->label, &skip, cols, 7);
    size_t good = 0, wrong = 0, weak = 0, first_wrong = 0, first_weak = 0;
    double worst_p = -1;
    size_t worst = 0;
    for (size_t i = 0; i < np; i++) {
        struct rs_sample a, b;
        struct rs_welch w;
        sample(c, pa[i], &a);
        sample(c, pb[i], &b);
        char ma[64], mb[64], d[64], lo[64], hi[64];
        rs__claim_mean_ci(ma, sizeof ma, a.mean, rs__claim_stat(c, pa[i], "ci95"));
        rs__claim_mean_ci(mb, sizeof mb, b.mean, rs__claim_stat(c, pb[i], "ci95"));
        rs__claim_table_row(c, pa[i], &skip);
        if (c->exact && a.mean == a.mean && b.mean == b.mean) {
            /* deterministic: the exact difference has the claimed sign or not (0 has neither) */
            double diff = a.mean - b.mean, tol = rs__claim_slack(fabs(a.mean) > fabs(b.mean)
                                                                     ? a.mean : b.mean);
            int claimed = p->greater ? diff > tol : diff < -tol;
            rs__claim_num(d, sizeof d, diff);
            rs_buf_printf(c->md, " %s | %s | %s (exact) | | | | %s |\n", ma, mb, d,
                          claimed ? "as claimed" : "**not as claimed (exact)**");
            if (claimed)
                good++;
            else if (!wrong++)
                first_wrong = pa[i];
            continue;
        }
        if (rs_welch(&a, &b, &w)) {
            rs_buf_printf(c->md, " %s | %s | | | | | no variance (runs < 2) |\n", ma, mb);
            if (!weak++)
                first_weak = pa[i];
            continue;
        }
        rs__claim_num(d, sizeof d, w.diff);
        rs__claim_num(lo, sizeof lo, w.lo);
        rs__claim_num(hi, sizeof hi, w.hi);
        int signif = w.p < 0.05, claimed = p->greater ? w.diff > 0 : w.diff < 0;
        const char *result = signif && claimed ? "as claimed"
                             : signif          ? "**significant, the other way**"
                                               : "not significant";
        char t[32], df[32], pv[32];
        snprintf(t, sizeof t, "%.3g", w.t);
        if (isfinite(w.df))
            snprintf(df, sizeof df, "%.1f", w.df);
        else
            snprintf(df, sizeof df, "∞");
        snprintf(pv, sizeof pv, "%.3g", w.p);
        rs_buf_printf(c->md, " %s | %s | %s [%s, %s] | %s | %s | %s | %s |\n", ma, mb, d, lo, hi,
                      t, df, pv, result);
        if (signif && claimed)
            good++;
        else if (signif) {
            if (!wrong++)
                first_wrong = pa[i];
        } else if (!weak++) {
            first_weak = pa[i];
        }
        if (w.p > worst_p) {
            worst_p = w.p;
            worst = pa[i];
        }
    }
    rs_free(pa);
    rs_free(pb);
    char label[512];
    if (un)
        snprintf(note, nn, "%zu row%s of side A or B ha%s no partner (pairs need equal values "
                           "of the match columns).",
                 un, un == 1 ? "" : "s", un == 1 ? "s" : "ve");
    if (!np) {
        *verdict = RS_VERDICT_INCONCLUSIVE;
        rs__claim_no_pair(c, side, why, wn);
        return 0;
    }
    const char *rel = p->greater ? ">" : "<";
    if (wrong) {
        rs__claim_pair_label(c, &p->sides, first_wrong, label, sizeof label);
        if (c->exact)
            snprintf(why, wn, "%zu of %zu pairs have exact values without mean(A) %s mean(B) "
                              "(the first: %s)",
                     wrong, np, rel, label);
        else
            snprintf(why, wn, "%zu of %zu pairs differ significantly the other way (the first: "
                              "%s)",
                     wrong, np, label);
        *verdict = RS_VERDICT_FAILS;
    } else if (weak) {
        rs__claim_pair_label(c, &p->sides, first_weak, label, sizeof label);
        snprintf(why, wn, "%zu of %zu pairs show no significant difference at 95%% (the first: "
                          "%s); more runs may decide",
                 weak, np, label);
        *verdict = RS_VERDICT_INCONCLUSIVE;
    } else if (c->exact) {
        snprintf(why, wn, "mean(A) %s mean(B) in all %zu pairs, exactly (deterministic points)",
                 rel, np);
        *verdict = RS_VERDICT_HOLDS;
    } else {
        rs__claim_pair_label(c, &p->sides, worst, label, sizeof label);
        snprintf(why, wn, "mean(A) %s mean(B) in all %zu pairs, significant at 95%% (largest p "
                          "= %.3g, %s)",
                 rel, np, worst_p, label);
        *verdict = RS_VERDICT_HOLDS;
    }
    return 0;
}

const struct rs__claim_kind rs__claim_compare = {
    "compare", "side A less (or greater) than side B, significant at 95% (Welch's t test)",
    compare_options, prepare, judge, rs_free};
