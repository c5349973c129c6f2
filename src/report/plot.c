/* gnuplot scripts for sweep results (see plot.h): one data block per metric and series
 * (mean with 95% CI error bars), theory curves (plot_theory.c) and theory columns beside
 * them. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/render.h"
#include "report/plot_theory.h"
#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/buf.h"
#include "routesim/engine.h"
#include "routesim/expr.h"
#include "routesim/metrics.h"
#include "routesim/net.h"
#include "routesim/openloop.h"
#include "routesim/outpath.h"
#include "routesim/plot.h"
#include "routesim/problem.h"
#include "routesim/run.h"
#include "routesim/table.h"

extern char **environ;

static const char *const plot_keys[] = {
    "x",      "y",       "series",        "filter",        "logx",          "logy",
    "title",  "xlabel",  "ylabel",        "theory",        "theory2",       "theory3",
    "theory4", "theory_title", "theory_title2", "theory_title3", "theory_title4",
    "theory_column", "key", NULL};

/* Legend positions of `key` (gnuplot's words); the first is the default. */
static const char *const key_places[] = {"top left", "top right", "bottom left", "bottom right",
                                         "below", NULL};

#define PLOT_MAX_Y 8       /* metrics in one plot */
#define PLOT_MAX_SERIES 64 /* combinations of series values */
#define PLOT_MAX_THEORY 4  /* theory expressions (theory, theory2 ..); theory columns */
#define PLOT_ITEM 256      /* longest item of a list key */

static const char *plot_value(const struct rs_grid *g, const char *key, const char *def)
{
    char full[64];
    snprintf(full, sizeof full, "plot.%s", key);
    const struct rs_param *p = rs_params_find(&g->extra, full);
    return p ? p->value : def;
}

static const struct rs_axis *find_axis(const struct rs_grid *g, const char *key)
{
    for (size_t i = 0; i < g->n_axes; i++)
        if (!strcmp(g->axes[i].key, key))
            return &g->axes[i];
    return NULL;
}

/* gnuplot string literal: double quotes with backslash escapes. */
static int gp_string(struct rs_buf *b, const char *s)
{
    int rc = rs_buf_puts(b, "\"");
    for (; *s && !rc; s++)
        rc = (*s == '"' || *s == '\\') ? rs_buf_printf(b, "\\%c", *s) : rs_buf_append(b, s, 1);
    return rc ? rc : rs_buf_puts(b, "\"");
}

/* 1 when gnuplot is an executable on PATH, 0 when not, RS_ENOMEM. */
static int gnuplot_available(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *copy = rs_strdup(path), *save = NULL;
    int found = 0;
    if (!copy)
        return RS_ENOMEM;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char full[4096];
        snprintf(full, sizeof full, "%s/gnuplot", dir);
        found = access(full, X_OK) == 0;
    }
    rs_free(copy);
    return found;
}

struct xrow {
    double x;
    size_t row;
};

static int cmp_x(const void *a, const void *b)
{
    const struct xrow *p = a, *q = b;
    if (p->x != q->x)
        return (p->x > q->x) - (p->x < q->x);
    return (p->row > q->row) - (p->row < q->row);
}

/* Rows of t meeting every condition of cd, sorted by x (ties in file order), into rows;
 * their number. */
static size_t series_rows(const struct rs_table *t, long cx, const long *ccols,
                          const struct rs__plot_conds *cd, struct xrow *tmp, size_t *rows)
{
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        int ok = 1;
        for (int i = 0; i < cd->n && ok; i++)
            ok = !strcmp(t->rows[r][ccols[i]], cd->value[i]);
        if (ok) {
            tmp[n].x = rs_table_num(t, r, cx);
            tmp[n++].row = r;
        }
    }
    qsort(tmp, n, sizeof *tmp, cmp_x);
    for (size_t i = 0; i < n; i++)
        rows[i] = tmp[i].row;
    return n;
}

/* Split text at sep into at most max trimmed items of buf. */
static int split_items(const char *text, char sep, char items[][PLOT_ITEM], int max)
{
    int n = 0;
    while (text && *text && n < max) {
        const char *e = strchr(text, sep);
        size_t len = e ? (size_t)(e - text) : strlen(text);
        while (len && *text == ' ') {
            text++;
            len--;
        }
        while (len && text[len - 1] == ' ')
            len--;
        if (len && len < PLOT_ITEM) {
            memcpy(items[n], text, len);
            items[n++][len] = '\0';
        }
        text = e ? e + 1 : NULL;
    }
    return n;
}

/* Everything the script is made of, resolved from the [plot] keys. */
struct plot {
    const char *x;
    char y[PLOT_MAX_Y][PLOT_ITEM];
    int ny;
    char skeys[RS__PLOT_MAX_CONDS][PLOT_ITEM], fitems[RS__PLOT_MAX_CONDS][PLOT_ITEM];
    const struct rs_axis *sa[RS__PLOT_MAX_CONDS];
    int ns;
    struct rs__plot_conds base;
    size_t nseries;
    char theory[PLOT_MAX_THEORY][PLOT_ITEM], ttitle[PLOT_MAX_THEORY][PLOT_ITEM];
    char tkey[PLOT_MAX_THEORY][48]; /* "plot.theory2" */
    int nt;
    char tcol[PLOT_MAX_THEORY][PLOT_ITEM];
    int ntc;
    const char *key; /* one of key_places */
};

/* Every item of key (plot.y, plot.theory_column) must be a key of the experiment, a metric
 * of the table or one of its statistics columns (makespan_mean): a typo is an error naming
 * it before anything runs. */
static int check_metrics(const struct rs_grid *g, const char *key, char items[][PLOT_ITEM],
                         int n, struct rs_err *err)
{
    char what[400];
    rs_param_where(rs_params_find(&g->extra, key), what, sizeof what);
    size_t len = strlen(what);
    snprintf(what + len, sizeof what - len, ": [plot] key '%s'", key + 5);
    for (int i = 0; i < n; i++) {
        int rc = find_axis(g, items[i]) ? 0 : rs_metric_check_name(items[i], what, err);
        if (rc)
            return rc;
    }
    return 0;
}

/* 1 when name can be a column of the statistics file, known before any point runs: a key
 * of the experiment, a key some module declares (its default becomes a column), one of the
 * experiment's own columns, or a metric or statistics column. */
static int known_column(const struct rs_grid *g, const char *name)
{
    static const char *const own[] = {"runs",           "seed",            "runs_deadlocked",
                                      "runs_saturated", "runs_with_drops", "runs_used", NULL};
    const struct rs_optdef *const tables[] = {rs_net_options, rs_problem_options, rs_run_options,
                                              rs_predict_options, rs_openloop_options};
    if (find_axis(g, name))
        return 1;
    for (int i = 0; own[i]; i++)
        if (!strcmp(own[i], name))
            return 1;
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
        if (rs_optdef_find(tables[i], name))
            return 1;
#define RS__DECLARES(list)                                        \
    for (int i_ = 0; (list)[i_]; i_++)                            \
        if ((list)[i_]->options && rs_optdef_find((list)[i_]->options, name)) \
            return 1;
    RS__DECLARES(rs_topologies)
    RS__DECLARES(rs_traffics)
    RS__DECLARES(rs_engines)
    RS__DECLARES(rs_algos)
#undef RS__DECLARES
    return rs_metric_check_name(name, "", NULL) == 0;
}

/* RS_EINVAL naming where key is set and the column it names that cannot exist, with the
 * nearest key of the experiment. */
static int no_column(const struct rs_grid *g, const char *key, const char *name,
                     struct rs_err *err)
{
    char where[512], full[64];
    const char *names[256];
    int n = 0;
    snprintf(full, sizeof full, "plot.%s", key);
    rs_param_where(rs_params_find(&g->extra, full), where, sizeof where);
    for (size_t i = 0; i < g->n_axes && n < 256; i++)
        names[n++] = g->axes[i].key;
    const char *near = rs_suggest(name, names, n);
    return rs_err_set(err, RS_EINVAL,
                      "%s: [plot] key '%s': '%s' is no column of the statistics file (neither a "
                      "key of the experiment nor a metric)%s%s%s",
                      where, key, name, near ? " (did you mean '" : "", near ? near : "",
                      near ? "'?)" : "");
}

/* Any name is 1: checks an expression's syntax, functions and argument counts alone. */
static int any_name(void *ctx, const char *name, double *out, char *why, size_t n)
{
    (void)ctx, (void)name, (void)why, (void)n;
    *out = 1;
    return 0;
}

/* What needs no results, checked before the first point: x and the filter's keys name
 * possible columns, logx and logy are 0 or 1, every theory expression parses. */
static int check_static(const struct rs_grid *g, const struct plot *p, struct rs_err *err)
{
    if (!known_column(g, p->x))
        return no_column(g, "x", p->x, err);
    for (int i = 0; i < p->base.n; i++)
        if (!known_column(g, p->base.key[i]))
            return no_column(g, "filter", p->base.key[i], err);
    static const char *const flags[] = {"logx", "logy"};
    for (int i = 0; i < 2; i++) {
        const char *v = plot_value(g, flags[i], "0");
        if (strcmp(v, "0") && strcmp(v, "1")) {
            char where[512], full[16];
            snprintf(full, sizeof full, "plot.%s", flags[i]);
            rs_param_where(rs_params_find(&g->extra, full), where, sizeof where);
            return rs_err_set(err, RS_EINVAL, "%s: [plot] key '%s': expected 0 or 1, got '%s'",
                              where, flags[i], v);
        }
    }
    for (int i = 0; i < p->nt; i++) {
        char why[512], where[512];
        double y;
        if (!rs__expr_eval_with(p->theory[i], any_name, NULL, &y, why, sizeof why))
            continue;
        rs_param_where(rs_params_find(&g->extra, p->tkey[i]), where, sizeof where);
        return rs_err_set(err, RS_EINVAL, "%s: [plot]: theory '%s': %s", where, p->theory[i],
                          why);
    }
    return 0;
}

static int resolve(const struct rs_grid *g, struct plot *p, struct rs_err *err)
{
    memset(p, 0, sizeof *p);
    p->x = plot_value(g, "x", NULL);
    p->ny = split_items(plot_value(g, "y", "makespan"), ',', p->y, PLOT_MAX_Y);
    p->ns = split_items(plot_value(g, "series", ""), ',', p->skeys, 4);
    int nf = split_items(plot_value(g, "filter", ""), ';', p->fitems, RS__PLOT_MAX_CONDS - 4);
    for (int i = 0; i < PLOT_MAX_THEORY; i++) { /* theory, theory2 .. and their titles */
        char key[32], tkey[32];
        snprintf(key, sizeof key, i ? "theory%d" : "theory", i + 1);
        snprintf(tkey, sizeof tkey, i ? "theory_title%d" : "theory_title", i + 1);
        const char *e = plot_value(g, key, NULL), *t = plot_value(g, tkey, NULL);
        if (t && !e)
            return rs_err_set(err, RS_EINVAL, "[plot]: key '%s' without '%s'", tkey, key);
        if (!e)
            continue;
        if (strlen(e) >= PLOT_ITEM || (t && strlen(t) >= PLOT_ITEM))
            return rs_err_set(err, RS_EINVAL, "[plot]: key '%s' is too long", key);
        snprintf(p->theory[p->nt], PLOT_ITEM, "%s", e);
        snprintf(p->ttitle[p->nt], PLOT_ITEM, "%s", t ? t : e);
        snprintf(p->tkey[p->nt], sizeof p->tkey[0], "plot.%s", key);
        p->nt++;
    }
    p->ntc = split_items(plot_value(g, "theory_column", ""), ',', p->tcol, PLOT_MAX_THEORY);
    const char *key = plot_value(g, "key", key_places[0]);
    for (int i = 0; key_places[i] && !p->key; i++)
        if (!strcmp(key, key_places[i]))
            p->key = key_places[i];
    if (!p->key) {
        char where[512];
        rs_param_where(rs_params_find(&g->extra, "plot.key"), where, sizeof where);
        return rs_err_set(err, RS_EINVAL,
                          "%s: [plot] key 'key': expected top left, top right, bottom left, "
                          "bottom right or below, got '%s'",
                          where, key);
    }
    for (size_t i = 0; !p->x && i < g->n_axes; i++)
        if (g->axes[i].n > 1)
            p->x = g->axes[i].key;
    if (!p->x)
        return rs_err_set(err, RS_EINVAL, "[plot]: no key x and no swept key to put on the x axis");
    if (!p->ny)
        return rs_err_set(err, RS_EINVAL, "[plot]: key y names no metric");
    int rc = check_metrics(g, "plot.y", p->y, p->ny, err);
    if (rc || (rc = check_metrics(g, "plot.theory_column", p->tcol, p->ntc, err)))
        return rc;
    for (int i = 0; i < nf; i++) {
        char *eq = strchr(p->fitems[i], '=');
        if (!eq)
            return rs_err_set(err, RS_EINVAL, "[plot]: filter item '%s' is not KEY=VALUE",
                              p->fitems[i]);
        *eq = '\0';
        p->base.key[p->base.n] = p->fitems[i];
        p->base.value[p->base.n++] = eq + 1;
    }
    p->nseries = 1;
    for (int i = 0; i < p->ns; i++) {
        if (!(p->sa[i] = find_axis(g, p->skeys[i])))
            return rs_err_set(err, RS_EINVAL, "[plot]: series '%s' is not a key of the experiment",
                              p->skeys[i]);
        p->nseries *= p->sa[i]->n;
        if (p->nseries > PLOT_MAX_SERIES)
            break;
    }
    if (p->nseries > PLOT_MAX_SERIES)
        return rs_err_set(err, RS_EINVAL, "[plot]: %zu series (at most %d)", p->nseries,
                          PLOT_MAX_SERIES);
    return check_static(g, p, err);
}

/* Conditions and title of series k (the last series key varies fastest). */
static void series_conds(const struct plot *p, size_t k, struct rs__plot_conds *cd, char *title,
                         size_t tn)
{
    size_t rest = k, len = 0;
    *cd = p->base;
    for (int i = p->ns - 1; i >= 0; i--) {
        cd->key[cd->n] = p->skeys[i];
        cd->is_series[cd->n] = 1;
        cd->value[cd->n++] = p->sa[i]->values[rest % p->sa[i]->n];
        rest /= p->sa[i]->n;
    }
    title[0] = '\0';
    for (int i = 0; i < p->ns && len < tn; i++)
        len += (size_t)snprintf(title + len, tn - len, "%s%s=%s", i ? ", " : "",
                                cd->key[cd->n - 1 - i], cd->value[cd->n - 1 - i]);
}

/* Deadlocked runs of row r: 0 none, 1 some (the mean is over the others), 2 every run (no
 * value). cd, cu: columns runs_deadlocked and runs_used (-1 in files without them). */
static int dead_kind(const struct rs_table *t, size_t r, long cd, long cu)
{
    if (cd < 0 || cu < 0 || !(rs_table_num(t, r, cd) > 0))
        return 0;
    return rs_table_num(t, r, cu) > 0 ? 1 : 2;
}

/* "$D3 << EOD" ... "EOD" of the series' mean and ci95 of metric y; a point where every run
 * deadlocked is a blank line (a gap in the line), never a value. *some, *every: the number
 * of points with some / every run deadlocked; yrange[0..1] widened to the values drawn. */
static int data_block(struct rs_buf *b, const char *name, const struct rs__plot_series *s,
                      long cy, long cc, long cd, long cu, size_t *some, size_t *every,
                      double yrange[2])
{
    int rc = rs_buf_printf(b, "$%s << EOD\n", name);
    *some = *every = 0;
    for (size_t i = 0; i < s->n && !rc; i++) {
        double ci = rs_table_num(s->t, s->rows[i], cc);
        int dead = dead_kind(s->t, s->rows[i], cd, cu);
        *some += dead == 1;
        *every += dead == 2;
        double y = rs_table_num(s->t, s->rows[i], cy);
        if (dead != 2 && y == y) { /* the measured range, error bars included */
            double lo = y - (ci == ci ? ci : 0), hi = y + (ci == ci ? ci : 0);
            yrange[0] = lo < yrange[0] ? lo : yrange[0];
            yrange[1] = hi > yrange[1] ? hi : yrange[1];
        }
        rc = dead == 2 ? rs_buf_puts(b, "\n")
                       : rs_buf_printf(b, "%.10g %.10g %.10g\n",
                                       rs_table_num(s->t, s->rows[i], s->cx),
                                       rs_table_num(s->t, s->rows[i], cy), ci == ci ? ci : 0.0);
    }
    return rc ? rc : rs_buf_puts(b, "EOD\n");
}

/* "$name << EOD" of the series' points with deadlocked runs of kind (1: at their mean, 2:
 * at height 0.03 of the y2 axis, i.e. on the x axis). */
static int dead_block(struct rs_buf *b, const char *name, const struct rs__plot_series *s,
                      long cy, long cd, long cu, int kind)
{
    int rc = rs_buf_printf(b, "$%s << EOD\n", name);
    for (size_t i = 0; i < s->n && !rc; i++)
        if (dead_kind(s->t, s->rows[i], cd, cu) == kind)
            rc = rs_buf_printf(b, "%.10g %.10g\n", rs_table_num(s->t, s->rows[i], s->cx),
                               kind == 1 ? rs_table_num(s->t, s->rows[i], cy) : 0.03);
    return rc ? rc : rs_buf_puts(b, "EOD\n");
}

/* One plotted line: its data block, style and title. */
struct line {
    char block[48];
    char style[64]; /* using ... with ... */
    char look[64];  /* colour, point and dash type, after the title */
    char title[1100];
};

static int write_script(const struct rs_grid *g, const char *csv, const char *out,
                        const char *term, struct rs_buf *b, struct rs_err *err)
{
    struct plot p;
    struct rs_table t;
    int rc = resolve(g, &p, err);
    rc = rc ? rc : rs_table_read(&t, csv, err);
    if (rc)
        return rc;
    long cx = rs_table_col(&t, p.x), cy[PLOT_MAX_Y], cc[PLOT_MAX_Y], ctc[PLOT_MAX_THEORY];
    long ccond[RS__PLOT_MAX_CONDS];
    const char *missing = cx < 0 ? p.x : NULL;
    char names[PLOT_MAX_Y][2][PLOT_ITEM + 8];
    for (int i = 0; i < p.ny && !missing; i++) {
        snprintf(names[i][0], sizeof names[i][0], "%s_mean", p.y[i]);
        snprintf(names[i][1], sizeof names[i][1], "%s_ci95", p.y[i]);
        cc[i] = rs_table_col(&t, names[i][1]);
        if ((cy[i] = rs_table_col(&t, names[i][0])) < 0)
            missing = names[i][0];
    }
    for (int i = 0; i < p.ntc && !missing; i++)
        if ((ctc[i] = rs_table_col(&t, p.tcol[i])) < 0)
            missing = p.tcol[i];
    struct rs__plot_conds probe;
    char title[512];
    series_conds(&p, 0, &probe, title, sizeof title);
    for (int i = 0; i < probe.n && !missing; i++)
        if ((ccond[i] = rs_table_col(&t, probe.key[i])) < 0)
            missing = probe.key[i];
    if (missing) {
        rc = rs_err_set(err, RS_EINVAL, "[plot]: '%s' has no column '%s'", csv, missing);
        rs_table_free(&t);
        return rc;
    }
    size_t maxlines = p.nseries * (size_t)(3 * p.ny + p.nt + p.ntc);
    long cdead = rs_table_col(&t, "runs_deadlocked"), cused = rs_table_col(&t, "runs_used");
    int y2 = 0; /* points where every run deadlocked are marked on the x axis (y2 axis) */
    struct xrow *tmp = rs_malloc((t.nrows + 1) * sizeof *tmp);
    size_t *rows = rs_malloc((t.nrows + 1) * sizeof *rows);
    struct line *lines = rs_calloc(maxlines + 1, sizeof *lines);
    size_t nl = 0;
    int logx = !strcmp(plot_value(g, "logx", "0"), "1");
    int shared_theory[PLOT_MAX_THEORY] = {0}; /* drawn once: independent of the series */
    /* One x value in every series (a single-x experiment): each series is drawn as points at
     * its own place on the x axis, labelled with its title, instead of lines over an empty
     * x range. */
    int single_x = tmp && rows && lines;
    double x0 = 0;
    int have_x0 = 0;
    for (size_t k = 0; k < p.nseries && single_x; k++) {
        struct rs__plot_conds cd;
        series_conds(&p, k, &cd, title, sizeof title);
        size_t n = series_rows(&t, cx, ccond, &cd, tmp, rows);
        for (size_t r = 0; r < n && single_x; r++) {
            double x = rs_table_num(&t, rows[r], cx);
            single_x = !have_x0 || x == x0;
            x0 = have_x0 ? x0 : x;
            have_x0 = 1;
        }
    }
    single_x = single_x && have_x0;
    uint64_t used_min = UINT64_MAX, used_max = 0; /* runs_used over the plotted points */
    double yrange[2] = {HUGE_VAL, -HUGE_VAL};     /* measured values, error bars included */
    struct rs_buf xtics; /* single x: "set xtics (...": the series' places */
    size_t tic_max = 0;  /* its longest label */
    rs_buf_init(&xtics);
    rc = tmp && rows && lines ? rs_buf_printf(b, "# generated by routesim sweep from %s: gnuplot "
                                                 "%s\n",
                                              csv, "THIS_FILE")
                              : RS_ENOMEM;
    for (size_t k = 0; k < p.nseries && !rc; k++) {
        struct rs__plot_conds cd;
        series_conds(&p, k, &cd, title, sizeof title);
        struct rs__plot_series s = {&t, &cd, rows, 0, cx, p.x};
        s.n = series_rows(&t, cx, ccond, &cd, tmp, rows);
        int colour = (int)k + 1;
        for (size_t r = 0; r < s.n; r++) {
            double u = cused >= 0 ? rs_table_num(&t, rows[r], cused) : (double)g->runs;
            if (u > 0 && u == u) {
                used_min = (uint64_t)u < used_min ? (uint64_t)u : used_min;
                used_max = (uint64_t)u > used_max ? (uint64_t)u : used_max;
            }
        }
        char at[32] = "1"; /* the x of every line: column 1, or the series' place */
        if (single_x) {
            /* the tic is the series' values (their keys are in the x label), in key order */
            char tic[512] = "";
            size_t tl = 0;
            for (int i = 0; i < p.ns && tl < sizeof tic; i++)
                tl += (size_t)snprintf(tic + tl, sizeof tic - tl, "%s%s", i ? ", " : "",
                                       cd.value[cd.n - 1 - i]);
            tic_max = tl > tic_max ? tl : tic_max;
            snprintf(at, sizeof at, "(%zu)", k + 1);
            rc = rs_buf_puts(&xtics, k ? ", " : "set xtics (") ||
                 gp_string(&xtics, p.ns ? tic : p.x) || rs_buf_printf(&xtics, " %zu", k + 1);
            rc = rc ? RS_ENOMEM : 0;
        }
        for (int i = 0; i < p.ny && !rc; i++) { /* measurements: mean and 95% CI */
            struct line *l = &lines[nl++];
            snprintf(l->block, sizeof l->block, "D%zu_%d", k, i);
            if (single_x)
                snprintf(l->style, sizeof l->style, "%s:2%s", at,
                         g->runs > 1 ? ":3 with yerrorbars" : " with points");
            else
                snprintf(l->style, sizeof l->style, "%s",
                         g->runs > 1 ? "1:2:3 with yerrorlines" : "1:2 with linespoints");
            int lt = p.ny > 1 ? i * (int)p.nseries + colour : colour;
            snprintf(l->look, sizeof l->look, "lc %d pt %d", lt, lt);
            if (p.ny > 1 && p.ns)
                snprintf(l->title, sizeof l->title, "%s, %s", p.y[i], title);
            else
                snprintf(l->title, sizeof l->title, "%s", p.ns ? title : p.y[i]);
            size_t some, every;
            rc = data_block(b, l->block, &s, cy[i], cc[i], cdead, cused, &some, &every,
                            yrange);
            char base[800];
            snprintf(base, sizeof base, "%.780s", l->title);
            for (int kind = 1; kind <= 2 && !rc; kind++) { /* deadlocked points, marked */
                if (!(kind == 1 ? some : every))
                    continue;
                struct line *m = &lines[nl++];
                snprintf(m->block, sizeof m->block, "%s%zu_%d", kind == 1 ? "P" : "X", k, i);
                snprintf(m->style, sizeof m->style, "%s:2 %swith points", at,
                         kind == 1 ? "" : "axes x1y2 ");
                snprintf(m->look, sizeof m->look, "lc %d pt %d ps 2", lt, kind == 1 ? 6 : 2);
                snprintf(m->title, sizeof m->title, "%s: %s", base,
                         kind == 1 ? "some runs deadlocked (mean of the others)"
                                   : "every run deadlocked (no value; marked on the x axis)");
                y2 |= kind == 2;
                rc = dead_block(b, m->block, &s, cy[i], cdead, cused, kind);
            }
        }
        for (int i = 0; i < p.nt && !rc; i++) { /* theory expressions */
            if (shared_theory[i])
                continue;
            int uses = 0;
            char block[48];
            snprintf(block, sizeof block, "T%zu_%d", k, i);
            rc = rs_buf_printf(b, "$%s << EOD\n", block);
            rc = rc ? RS_ENOMEM
                    : rs__plot_theory(b, g, &s, p.theory[i], logx, &uses, err);
            if (rc == RS_EINVAL) { /* name the file and line of the key */
                char where[512], msg[sizeof err->msg];
                rs_param_where(rs_params_find(&g->extra, p.tkey[i]), where, sizeof where);
                snprintf(msg, sizeof msg, "%s", err->msg);
                rs_err_set(err, rc, "%s: %s", where, msg);
            }
            if (rc)
                break;
            rc = rs_buf_puts(b, "EOD\n") ? RS_ENOMEM : 0;
            struct line *l = &lines[nl++];
            snprintf(l->block, sizeof l->block, "%s", block);
            const char *name = p.ttitle[i];
            shared_theory[i] = (!uses && !single_x) || p.nseries == 1;
            snprintf(l->style, sizeof l->style, "%s:2 with %s", at, single_x ? "points" : "lines");
            if (shared_theory[i]) {
                snprintf(l->look, sizeof l->look, "lc rgb \"black\" dt %d lw 2", 2 + i);
                snprintf(l->title, sizeof l->title, "theory: %s", name);
            } else {
                snprintf(l->look, sizeof l->look, "lc %d dt %d lw 2", colour, 2 + i);
                snprintf(l->title, sizeof l->title, "theory: %s, %s", name, title);
            }
        }
        for (int i = 0; i < p.ntc && !rc; i++) { /* theory columns */
            struct line *l = &lines[nl++];
            snprintf(l->block, sizeof l->block, "C%zu_%d", k, i);
            snprintf(l->style, sizeof l->style, "%s:2 with %s", at, single_x ? "points" : "lines");
            snprintf(l->look, sizeof l->look, "lc %d dt %d lw 2", colour, 2 + p.nt + i);
            if (p.ns)
                snprintf(l->title, sizeof l->title, "%s, %s", p.tcol[i], title);
            else
                snprintf(l->title, sizeof l->title, "%s", p.tcol[i]);
            rc = rs_buf_printf(b, "$%s << EOD\n", l->block);
            for (size_t r = 0; r < s.n && !rc; r++) {
                double v = rs_table_num(&t, rows[r], ctc[i]);
                rc = v == v ? rs_buf_printf(b, "%.10g %.10g\n", rs_table_num(&t, rows[r], cx), v)
                            : rs_buf_puts(b, "\n");
            }
            rc = rc ? rc : rs_buf_puts(b, "EOD\n");
        }
    }
    char ytext[PLOT_MAX_Y * (PLOT_ITEM + 2)] = "", ytitle[sizeof ytext + 64];
    size_t len = 0;
    for (int i = 0; i < p.ny; i++)
        len += (size_t)snprintf(ytext + len, sizeof ytext - len, "%s%s", i ? ", " : "", p.y[i]);
    if (g->runs > 1 && used_min == UINT64_MAX) /* no point has a value */
        snprintf(ytitle, sizeof ytitle, "%s (no run of %u finished)", ytext, g->runs);
    else if (g->runs > 1 && used_min == g->runs)
        snprintf(ytitle, sizeof ytitle, "%s (mean and 95%% CI over %u runs)", ytext, g->runs);
    else if (g->runs > 1 && used_min == used_max) /* deadlocked runs were left out */
        snprintf(ytitle, sizeof ytitle, "%s (mean and 95%% CI over %llu of %u runs)", ytext,
                 (unsigned long long)used_min, g->runs);
    else if (g->runs > 1)
        snprintf(ytitle, sizeof ytitle, "%s (mean and 95%% CI over %llu-%llu of %u runs)", ytext,
                 (unsigned long long)used_min, (unsigned long long)used_max, g->runs);
    else
        snprintf(ytitle, sizeof ytitle, "%s (1 run)", ytext);
    if (!rc) {
        /* rs_plot_sweep renders into a temporary file named by rs_output; by hand the
         * script writes out itself */
        rc |= rs_buf_printf(b, "set terminal %s noenhanced\nset output "
                               "(exists(\"rs_output\") ? rs_output : ", term);
        rc |= gp_string(b, out);
        rc |= rs_buf_printf(b, ")\nset key %s\nset grid\nset offsets graph 0.03, graph 0.03, 0, "
                               "0\nset title ",
                            p.key);
        rc |= gp_string(b, plot_value(g, "title", ytitle));
        rc |= rs_buf_puts(b, "\nset xlabel ");
        if (single_x) { /* the series on the x axis, at the one x value */
            char xl[PLOT_ITEM * 2 + 64], x0text[32];
            snprintf(x0text, sizeof x0text, "%.10g", x0);
            snprintf(xl, sizeof xl, "%s%s%s = %s%s", p.ns ? plot_value(g, "series", "") : "",
                     p.ns ? " (" : "", plot_value(g, "xlabel", p.x), x0text, p.ns ? ")" : "");
            rc |= gp_string(b, xl);
            rc |= rs_buf_printf(b, "\nset xrange [0.5:%zu.5]\n%s)%s", p.nseries,
                                xtics.data ? xtics.data : "",
                                /* 900 px wide, about 7 px a character */
                                tic_max * 7 * p.nseries > 700 ? " rotate by -25" : "");
        } else {
            rc |= gp_string(b, plot_value(g, "xlabel", p.x));
        }
        rc |= rs_buf_puts(b, "\nset ylabel ");
        rc |= gp_string(b, plot_value(g, "ylabel", ytext));
        rc |= rs_buf_puts(b, "\n");
        if (!strcmp(plot_value(g, "logx", "0"), "1") && !single_x)
            rc |= rs_buf_puts(b, "set logscale x 2\nset format x \"2^%L\"\n");
        int logy = !strcmp(plot_value(g, "logy", "0"), "1");
        if (logy)
            rc |= rs_buf_puts(b, "set logscale y\n");
        /* every measured value the same and nothing else drawn: a range around it, so that
         * gnuplot has no empty y range to warn about */
        if (yrange[0] == yrange[1] && !p.nt && !p.ntc) {
            double y = yrange[0], d = y ? fabs(y) / 2 : 1;
            if (logy && y > 0)
                rc |= rs_buf_printf(b, "set yrange [%.10g:%.10g]\n", y / 2, y * 2);
            else
                rc |= rs_buf_printf(b, "set yrange [%.10g:%.10g]\n", y - d, y + d);
        }
        if (y2)
            rc |= rs_buf_puts(b, "set y2range [0:1]\nunset y2tics\n");
        rc |= rs_buf_puts(b, "plot ");
        for (size_t i = 0; i < nl; i++) {
            rc |= rs_buf_printf(b, "%s$%s using %s title ", i ? ", \\\n     " : "",
                                lines[i].block, lines[i].style);
            rc |= gp_string(b, lines[i].title);
            rc |= rs_buf_printf(b, " %s", lines[i].look);
        }
        rc |= rs_buf_puts(b, "\n");
        rc = rc ? RS_ENOMEM : 0;
    }
    if (rc == RS_ENOMEM)
        rs_err_set(err, RS_ENOMEM, "out of memory");
    rs_buf_free(&xtics);
    rs_free(tmp);
    rs_free(rows);
    rs_free(lines);
    rs_table_free(&t);
    return rc;
}

/* Every key of the [plot] section must be one of plot_keys. */
static int check_keys(const struct rs_grid *g, struct rs_err *err)
{
    for (size_t i = 0; i < g->extra.n; i++) {
        const char *key = g->extra.v[i].key;
        if (strncmp(key, "plot.", 5))
            continue;
        int known = 0;
        for (int k = 0; plot_keys[k]; k++)
            known |= !strcmp(key + 5, plot_keys[k]);
        if (!known) {
            char where[512];
            rs_param_where(&g->extra.v[i], where, sizeof where);
            const char *near = rs_suggest(key + 5, plot_keys,
                                          (int)(sizeof plot_keys / sizeof *plot_keys) - 1);
            return rs_err_set(err, RS_EINVAL, "%s: unknown [plot] key '%s'%s%s%s", where, key + 5,
                              near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        }
    }
    return 0;
}

int rs_plot_check(const struct rs_grid *g, struct rs_err *err)
{
    struct plot p;
    RS_ASSERT(g != NULL);
    int rc = check_keys(g, err);
    return rc ? rc : resolve(g, &p, err);
}

int rs_plot_script_path(const char *out_path, char *script, size_t n, struct rs_err *err)
{
    const char *dot = strrchr(out_path, '.');
    if (!dot || (strcmp(dot, ".png") && strcmp(dot, ".svg")))
        return rs_err_set(err, RS_EINVAL, "--plot: expected a file ending in .png or .svg, got '%s'",
                          out_path);
    if (n)
        snprintf(script, n, "%.*s.gp", (int)(dot - out_path), out_path);
    return 0;
}

/* Run gnuplot on script; 0 or RS_EIO naming the script, gnuplot's exit status and the
 * last line it wrote on its standard error. With tmp set, the image goes to tmp (gnuplot
 * -e 'rs_output="TMP"'). gnuplot's standard error is captured, never passed to ours: its
 * warnings about a script that rendered ("empty x range", font substitutions) are noise
 * to the user of `sweep` or `reproduce`; they are reported only when gnuplot fails. */
static int run_gnuplot(const char *script, const char *tmp, struct rs_err *err)
{
    struct rs_buf e;
    rs_buf_init(&e);
    if (tmp && (rs_buf_puts(&e, "rs_output=") || gp_string(&e, tmp))) {
        rs_buf_free(&e);
        return rs_err_set(err, RS_ENOMEM, "cannot run gnuplot: out of memory");
    }
    char *with_tmp[] = {"gnuplot", "-e", e.data, (char *)script, NULL};
    char *plain[] = {"gnuplot", (char *)script, NULL};
    int rc = rs__spawn(tmp ? with_tmp : plain, NULL, 0, script, NULL, err);
    rs_buf_free(&e);
    return rc;
}

/* rs__render_to's maker: gnuplot writes the image to target, or where the script says. */
static int make_plot(void *script, const char *target, struct rs_err *err)
{
    return run_gnuplot(script, target, err);
}

/* Render script's image to out_path as every output is written (docs/cli.md): a regular
 * file (or a new path) through a temporary file in its folder, given the existing file's
 * mode, then renamed over it, so a failed or interrupted gnuplot leaves the old image
 * whole; a device or FIFO written through. 0 or RS_EIO / RS_EWRITE. */
static int render(const char *script, const char *out_path, struct rs_err *err)
{
    return rs__render_to(out_path, make_plot, (void *)script, err);
}

int rs_plot_sweep(const struct rs_grid *g, const char *csv_path, const char *out_path,
                  char *notice, size_t n, struct rs_err *err)
{
    RS_ASSERT(g != NULL && csv_path != NULL && out_path != NULL && (notice != NULL || n == 0));
    char script[4096];
    int rc = rs_plot_script_path(out_path, script, sizeof script, err);
    if (rc)
        return rc;
    const char *term = !strcmp(strrchr(out_path, '.'), ".png") ? "pngcairo size 900,600"
                                                               : "svg size 900,600";
    if ((rc = check_keys(g, err)))
        return rc;
    struct rs_buf b;
    rs_buf_init(&b);
    rc = write_script(g, csv_path, out_path, term, &b, err);
    if (!rc) {
        char *marker = strstr(b.data, "THIS_FILE");
        struct rs_buf fixed;
        rs_buf_init(&fixed);
        rc = rs_buf_append(&fixed, b.data, (size_t)(marker - b.data)) ||
             rs_buf_puts(&fixed, script) || rs_buf_puts(&fixed, marker + 9);
        rc = rc ? rs_err_set(err, RS_ENOMEM, "out of memory")
                : rs_buf_write_file(&fixed, script, err);
        rs_buf_free(&fixed);
    }
    rs_buf_free(&b);
    if (rc)
        return rc;
    int have = gnuplot_available();
    if (have < 0)
        return rs_err_set(err, have, "cannot look for gnuplot: out of memory");
    if (!have) {
        snprintf(notice, n, "gnuplot is not installed: wrote %s and %s; render with `gnuplot %s`",
                 csv_path, script, script);
        return 0;
    }
    if ((rc = render(script, out_path, err)))
        return rc;
    if (notice && n)
        notice[0] = '\0';
    return 0;
}
