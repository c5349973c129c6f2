/* Sweep runner: validation of every point, parallel runs (OpenMP) with per-point seeds,
 * ordered appending of per-run and statistics rows (deadlocked runs kept out of the
 * statistics), resume (sweep_resume.c) and interruption (see sweep.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exp/sweep_resume.h"
#include "exp/sweep_wire.h"
#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/outpath.h"
#include "routesim/resources.h"
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
    uint64_t first, end;      /* the points to run: [first, end) (a shard) */
    _Atomic uint64_t next_task; /* next task to hand out (remote: threads and workers) */
    uint64_t written;
    int fd, fd_runs;          /* -1 until the first row is written (nothing created before) */
    int append, append_runs;  /* open them to append (resume) rather than truncate */
    int header_written, runs_header_written;
    enum rs_digits digits; /* how doubles are written (rs_sweep_opts.digits; identities too) */
    int runs_append;          /* resume: the per-run file is appended to */
    struct rs_buf expected_header; /* header already in the file when resuming */
    struct rs_buf runs_header;     /* header already in the per-run file when appending */
    struct rs_sweep_result *res;   /* deadlock counts (critical) */
    char **mnames;            /* metric names, from the first point written */
    size_t n_mnames;
    _Atomic int failed;       /* an error stops every worker (read without the lock) */
    _Atomic uint64_t failed_task; /* the task whose run failed, smallest first; UINT64_MAX:
                                     none, or an error outside the runs (a write) */
    struct rs_err err;
};

static int add_pname(struct sweep *w, const char *name)
{
    for (size_t i = 0; i < w->n_pnames; i++)
        if (!strcmp(w->pnames[i], name))
            return 0;
    char **np = rs_realloc(w->pnames, (w->n_pnames + 1) * sizeof *np);
    if (!np)
        return RS_ENOMEM;
    w->pnames = np;
    if (!(w->pnames[w->n_pnames] = rs_strdup(name)))
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

/* The integer metric name of rec (0 when absent or not an integer). */
static int64_t int_metric(const struct rs_record *rec, const char *name)
{
    const struct rs_field *f = rs_record_get(rec, name);
    return f && f->type == RS_VAL_INT ? f->i : 0;
}

/* The flags summarised over every run, deadlocked or not: their mean is a fraction of runs. */
static const char *const all_run_metrics[] = {"deadlock", "saturated", NULL};

static int over_all_runs(const char *metric)
{
    for (int k = 0; all_run_metrics[k]; k++)
        if (!strcmp(metric, all_run_metrics[k]))
            return 1;
    return 0;
}

/* The statistics row of point i (parameters, runs, six statistics per metric, run counts).
 * Deadlocked runs are left out of every metric but the flags; counts go to w->res. */
static int stats_row(struct sweep *w, uint64_t i, struct rs_record *row)
{
    const struct rs_grid *g = w->g;
    struct rs_record *runs = &w->runs[i * g->runs];
    uint32_t dead = 0, sat = 0, drops = 0, sat_alive = 0;
    for (uint32_t r = 0; r < g->runs; r++) {
        int d = int_metric(&runs[r], "deadlock") == 1, s = int_metric(&runs[r], "saturated") == 1;
        dead += d;
        sat += s;
        sat_alive += s && !d;
        drops += int_metric(&runs[r], "dropped") > 0;
    }
    double *x = rs_malloc(g->runs * sizeof *x);
    int rc = x ? point_params(w, &runs[0], row) : RS_ENOMEM;
    rc = rc ? rc : rs_record_int(row, "runs", g->runs);
    for (size_t k = 0; k < w->n_mnames && !rc; k++) {
        const struct rs_field *f0 = rs_record_get(&runs[0], w->mnames[k]);
        if (f0 && f0->type == RS_VAL_STRING) /* text metrics: in the per-run rows only */
            continue;
        int all = over_all_runs(w->mnames[k]);
        uint32_t n = 0;
        for (uint32_t r = 0; r < g->runs; r++) {
            const struct rs_field *f = rs_record_get(&runs[r], w->mnames[k]);
            if (!f || f->type == RS_VAL_STRING || runs[r].n - runs[r].n_params != w->n_mnames) {
                rs_free(x);
                return rs_err_set(&w->err, RS_EUNSUPPORTED,
                                  "points of one sweep must report the same metrics (point %llu "
                                  "differs in '%s'); sweep one switching model per file",
                                  (unsigned long long)i, w->mnames[k]);
            }
            if (all || int_metric(&runs[r], "deadlock") != 1)
                x[n++] = f->type == RS_VAL_INT ? (double)f->i : f->d;
        }
        struct rs_summary s = {0, NAN, NAN, NAN, NAN, NAN, NAN};
        char name[256];
        if (n)
            rs_summarize(x, n, &s);
        const char *suffix[6] = {"mean", "var", "sd", "min", "max", "ci95"};
        const double val[6] = {s.mean, s.var, s.sd, s.min, s.max, s.ci95};
        for (int j = 0; j < 6 && !rc; j++) {
            snprintf(name, sizeof name, "%s_%s", w->mnames[k], suffix[j]);
            rc = rs_record_double(row, name, val[j]);
        }
    }
    rs_free(x);
    rc = rc ? rc : rs_record_int(row, "runs_deadlocked", dead);
    rc = rc ? rc : rs_record_int(row, "runs_saturated", sat);
    rc = rc ? rc : rs_record_int(row, "runs_with_drops", drops);
    rc = rc ? rc : rs_record_int(row, "runs_used", g->runs - dead);
    if (!rc && dead) {
        if (!w->res->deadlocked_points++)
            w->res->first_dead_point = i;
        w->res->deadlocked_runs += dead;
        w->res->dead_points += dead == g->runs;
    }
    w->res->saturated_runs += sat_alive;
    return rc ? (w->err.code ? w->err.code : rs_err_set(&w->err, rc, "out of memory")) : 0;
}

/* The format of the rows: CSV, or JSON Lines (rs_sweep_opts.jsonl). */
static enum rs_format row_format(const struct sweep *w)
{
    return w->o->jsonl ? RS_FMT_JSONL : RS_FMT_CSV;
}

/* The per-run rows of point i: the run's own parameters (its seed), replication, metrics. */
static int run_rows(struct sweep *w, uint64_t i, struct rs_buf *buf)
{
    const struct rs_grid *g = w->g;
    struct rs_record *runs = &w->runs[i * g->runs];
    int rc = 0;
    for (uint32_t r = 0; r < g->runs && !rc; r++) {
        struct rs_record row;
        rs_record_init(&row);
        for (size_t k = 0; k < w->n_pnames && !rc; k++)
            rc = copy_field(&row, &runs[r], w->pnames[k]);
        rc = rc ? rc : rs_record_int(&row, "replication", r);
        for (size_t k = 0; k < w->n_mnames && !rc; k++)
            rc = copy_field(&row, &runs[r], w->mnames[k]);
        if (!rc && !w->runs_header_written && w->o->jsonl) /* JSON Lines: no header */
            w->runs_header_written = 1;
        if (!rc && !w->runs_header_written) {
            struct rs_buf h;
            rs_buf_init(&h);
            rc = rs_record_csv_header(&h, &row);
            if (!rc && w->runs_header.len &&
                (h.len != w->runs_header.len || memcmp(h.data, w->runs_header.data, h.len)))
                rc = rs_err_set(&w->err, RS_EINVAL,
                                "'%s' holds per-run results of another experiment (its header "
                                "differs); remove it or write elsewhere",
                                w->o->per_run_path);
            else if (!rc && !w->runs_header.len)
                rc = rs_buf_append(buf, h.data, h.len);
            rs_buf_free(&h);
            w->runs_header_written = 1;
        }
        rc = rc ? rc : rs_record_row(buf, &row, row_format(w), w->digits);
        rs_record_free(&row);
    }
    return rc ? (w->err.code ? w->err.code : rs_err_set(&w->err, rc, "out of memory")) : 0;
}

/* Stop at once (o->stop >= 2) where the files hold whole rows: o->halt does not return. */
static void halt_if_asked(const struct rs_sweep_opts *o, int writing)
{
    if (!o->writing || !o->halt || !o->stop)
        return;
    *o->writing = writing;
    atomic_thread_fence(memory_order_seq_cst);
    if (*o->stop >= 2)
        o->halt(o->ctx);
}

/* Rows of point i from its finished runs: per-run rows first, then the statistics row
 * (header first when the file is new), each by one write, so that a statistics row in the
 * file means its per-run rows are there too. Called in the critical section. */
static int write_point(struct sweep *w, uint64_t i)
{
    const struct rs_grid *g = w->g;
    struct rs_record *runs = &w->runs[i * g->runs];
    struct rs_record row;
    struct rs_buf buf, rbuf;
    int rc = 0;
    if (!w->mnames) { /* metric names from the first point written */
        w->n_mnames = runs[0].n - runs[0].n_params;
        w->mnames = rs_calloc(w->n_mnames + 1, sizeof *w->mnames);
        int ok = w->mnames != NULL;
        for (size_t k = 0; ok && k < w->n_mnames; k++)
            ok = (w->mnames[k] = rs_strdup(runs[0].f[runs[0].n_params + k].name)) != NULL;
        if (!ok && w->mnames) { /* all or none: a NULL name would be read as a metric */
            for (size_t k = 0; k < w->n_mnames; k++)
                rs_free(w->mnames[k]);
            rs_free(w->mnames);
            w->mnames = NULL;
        }
    }
    if (!w->mnames)
        return rs_err_set(&w->err, RS_ENOMEM, "out of memory");
    rs_record_init(&row);
    rs_buf_init(&buf);
    rs_buf_init(&rbuf);
    rc = stats_row(w, i, &row);
    if (!rc && !w->header_written && w->o->jsonl) /* JSON Lines: no header */
        w->header_written = 1;
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
    rc = rc ? rc : rs_record_row(&buf, &row, row_format(w), w->digits);
    rs_record_free(&row);
    if (!rc && w->o->per_run_path)
        rc = run_rows(w, i, &rbuf);
    if (!rc) {
        /* per-run rows first, then the statistics row (resume repairs a per-run file that is
         * ahead); each file is created at its first whole row */
        halt_if_asked(w->o, 1);
        if (w->o->per_run_path && w->fd_runs < 0 &&
            (w->fd_runs = open_out(w->o->per_run_path, w->append_runs, &w->err)) < 0)
            rc = RS_EIO;
        if (!rc && w->fd_runs >= 0)
            rc = write_all(w->fd_runs, &rbuf, w->o->per_run_path, &w->err);
        if (!rc && w->fd < 0 && (w->fd = open_out(w->o->out_path, w->append, &w->err)) < 0)
            rc = RS_EIO;
        rc = rc ? rc : write_all(w->fd, &buf, w->o->out_path, &w->err);
        halt_if_asked(w->o, 0);
    }
    rs_buf_free(&buf);
    rs_buf_free(&rbuf);
    return rc ? (w->err.code ? w->err.code : rs_err_set(&w->err, rc, "out of memory")) : 0;
}

/* Write every point that is complete and next in grid order. Critical section. */
static void flush_ready(struct sweep *w)
{
    const struct rs_grid *g = w->g;
    while (!w->failed && w->next < w->end &&
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
                w->o->progress(w->o->ctx, w->next + 1 - w->first, w->end - w->first);
        }
        w->next++;
    }
}

/* The grid's own size against the memory limit (sweep.h), before any point is expanded: a
 * grid of 2.6e9 runs is refused here (RS_ERESOURCE, exit 3) rather than when calloc fails
 * or, under overcommit, when the process is killed (docs/resources.md). */
int rs_sweep_check_size(const struct rs_grid *g, struct rs_err *err)
{
    uint64_t limit = 0;
    const char *limit_text = NULL;
    char text[96];
    for (size_t k = 0; k < g->n_axes; k++) {
        const struct rs_axis *a = &g->axes[k];
        if (strcmp(a->key, "max_memory") || a->derived)
            continue;
        for (size_t j = 0; j < a->n; j++) {
            uint64_t b;
            int rc = rs_bytes_parse("max_memory", a->values[j], &b, err);
            if (rc)
                return rc;
            if (b > limit) {
                limit = b;
                snprintf(text, sizeof text, "max_memory=%s", a->values[j]);
                limit_text = text;
            }
        }
    }
    if (!limit_text)
        limit = rs_mem_available();
    long double need = (long double)g->n_points * g->runs * sizeof(struct rs_record) +
                       (long double)g->n_points * (1 + sizeof(uint32_t));
    char what[160];
    snprintf(what, sizeof what, "a sweep of %llu points x %u runs",
             (unsigned long long)g->n_points, g->runs);
    return rs_mem_check(what, need > 1.8e19L ? UINT64_MAX : (uint64_t)need, limit, limit_text,
                        err);
}

/* Check every point without building anything (rs_check: keys, types, ranges), so that a
 * bad value anywhere in the grid is refused before the first network is built. */
static int check_points(const struct rs_grid *g, struct rs_err *err)
{
    for (uint64_t i = 0; i < g->n_points; i++) {
        struct rs_params p;
        int rc = rs_grid_point(g, i, &p, err);
        if (rc)
            return rc;
        rc = rs_check(&p, err);
        rs_params_free(&p);
        if (rc)
            return rc;
    }
    return 0;
}

/* Validate every point and collect the parameter columns. */
static int prepare_points(struct sweep *w)
{
    const struct rs_grid *g = w->g;
    int rc0 = check_points(g, &w->err);
    if (rc0)
        return rc0;
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

/* Resume (sweep_resume.h): the identity cells of point i's statistics row (parameters with
 * the experiment seed, runs) and of its per-run rows (parameters with the run's seed,
 * replication), as write_point writes them. */
static int point_ident(void *ctx, uint64_t i, struct rs_buf *stats, struct rs_buf *runs,
                       struct rs_err *err)
{
    struct sweep *w = ctx;
    const struct rs_grid *g = w->g;
    struct rs_params p;
    struct rs_record params, row;
    struct rs_buf b;
    rs_record_init(&params);
    rs_record_init(&row);
    rs_buf_init(&b);
    int rc = rs_grid_point(g, i, &p, err);
    if (rc)
        return rc;
    rc = rs_validate(&p, &params, err);
    rs_params_free(&p);
    if (!rc && ((rc = point_params(w, &params, &row)) ||
                (rc = rs_record_int(&row, "runs", g->runs)) ||
                (rc = rs_record_row(&b, &row, RS_FMT_CSV, w->digits)) ||
                (rc = rs_buf_append(stats, b.data, b.len - 1))))
        rs_err_set(err, rc, "out of memory");
    for (uint32_t r = 0; !rc && runs && r < g->runs; r++) {
        rs_record_free(&row);
        rs_record_init(&row);
        for (size_t k = 0; k < w->n_pnames && !rc; k++)
            rc = !strcmp(w->pnames[k], "seed")
                     ? rs_record_int(&row, "seed", (int64_t)rs_grid_seed(g, i, r))
                     : copy_field(&row, &params, w->pnames[k]);
        rc = rc ? rc : rs_record_int(&row, "replication", r);
        rc = rc ? rc : rs_record_row(runs, &row, RS_FMT_CSV, w->digits);
        if (rc)
            rs_err_set(err, rc, "out of memory");
    }
    rs_record_free(&params);
    rs_record_free(&row);
    rs_buf_free(&b);
    return rc;
}

/* Resume: check and repair the files (sweep_resume.c), mark the points kept. */
static int resume(struct sweep *w, struct rs_sweep_result *res)
{
    struct rs_buf sp, rp;
    int rc = 0;
    rs_buf_init(&sp);
    rs_buf_init(&rp);
    for (size_t k = 0; k < w->n_pnames && !rc; k++)
        rc = rs_buf_printf(&sp, "%s,", w->pnames[k]) || rs_buf_printf(&rp, "%s,", w->pnames[k]);
    rc = rc || rs_buf_puts(&sp, "runs,") || rs_buf_puts(&rp, "replication,");
    if (rc) {
        rs_buf_free(&sp);
        rs_buf_free(&rp);
        return rs_err_set(&w->err, RS_ENOMEM, "out of memory");
    }
    struct rs__resume_in in = {w->o->out_path, w->o->per_run_path, sp.data, rp.data,
                               w->n_pnames + 1, w->g->n_points, w->g->runs, point_ident, w,
                               NULL};
    struct rs__resume_out out;
    memset(&out, 0, sizeof out);
    out.skip = w->skip;
    rs_buf_init(&out.header);
    rs_buf_init(&out.runs_header);
    rc = rs__sweep_resume(&in, &out, &w->err);
    rs_buf_free(&sp);
    rs_buf_free(&rp);
    rs_buf_free(&w->expected_header);
    rs_buf_free(&w->runs_header);
    w->expected_header = out.header;
    w->runs_header = out.runs_header;
    w->runs_append = out.runs_append;
    snprintf(res->resume_note, sizeof res->resume_note, "%s", out.note);
    return rc;
}

static void sweep_free(struct sweep *w);

int rs__sweep_identities(const struct rs_grid *g, struct rs_buf *stats, struct rs_buf *runs,
                         struct rs_buf *stats_prefix, struct rs_buf *runs_prefix, size_t *n_id,
                         struct rs_err *err)
{
    struct sweep w;
    memset(&w, 0, sizeof w);
    w.g = g;
    w.fd = w.fd_runs = -1;
    rs_buf_init(&w.expected_header);
    rs_buf_init(&w.runs_header);
    rs_err_clear(&w.err);
    int rc = prepare_points(&w);
    for (size_t k = 0; k < w.n_pnames && !rc; k++)
        rc = rs_buf_printf(stats_prefix, "%s,", w.pnames[k]) ||
                     rs_buf_printf(runs_prefix, "%s,", w.pnames[k])
                 ? rs_err_set(&w.err, RS_ENOMEM, "out of memory")
                 : 0;
    if (!rc && (rs_buf_puts(stats_prefix, "runs,") || rs_buf_puts(runs_prefix, "replication,")))
        rc = rs_err_set(&w.err, RS_ENOMEM, "out of memory");
    for (uint64_t i = 0; i < g->n_points && !rc; i++)
        if (!(rc = point_ident(&w, i, stats, runs, &w.err)) && rs_buf_puts(stats, "\n"))
            rc = rs_err_set(&w.err, RS_ENOMEM, "out of memory");
    *n_id = w.n_pnames + 1;
    if (rc && err)
        *err = w.err;
    sweep_free(&w);
    return rc;
}

int rs_sweep_validate(const struct rs_grid *g, struct rs_err *err)
{
    int rc0 = rs_sweep_check_size(g, err);
    rc0 = rc0 ? rc0 : check_points(g, err);
    if (rc0)
        return rc0;
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

/* The parameters of task t (point t / runs with the seed of replication t % runs) into p
 * (initialised by rs_grid_point; free it with rs_params_free either way). */
static int task_params(const struct rs_grid *g, uint64_t t, struct rs_params *p,
                       struct rs_err *err)
{
    uint64_t i = t / g->runs;
    char seed[32];
    int rc = rs_grid_point(g, i, p, err);
    snprintf(seed, sizeof seed, "%llu",
             (unsigned long long)rs_grid_seed(g, i, (uint32_t)(t % g->runs)));
    return rc ? rc : rs_params_set(p, "seed", seed, NULL, 0, err);
}

/* Task t has finished with rc (its record in w->runs[t] when 0): record it, write the
 * points that are ready. */
static void finish_task(struct sweep *w, uint64_t t, int rc, const struct rs_err *err);

static void run_task(struct sweep *w, uint64_t t)
{
    struct rs_params p;
    struct rs_err err;
    rs_err_clear(&err);
    int rc = task_params(w->g, t, &p, &err);
    rc = rc ? rc : rs_run(&p, &w->runs[t], NULL, 0, &err);
    rs_params_free(&p);
    finish_task(w, t, rc, &err);
}

static void finish_task(struct sweep *w, uint64_t t, int rc, const struct rs_err *err)
{
    uint64_t i = t / w->g->runs;
#pragma omp critical(rs_sweep)
    {
        if (rc) {
            /* the error reported is that of the first failing run in grid order, whatever
             * the threads' timing: a later run's error gives way to an earlier one's, and
             * runs before a failed one still run (see rs_sweep_run's loop) */
            if (!w->failed || (w->failed_task != UINT64_MAX && t < w->failed_task)) {
                w->err = *err;
                w->failed_task = t;
                w->failed = 1;
            }
        } else {
            w->done[i]++;
            flush_ready(w);
        }
    }
}

/* Whether task t is to be run now: not after a failed run (runs before it still run), not
 * once a stop is asked, not of a point kept from before. */
static int task_wanted(const struct sweep *w, uint64_t t)
{
    return !((w->failed && (w->failed_task == UINT64_MAX || t > w->failed_task)) ||
             (w->o->stop && *w->o->stop) || w->skip[t / w->g->runs]);
}

/* The next task to run, in grid order, for a thread or a worker: 1 with *t, or 0 when none
 * is left. */
static int claim_task(struct sweep *w, uint64_t end_task, uint64_t *t)
{
    for (;;) {
        uint64_t x = atomic_fetch_add(&w->next_task, 1);
        if (x >= end_task)
            return 0;
        if (task_wanted(w, x)) {
            *t = x;
            return 1;
        }
    }
}

/* Hand worker k the next task; 1 when one was sent, 0 when none is left, or RS_E... */
static int send_task(struct sweep *w, const struct rs_sweep_remote *rm, int k,
                     uint64_t end_task, uint64_t *held, struct rs_buf *msg, struct rs_err *err)
{
    uint64_t t;
    if (!claim_task(w, end_task, &t))
        return 0;
    struct rs_params p;
    msg->len = 0;
    int rc = task_params(w->g, t, &p, err);
    if (rc) {
        rs_params_free(&p);
        finish_task(w, t, rc, err);
        return send_task(w, rm, k, end_task, held, msg, err);
    }
    rc = rs__wire_task(msg, t, &p);
    rs_params_free(&p);
    if (rc)
        return rs_err_set(err, rc, "out of memory");
    rc = rm->send(rm->ctx, k, msg->data, msg->len, err);
    if (rc)
        return rc;
    held[k] = t;
    return 1;
}

/* The dispatcher (remote runs): keep every worker busy with one task, store each reply as
 * a local run's result. A failure of the transport stops the sweep. */
static void dispatch(struct sweep *w, uint64_t end_task)
{
    const struct rs_sweep_remote *rm = w->o->remote;
    struct rs_buf msg, reply;
    struct rs_err err;
    uint64_t *held = rs_calloc((size_t)rm->workers + 1, sizeof *held);
    rs_err_clear(&err);
    rs_buf_init(&msg);
    rs_buf_init(&reply);
    int busy = 0, rc = held ? 0 : rs_err_set(&err, RS_ENOMEM, "out of memory");
    for (int k = 1; k <= rm->workers && !rc; k++) {
        rc = send_task(w, rm, k, end_task, held, &msg, &err);
        busy += rc == 1;
        rc = rc < 0 ? rc : 0;
    }
    while (busy && !rc) {
        int k = 0, run_rc;
        uint64_t t;
        struct rs_err run_err;
        rc = rm->recv(rm->ctx, &k, &reply, &err);
        if (rc)
            break;
        if (k < 1 || k > rm->workers) {
            rc = rs_err_set(&err, RS_EINVARIANT, "a reply from unknown worker %d", k);
            break;
        }
        busy--;
        t = held[k];
        uint64_t got;
        rs_record_free(&w->runs[t]);
        rs_record_init(&w->runs[t]);
        rc = rs__wire_reply_read(reply.data, reply.len, &got, &run_rc, &run_err, &w->runs[t]);
        if (!rc && got != t)
            rc = RS_EINVAL;
        if (rc) {
            rs_err_set(&err, rc, "worker %d sent a damaged reply for run %llu", k,
                       (unsigned long long)t);
            break;
        }
        w->res->remote_runs += !run_rc; /* read by the caller after the parallel region */
        finish_task(w, t, run_rc, &run_err);
        rc = send_task(w, rm, k, end_task, held, &msg, &err);
        busy += rc == 1;
        rc = rc < 0 ? rc : 0;
    }
    if (rc) {
#pragma omp critical(rs_sweep)
        if (!w->failed || w->failed_task != UINT64_MAX) {
            w->err = err;
            w->failed_task = UINT64_MAX;
            w->failed = 1;
        }
    }
    rs_free(held);
    rs_buf_free(&msg);
    rs_buf_free(&reply);
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
        rs_free(w->pnames[i]);
    rs_free(w->pnames);
    for (size_t i = 0; w->mnames && i < w->n_mnames; i++)
        rs_free(w->mnames[i]);
    rs_free(w->mnames);
    if (w->runs)
        for (uint64_t t = 0; t < w->g->n_points * w->g->runs; t++)
            rs_record_free(&w->runs[t]);
    rs_free(w->runs);
    rs_free(w->skip);
    rs_free(w->done);
    rs_buf_free(&w->expected_header);
    rs_buf_free(&w->runs_header);
    if (w->fd >= 0)
        close(w->fd);
    if (w->fd_runs >= 0)
        close(w->fd_runs);
}

int rs_sweep_run(const struct rs_grid *g, const struct rs_sweep_opts *o,
                 struct rs_sweep_result *res, struct rs_err *err)
{
    struct sweep w;
    int rc;
    memset(&w, 0, sizeof w);
    memset(res, 0, sizeof *res);
    w.g = g;
    w.o = o;
    w.digits = o->digits;
    w.fd = w.fd_runs = -1;
    w.failed_task = UINT64_MAX;
    w.res = res;
    rs_buf_init(&w.expected_header);
    rs_buf_init(&w.runs_header);
    rs_err_clear(&w.err);
    uint64_t first = o->end_point ? o->first_point : 0;
    w.end = o->end_point ? o->end_point : g->n_points;
    w.first = first;
    RS_ASSERT(first <= w.end && w.end <= g->n_points);
    res->points = w.end - first;
    if ((rc = rs_sweep_check_size(g, err)))
        return rc;
    if (o->jsonl && o->resume)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "--resume reads CSV files back: resume a sweep written as CSV (JSON "
                          "Lines files are written whole)");
    uint64_t n_tasks = g->n_points * g->runs;
    w.skip = rs_calloc(g->n_points, 1);
    w.done = rs_calloc(g->n_points, sizeof *w.done);
    w.runs = rs_calloc(n_tasks ? n_tasks : 1, sizeof *w.runs);
    if (!w.skip || !w.done || !w.runs) {
        sweep_free(&w);
        return rs_err_set(err, RS_ENOMEM, "out of memory for %llu runs",
                          (unsigned long long)n_tasks);
    }
    for (uint64_t t = 0; t < n_tasks; t++)
        rs_record_init(&w.runs[t]);
    if ((rc = prepare_points(&w)))
        goto out;
    if (o->resume && (rc = resume(&w, res)))
        goto out;
    for (uint64_t i = 0; i < g->n_points; i++) {
        if (w.skip[i] && (i < first || i >= w.end)) {
            rc = rs_err_set(&w.err, RS_EINVAL,
                            "'%s' holds a row of point %llu, which is not in this shard "
                            "(points %llu to %llu); resume each shard with its own file",
                            o->out_path, (unsigned long long)i + 1,
                            (unsigned long long)first + 1, (unsigned long long)w.end);
            goto out;
        }
        res->skipped += w.skip[i];
    }
    /* nothing is written before every point is known to be valid, and no file is created
     * before its first whole row: the paths are checked now, opened at the first row */
    if ((rc = rs_out_check(o->out_path, &w.err)) ||
        (o->per_run_path && (rc = rs_out_check(o->per_run_path, &w.err))))
        goto out;
    w.append = o->resume && w.expected_header.len;
    if (o->per_run_path) {
        w.append_runs = o->resume && w.runs_append;
        w.runs_header_written = w.append_runs;
    }
    int jobs = o->jobs > 0 ? o->jobs : o->remote ? 1 : omp_get_num_procs();
    w.next = first;
#pragma omp critical(rs_sweep)
    flush_ready(&w); /* leading points that were already in the file */
    uint64_t t0 = first * g->runs, t1 = w.end * g->runs;
    if (o->remote && o->remote->workers > 0) {
        /* thread 0 (the caller's: the one that may talk to the workers) dispatches */
        atomic_store(&w.next_task, t0);
#pragma omp parallel num_threads(jobs + 1)
        {
            uint64_t t;
            if (omp_get_thread_num() == 0)
                dispatch(&w, t1);
            else
                while (claim_task(&w, t1, &t))
                    run_task(&w, t);
        }
    } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(jobs)
        for (uint64_t t = t0; t < t1; t++)
            if (task_wanted(&w, t))
                run_task(&w, t);
    }
    res->written = w.written;
    if (w.failed)
        rc = w.err.code ? w.err.code : RS_EINVARIANT;
    else if (w.next < w.end)
        rc = rs_err_set(&w.err, RS_EINTERRUPTED,
                        "interrupted: %llu of %llu points are in '%s' (run again with "
                        "--resume to finish)",
                        (unsigned long long)(w.next - first), (unsigned long long)(w.end - first),
                        o->out_path);
out:
    if (rc && err)
        *err = w.err;
    sweep_free(&w);
    return rc;
}
