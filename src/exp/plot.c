/* gnuplot scripts for sweep results (see plot.h). */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "routesim/buf.h"
#include "routesim/plot.h"
#include "routesim/table.h"

extern char **environ;

static const char *const plot_keys[] = {"x",     "y",      "series", "filter", "logx",
                                        "logy",  "title",  "xlabel", "ylabel", NULL};

#define PLOT_MAX_CONDS 8

/* Column conditions a row must meet: the plot's filter plus one series combination. */
struct conds {
    const char *key[PLOT_MAX_CONDS];
    const char *value[PLOT_MAX_CONDS];
    int n;
};

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

static int gnuplot_available(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    char *copy = strdup(path), *save = NULL;
    int found = 0;
    for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
        char full[4096];
        snprintf(full, sizeof full, "%s/gnuplot", dir);
        found = access(full, X_OK) == 0;
    }
    free(copy);
    return found;
}

struct point_xy {
    double x, y, ci;
};

static int cmp_x(const void *a, const void *b)
{
    double p = ((const struct point_xy *)a)->x, q = ((const struct point_xy *)b)->x;
    return (p > q) - (p < q);
}

/* Append one datablock $S<k> of (x, mean, ci95) rows of csv meeting every condition,
 * sorted by x. */
static int datablock(struct rs_buf *b, const char *csv, size_t k, const char *x, const char *y,
                     const struct conds *cd, struct rs_err *err)
{
    struct rs_table t;
    char ymean[300], yci[300];
    long cols[PLOT_MAX_CONDS];
    int rc = rs_table_read(&t, csv, err);
    if (rc)
        return rc;
    snprintf(ymean, sizeof ymean, "%s_mean", y);
    snprintf(yci, sizeof yci, "%s_ci95", y);
    long cx = rs_table_col(&t, x), cy = rs_table_col(&t, ymean), cc = rs_table_col(&t, yci);
    const char *missing = cx < 0 ? x : cy < 0 ? ymean : NULL;
    for (int i = 0; i < cd->n && !missing; i++)
        if ((cols[i] = rs_table_col(&t, cd->key[i])) < 0)
            missing = cd->key[i];
    if (missing) {
        rc = rs_err_set(err, RS_EINVAL, "[plot]: '%s' has no column '%s'", csv, missing);
        rs_table_free(&t);
        return rc;
    }
    struct point_xy *pts = calloc(t.nrows + 1, sizeof *pts);
    size_t n = 0;
    for (size_t r = 0; pts && r < t.nrows; r++) {
        int ok = 1;
        for (int i = 0; i < cd->n && ok; i++)
            ok = !strcmp(t.rows[r][cols[i]], cd->value[i]);
        if (!ok)
            continue;
        pts[n].x = rs_table_num(&t, r, cx);
        pts[n].y = rs_table_num(&t, r, cy);
        pts[n].ci = rs_table_num(&t, r, cc);
        n++;
    }
    rs_table_free(&t);
    if (!pts)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    qsort(pts, n, sizeof *pts, cmp_x);
    rc = rs_buf_printf(b, "$S%zu << EOD\n", k);
    for (size_t i = 0; i < n && !rc; i++)
        rc = rs_buf_printf(b, "%.10g %.10g %.10g\n", pts[i].x, pts[i].y,
                           pts[i].ci == pts[i].ci ? pts[i].ci : 0.0);
    rc = rc ? rs_err_set(err, RS_ENOMEM, "out of memory") : rs_buf_puts(b, "EOD\n");
    free(pts);
    return rc;
}

/* Split text at sep into at most max trimmed items of buf (each < 128 bytes). */
static int split_items(const char *text, char sep, char items[][128], int max)
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
        if (len && len < 128) {
            memcpy(items[n], text, len);
            items[n++][len] = '\0';
        }
        text = e ? e + 1 : NULL;
    }
    return n;
}

static int write_script(const struct rs_grid *g, const char *csv, const char *out,
                        const char *term, struct rs_buf *b, struct rs_err *err)
{
    const char *x = plot_value(g, "x", NULL), *y = plot_value(g, "y", "makespan");
    char skeys[PLOT_MAX_CONDS][128], fitems[PLOT_MAX_CONDS][128];
    const struct rs_axis *sa[PLOT_MAX_CONDS];
    int ns = split_items(plot_value(g, "series", ""), ',', skeys, 4);
    int nf = split_items(plot_value(g, "filter", ""), ';', fitems, PLOT_MAX_CONDS - 4);
    struct conds base = {{0}, {0}, 0};
    for (size_t i = 0; !x && i < g->n_axes; i++)
        if (g->axes[i].n > 1)
            x = g->axes[i].key;
    if (!x)
        return rs_err_set(err, RS_EINVAL, "[plot]: no key x and no swept key to put on the x axis");
    for (int i = 0; i < nf; i++) {
        char *eq = strchr(fitems[i], '=');
        if (!eq)
            return rs_err_set(err, RS_EINVAL, "[plot]: filter item '%s' is not KEY=VALUE",
                              fitems[i]);
        *eq = '\0';
        base.key[base.n] = fitems[i];
        base.value[base.n++] = eq + 1;
    }
    size_t nseries = 1;
    for (int i = 0; i < ns; i++) {
        if (!(sa[i] = find_axis(g, skeys[i])))
            return rs_err_set(err, RS_EINVAL, "[plot]: series '%s' is not a key of the experiment",
                              skeys[i]);
        nseries *= sa[i]->n;
    }
    int rc = rs_buf_printf(b, "# generated by routesim sweep from %s: gnuplot %s\n", csv,
                           "THIS_FILE");
    char titles[64][256];
    if (nseries > 64)
        return rs_err_set(err, RS_EINVAL, "[plot]: %zu series (at most 64)", nseries);
    for (size_t k = 0; k < nseries && !rc; k++) { /* one block per combination of series */
        struct conds cd = base;
        size_t rest = k, len = 0;
        titles[k][0] = '\0';
        for (int i = ns - 1; i >= 0; i--) {
            cd.key[cd.n] = skeys[i];
            cd.value[cd.n++] = sa[i]->values[rest % sa[i]->n];
            rest /= sa[i]->n;
        }
        for (int i = 0; i < ns; i++)
            len += (size_t)snprintf(titles[k] + len, sizeof titles[k] - len, "%s%s=%s",
                                    i ? ", " : "", cd.key[cd.n - 1 - i], cd.value[cd.n - 1 - i]);
        if (!ns)
            snprintf(titles[k], sizeof titles[k], "%s", y);
        rc = datablock(b, csv, k, x, y, &cd, err);
    }
    if (rc)
        return rc;
    char ytitle[512];
    if (g->runs > 1)
        snprintf(ytitle, sizeof ytitle, "%s (mean and 95%% CI over %u runs)", y, g->runs);
    else
        snprintf(ytitle, sizeof ytitle, "%s (1 run)", y);
    rc |= rs_buf_printf(b, "set terminal %s noenhanced\nset output ", term);
    rc |= gp_string(b, out);
    rc |= rs_buf_puts(b, "\nset key top left\nset grid\nset title ");
    rc |= gp_string(b, plot_value(g, "title", ytitle));
    rc |= rs_buf_puts(b, "\nset xlabel ");
    rc |= gp_string(b, plot_value(g, "xlabel", x));
    rc |= rs_buf_puts(b, "\nset ylabel ");
    rc |= gp_string(b, plot_value(g, "ylabel", y));
    rc |= rs_buf_puts(b, "\n");
    if (!strcmp(plot_value(g, "logx", "0"), "1"))
        rc |= rs_buf_puts(b, "set logscale x 2\n");
    if (!strcmp(plot_value(g, "logy", "0"), "1"))
        rc |= rs_buf_puts(b, "set logscale y\n");
    const char *style = g->runs > 1 ? "1:2:3 with yerrorlines" : "1:2 with linespoints";
    rc |= rs_buf_puts(b, "plot ");
    for (size_t k = 0; k < nseries; k++) {
        rc |= rs_buf_printf(b, "%s$S%zu using %s title ", k ? ", \\\n     " : "", k, style);
        rc |= gp_string(b, titles[k]);
    }
    rc |= rs_buf_puts(b, "\n");
    return rc ? rs_err_set(err, RS_ENOMEM, "out of memory") : 0;
}

int rs_plot_sweep(const struct rs_grid *g, const char *csv_path, const char *out_path,
                  char *notice, size_t n, struct rs_err *err)
{
    const char *dot = strrchr(out_path, '.');
    const char *term;
    if (dot && !strcmp(dot, ".png"))
        term = "pngcairo size 900,600";
    else if (dot && !strcmp(dot, ".svg"))
        term = "svg size 900,600";
    else
        return rs_err_set(err, RS_EINVAL, "--plot: expected a file ending in .png or .svg, got '%s'",
                          out_path);
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
            const char *near = rs_suggest(key + 5, plot_keys, 9);
            return rs_err_set(err, RS_EINVAL, "%s: unknown [plot] key '%s'%s%s%s", where, key + 5,
                              near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        }
    }
    char script[4096];
    snprintf(script, sizeof script, "%.*s.gp", (int)(dot - out_path), out_path);
    struct rs_buf b;
    rs_buf_init(&b);
    int rc = write_script(g, csv_path, out_path, term, &b, err);
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
    if (!gnuplot_available()) {
        snprintf(notice, n, "gnuplot is not installed: wrote %s and %s; render with `gnuplot %s`",
                 csv_path, script, script);
        return 0;
    }
    pid_t pid;
    char *argv[] = {"gnuplot", script, NULL};
    if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ))
        return rs_err_set(err, RS_EIO, "cannot run gnuplot: %s", strerror(errno));
    int st;
    if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
        return rs_err_set(err, RS_EIO, "gnuplot failed on %s (exit status %d)", script,
                          WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    if (notice && n)
        notice[0] = '\0';
    return 0;
}
