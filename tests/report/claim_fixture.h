/* Test fixture of the claim tests (test_claims.c, test_claim_verdicts.c): a temporary
 * folder holding a statistics file e.csv written from short row strings, and the check of
 * one claim's verdict counts and report text against it. */
#ifndef RS_TEST_CLAIM_FIXTURE_H
#define RS_TEST_CLAIM_FIXTURE_H

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <unistd.h>

#include "rs_test.h"

#include "routesim/alloc.h"
#include "routesim/claims.h"

/* A temporary folder holding e.csv. */
struct fixture {
    char dir[64];
    char path[128];
};

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/rs_test_claims_XXXXXX");
    if (!f || !mkdtemp(f->dir))
        return -1;
    snprintf(f->path, sizeof f->path, "%s/e.csv", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    unlink(f->path);
    rmdir(f->dir);
    free(f);
    return 0;
}

/* Write e.csv: parameters N, side, seed; runs; metric makespan's six statistics. Each row is
 * "N side runs mean var min max" (sd and ci95 = t(0.975, runs-1) sd / sqrt(runs) are
 * derived as a sweep writes them; ci95 empty for one run). */
static void write_csv(const struct fixture *f, const char *const *rows, int n)
{
    FILE *o = fopen(f->path, "w");
    assert_non_null(o);
    fprintf(o, "N,side,seed,runs,makespan_mean,makespan_var,makespan_sd,makespan_min,makespan_max,makespan_ci95\n");
    for (int i = 0; i < n; i++) {
        int N, runs;
        char side[16], mean[32], var[32], min[32], max[32];
        assert_int_equal(sscanf(rows[i], "%d %15s %d %31s %31s %31s %31s", &N, side, &runs, mean,
                                var, min, max),
                         7);
        double v = atof(var);
        fprintf(o, "%d,%s,1,%d,%s,%s,%.9g,%s,%s,", N, side, runs, strcmp(mean, "-") ? mean : "",
                var, sqrt(v), min, strcmp(max, "-") ? max : "");
        if (runs > 1)
            fprintf(o, "%.9g", gsl_cdf_tdist_Pinv(0.975, runs - 1) * sqrt(v / runs));
        fprintf(o, "\n");
    }
    fclose(o);
}

/* Check claim keys kv ("k=v;k=v") against e.csv; returns the outcome, md in *report
 * (caller frees). */
static struct rs_claim_outcome check(const struct fixture *f, const char *kv, char **report)
{
    struct rs_params p;
    struct rs_err err;
    struct rs_buf md;
    struct rs_claim_outcome out = {0, 0, 0, 0};
    char buf[1024], *save = NULL;
    rs_params_init(&p);
    rs_buf_init(&md);
    snprintf(buf, sizeof buf, "experiment=e;metric=makespan;%s", kv);
    for (char *w = strtok_r(buf, ";", &save); w; w = strtok_r(NULL, ";", &save))
        assert_int_equal(rs_params_parse_arg(&p, w, &err), 0);
    rs_err_clear(&err);
    if (rs_claim_check("c", &p, f->dir, &md, &out, &err)) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
    rs_params_free(&p);
    *report = md.data;
    return out;
}

/* The claim kv gives holds / fails / inconclusive / vacuous verdicts and text (may be NULL)
 * is in its report. */
static void expect_v(const struct fixture *f, const char *kv, int holds, int fails, int inc,
                     int vac, const char *text)
{
    char *md;
    struct rs_claim_outcome o = check(f, kv, &md);
    if (o.holds != holds || o.fails != fails || o.inconclusive != inc || o.vacuous != vac ||
        (text && !strstr(md, text))) {
        print_error("%s: got %d/%d/%d/%d, wanted %d/%d/%d/%d and '%s' in:\n%s\n", kv, o.holds,
                    o.fails, o.inconclusive, o.vacuous, holds, fails, inc, vac, text ? text : "",
                    md);
        fail();
    }
    rs_free(md);
}

/* The same with no vacuous verdict. */
static void expect(const struct fixture *f, const char *kv, int holds, int fails, int inc,
                   const char *text)
{
    expect_v(f, kv, holds, fails, inc, 0, text);
}

#endif
