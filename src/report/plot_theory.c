/* Theory curves of plots (see plot_theory.h): an expression of the x key, the series keys
 * and the experiment's fixed keys sampled over the plotted x range, or evaluated at each
 * row when it names columns of the statistics file. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "routesim/assert.h"
#include "routesim/expr.h"
#include "report/plot_theory.h"
#include "routesim/options.h"

#define SAMPLES_BETWEEN 64 /* points between two measured x values */
#define MAX_DERIVED_DEPTH 8

struct ctx {
    const struct rs_grid *g;
    const struct rs__plot_series *s;
    double x;
    size_t row;        /* row mode: the row of the statistics file */
    int row_mode;
    int uses_series;
    int wants_rows;    /* sample mode met a name that only the rows have */
    int depth;
};

static int lookup(void *vctx, const char *name, double *out, char *why, size_t n);

static int number(const char *name, const char *text, double *out, char *why, size_t n)
{
    if (!rs__expr_number(text, out))
        return 0;
    snprintf(why, n, "'%s' is not a number ('%s')", name, text);
    return -1;
}

static int lookup(void *vctx, const char *name, double *out, char *why, size_t n)
{
    struct ctx *c = vctx;
    const struct rs__plot_series *s = c->s;
    if (!strcmp(name, s->xkey)) {
        *out = c->row_mode ? rs_table_num(s->t, c->row, s->cx) : c->x;
        return 0;
    }
    if (c->row_mode) { /* any column of the row */
        long col = rs_table_col(s->t, name);
        if (col >= 0) {
            c->uses_series = 1;
            return number(name, s->t->rows[c->row][col], out, why, n);
        }
    }
    for (int i = 0; i < s->cd->n; i++)
        if (!strcmp(s->cd->key[i], name)) {
            c->uses_series |= s->cd->is_series[i];
            return number(name, s->cd->value[i], out, why, n);
        }
    const char *keys[256];
    int nk = 0;
    for (size_t i = 0; i < c->g->n_axes; i++) {
        const struct rs_axis *a = &c->g->axes[i];
        if (nk < 256)
            keys[nk++] = a->key;
        if (strcmp(a->key, name))
            continue;
        if (a->n > 1) {
            snprintf(why, n, "'%s' takes several values in this plot: make it a series or "
                             "filter it",
                     name);
            return -1;
        }
        if (!a->derived)
            return number(name, a->values[0], out, why, n);
        if (++c->depth > MAX_DERIVED_DEPTH) {
            snprintf(why, n, "derived key '%s' refers to itself", name);
            return -1;
        }
        int rc = rs__expr_eval_with(a->values[0] + 1, lookup, c, out, why, n);
        c->depth--;
        return rc;
    }
    if (!c->row_mode && rs_table_col(s->t, name) >= 0) {
        c->wants_rows = 1;
        snprintf(why, n, "'%s' is a column of the statistics file", name);
        return -1;
    }
    const char *near = rs_suggest(name, keys, nk);
    snprintf(why, n, "unknown name '%s'%s%s%s", name, near ? " (did you mean '" : "",
             near ? near : "", near ? "'?)" : "");
    return -1;
}

static int point(struct rs_buf *b, struct ctx *c, const char *expr, double x, char *why,
                 size_t wn)
{
    double y;
    if (rs__expr_eval_with(expr, lookup, c, &y, why, wn))
        return -1;
    if (!isfinite(y))
        return rs_buf_puts(b, "\n") ? -2 : 0;
    return rs_buf_printf(b, "%.10g %.10g\n", x, y) ? -2 : 0;
}

int rs__plot_theory(struct rs_buf *b, const struct rs_grid *g, const struct rs__plot_series *s,
                    const char *expr, int logx, int *uses_series, struct rs_err *err)
{
    RS_ASSERT(b != NULL && g != NULL && s != NULL && expr != NULL && uses_series != NULL);
    RS_ASSERT(s->t != NULL && (s->rows != NULL || s->n == 0));
    struct ctx c = {g, s, 0, 0, 0, 0, 0, 0};
    char why[512];
    size_t mark = b->len;
    int rc = 0;
    for (size_t i = 0; i < s->n && !rc; i++) { /* sample mode */
        double x0 = rs_table_num(s->t, s->rows[i], s->cx);
        if (x0 != x0)
            continue;
        c.x = x0;
        rc = point(b, &c, expr, x0, why, sizeof why);
        if (i + 1 == s->n || rc)
            break;
        double x1 = rs_table_num(s->t, s->rows[i + 1], s->cx);
        int geometric = logx && x0 > 0 && x1 > 0;
        for (int k = 1; k < SAMPLES_BETWEEN && !rc && x1 > x0; k++) {
            double f = (double)k / SAMPLES_BETWEEN;
            c.x = geometric ? x0 * pow(x1 / x0, f) : x0 + (x1 - x0) * f;
            rc = point(b, &c, expr, c.x, why, sizeof why);
        }
    }
    if (rc == -1 && c.wants_rows) { /* names columns: evaluate at the rows instead */
        b->len = mark;
        if (b->data)
            b->data[mark] = '\0';
        c.row_mode = 1;
        c.uses_series = 0;
        rc = 0;
        for (size_t i = 0; i < s->n && !rc; i++) {
            c.row = s->rows[i];
            rc = point(b, &c, expr, rs_table_num(s->t, s->rows[i], s->cx), why, sizeof why);
        }
    }
    if (rc == -2)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    if (rc)
        return rs_err_set(err, RS_EINVAL, "[plot]: theory '%s': %s", expr, why);
    *uses_series = c.uses_series;
    return 0;
}
