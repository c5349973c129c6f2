/* Saturation search (SPEC X6, `routesim saturate`): bisection on the offered load
 * (injection_rate) of an open-loop run, each load judged on the 95% confidence interval of
 * accepted/offered over replications, to a stated precision. Also a run mode
 * (search=saturation) so that sweeps and claims get saturation_throughput. */
#ifndef ROUTESIM_SATURATE_H
#define ROUTESIM_SATURATE_H

#include <stdint.h>

#include "routesim/error.h"
#include "routesim/options.h"
#include "routesim/params.h"
#include "routesim/record.h"

/* The search's own keys (NULL-terminated): search (first: `routesim help saturate` lists
 * the others), saturate_lo, saturate_hi, saturate_precision, saturate_reps;
 * saturation_margin is the run's own. */
extern const struct rs_optdef rs_saturate_options[];

/* Verdict of one load. */
enum rs_sat_verdict { RS_SAT_BELOW = 0, RS_SAT_ABOVE = 1, RS_SAT_INCONCLUSIVE = 2 };

/* One load the search walked. */
struct rs_sat_point {
    double rate;              /* injection_rate (the run's unit) */
    uint32_t reps;            /* replications (seeds seed, seed+1, ...) */
    double offered, accepted; /* means, flits/terminal/step */
    double accepted_ci;       /* 95% half-width of accepted's mean */
    double ratio, ratio_ci;   /* mean of accepted/offered and its 95% half-width */
    enum rs_sat_verdict verdict;
};

/* The outcome: the curve walked in order and the bracket [lo, hi] of the saturation rate
 * (lo judged below saturation, hi above or inconclusive; hi = saturate_hi and
 * above_hi = 1 when even saturate_hi was below). throughput is the mean accepted
 * throughput at lo (flits/terminal/step) with its 95% half-width (NaN when lo was never
 * run: saturate_lo itself saturated). */
struct rs_sat_result {
    struct rs_sat_point *pts;
    uint32_t n_pts;
    double lo, hi;
    double throughput, throughput_ci;
    int above_hi;
};

/* Run the search on p (an open-loop run: injection_process=bernoulli is implied; the
 * search keys are taken out of the runs). A load is below saturation when the lower end of
 * the interval of accepted/offered is at least 1 - saturation_margin, above when the upper
 * end is below it, inconclusive otherwise (treated as above: the bracket's lower end is
 * always a load judged below). Bisection stops when hi - lo <= saturate_precision.
 * res->pts is allocated (rs_sat_result_free). Returns 0 or RS_E... with err set;
 * RS_EDEADLOCK when a replication deadlocks (its load and seed named). */
int rs_saturate(const struct rs_params *p, struct rs_sat_result *res, struct rs_err *err);
void rs_sat_result_free(struct rs_sat_result *res);

/* Name of a verdict ("below", "above", "inconclusive"). */
const char *rs_sat_verdict_name(enum rs_sat_verdict v);

/* 1 when p asks rs_run for the search (search=saturation). */
int rs_saturate_requested(const struct rs_params *p);

/* rs_check of a search: its keys, then rs_check of the runs' parameters. */
int rs_saturate_check(const struct rs_params *p, struct rs_err *err);

/* rs_validate of a search: out receives what rs_saturate_run's record starts with. */
int rs_saturate_params(const struct rs_params *p, struct rs_record *out, struct rs_err *err);

/* rs_run's mode search=saturation: out receives the resolved parameters of the run at the
 * bracket's lower end (injection_rate left out) and the search keys, then the metrics
 * saturation_throughput, saturation_throughput_ci, saturation_rate_lo, saturation_rate_hi.
 * Returns 0 or RS_E... */
int rs_saturate_run(const struct rs_params *p, struct rs_record *out, struct rs_err *err);

#endif
