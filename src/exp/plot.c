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

extern char **environ;

static const char *const plot_keys[] = {"x", "y", "series", "logx", "logy",
                                        "title", "xlabel", "ylabel", NULL};

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

/* One CSV line split into cells (RFC 4180 quotes undone), in place. */
static size_t split_csv(char *line, char **cells, size_t max)
{
    size_t n = 0;
    char *r = line, *w = line;
    while (n < max) {
        cells[n++] = w;
        int quoted = *r == '"';
        if (quoted)
            r++;
        for (;;) {
            if (quoted && *r == '"' && r[1] == '"') {
                *w++ = '"';
                r += 2;
            } else if (quoted && *r == '"') {
                quoted = 0;
                r++;
            } else if (!*r || *r == '\n' || (!quoted && *r == ',')) {
                break;
            } else {
                *w++ = *r++;
            }
        }
        int more = *r == ',';
        *w++ = '\0';
        if (!more)
            break;
        r++;
    }
    return n;
}

static long column_of(char **cells, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(cells[i], name))
            return (long)i;
    return -1;
}

struct point_xy {
    double x, y, ci;
};

static int cmp_x(const void *a, const void *b)
{
    double p = ((const struct point_xy *)a)->x, q = ((const struct point_xy *)b)->x;
    return (p > q) - (p < q);
}

/* Append one datablock $S<k> of (x, mean, ci95) rows of csv whose series cell equals
 * value (all rows when series is NULL), sorted by x. */
static int datablock(struct rs_buf *b, const char *csv, size_t k, const char *x, const char *y,
                     const char *series, const char *value, struct rs_err *err)
{
    FILE *f = fopen(csv, "r");
    if (!f)
        return rs_err_set(err, RS_EIO, "cannot open '%s': %s", csv, strerror(errno));
    char line[65536], *cells[4096], ymean[300], yci[300];
    snprintf(ymean, sizeof ymean, "%s_mean", y);
    snprintf(yci, sizeof yci, "%s_ci95", y);
    long cx = -1, cy = -1, cc = -1, cs = -1;
    struct point_xy *pts = NULL;
    size_t n = 0, cap = 0;
    int first = 1, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        size_t nc = split_csv(line, cells, 4096);
        if (first) {
            first = 0;
            cx = column_of(cells, nc, x);
            cy = column_of(cells, nc, ymean);
            cc = column_of(cells, nc, yci);
            cs = series ? column_of(cells, nc, series) : -1;
            if (cx < 0 || cy < 0 || (series && cs < 0))
                rc = rs_err_set(err, RS_EINVAL, "[plot]: '%s' has no column '%s'", csv,
                                cx < 0 ? x : cy < 0 ? ymean : series);
            continue;
        }
        if ((long)nc <= cx || (long)nc <= cy || (series && (long)nc <= cs) ||
            (series && strcmp(cells[cs], value)))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            struct point_xy *np = realloc(pts, cap * sizeof *np);
            if (!np) {
                rc = rs_err_set(err, RS_ENOMEM, "out of memory");
                break;
            }
            pts = np;
        }
        pts[n].x = strtod(cells[cx], NULL);
        pts[n].y = strtod(cells[cy], NULL);
        pts[n].ci = cc >= 0 && (long)nc > cc ? strtod(cells[cc], NULL) : 0;
        n++;
    }
    fclose(f);
    if (!rc) {
        qsort(pts, n, sizeof *pts, cmp_x);
        rc = rs_buf_printf(b, "$S%zu << EOD\n", k);
        for (size_t i = 0; i < n && !rc; i++)
            rc = rs_buf_printf(b, "%.10g %.10g %.10g\n", pts[i].x, pts[i].y,
                               pts[i].ci == pts[i].ci ? pts[i].ci : 0.0);
        rc = rc ? rs_err_set(err, RS_ENOMEM, "out of memory") : rs_buf_puts(b, "EOD\n");
    }
    free(pts);
    return rc;
}

static int write_script(const struct rs_grid *g, const char *csv, const char *out,
                        const char *term, struct rs_buf *b, struct rs_err *err)
{
    const char *x = plot_value(g, "x", NULL), *y = plot_value(g, "y", "makespan");
    const char *series = plot_value(g, "series", NULL);
    for (size_t i = 0; !x && i < g->n_axes; i++)
        if (g->axes[i].n > 1)
            x = g->axes[i].key;
    if (!x)
        return rs_err_set(err, RS_EINVAL, "[plot]: no key x and no swept key to put on the x axis");
    const struct rs_axis *sa = series ? find_axis(g, series) : NULL;
    if (series && !sa)
        return rs_err_set(err, RS_EINVAL, "[plot]: series '%s' is not a key of the experiment",
                          series);
    size_t nseries = sa ? sa->n : 1;
    int rc = rs_buf_printf(b, "# generated by routesim sweep from %s: gnuplot %s\n", csv,
                           "THIS_FILE");
    for (size_t k = 0; k < nseries && !rc; k++)
        rc = datablock(b, csv, k, x, y, series, sa ? sa->values[k] : NULL, err);
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
        char title[256];
        if (sa)
            snprintf(title, sizeof title, "%s=%s", series, sa->values[k]);
        else
            snprintf(title, sizeof title, "%s", y);
        rc |= rs_buf_printf(b, "%s$S%zu using %s title ", k ? ", \\\n     " : "", k, style);
        rc |= gp_string(b, title);
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
            const char *near = rs_suggest(key + 5, plot_keys, 8);
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
