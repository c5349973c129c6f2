/* Helpers shared by the kinds of claim (see claim.h): typed keys, columns and filters of
 * the statistics file, expressions over a row, report tables and the worst run of a row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/claim.h"
#include "routesim/assert.h"
#include "routesim/expr.h"
#include "routesim/params.h"

const char *rs__claim_text(const struct rs__claim *c, const struct rs_optdef *table,
                           const char *key)
{
    RS_ASSERT(c != NULL && key != NULL);
    const struct rs_optdef *d = rs_optdef_find(table ? table : c->kind_options, key);
    if (!d)
        d = rs_optdef_find(rs__claim_common_options, key);
    RS_ASSERT(d != NULL); /* declared by the kind or common to every claim (claim.h) */
    const struct rs_param *p = rs_params_find(c->keys, key);
    if (p)
        return p->value;
    return d ? d->def : NULL;
}

int rs__claim_require(const struct rs__claim *c, const struct rs_optdef *table, const char *key,
                      const char **out)
{
    *out = rs__claim_text(c, table, key);
    if (*out && **out)
        return 0;
    const struct rs_optdef *d = rs_optdef_find(table, key);
    return rs_err_set(c->err, RS_EINVAL, "claim '%s': missing key '%s' (%s)", c->name, key,
                      d && d->help ? d->help : "required");
}

int rs__claim_double(const struct rs__claim *c, const struct rs_optdef *table, const char *key,
                     double *out, int *given)
{
    const struct rs_optdef *d = rs_optdef_find(table, key);
    if (given)
        *given = 0;
    if (!d)
        return rs_err_set(c->err, RS_EINVARIANT, "claim kind '%s' declares no key '%s'", c->kind,
                          key);
    if (!rs_params_find(c->keys, key) && !d->def) {
        if (given)
            return 0;
        return rs_err_set(c->err, RS_EINVAL, "claim '%s': missing key '%s' (%s)", c->name, key,
                          d->help);
    }
    int rc = rs_params_double(c->keys, d, out, c->err);
    if (!rc && given)
        *given = 1;
    return rc;
}

int rs__claim_choice(const struct rs__claim *c, const struct rs_optdef *table, const char *key,
                     int *index)
{
    const struct rs_optdef *d = rs_optdef_find(table, key);
    if (!d)
        return rs_err_set(c->err, RS_EINVARIANT, "claim kind '%s' declares no key '%s'", c->kind,
                          key);
    if (!rs_params_find(c->keys, key) && !d->def)
        return rs_err_set(c->err, RS_EINVAL, "claim '%s': missing key '%s' (%s)", c->name, key,
                          d->help);
    return rs_params_choice(c->keys, d, index, c->err);
}

int rs__claim_col(const struct rs__claim *c, const char *name, long *col)
{
    *col = rs_table_col(&c->t, name);
    if (*col >= 0)
        return 0;
    const char *near = rs_suggest(name, (const char *const *)c->t.names, (int)c->t.ncols);
    return rs_err_set(c->err, RS_EINVAL, "claim '%s': '%s' has no column '%s'%s%s%s", c->name,
                      c->path, name, near ? " (did you mean '" : "", near ? near : "",
                      near ? "'?)" : "");
}

int rs__claim_filter_parse(const struct rs__claim *c, const char *key, const char *text,
                           struct rs__claim_filter *f)
{
    f->n = 0;
    const char *s = text;
    while (s && *s) {
        const char *e = strchr(s, ';');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        while (len && (*s == ' ' || *s == '\t')) {
            s++;
            len--;
        }
        while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (len) {
            if (f->n == RS__CLAIM_MAX_COLS)
                return rs_err_set(c->err, RS_EINVAL, "claim '%s': key '%s': more than %d items",
                                  c->name, key, RS__CLAIM_MAX_COLS);
            const char *eq = memchr(s, '=', len);
            if (!eq || eq == s)
                return rs_err_set(c->err, RS_EINVAL,
                                  "claim '%s': key '%s': item '%.*s' is not KEY=VALUE", c->name,
                                  key, (int)len, s);
            size_t kl = (size_t)(eq - s), vl = len - kl - 1;
            while (kl && (s[kl - 1] == ' ' || s[kl - 1] == '\t'))
                kl--;
            const char *v = eq + 1;
            while (vl && (*v == ' ' || *v == '\t')) {
                v++;
                vl--;
            }
            if (kl >= RS__CLAIM_ITEM || vl >= RS__CLAIM_ITEM)
                return rs_err_set(c->err, RS_EINVAL, "claim '%s': key '%s': item too long",
                                  c->name, key);
            memcpy(f->key[f->n], s, kl);
            f->key[f->n][kl] = '\0';
            memcpy(f->value[f->n], v, vl);
            f->value[f->n][vl] = '\0';
            int rc = rs__claim_col(c, f->key[f->n], &f->col[f->n]);
            if (rc)
                return rc;
            f->n++;
        }
        s = e ? e + 1 : NULL;
    }
    return 0;
}

int rs__claim_filter_match(const struct rs__claim *c, const struct rs__claim_filter *f,
                           size_t row)
{
    for (int k = 0; k < f->n; k++)
        if (strcmp(c->t.rows[row][f->col[k]], f->value[k]))
            return 0;
    return 1;
}

double rs__claim_stat(const struct rs__claim *c, size_t row, const char *suffix)
{
    if (c->exact && (!strcmp(suffix, "var") || !strcmp(suffix, "sd") || !strcmp(suffix, "ci95")))
        return 0; /* deterministic: no spread (checked against the file in claims.c) */
    char name[256];
    snprintf(name, sizeof name, "%s_%s", c->metric, suffix);
    long col = rs_table_col(&c->t, name);
    RS_ASSERT(col >= 0 && row < c->t.nrows); /* rs_claim_check checked every statistic */
    return rs_table_num(&c->t, row, col);
}

struct row_ctx {
    const struct rs__claim *c;
    size_t row;
};

static int row_lookup(void *ctx, const char *name, double *out, char *why, size_t n)
{
    const struct row_ctx *r = ctx;
    long col = rs_table_col(&r->c->t, name);
    if (col < 0) {
        const char *near =
            rs_suggest(name, (const char *const *)r->c->t.names, (int)r->c->t.ncols);
        snprintf(why, n, "no column '%s'%s%s%s", name, near ? " (did you mean '" : "",
                 near ? near : "", near ? "'?)" : "");
        return -1;
    }
    const char *cell = r->c->t.rows[r->row][col];
    if (rs__expr_number(cell, out)) {
        snprintf(why, n, "column '%s' is not a number ('%s')", name, cell);
        return -1;
    }
    return 0;
}

int rs__claim_eval(const struct rs__claim *c, size_t row, const char *key, const char *text,
                   double *out)
{
    struct row_ctx ctx = {c, row};
    char why[512], where[256];
    int bad = rs__expr_eval_with(text, row_lookup, &ctx, out, why, sizeof why);
    if (!bad && !isfinite(*out)) {
        snprintf(why, sizeof why, "the value is not finite");
        bad = 1;
    }
    if (!bad)
        return 0;
    rs__claim_row_label(c, row, where, sizeof where);
    return rs_err_set(c->err, RS_EINVAL, "claim '%s': key '%s': cannot evaluate '%s' (row %s): %s",
                      c->name, key, text, where, why);
}

double rs__claim_slack(double limit)
{
    return isinf(limit) ? 0 : RS__CLAIM_REL_SLACK * (fabs(limit) > 1 ? fabs(limit) : 1);
}

int rs__claim_within(double v, double lo, double hi)
{
    return v >= lo - rs__claim_slack(lo) && v <= hi + rs__claim_slack(hi);
}

void rs__claim_num(char *buf, size_t n, double v)
{
    if (v != v)
        snprintf(buf, n, "—");
    else if (v == 0)
        snprintf(buf, n, "0"); /* not "-0" */
    else
        snprintf(buf, n, "%.6g", v);
}

void rs__claim_mean_ci(char *buf, size_t n, double mean, double ci)
{
    char m[64], h[64];
    rs__claim_num(m, sizeof m, mean);
    if (ci != ci) {
        snprintf(buf, n, "%s", m);
        return;
    }
    snprintf(h, sizeof h, "%.3g", ci);
    snprintf(buf, n, "%s ± %s", m, h);
}

static int skipped(const struct rs__claim_filter *skip, long col)
{
    for (int k = 0; skip && k < skip->n; k++)
        if (skip->col[k] == col)
            return 1;
    return 0;
}

void rs__claim_table_head(const struct rs__claim *c, const char *label,
                          const struct rs__claim_filter *skip, const char *const *cols,
                          int ncols)
{
    int total = 1;
    rs_buf_printf(c->md, "| %s |", label);
    for (int k = 0; k < c->nshow; k++)
        if (!skipped(skip, c->show[k])) {
            rs_buf_printf(c->md, " %s |", c->t.names[c->show[k]]);
            total++;
        }
    for (int k = 0; k < ncols; k++)
        rs_buf_printf(c->md, " %s |", cols[k]);
    rs_buf_puts(c->md, "\n|");
    for (int k = 0; k < total + ncols; k++)
        rs_buf_puts(c->md, " --- |");
    rs_buf_puts(c->md, "\n");
}

void rs__claim_table_row(const struct rs__claim *c, size_t row,
                         const struct rs__claim_filter *skip)
{
    rs_buf_puts(c->md, "| |");
    for (int k = 0; k < c->nshow; k++)
        if (!skipped(skip, c->show[k]))
            rs_buf_printf(c->md, " %s |", c->t.rows[row][c->show[k]]);
}

void rs__claim_row_label(const struct rs__claim *c, size_t row, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < c->nshow && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s=%s", k ? ", " : "",
                                c->t.names[c->show[k]], c->t.rows[row][c->show[k]]);
    if (!c->nshow)
        snprintf(buf, n, "the only row");
}

int rs__claim_worst_run(const struct rs__claim *c, size_t row, int want_max, char *buf,
                        size_t n)
{
    char path[4200];
    struct rs_table r;
    struct rs_err quiet;
    buf[0] = '\0';
    snprintf(path, sizeof path, "%s/%s-runs.csv", c->dir, c->experiment);
    if (rs_table_read(&r, path, &quiet))
        return -1;
    long cm = rs_table_col(&r, c->metric), cseed = rs_table_col(&r, "seed");
    long crep = rs_table_col(&r, "replication");
    long map[256];
    int ok = cm >= 0 && cseed >= 0 && crep >= 0 && c->nparams <= 256;
    for (long k = 0; ok && k < c->nparams; k++) /* this row's parameters in the runs file */
        ok = (map[k] = rs_table_col(&r, c->t.names[k])) >= 0;
    long best = -1;
    double bv = 0;
    for (size_t i = 0; ok && i < r.nrows; i++) {
        int same = 1;
        for (long k = 0; k < c->nparams && same; k++)
            same = map[k] == cseed || !strcmp(r.rows[i][map[k]], c->t.rows[row][k]);
        double v = rs_table_num(&r, i, cm);
        if (!same || v != v)
            continue;
        if (best < 0 || (want_max ? v > bv : v < bv)) {
            best = (long)i;
            bv = v;
        }
    }
    if (best >= 0) {
        size_t len = (size_t)snprintf(buf, n, "seed %s (replication %s): `routesim run",
                                      r.rows[best][cseed], r.rows[best][crep]);
        for (long k = 0; k < c->nparams && len < n; k++) {
            const char *v = map[k] == cseed ? r.rows[best][cseed] : c->t.rows[row][k];
            if (*v) /* a key that does not apply to this point has no value */
                len += (size_t)snprintf(buf + len, n - len, " %s=%s", c->t.names[k], v);
        }
        if (len < n)
            snprintf(buf + len, n - len, "`");
    }
    rs_table_free(&r);
    return best >= 0 ? 0 : -1;
}
