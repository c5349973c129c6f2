/* Sweep runner: validation of every point, parallel runs (OpenMP) with per-point seeds,
 * ordered appending of statistics rows, resume and interruption (see sweep.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "routesim/outpath.h"
#include "routesim/run.h"
#include "routesim/stats.h"
#include "routesim/sweep.h"

/* Everything shared by the workers, guarded by the critical section where noted. */
struct sweep {
    const struct rs_grid *g;
    const struct rs_sweep_opts *o;
    char **pnames;            /* union of parameter names, first-appearance order */
    size_t n_pnames;
    uint8_t *skip;            /* [n_points] already in the file */
    uint32_t *done;           /* [n_points] finished runs (critical) */
    struct rs_record *runs;   /* [n_points * runs] records of finished runs */
    uint64_t next;            /* next point to write (critical) */
    uint64_t written;
    int fd, fd_runs;          /* -1 until the first row is written (nothing created before) */
    int append, append_runs;  /* open them to append (resume) rather than truncate */
    int header_written, runs_header_written;
    struct rs_buf expected_header; /* header already in the file when resuming */
    char **mnames;            /* metric names, from the first point written */
    size_t n_mnames;
    _Atomic int failed;       /* an error stops every worker (read without the lock) */
    struct rs_err err;
};

static int add_pname(struct sweep *w, const char *name)
{
    for (size_t i = 0; i < w->n_pnames; i++)
        if (!strcmp(w->pnames[i], name))
            return 0;
    char **np = realloc(w->pnames, (w->n_pnames + 1) * sizeof *np);
    if (!np)
        return RS_ENOMEM;
    w->pnames = np;
    if (!(w->pnames[w->n_pnames] = strdup(name)))
        return RS_ENOMEM;
    w->n_pnames++;
    return 0;
}

/* Copy field f of src (or an empty text when src lacks it) into dst under the same name. */
static int copy_field(struct rs_record *dst, const struct rs_record *src, const char *name)
{
    const struct rs_field *f = rs_record_get(src, name);
    if (!f)
        return rs_record_string(dst, name, "");
    if (f->type == RS_VAL_INT)
        return rs_record_int(dst, name, f->i);
    if (f->type == RS_VAL_DOUBLE)
        return rs_record_double(dst, name, f->d);
    return rs_record_string(dst, name, f->s);
}

/* The parameter part of point i's statistics row (union columns, experiment seed). */
static int point_params(struct sweep *w, const struct rs_record *params, struct rs_record *out)
{
    int rc = 0;
    for (size_t k = 0; k < w->n_pnames && !rc; k++)
        rc = !strcmp(w->pnames[k], "seed") ? rs_record_int(out, "seed", (int64_t)w->g->seed)
                                            : copy_field(out, params, w->pnames[k]);
    return rc;
}

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* Length of the first k CSV cells of line (up to, not including, the k-th separator). */
static size_t csv_prefix_len(const char *line, size_t len, size_t k)
{
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted && --k == 0)
            return i;
    }
    return len;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Resume: read out_path, drop a trailing partial line, remember its header and the keys
 * (hash of the parameter cells and `runs`: the first n_pnames + 1 cells, so the columns
 * must be known) of its rows. */
static int read_existing(struct sweep *w, uint64_t **keys, size_t *n_keys)
{
    const char *path = w->o->out_path;
    FILE *f = fopen(path, "r");
    *keys = NULL;
    *n_keys = 0;
    if (!f)
        return errno == ENOENT ? 0
                               : rs_err_set(&w->err, RS_EIO, "cannot open '%s': %s", path,
                                            strerror(errno));
    struct rs_buf all;
    rs_buf_init(&all);
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (rs_buf_append(&all, chunk, got)) {
            fclose(f);
            rs_buf_free(&all);
            return rs_err_set(&w->err, RS_ENOMEM, "out of memory reading '%s'", path);
        }
    fclose(f);
    if (all.len == 0) { /* an empty file (interrupted before its first row): start afresh */
        rs_buf_free(&all);
        return 0;
    }
    size_t complete = 0; /* bytes up to the last newline */
    for (size_t i = all.len; i > 0; i--)
        if (all.data[i - 1] == '\n') {
            complete = i;
            break;
        }
    if (complete < all.len && truncate(path, (off_t)complete)) {
        rs_buf_free(&all);
        return rs_err_set(&w->err, RS_EIO, "cannot truncate '%s': %s", path, strerror(errno));
    }
    size_t pos = 0, cap = 0;
    while (pos < complete) {
        const char *line = all.data + pos;
        size_t len = (size_t)((const char *)memchr(line, '\n', complete - pos) - line);
        if (pos == 0) {
            rs_buf_append(&w->expected_header, line, len + 1);
        } else {
            if (*n_keys == cap) {
                cap = cap ? 2 * cap : 1024;
                uint64_t *nk = realloc(*keys, cap * sizeof *nk);
                if (!nk) {
                    rs_buf_free(&all);
                    return rs_err_set(&w->err, RS_ENOMEM, "out of memory");
                }
                *keys = nk;
            }
            (*keys)[(*n_keys)++] = fnv(line, csv_prefix_len(line, len, w->n_pnames + 1));
        }
        pos += len + 1;
    }
    rs_buf_free(&all);
    if (*n_keys)
        qsort(*keys, *n_keys, sizeof **keys, cmp_u64);
    return 0;
}

static int open_out(const char *path, int append, struct rs_err *err);

static int write_all(int fd, const struct rs_buf *b, const char *path, struct rs_err *err)
{
    size_t off = 0;
    while (off < b->len) {
        ssize_t n = write(fd, b->data + off, b->len - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return rs_err_set(err, RS_EIO, "cannot write '%s': %s", path, strerror(errno));
        off += (size_t)n;
    }
    return 0;
}

/* Statistics row of point i from its finished runs; writes the header first if needed.
 * Called in the critical section. */
static int write_point(struct sweep *w, uint64_t i)
{
    const struct rs_grid *g = w->g;
    struct rs_record *runs = &w->runs[i * g->runs];
    struct rs_record row;
    struct rs_buf buf;
    int rc = 0;
    rs_record_init(&row);
    rs_buf_init(&buf);
    if (!w->mnames) { /* metric names from the first point written */
        w->n_mnames = runs[0].n - runs[0].n_params;
        w->mnames = calloc(w->n_mnames + 1, sizeof *w->mnames);
        for (size_t k = 0; w->mnames && k < w->n_mnames; k++)
            w->mnames[k] = strdup(runs[0].f[runs[0].n_params + k].name);
    }
    if (!w->mnames)
        return rs_err_set(&w->err, RS_ENOMEM, "out of memory");
    double *x = malloc(g->runs * sizeof *x);
    rc = x ? point_params(w, &runs[0], &row) : RS_ENOMEM;
    rc = rc ? rc : rs_record_int(&row, "runs", g->runs);
    for (size_t k = 0; k < w->n_mnames && !rc; k++) {
        const struct rs_field *f0 = rs_record_get(&runs[0], w->mnames[k]);
        if (f0 && f0->type == RS_VAL_STRING) /* text metrics: in the per-run rows only */
            continue;
        for (uint32_t r = 0; r < g->runs; r++) {
            const struct rs_field *f = rs_record_get(&runs[r], w->mnames[k]);
            if (!f || f->type == RS_VAL_STRING || runs[r].n - runs[r].n_params != w->n_mnames) {
                free(x);
                rs_record_free(&row);
                return rs_err_set(&w->err, RS_EUNSUPPORTED,
                                  "points of one sweep must report the same metrics (point %llu "
                                  "differs in '%s'); sweep one switching model per file",
                                  (unsigned long long)i, w->mnames[k]);
            }
            x[r] = f->type == RS_VAL_INT ? (double)f->i : f->d;
        }
        struct rs_summary s;
        char name[256];
        rs_summarize(x, g->runs, &s);
        const char *suffix[6] = {"mean", "var", "sd", "min", "max", "ci95"};
        const double val[6] = {s.mean, s.var, s.sd, s.min, s.max, s.ci95};
        for (int j = 0; j < 6 && !rc; j++) {
            snprintf(name, sizeof name, "%s_%s", w->mnames[k], suffix[j]);
            rc = rs_record_double(&row, name, val[j]);
        }
    }
    free(x);
    if (!rc && !w->header_written) {
        struct rs_buf h;
        rs_buf_init(&h);
        rc = rs_record_csv_header(&h, &row);
        if (!rc && w->expected_header.len &&
            (h.len != w->expected_header.len || memcmp(h.data, w->expected_header.data, h.len)))
            rc = rs_err_set(&w->err, RS_EINVAL,
                            "'%s' holds results of another experiment (its header differs); "
                            "remove it or write elsewhere",
                            w->o->out_path);
        else if (!rc && !w->expected_header.len)
            rc = rs_buf_append(&buf, h.data, h.len);
        rs_buf_free(&h);
        w->header_written = 1;
    }
    rc = rc ? rc : rs_record_csv_row(&buf, &row);
    if (!rc && w->fd < 0 && (w->fd = open_out(w->o->out_path, w->append, &w->err)) < 0)
        rc = RS_EIO;
    if (!rc)
        rc = write_all(w->fd, &buf, w->o->out_path, &w->err);
    rs_buf_free(&buf);
    rs_record_free(&row);
    if (rc || !w->o->per_run_path)
        return rc ? (w->err.code ? w->err.code : rs_err_set(&w->err, rc, "out of memory")) : 0;

    /* per-run rows: the run's own parameters (its seed), replication, metrics */
    rs_buf_init(&buf);
    for (uint32_t r = 0; r < g->runs && !rc; r++) {
        rs_record_init(&row);
        for (size_t k = 0; k < w->n_pnames && !rc; k++)
            rc = copy_field(&row, &runs[r], w->pnames[k]);
        rc = rc ? rc : rs_record_int(&row, "replication", r);
        for (size_t k = 0; k < w->n_mnames && !rc; k++)
            rc = copy_field(&row, &runs[r], w->mnames[k]);
        if (!rc && !w->runs_header_written) {
            rc = rs_record_csv_header(&buf, &row);
            w->runs_header_written = 1;
        }
        rc = rc ? rc : rs_record_csv_row(&buf, &row);
        rs_record_free(&row);
    }
    if (rc)
        rs_err_set(&w->err, rc, "out of memory");
    else if (w->fd_runs < 0 &&
             (w->fd_runs = open_out(w->o->per_run_path, w->append_runs, &w->err)) < 0)
        rc = RS_EIO;
    else
        rc = write_all(w->fd_runs, &buf, w->o->per_run_path, &w->err);
    rs_buf_free(&buf);
    return rc;
}

/* Write every point that is complete and next in grid order. Critical section. */
static void flush_ready(struct sweep *w)
{
    const struct rs_grid *g = w->g;
    while (!w->failed && w->next < g->n_points &&
           (w->skip[w->next] || w->done[w->next] == g->runs)) {
        uint64_t i = w->next;
        if (!w->skip[i]) {
            if (write_point(w, i)) {
                w->failed = 1;
                return;
            }
            w->written++;
            for (uint32_t r = 0; r < g->runs; r++)
                rs_record_free(&w->runs[i * g->runs + r]);
            if (w->o->progress)
                w->o->progress(w->o->ctx, w->next + 1, g->n_points);
        }
        w->next++;
    }
}

/* Validate every point and collect the parameter columns. */
static int prepare_points(struct sweep *w)
{
    const struct rs_grid *g = w->g;
    for (uint64_t i = 0; i < g->n_points; i++) {
        struct rs_params p;
        struct rs_record params;
        int rc = rs_grid_point(g, i, &p, &w->err);
        if (rc)
            return rc;
        rs_record_init(&params);
        rc = rs_validate(&p, &params, &w->err);
        for (size_t k = 0; !rc && k < params.n_params; k++)
            if (add_pname(w, params.f[k].name))
                rc = rs_err_set(&w->err, RS_ENOMEM, "out of memory");
        rs_params_free(&p);
        rs_record_free(&params);
        if (rc)
            return rc;
    }
    return 0;
}

int rs_sweep_validate(const struct rs_grid *g, struct rs_err *err)
{
    for (uint64_t i = 0; i < g->n_points; i++) {
        struct rs_params p;
        int rc = rs_grid_point(g, i, &p, err);
        if (rc)
            return rc;
        rc = rs_validate(&p, NULL, err);
        rs_params_free(&p);
        if (rc)
            return rc;
    }
    return 0;
}

/* Resume: mark the points whose parameter cells match a row of the existing file. */
static int mark_skips(struct sweep *w, const uint64_t *keys, size_t n_keys)
{
    const struct rs_grid *g = w->g;
    if (w->expected_header.len) { /* the parameter columns must be this experiment's */
        struct rs_buf h;
        rs_buf_init(&h);
        int rc = 0;
        for (size_t k = 0; k < w->n_pnames && !rc; k++)
            rc = rs_buf_printf(&h, "%s,", w->pnames[k]);
        rc = rc ? rc : rs_buf_puts(&h, "runs,");
        int same = !rc && w->expected_header.len > h.len &&
                   !memcmp(w->expected_header.data, h.data, h.len);
        rs_buf_free(&h);
        if (!same)
            return rs_err_set(&w->err, RS_EINVAL,
                              "'%s' holds results of another experiment (its columns differ); "
                              "remove it or write elsewhere",
                              w->o->out_path);
    }
    if (!n_keys)
        return 0;
    for (uint64_t i = 0; i < g->n_points; i++) {
        struct rs_params p;
        struct rs_record params, row;
        struct rs_buf b;
        rs_buf_init(&b);
        rs_record_init(&params);
        rs_record_init(&row);
        int rc = rs_grid_point(g, i, &p, &w->err);
        rc = rc ? rc : rs_validate(&p, &params, &w->err);
        rc = rc ? rc : point_params(w, &params, &row);
        rc = rc ? rc : rs_record_int(&row, "runs", g->runs);
        rc = rc ? rc : rs_record_csv_row(&b, &row);
        if (!rc) {
            uint64_t h = fnv(b.data, b.len - 1); /* without the newline */
            w->skip[i] = bsearch(&h, keys, n_keys, sizeof *keys, cmp_u64) != NULL;
        }
        rs_params_free(&p);
        rs_record_free(&params);
        rs_record_free(&row);
        rs_buf_free(&b);
        if (rc)
            return w->err.code ? rc : rs_err_set(&w->err, rc, "out of memory");
    }
    return 0;
}

static void run_task(struct sweep *w, uint64_t t)
{
    const struct rs_grid *g = w->g;
    uint64_t i = t / g->runs;
    uint32_t r = (uint32_t)(t % g->runs);
    struct rs_params p;
    struct rs_err err;
    char seed[32];
    rs_err_clear(&err);
    int rc = rs_grid_point(g, i, &p, &err);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)rs_grid_seed(g, i, r));
    rc = rc ? rc : rs_params_set(&p, "seed", seed, NULL, 0, &err);
    rc = rc ? rc : rs_run(&p, &w->runs[t], NULL, 0, &err);
    rs_params_free(&p);
#pragma omp critical(rs_sweep)
    {
        if (rc) {
            if (!w->failed) {
                w->err = err;
                w->failed = 1;
            }
        } else {
            w->done[i]++;
            flush_ready(w);
        }
    }
}

static int open_out(const char *path, int append, struct rs_err *err)
{
    int fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
    if (fd < 0)
        rs_err_set(err, RS_EIO, "cannot write '%s': %s", path, strerror(errno));
    return fd;
}

static void sweep_free(struct sweep *w)
{
    for (size_t i = 0; i < w->n_pnames; i++)
        free(w->pnames[i]);
    free(w->pnames);
    for (size_t i = 0; w->mnames && i < w->n_mnames; i++)
        free(w->mnames[i]);
    free(w->mnames);
    if (w->runs)
        for (uint64_t t = 0; t < w->g->n_points * w->g->runs; t++)
            rs_record_free(&w->runs[t]);
    free(w->runs);
    free(w->skip);
    free(w->done);
    rs_buf_free(&w->expected_header);
    if (w->fd >= 0)
        close(w->fd);
    if (w->fd_runs >= 0)
        close(w->fd_runs);
}

int rs_sweep_run(const struct rs_grid *g, const struct rs_sweep_opts *o,
                 struct rs_sweep_result *res, struct rs_err *err)
{
    struct sweep w;
    uint64_t *keys = NULL;
    size_t n_keys = 0;
    int rc;
    memset(&w, 0, sizeof w);
    memset(res, 0, sizeof *res);
    w.g = g;
    w.o = o;
    w.fd = w.fd_runs = -1;
    rs_buf_init(&w.expected_header);
    rs_err_clear(&w.err);
    res->points = g->n_points;
    uint64_t n_tasks = g->n_points * g->runs;
    w.skip = calloc(g->n_points, 1);
    w.done = calloc(g->n_points, sizeof *w.done);
    w.runs = calloc(n_tasks ? n_tasks : 1, sizeof *w.runs);
    if (!w.skip || !w.done || !w.runs) {
        sweep_free(&w);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu runs",
                          (unsigned long long)n_tasks);
    }
    for (uint64_t t = 0; t < n_tasks; t++)
        rs_record_init(&w.runs[t]);
    if ((rc = prepare_points(&w)))
        goto out;
    if (o->resume && ((rc = read_existing(&w, &keys, &n_keys)) ||
                      (rc = mark_skips(&w, keys, n_keys))))
        goto out;
    for (uint64_t i = 0; i < g->n_points; i++)
        res->skipped += w.skip[i];
    /* nothing is written before every point is known to be valid, and no file is created
     * before its first whole row: the paths are checked now, opened at the first row */
    if ((rc = rs_out_check(o->out_path, &w.err)) ||
        (o->per_run_path && (rc = rs_out_check(o->per_run_path, &w.err))))
        goto out;
    w.append = o->resume && w.expected_header.len;
    if (o->per_run_path) {
        w.append_runs = w.append && access(o->per_run_path, F_OK) == 0;
        w.runs_header_written = w.append_runs;
    }
    int jobs = o->jobs > 0 ? o->jobs : omp_get_num_procs();
#pragma omp critical(rs_sweep)
    flush_ready(&w); /* leading points that were already in the file */
#pragma omp parallel for schedule(dynamic, 1) num_threads(jobs)
    for (uint64_t t = 0; t < n_tasks; t++) {
        if (w.failed || (o->stop && *o->stop) || w.skip[t / g->runs])
            continue;
        run_task(&w, t);
    }
    res->written = w.written;
    if (w.failed)
        rc = w.err.code ? w.err.code : RS_EINVARIANT;
    else if (w.next < g->n_points)
        rc = rs_err_set(&w.err, RS_EINTERRUPTED,
                        "interrupted: %llu of %llu points are in '%s' (run again with "
                        "--resume to finish)",
                        (unsigned long long)w.next, (unsigned long long)g->n_points,
                        o->out_path);
out:
    if (rc && err)
        *err = w.err;
    free(keys);
    sweep_free(&w);
    return rc;
}
