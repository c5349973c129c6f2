/* Saturation search: bisection on injection_rate, each load judged on the confidence
 * interval of accepted/offered over replications. Contracts in
 * include/routesim/saturate.h; the rule in docs/cli.md. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "routesim/alloc.h"
#include "routesim/metrics.h"
#include "routesim/openloop.h"
#include "routesim/run.h"
#include "routesim/saturate.h"
#include "routesim/stats.h"

static const char *const search_names[] = {"none", "saturation", NULL};

const struct rs_optdef rs_saturate_options[] = {
    {"search", RS_OPT_CHOICE, "none", 0, 0, search_names,
     "saturation: run the saturation search (routesim saturate) instead of one run", "-"},
    {"saturate_lo", RS_OPT_DOUBLE, "0", 0, 1, NULL,
     "lowest injection_rate of the search (0: known to be below saturation)", "injection_rate"},
    {"saturate_hi", RS_OPT_DOUBLE, "1", 0, 1, NULL, "highest injection_rate of the search",
     "injection_rate"},
    {"saturate_precision", RS_OPT_DOUBLE, "0.01", 1e-6, 1, NULL,
     "stop when the bracket of the saturation rate is at most this wide (injection_rate units)",
     "injection_rate"},
    {"saturate_reps", RS_OPT_INT, "5", 2, 1000, NULL,
     "replications per load (seeds seed, seed+1, ...)", "1"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

const char *rs_sat_verdict_name(enum rs_sat_verdict v)
{
    return v == RS_SAT_BELOW ? "below" : v == RS_SAT_ABOVE ? "above" : "inconclusive";
}

int rs_saturate_requested(const struct rs_params *p)
{
    const struct rs_param *q = rs_params_find(p, "search");
    return q && !strcmp(q->value, "saturation");
}

void rs_sat_result_free(struct rs_sat_result *res)
{
    rs_free(res->pts);
    memset(res, 0, sizeof *res);
}

struct search {
    struct rs_params base; /* p without the search keys, open loop */
    int64_t seed;
    uint32_t reps;
    double margin;
    struct rs_sat_result *res;
    uint32_t cap;
};

static double field_double(const struct rs_record *r, const char *name)
{
    const struct rs_field *f = rs_record_get(r, name);
    if (!f)
        return NAN;
    return f->type == RS_VAL_DOUBLE ? f->d : f->type == RS_VAL_INT ? (double)f->i : NAN;
}

/* One replication of rate with seed: its offered and accepted, or an error (a deadlock is
 * one: no throughput to judge). */
static int replicate(const struct search *s, double rate, int64_t seed, double *off,
                     double *acc, struct rs_err *err)
{
    struct rs_params q;
    struct rs_record rec;
    char text[64];
    if (rs_params_copy(&q, &s->base))
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    rs_record_init(&rec);
    snprintf(text, sizeof text, "%.17g", rate);
    int rc = rs_params_set(&q, "injection_rate", text, "saturate", 0, err);
    snprintf(text, sizeof text, "%lld", (long long)seed);
    if (!rc)
        rc = rs_params_set(&q, "seed", text, "saturate", 0, err);
    if (!rc)
        rc = rs_run(&q, &rec, NULL, 0, err);
    if (!rc && field_double(&rec, "deadlock") == 1)
        rc = rs_err_set(err, RS_EDEADLOCK,
                        "saturate: injection_rate=%g deadlocks (seed %lld): saturation "
                        "throughput is undefined for a network that deadlocks (run it with "
                        "`routesim run` to see the waiting cycle)",
                        rate, (long long)seed);
    if (!rc) {
        *off = field_double(&rec, "offered");
        *acc = field_double(&rec, "accepted");
    }
    rs_record_free(&rec);
    rs_params_free(&q);
    return rc;
}

/* Run rate with reps seeds and judge it; appends the point. The replications run in
 * parallel (OpenMP; serial inside a sweep's parallel region, where nesting is off), each
 * into its own slot, and are read in seed order afterwards: the error reported is the
 * first failing seed's, and the point is the same bytes as a serial search gives. */
static int judge(struct search *s, double rate, enum rs_sat_verdict *v, struct rs_err *err)
{
    double acc[1000], ratio[1000], off[1000];
    int rcs[1000];
    int rc = 0;
    struct rs_err *errs = rs_calloc(s->reps, sizeof *errs);
    if (!errs)
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    int threads = omp_get_max_threads() < (int)s->reps ? omp_get_max_threads() : (int)s->reps;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
    for (uint32_t i = 0; i < s->reps; i++)
        rcs[i] = replicate(s, rate, s->seed + i, &off[i], &acc[i], &errs[i]);
    for (uint32_t i = 0; i < s->reps && !rc; i++) {
        if ((rc = rcs[i])) {
            *err = errs[i];
            break;
        }
        double o = off[i], a = acc[i];
        acc[i] = isfinite(a) ? a : 0;
        off[i] = isfinite(o) ? o : 0;
        ratio[i] = isfinite(o) && o > 0 && isfinite(a) ? a / o : 0;
    }
    rs_free(errs);
    if (rc)
        return rc;
    struct rs_summary sa, sr, so;
    rs_summarize(acc, s->reps, &sa);
    rs_summarize(ratio, s->reps, &sr);
    rs_summarize(off, s->reps, &so);
    double bar = 1 - s->margin;
    *v = sr.mean - sr.ci95 >= bar ? RS_SAT_BELOW
         : sr.mean + sr.ci95 < bar ? RS_SAT_ABOVE : RS_SAT_INCONCLUSIVE;
    if (s->res->n_pts == s->cap) {
        uint32_t cap = s->cap ? 2 * s->cap : 16;
        struct rs_sat_point *pts = rs_realloc(s->res->pts, cap * sizeof *pts);
        if (!pts)
            return rs_err_set(err, RS_ENOMEM, "out of memory");
        s->res->pts = pts;
        s->cap = cap;
    }
    s->res->pts[s->res->n_pts++] = (struct rs_sat_point){
        rate, s->reps, so.mean, sa.mean, sa.ci95, sr.mean, sr.ci95, *v};
    return 0;
}

/* p without the search keys, with injection_process=bernoulli when absent; without predict
 * too when runs (the searched runs do not need it: rs_saturate_run adds it once). */
static int base_params(struct rs_params *q, const struct rs_params *p, int runs,
                       struct rs_err *err)
{
    rs_params_init(q);
    for (size_t i = 0; i < p->n; i++) {
        const struct rs_param *x = &p->v[i];
        if (rs_optdef_find(rs_saturate_options, x->key) ||
            (runs && rs_optdef_find(rs_predict_options, x->key)))
            continue;
        if (rs_params_set(q, x->key, x->value, x->origin, x->line, err))
            return rs_err_set(err, RS_ENOMEM, "out of memory");
    }
    if (!rs_params_find(q, "injection_process") &&
        rs_params_set(q, "injection_process", "bernoulli", "saturate", 0, err))
        return rs_err_set(err, RS_ENOMEM, "out of memory");
    return 0;
}

int rs_saturate(const struct rs_params *p, struct rs_sat_result *res, struct rs_err *err)
{
    struct search s;
    double lo, hi, prec;
    int64_t reps;
    int rc;
    enum rs_sat_verdict v;
    memset(res, 0, sizeof *res);
    memset(&s, 0, sizeof s);
    s.res = res;
    if ((rc = rs_opt_double(p, rs_saturate_options, "saturate_lo", &lo, err)) ||
        (rc = rs_opt_double(p, rs_saturate_options, "saturate_hi", &hi, err)) ||
        (rc = rs_opt_double(p, rs_saturate_options, "saturate_precision", &prec, err)) ||
        (rc = rs_opt_int(p, rs_saturate_options, "saturate_reps", &reps, err)) ||
        (rc = rs_opt_int(p, rs_run_options, "seed", &s.seed, err)) ||
        (rc = rs_opt_double(p, rs_openloop_options, "saturation_margin", &s.margin, err)))
        return rc;
    if (hi <= lo)
        return rs_err_set(err, RS_ECONSTRAINT, "saturate_hi=%g must be above saturate_lo=%g", hi,
                          lo);
    s.reps = (uint32_t)reps;
    if ((rc = base_params(&s.base, p, 1, err)))
        goto out;
    res->throughput = res->throughput_ci = NAN;
    if (lo > 0) {
        if ((rc = judge(&s, lo, &v, err)))
            goto out;
        if (v != RS_SAT_BELOW) { /* saturated at the lower end already */
            res->lo = res->hi = lo;
            goto out;
        }
        res->throughput = res->pts[res->n_pts - 1].accepted;
        res->throughput_ci = res->pts[res->n_pts - 1].accepted_ci;
    } else {
        res->throughput = 0;
        res->throughput_ci = 0;
    }
    if ((rc = judge(&s, hi, &v, err)))
        goto out;
    if (v == RS_SAT_BELOW) {
        res->lo = res->hi = hi;
        res->above_hi = 1;
        res->throughput = res->pts[res->n_pts - 1].accepted;
        res->throughput_ci = res->pts[res->n_pts - 1].accepted_ci;
        goto out;
    }
    while (hi - lo > prec) {
        double mid = 0.5 * (lo + hi);
        if ((rc = judge(&s, mid, &v, err)))
            goto out;
        if (v == RS_SAT_BELOW) {
            lo = mid;
            res->throughput = res->pts[res->n_pts - 1].accepted;
            res->throughput_ci = res->pts[res->n_pts - 1].accepted_ci;
        } else {
            hi = mid;
        }
    }
    res->lo = lo;
    res->hi = hi;
out:
    rs_params_free(&s.base);
    if (rc)
        rs_sat_result_free(res);
    return rc;
}

/* The search keys, typed (search must be saturation). */
static int check_keys(const struct rs_params *p, struct rs_err *err)
{
    double lo, hi, x;
    int64_t i;
    int search, rc;
    if ((rc = rs_opt_choice(p, rs_saturate_options, "search", &search, err)) ||
        (rc = rs_opt_double(p, rs_saturate_options, "saturate_lo", &lo, err)) ||
        (rc = rs_opt_double(p, rs_saturate_options, "saturate_hi", &hi, err)) ||
        (rc = rs_opt_double(p, rs_saturate_options, "saturate_precision", &x, err)) ||
        (rc = rs_opt_int(p, rs_saturate_options, "saturate_reps", &i, err)))
        return rc;
    if (search == 0)
        return rs_err_set(err, RS_EINVAL, "search=none: leave the key out for one run");
    if (hi <= lo)
        return rs_err_set(err, RS_ECONSTRAINT, "saturate_hi=%g must be above saturate_lo=%g", hi,
                          lo);
    return 0;
}

int rs_saturate_check(const struct rs_params *p, struct rs_err *err)
{
    struct rs_params q;
    int rc = check_keys(p, err);
    if (rc)
        return rc;
    if (!(rc = base_params(&q, p, 0, err)))
        rc = rs_check(&q, err);
    rs_params_free(&q);
    return rc;
}

int rs_saturate_params(const struct rs_params *p, struct rs_record *out, struct rs_err *err)
{
    struct rs_params q;
    struct rs_record params;
    int rc = check_keys(p, err);
    if (rc)
        return rc;
    if ((rc = base_params(&q, p, 0, err))) {
        rs_params_free(&q);
        return rc;
    }
    rs_record_init(&params);
    rc = rs_validate(&q, &params, err); /* the parameters as a run records them */
    for (size_t i = 0; !rc && i < params.n; i++) {
        const struct rs_field *f = &params.f[i];
        if (!strcmp(f->name, "injection_rate"))
            continue;
        if (f->type == RS_VAL_INT ? rs_record_int(out, f->name, f->i)
            : f->type == RS_VAL_DOUBLE ? rs_record_double(out, f->name, f->d)
                                        : rs_record_string(out, f->name, f->s))
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    }
    for (const struct rs_optdef *d = rs_saturate_options; !rc && d->name; d++) {
        double x;
        int64_t i;
        int e = 0;
        if (d->type == RS_OPT_DOUBLE)
            e = (rc = rs_params_double(p, d, &x, err)) || rs_record_double(out, d->name, x);
        else if (d->type == RS_OPT_INT)
            e = (rc = rs_params_int(p, d, &i, err)) || rs_record_int(out, d->name, i);
        else
            e = rs_record_string(out, d->name, rs_params_text(p, d));
        if (e && !rc)
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    }
    out->n_params = out->n;
    rs_record_free(&params);
    rs_params_free(&q);
    return rc;
}

int rs_saturate_run(const struct rs_params *p, struct rs_record *out, struct rs_err *err)
{
    struct rs_sat_result res;
    int rc = rs_saturate_params(p, out, err);
    if (rc || (rc = rs_saturate(p, &res, err)))
        return rc;
    if (rs_metric_double(out, RS_M_SATURATION_THROUGHPUT, res.throughput) ||
        rs_metric_double(out, RS_M_SATURATION_THROUGHPUT_CI, res.throughput_ci) ||
        rs_metric_double(out, RS_M_SATURATION_RATE_LO, res.lo) ||
        rs_metric_double(out, RS_M_SATURATION_RATE_HI, res.hi))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    rs_sat_result_free(&res);
    if (!rc && rs_params_find(p, "predict")) { /* after the search's metrics */
        struct rs_params q;
        if (!(rc = base_params(&q, p, 0, err)))
            rc = rs_predict_record(&q, out, err);
        rs_params_free(&q);
    }
    return rc;
}
