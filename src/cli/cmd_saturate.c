/* `routesim saturate KEY=VALUE...`: the saturation search (include/routesim/saturate.h):
 * one record per load walked (kind=point) and the bracket (kind=saturation), in --format
 * like `run`. */
#include <math.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "routesim/metrics.h"
#include "routesim/saturate.h"

/* One row: every row has the same columns (CSV). */
static int row(struct rs_record *r, const char *kind, const struct rs_sat_point *pt,
               const struct rs_sat_result *res)
{
    double nan = NAN;
    return rs_record_string(r, "kind", kind) ||
           rs_record_double(r, "injection_rate", pt ? pt->rate : res->lo) ||
           rs_record_int(r, "replications", pt ? pt->reps : 0) ||
           rs_record_double(r, "offered", pt ? pt->offered : nan) ||
           rs_record_double(r, "accepted", pt ? pt->accepted : res->throughput) ||
           rs_record_double(r, "accepted_ci", pt ? pt->accepted_ci : res->throughput_ci) ||
           rs_record_double(r, "ratio", pt ? pt->ratio : nan) ||
           rs_record_double(r, "ratio_ci", pt ? pt->ratio_ci : nan) ||
           rs_record_string(r, "verdict", pt ? rs_sat_verdict_name(pt->verdict)
                                             : res->above_hi ? "above_saturate_hi" : "bracket") ||
           rs_metric_double(r, RS_M_SATURATION_RATE_LO, pt ? nan : res->lo) ||
           rs_metric_double(r, RS_M_SATURATION_RATE_HI, pt ? nan : res->hi) ||
           rs_metric_double(r, RS_M_SATURATION_THROUGHPUT, pt ? nan : res->throughput) ||
           rs_metric_double(r, RS_M_SATURATION_THROUGHPUT_CI, pt ? nan : res->throughput_ci);
}

int cli_cmd_saturate(int argc, char **argv)
{
    struct cli_args a;
    struct rs_err err;
    struct rs_sat_result res = {0};
    struct rs_record *recs = NULL;
    int status = 0;
    rs_err_clear(&err);
    int rc = cli_parse(argc, argv, CLI_CONFIG | CLI_FORMAT | CLI_OUTPUT, 0, &a, &err);
    struct rs_named_path out[1] = {{"-o", a.output}};
    if (!rc)
        rc = cli_check_outputs(&a, out, 1, &err);
    if (!rc && rs_params_find(&a.params, "search"))
        rc = rs_err_set(&err, RS_EINVAL, "command line: search= is implied by saturate");
    if (!rc)
        rc = rs_saturate(&a.params, &res, &err);
    size_t n = res.n_pts + 1;
    if (!rc && !(recs = calloc(n, sizeof *recs)))
        rc = rs_err_set(&err, RS_ENOMEM, "out of memory");
    for (size_t i = 0; !rc && i < n; i++) {
        rs_record_init(&recs[i]);
        if (row(&recs[i], i < res.n_pts ? "point" : "saturation",
                i < res.n_pts ? &res.pts[i] : NULL, &res))
            rc = rs_err_set(&err, RS_ENOMEM, "out of memory");
    }
    status = rc ? cli_fail(&err) : cli_emit(&a, recs, n);
    for (size_t i = 0; recs && i < n; i++)
        rs_record_free(&recs[i]);
    free(recs);
    rs_sat_result_free(&res);
    cli_args_free(&a);
    return status;
}
