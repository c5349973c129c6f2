/* Experiment grids: expansion of list and range values and enumeration of the points
 * (see grid.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/expr.h"
#include "routesim/engine.h"
#include "routesim/grid.h"
#include "routesim/net.h"
#include "routesim/problem.h"
#include "routesim/rng.h"
#include "routesim/run.h"

#define GRID_MAX_VALUES 1000000u
#define GRID_MAX_POINTS 10000000ull

static int table_says_text(const struct rs_optdef *t, const char *key)
{
    const struct rs_optdef *d = rs_optdef_find(t, key);
    return d && d->type == RS_OPT_STRING;
}

/* Keys whose values are free text in some module: never split into lists. */
static int is_text_key(const char *key)
{
    if (table_says_text(rs_net_options, key) || table_says_text(rs_problem_options, key) ||
        table_says_text(rs_run_options, key))
        return 1;
    for (int i = 0; rs_topologies[i]; i++)
        if (table_says_text(rs_topologies[i]->options, key))
            return 1;
    for (int i = 0; rs_traffics[i]; i++)
        if (table_says_text(rs_traffics[i]->options, key))
            return 1;
    for (int i = 0; rs_engines[i]; i++)
        if (table_says_text(rs_engines[i]->options, key))
            return 1;
    return 0;
}

static int push_value(struct rs_axis *a, const char *text, size_t len)
{
    if (a->n >= GRID_MAX_VALUES)
        return RS_ECONSTRAINT;
    char **nv = rs_realloc(a->values, (a->n + 1) * sizeof *nv);
    if (!nv)
        return RS_ENOMEM;
    a->values = nv;
    if (!(a->values[a->n] = rs_strndup(text, len)))
        return RS_ENOMEM;
    a->n++;
    return 0;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Parse an integer or base^exp into *out; 0 on success. */
static int parse_pow(const char *s, long long *base, long long *exp_, int *is_pow)
{
    char *end;
    errno = 0;
    *base = strtoll(s, &end, 10);
    if (errno || end == s)
        return -1;
    *is_pow = 0;
    *exp_ = 1;
    if (*end == '^') {
        const char *e = end + 1;
        *exp_ = strtoll(e, &end, 10);
        if (errno || end == e || *exp_ < 0 || *exp_ > 62)
            return -1;
        *is_pow = 1;
    }
    return *end ? -1 : 0;
}

/* Expand one list item (a literal or a range) onto the axis. */
static int expand_item(struct rs_axis *a, char *item, char *where, struct rs_err *err)
{
    char *dots = strstr(item, "..");
    char *c1 = strchr(item, ':');
    char buf[64];
    int rc;
    if (dots) {
        long long b1, e1, b2, e2;
        int p1, p2;
        *dots = '\0';
        if (parse_pow(trim(item), &b1, &e1, &p1) || parse_pow(trim(dots + 2), &b2, &e2, &p2) ||
            p1 != p2 || (p1 && b1 != b2) || (p1 && b1 < 2))
            return rs_err_set(err, RS_EPARSE,
                              "%s: key '%s': expected a range a..b or B^i..B^j, got '%s..%s'",
                              where, a->key, item, dots + 2);
        long long lo = p1 ? e1 : b1, hi = p1 ? e2 : b2;
        if (lo > hi || (unsigned long long)(hi - lo) >= GRID_MAX_VALUES)
            return rs_err_set(err, RS_ECONSTRAINT, "%s: key '%s': range '%s..%s' is empty or has "
                              "more than %u values", where, a->key, item, dots + 2,
                              GRID_MAX_VALUES);
        for (long long v = lo; v <= hi; v++) {
            if (p1) {
                long long x = 1;
                for (long long k = 0; k < v; k++)
                    if (__builtin_mul_overflow(x, b1, &x))
                        return rs_err_set(err, RS_ECONSTRAINT, "%s: key '%s': %lld^%lld overflows",
                                          where, a->key, b1, v);
                snprintf(buf, sizeof buf, "%lld", x);
            } else {
                snprintf(buf, sizeof buf, "%lld", v);
            }
            if ((rc = push_value(a, buf, strlen(buf))))
                return rs_err_set(err, rc, "%s: key '%s': too many values", where, a->key);
        }
        return 0;
    }
    if (c1 && strchr(c1 + 1, ':')) {
        char *c2 = strchr(c1 + 1, ':');
        *c1 = *c2 = '\0';
        char *e0, *e1, *e2;
        double start = strtod(trim(item), &e0), step = strtod(trim(c1 + 1), &e1),
               stop = strtod(trim(c2 + 1), &e2);
        if (*e0 || *e1 || *e2 || !isfinite(start) || !isfinite(step) || !isfinite(stop) ||
            step == 0)
            return rs_err_set(err, RS_EPARSE,
                              "%s: key '%s': expected start:step:end with a nonzero step",
                              where, a->key);
        double count = floor((stop - start) / step + 1e-9) + 1;
        if (count < 1 || count > GRID_MAX_VALUES)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "%s: key '%s': range is empty or has more than %u values", where,
                              a->key, GRID_MAX_VALUES);
        for (long long k = 0; k < (long long)count; k++) {
            snprintf(buf, sizeof buf, "%.10g", start + (double)k * step);
            if ((rc = push_value(a, buf, strlen(buf))))
                return rs_err_set(err, rc, "%s: key '%s': too many values", where, a->key);
        }
        return 0;
    }
    if ((rc = push_value(a, item, strlen(item))))
        return rs_err_set(err, rc, "%s: key '%s': too many values", where, a->key);
    return 0;
}

static int expand_axis(struct rs_axis *a, const char *value, struct rs_err *err)
{
    char where[512];
    struct rs_param here = {a->key, (char *)value, a->origin, a->line};
    rs_param_where(&here, where, sizeof where);
    if (value[0] == '=') { /* derived: evaluated per point from the other keys */
        a->derived = 1;
        return push_value(a, value, strlen(value)) ? rs_err_set(err, RS_ENOMEM, "out of memory")
                                                   : 0;
    }
    if (is_text_key(a->key))
        return push_value(a, value, strlen(value)) ? rs_err_set(err, RS_ENOMEM, "out of memory")
                                                   : 0;
    char *copy = rs_strdup(value);
    if (!copy)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    int rc = 0;
    for (char *item = copy, *next; item && !rc; item = next) { /* empty items are errors */
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        char *t = trim(item);
        if (!*t)
            rc = rs_err_set(err, RS_EPARSE, "%s: key '%s': empty item in list '%s'", where,
                            a->key, value);
        else
            rc = expand_item(a, t, where, err);
    }
    if (!rc && a->n == 0)
        rc = rs_err_set(err, RS_EPARSE, "%s: key '%s': no value", where, a->key);
    rs_free(copy);
    return rc;
}

static int read_experiment_int(const struct rs_params *p, const char *name, const char *def,
                               double max, int64_t *out, struct rs_err *err)
{
    const struct rs_optdef d = {name, RS_OPT_INT, def, name[0] == 'r' ? 1 : 0, max, NULL,
                                "experiment key", name[0] == 's' ? "-" : "1"};
    return rs_params_int(p, &d, out, err);
}

int rs_grid_build(struct rs_grid *g, const struct rs_params *p, struct rs_err *err)
{
    int64_t runs, seed;
    int rc;
    memset(g, 0, sizeof *g);
    rs_params_init(&g->extra);
    if ((rc = read_experiment_int(p, "runs", "1", 1e6, &runs, err)) ||
        (rc = read_experiment_int(p, "seed", "1", 9007199254740991.0, &seed, err)))
        return rc;
    g->runs = (uint32_t)runs;
    g->seed = (uint64_t)seed;
    g->n_points = 1;
    for (size_t i = 0; i < p->n; i++) {
        const struct rs_param *q = &p->v[i];
        if (strchr(q->key, '.')) {
            if ((rc = rs_params_set(&g->extra, q->key, q->value, q->origin, q->line, err)))
                goto fail;
            continue;
        }
        if (!strcmp(q->key, "runs") || !strcmp(q->key, "seed"))
            continue;
        struct rs_axis *na = rs_realloc(g->axes, (g->n_axes + 1) * sizeof *na);
        if (!na) {
            rc = rs_err_set(err, RS_ENOMEM, "out of memory");
            goto fail;
        }
        g->axes = na;
        struct rs_axis *a = &g->axes[g->n_axes++];
        memset(a, 0, sizeof *a);
        a->key = rs_strdup(q->key);
        a->origin = rs_strdup(q->origin);
        a->line = q->line;
        if (!a->key || !a->origin) {
            rc = rs_err_set(err, RS_ENOMEM, "out of memory");
            goto fail;
        }
        if ((rc = expand_axis(a, q->value, err)))
            goto fail;
        g->n_points *= a->n;
        if (g->n_points > GRID_MAX_POINTS) {
            rc = rs_err_set(err, RS_ECONSTRAINT, "the grid has more than %llu points",
                            (unsigned long long)GRID_MAX_POINTS);
            goto fail;
        }
    }
    return 0;
fail:
    rs_grid_free(g);
    return rc;
}

void rs_grid_free(struct rs_grid *g)
{
    for (size_t i = 0; i < g->n_axes; i++) {
        for (size_t j = 0; j < g->axes[i].n; j++)
            rs_free(g->axes[i].values[j]);
        rs_free(g->axes[i].values);
        rs_free(g->axes[i].key);
        rs_free(g->axes[i].origin);
    }
    rs_free(g->axes);
    rs_params_free(&g->extra);
    memset(g, 0, sizeof *g);
}

/* Index of point i's value on axis k (the last axis varies fastest). */
static size_t axis_index(const struct rs_grid *g, uint64_t i, size_t k)
{
    uint64_t stride = 1;
    for (size_t j = g->n_axes; j-- > k + 1;)
        stride *= g->axes[j].n;
    return (size_t)((i / stride) % g->axes[k].n);
}

int rs_grid_point(const struct rs_grid *g, uint64_t i, struct rs_params *dst,
                  struct rs_err *err)
{
    rs_params_init(dst);
    for (int pass = 0; pass < 2; pass++) /* plain keys first, then derived ones */
        for (size_t k = 0; k < g->n_axes; k++) {
            const struct rs_axis *a = &g->axes[k];
            const char *v = a->values[axis_index(g, i, k)];
            char num[64], why[256];
            if (a->derived != pass)
                continue;
            if (a->derived) {
                double d;
                if (rs__expr_eval(v + 1, dst, &d, why, sizeof why)) {
                    char where[512];
                    struct rs_param here = {a->key, (char *)v, a->origin, a->line};
                    rs_param_where(&here, where, sizeof where);
                    rs_params_free(dst);
                    return rs_err_set(err, RS_EPARSE, "%s: key '%s': cannot evaluate '%s': %s",
                                      where, a->key, v, why);
                }
                if (d == floor(d) && fabs(d) < 9e15)
                    snprintf(num, sizeof num, "%lld", (long long)d);
                else
                    snprintf(num, sizeof num, "%.10g", d);
                v = num;
            }
            int rc = rs_params_set(dst, a->key, v, a->origin, a->line, err);
            if (rc) {
                rs_params_free(dst);
                return rc;
            }
        }
    return 0;
}

uint64_t rs_grid_seed(const struct rs_grid *g, uint64_t i, uint32_t r)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a 64 over "key=value;" of every axis */
    for (size_t k = 0; k < g->n_axes; k++) {
        if (!strcmp(g->axes[k].key, "threads"))
            continue; /* how a run is computed, not what: the same seed at every T */
        const char *parts[3] = {g->axes[k].key, "=", g->axes[k].values[axis_index(g, i, k)]};
        for (int part = 0; part < 3; part++)
            for (const unsigned char *c = (const unsigned char *)parts[part]; *c; c++)
                h = (h ^ *c) * 1099511628211ull;
        h = (h ^ ';') * 1099511628211ull;
    }
    struct rs_rng rng;
    rs_rng_init(&rng, g->seed, RS_STREAM_SWEEP, (h ^ (h >> 48)) & 0xffffffffffffull, r);
    return rs_rng_u64(&rng) & ((1ull << 53) - 1);
}
