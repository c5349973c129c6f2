/* algorithm=colour_refine: Cole, Maggs & Sitaraman's off-line colour-refinement schedule
 * (001 §2.1) executed by the flit engine: the planner (colour_refine_plan.c) colours the
 * messages so that no channel carries more than B of one colour, the engine releases colour
 * class k at flit step k·(L+D−1), and the run reports the schedule beside the bound.
 * docs/colour-refine.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/colour_refine_plan.h"
#include "routesim/alloc.h"
#include "routesim/algo.h"
#include "routesim/bounds.h"
#include "routesim/path_set.h"

static const char *const constants_names[] = {"proof", "tight", NULL};

static const struct rs_optdef colour_options[] = {
    {"colour_constants", RS_OPT_CHOICE, "proof", 0, 0, constants_names,
     "r of each refinement step: the lemma's, with the proof's constants 3e, 32e (proof), or "
     "the smallest up to it for which Moser-Tardos converges within colour_max_resamples "
     "(tight)", "-"},
    {"colour_max_resamples", RS_OPT_INT, "0", 0, 9007199254740991.0, NULL,
     "Moser-Tardos resamplings allowed per refinement step (per search run with tight); 0: "
     "100 * messages + 1000", "1"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* The engines where a worm that is never blocked takes D + L - 1 flit steps. */
static const char *const colour_engines[] = {"wormhole", "virtual_cut_through",
                                             "cut_through_partial", NULL};

/* Engine keys the schedule depends on. */
struct engine_keys {
    uint32_t B, L;
    int shared;
};

static int read_engine_keys(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                            struct engine_keys *k, struct rs_err *err)
{
    int64_t B, L;
    int link, classes, rc;
    const struct rs_optdef *opt = engine->options;
    if ((rc = rs_opt_int(in->params, opt, "vcs", &B, err)) ||
        (rc = rs_opt_int(in->params, opt, "length", &L, err)) ||
        (rc = rs_opt_choice(in->params, opt, "link", &link, err)) ||
        (rc = rs_opt_choice(in->params, opt, "vc_classes", &classes, err)))
        return rc;
    if (classes != 0)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=colour_refine needs vc_classes=none (a class may put vcs "
                          "messages on one channel; a schedule that never blocks cannot "
                          "deadlock)");
    k->B = (uint32_t)B;
    k->L = (uint32_t)L;
    k->shared = link == 1;
    return 0;
}

/* How the run went against the schedule's promises. */
struct outcome {
    uint64_t late;     /* worms (messages with a non-empty path, D_m >= 1 channels) not
                          delivered exactly D_m + L - 1 flit steps after their release: 0 when
                          no flit of any worm ever waited. A message whose path is empty never
                          enters the network; the engine delivers it when it reaches the front
                          of its source (docs/model-flit.md), which may be a step after its
                          release */
    uint64_t overruns; /* messages not delivered by the end of their class's slot (release +
                          period): 0 when no two classes can have met */
};

static void judge(const struct rs_path_set *ps, const uint32_t *release, const uint32_t *finish,
                  const uint8_t *fate, uint32_t L, uint64_t period, struct outcome *o)
{
    o->late = o->overruns = 0;
    for (uint64_t m = 0; m < ps->n_msgs; m++) {
        uint64_t d = ps->off[m + 1] - ps->off[m];
        uint64_t due = release[m] + (d ? d + L - 1 : 0);
        int delivered = fate[m] == RS_FATE_DELIVERED;
        o->late += d && (!delivered || finish[m] != due);
        o->overruns += !delivered || finish[m] > release[m] + period;
    }
}

static int record_plan(struct rs_record *out, const struct rs_result *run,
                       const struct rs__cr_plan *pl, const struct engine_keys *k,
                       uint64_t period, const struct outcome *o)
{
    int rc = 0;
    uint64_t res = 0;
    for (int s = 0; s < pl->n_steps; s++)
        res += pl->steps[s].resamples;
    double bound = rs_bound_colour_refine(k->L, pl->congestion, pl->dilation, k->B);
    double bound_thm = rs_bound_colour_refine_thm(k->L, pl->congestion, pl->dilation, k->B);
    double makespan = (double)run->makespan;
    rc |= rs_metric_int(out, RS_M_REFINE_CASE, (int64_t)pl->thm_case);
    rc |= rs_metric_int(out, RS_M_REFINE_STEPS, pl->n_steps);
    rc |= rs_metric_int(out, RS_M_RESAMPLES, (int64_t)res);
    rc |= rs_metric_double(out, RS_M_KAPPA, pl->kappa);
    rc |= rs_metric_int(out, RS_M_CLASSES, (int64_t)pl->n_classes);
    rc |= rs_metric_int(out, RS_M_PERIOD, (int64_t)period);
    rc |= rs_metric_int(out, RS_M_SCHEDULE_LENGTH, (int64_t)(pl->n_classes * period));
    rc |= rs_metric_int(out, RS_M_LATE_MESSAGES, (int64_t)o->late);
    rc |= rs_metric_int(out, RS_M_SLOT_OVERRUNS, (int64_t)o->overruns);
    rc |= rs_metric_double(out, RS_M_BOUND, bound);
    rc |= rs_metric_double(out, RS_M_LENGTH_OVER_BOUND, (double)(pl->n_classes * period) / bound);
    rc |= rs_metric_double(out, RS_M_MAKESPAN_OVER_BOUND, makespan / bound);
    rc |= rs_metric_double(out, RS_M_BOUND_THM, bound_thm);
    rc |= rs_metric_double(out, RS_M_LENGTH_OVER_BOUND_THM,
                           (double)(pl->n_classes * period) / bound_thm);
    return rc ? RS_ENOMEM : 0;
}

static int colour_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                      struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                      struct rs_err *err)
{
    struct engine_keys k = {0, 0, 0};
    int64_t cap;
    int constants, rc;
    if ((rc = read_engine_keys(in, engine, &k, err)) ||
        (rc = rs_opt_choice(in->params, colour_options, "colour_constants", &constants, err)) ||
        (rc = rs_opt_int(in->params, colour_options, "colour_max_resamples", &cap, err)))
        return rc;
    struct rs_path_set ps;
    struct rs__cr_plan pl;
    memset(&pl, 0, sizeof pl);
    if ((rc = rs_path_set_build(&ps, in->net, in->pb, in->routing, in->seed, err)))
        return rc;
    struct rs__cr_input ci = {&ps, k.B, k.L, in->seed, (uint64_t)cap,
                              constants ? RS__CR_TIGHT : RS__CR_PROOF};
    uint64_t M = ps.n_msgs;
    uint32_t *release = NULL, *finish = NULL;
    uint8_t *fate = NULL;
    if ((rc = rs__cr_plan_build(&pl, &ci, err)))
        goto out;
    /* link=shared: one flit per channel and step, so B messages of a class on one channel
     * take turns; 001's Remarks emulate the schedule with a slowdown of B */
    uint64_t period = pl.period * (k.shared ? k.B : 1);
    if ((double)pl.n_classes * (double)period >= (double)(UINT32_MAX / 2)) {
        rc = rs_err_set(err, RS_ECONSTRAINT,
                        "algorithm=colour_refine: the schedule is %.0f flit steps long (%llu "
                        "classes of %llu), more than the engine's 2^31",
                        (double)pl.n_classes * (double)period, (unsigned long long)pl.n_classes,
                        (unsigned long long)period);
        goto out;
    }
    release = rs_malloc((size_t)(M ? M : 1) * sizeof *release);
    finish = rs_malloc((size_t)(M ? M : 1) * sizeof *finish);
    fate = rs_malloc((size_t)(M ? M : 1));
    if (!release || !finish || !fate) {
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the plan of %llu messages",
                        (unsigned long long)M);
        goto out;
    }
    for (uint64_t m = 0; m < M; m++)
        release[m] = (uint32_t)(pl.colour[m] * period);
    struct rs_engine_plan plan = {.release = release, .finish = finish, .fate = fate};
    struct rs_engine_input run = *in;
    struct rs_result result;
    rs_result_init(&result);
    run.plan = &plan;
    run.result = &result;
    if ((rc = rs_engine_run(engine, &run, out, deadlock_msg, deadlock_len, err)))
        goto out;
    if (in->result)
        *in->result = result;
    struct outcome o;
    judge(&ps, release, finish, fate, k.L, period, &o);
    if (record_plan(out, &result, &pl, &k, period, &o))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
out:
    rs_free(release);
    rs_free(finish);
    rs_free(fate);
    rs__cr_plan_free(&pl);
    rs_path_set_free(&ps);
    return rc;
}

const struct rs_algo_ops rs_algo_colour_refine = {
    .name = "colour_refine",
    .summary = "off-line colour-refinement schedule of 001 §2.1: colour classes with at most "
               "vcs messages per channel, released L+D-1 flit steps apart (vcs(L+D-1) with "
               "link=shared)",
    .options = colour_options,
    .switching = colour_engines,
    .needs = 0,
    .run = colour_run,
};
