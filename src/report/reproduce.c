/* Reproductions: run a shipped folder of sweeps, plot them, check its claims, write
 * REPORT.md (see reproduce.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "routesim/alloc.h"
#include "routesim/assert.h"
#include "routesim/grid.h"
#include "routesim/plot.h"
#include "routesim/reproduce.h"
#include "routesim/sweep.h"
#include "routesim/version.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir accepted by keep (NULL on error or none). *nomem (may be NULL) is set
 * to 1 when an allocation failed: then nothing is returned (never a partial list). */
static char **list_dir(const char *dir, int (*keep)(const char *dir, const char *name),
                       size_t *n, int *nomem)
{
    DIR *d = opendir(dir);
    char **names = NULL;
    int failed = 0;
    *n = 0;
    if (nomem)
        *nomem = 0;
    if (!d)
        return NULL;
    struct dirent *e;
    while (!failed && (e = readdir(d))) {
        if (e->d_name[0] == '.' || !keep(dir, e->d_name))
            continue;
        char **nn = rs_realloc(names, (*n + 1) * sizeof *nn);
        char *name = nn ? rs_strdup(e->d_name) : NULL;
        if (nn)
            names = nn;
        if (!name)
            failed = 1;
        else
            names[(*n)++] = name;
    }
    closedir(d);
    if (failed) {
        for (size_t i = 0; i < *n; i++)
            rs_free(names[i]);
        rs_free(names);
        *n = 0;
        if (nomem)
            *nomem = 1;
        return NULL;
    }
    if (names)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

static int is_reproduction(const char *dir, const char *name)
{
    char path[4096];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s/claims.ini", dir, name);
    return stat(path, &st) == 0;
}

static int is_experiment(const char *dir, const char *name)
{
    size_t len = strlen(name);
    return len > 4 && !strcmp(name + len - 4, ".ini") && strcmp(name, "claims.ini");
}

char **rs_reproduce_list(const char *root, size_t *n)
{
    return list_dir(root, is_reproduction, n, NULL);
}

static void free_names(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rs_free(names[i]);
    rs_free(names);
}

static int make_dirs(const char *path, struct rs_err *err)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) && errno != EEXIST)
                return rs_err_set(err, RS_EIO, "cannot create '%s': %s", buf, strerror(errno));
            *p = '/';
        }
    if (mkdir(buf, 0755) && errno != EEXIST)
        return rs_err_set(err, RS_EIO, "cannot create '%s': %s", buf, strerror(errno));
    return 0;
}

/* Load an experiment INI; with quick, the [quick] values replace the run keys. */
static int load_experiment(const char *path, int quick, struct rs_params *p, struct rs_err *err)
{
    struct rs_params raw;
    rs_params_init(&raw);
    rs_params_init(p);
    int rc = rs_params_load_ini(&raw, path, err);
    for (size_t i = 0; i < raw.n && !rc; i++) {
        const struct rs_param *q = &raw.v[i];
        if (!strncmp(q->key, "quick.", 6))
            continue;
        rc = rs_params_set(p, q->key, q->value, q->origin, q->line, err);
    }
    for (size_t i = 0; i < raw.n && !rc && quick; i++) {
        const struct rs_param *q = &raw.v[i];
        if (!strncmp(q->key, "quick.", 6))
            rc = rs_params_set(p, q->key + 6, q->value, q->origin, q->line, err);
    }
    rs_params_free(&raw);
    return rc;
}

/* Run one experiment of the reproduction: its sweep, per-run file and plots. */
static int run_experiment(const struct rs_reproduce_opts *o, const char *dir, const char *file,
                          struct rs_buf *md, struct rs_err *err)
{
    char path[8192], base[4096], csv[8192], runs[8192], png[8192], svg[8192], notice[1024] = "";
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(base, sizeof base, "%.*s", (int)(strlen(file) - 4), file);
    snprintf(csv, sizeof csv, "%s/%s.csv", o->out, base);
    snprintf(runs, sizeof runs, "%s/%s-runs.csv", o->out, base);
    snprintf(png, sizeof png, "%s/%s.png", o->out, base);
    snprintf(svg, sizeof svg, "%s/%s.svg", o->out, base);
    struct rs_params p;
    struct rs_grid g;
    int rc = load_experiment(path, o->quick, &p, err);
    rc = rc ? rc : rs_grid_build(&g, &p, err);
    rs_params_free(&p);
    if (rc)
        return rc;
    struct rs_sweep_opts so = {.out_path = csv,
                               .per_run_path = runs,
                               .jobs = o->jobs,
                               .resume = o->resume,
                               .stop = o->stop,
                               .writing = o->writing,
                               .halt = o->halt,
                               .remote = o->remote};
    struct rs_sweep_result res;
    rc = rs_sweep_run(&g, &so, &res, err);
    if (!rc)
        rc = rs_plot_sweep(&g, csv, png, notice, sizeof notice, err);
    if (!rc)
        rc = rs_plot_sweep(&g, csv, svg, notice, sizeof notice, err);
    if (!rc) {
        rs_buf_printf(md, "| `%s` | %llu points × %u runs, seed %llu | [%s.csv](%s.csv), "
                          "[per run](%s-runs.csv) | ![%s](%s.png) |\n",
                      file, (unsigned long long)g.n_points, g.runs,
                      (unsigned long long)g.seed, base, base, base, base, base);
        if (notice[0])
            rs_buf_printf(md, "\n%s\n\n", notice);
    }
    rs_grid_free(&g);
    return rc;
}

/* Call each(name, keys, ctx, err) for every [claim.NAME] of dir/claims.ini, in file order,
 * with the claim's keys without the "claim.NAME." prefix; stops at the first error. */
static int for_each_claim(const char *dir,
                          int (*each)(const char *name, const struct rs_params *keys, void *ctx,
                                      struct rs_err *err),
                          void *ctx, struct rs_err *err)
{
    char path[8192];
    struct rs_params all;
    snprintf(path, sizeof path, "%s/claims.ini", dir);
    rs_params_init(&all);
    int rc = rs_params_load_ini(&all, path, err);
    enum { MAX_CLAIMS = 256 };
    char(*done)[128] = rs_calloc(MAX_CLAIMS, sizeof *done);
    int ndone = 0;
    if (!rc && !done)
        rc = rs_err_set(err, RS_ENOMEM, "out of memory");
    for (size_t i = 0; i < all.n && !rc; i++) {
        const char *key = all.v[i].key;
        if (!strcmp(key, "title") || !strcmp(key, "paper"))
            continue;
        const char *dot = strncmp(key, "claim.", 6) ? NULL : strchr(key + 6, '.');
        if (!dot || dot == key + 6) { /* a misspelt section would drop its claim silently */
            char where[512];
            rs_param_where(&all.v[i], where, sizeof where);
            rc = rs_err_set(err, RS_EUNKNOWN,
                            "%s: unknown key '%s' (claims.ini holds title, paper and "
                            "[claim.NAME] sections)",
                            where, key);
            break;
        }
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(dot - key - 6), key + 6);
        int seen = 0;
        for (int k = 0; k < ndone; k++)
            seen |= !strcmp(done[k], name);
        if (seen)
            continue;
        if (ndone == MAX_CLAIMS) { /* never drop a claim silently */
            rc = rs_err_set(err, RS_ECONSTRAINT, "%s: more than %d claims", path, MAX_CLAIMS);
            break;
        }
        snprintf(done[ndone++], sizeof done[0], "%s", name);
        struct rs_params c;
        rs_params_init(&c);
        size_t plen = (size_t)(dot - key) + 1;
        for (size_t j = 0; j < all.n && !rc; j++)
            if (!strncmp(all.v[j].key, key, plen))
                rc = rs_params_set(&c, all.v[j].key + plen, all.v[j].value, all.v[j].origin,
                                   all.v[j].line, err);
        if (!rc)
            rc = each(name, &c, ctx, err);
        rs_params_free(&c);
    }
    rs_free(done);
    rs_params_free(&all);
    return rc;
}

struct judge_ctx {
    const struct rs_reproduce_opts *o;
    struct rs_buf *md;
    struct rs_claim_outcome *out;
};

static int judge_one(const char *name, const struct rs_params *keys, void *ctx,
                     struct rs_err *err)
{
    struct judge_ctx *j = ctx;
    return rs_claim_check(name, keys, j->o->out, j->md, j->out, err);
}

/* Check every [claim.NAME] of claims.ini, in file order. */
static int check_claims(const struct rs_reproduce_opts *o, const char *dir, struct rs_buf *md,
                        struct rs_claim_outcome *out, struct rs_err *err)
{
    struct judge_ctx j = {o, md, out};
    return for_each_claim(dir, judge_one, &j, err);
}

int rs_reproduce(const struct rs_reproduce_opts *o, struct rs_claim_outcome *out,
                 struct rs_err *err)
{
    char dir[4096];
    size_t n = 0;
    RS_ASSERT(o != NULL && o->root != NULL && o->name != NULL && o->out != NULL && out != NULL);
    memset(out, 0, sizeof *out);
    snprintf(dir, sizeof dir, "%s/%s", o->root, o->name);
    if (!is_reproduction(o->root, o->name))
        return rs_err_set(err, RS_EUNKNOWN, "no reproduction '%s' in %s (see `routesim "
                                            "reproduce --list`)",
                          o->name, o->root);
    int rc = make_dirs(o->out, err);
    if (rc)
        return rc;
    int nomem;
    char **files = list_dir(dir, is_experiment, &n, &nomem);
    if (nomem)
        return rs_err_set(err, RS_ENOMEM, "cannot list '%s': out of memory", dir);
    struct rs_buf md, exps, claims;
    rs_buf_init(&md);
    rs_buf_init(&exps);
    rs_buf_init(&claims);
    rs_buf_puts(&exps, "| experiment | grid | results | plot |\n| --- | --- | --- | --- |\n");
    for (size_t i = 0; i < n && !rc; i++)
        rc = run_experiment(o, dir, files[i], &exps, err);
    free_names(files, n);
    if (!rc)
        rc = check_claims(o, dir, &claims, out, err);
    if (!rc) {
        char title_path[8192];
        struct rs_params meta;
        rs_params_init(&meta);
        snprintf(title_path, sizeof title_path, "%s/claims.ini", dir);
        rc = rs_params_load_ini(&meta, title_path, err); /* loaded before: only ENOMEM/EIO */
        const struct rs_param *title = rs_params_find(&meta, "title");
        const struct rs_param *paper = rs_params_find(&meta, "paper");
        rs_buf_printf(&md, "# %s\n\n", title ? title->value : o->name);
        if (paper)
            rs_buf_printf(&md, "Paper: %s\n\n", paper->value);
        rs_buf_printf(&md,
                      "Reproduced by `%s` (%s mode) with routesim %s (%s). Verdicts: %d "
                      "hold, %d do not hold, %d inconclusive, %d vacuous.\n\n"
                      "How claims are judged: `docs/reproduce.md`.\n\n## Experiments\n\n",
                      o->command ? o->command : "routesim reproduce", o->quick ? "quick" : "full",
                      rs_version(), rs_commit(), out->holds, out->fails, out->inconclusive,
                      out->vacuous);
        if (exps.failed || claims.failed) /* md would lack a piece of either */
            md.failed = 1;
        rs_buf_append(&md, exps.data, exps.len);
        rs_buf_puts(&md, "\n## Claims\n\n");
        if (claims.len)
            rs_buf_append(&md, claims.data, claims.len);
        char report[4096];
        snprintf(report, sizeof report, "%s/REPORT.md", o->out);
        rc = rc ? rc : rs_buf_write_file(&md, report, err);
        rs_params_free(&meta);
    }
    rs_buf_free(&md);
    rs_buf_free(&exps);
    rs_buf_free(&claims);
    return rc;
}

struct dry_ctx {
    const char *dir;
    char *const *files; /* the experiments' INI names */
    size_t nfiles;
    struct rs_reproduce_size *size;
};

static int validate_one(const char *name, const struct rs_params *keys, void *ctx,
                        struct rs_err *err)
{
    struct dry_ctx *d = ctx;
    const char *exp = NULL;
    int rc = rs_claim_validate(name, keys, &exp, err);
    if (rc)
        return rc;
    for (size_t i = 0; i < d->nfiles; i++)
        if (strlen(d->files[i]) == strlen(exp) + 4 && !strncmp(d->files[i], exp, strlen(exp)))
            return d->size->claims++, 0;
    char where[512];
    rs_param_where(rs_params_find(keys, "experiment"), where, sizeof where);
    return rs_err_set(err, RS_EINVAL, "%s: claim '%s': no experiment '%s' (no %s/%s.ini)", where,
                      name, exp, d->dir, exp);
}

int rs_reproduce_check(const struct rs_reproduce_opts *o, struct rs_reproduce_size *size,
                       struct rs_err *err)
{
    char dir[4096];
    size_t n = 0;
    RS_ASSERT(o != NULL && o->root != NULL && o->name != NULL && size != NULL);
    memset(size, 0, sizeof *size);
    snprintf(dir, sizeof dir, "%s/%s", o->root, o->name);
    if (!is_reproduction(o->root, o->name))
        return rs_err_set(err, RS_EUNKNOWN, "no reproduction '%s' in %s (see `routesim "
                                            "reproduce --list`)",
                          o->name, o->root);
    int nomem;
    char **files = list_dir(dir, is_experiment, &n, &nomem);
    if (nomem)
        return rs_err_set(err, RS_ENOMEM, "cannot list '%s': out of memory", dir);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        char path[8192];
        struct rs_params p;
        struct rs_grid g;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        rc = load_experiment(path, o->quick, &p, err);
        rc = rc ? rc : rs_grid_build(&g, &p, err);
        rs_params_free(&p);
        if (rc)
            break;
        rc = rs_sweep_validate(&g, err);
        rc = rc ? rc : rs_plot_check(&g, err);
        size->experiments++;
        size->points += g.n_points;
        size->runs += g.n_points * g.runs;
        rs_grid_free(&g);
    }
    struct dry_ctx d = {dir, files, n, size};
    if (!rc)
        rc = for_each_claim(dir, validate_one, &d, err);
    free_names(files, n);
    return rc;
}
