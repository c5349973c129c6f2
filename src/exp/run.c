/* One run from parameters to a record: validate every key against the option tables of the
 * chosen modules, build network and workload, run the engine, collect parameters and
 * metrics. Also the analysis-only variant behind `routesim analyze`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/algo.h"
#include "routesim/analysis.h"
#include "routesim/engine.h"
#include "routesim/problem.h"
#include "routesim/route.h"
#include "routesim/run.h"

const struct rs_optdef rs_run_options[] = {
    {"switching", RS_OPT_CHOICE, "store_forward", 0, 0, rs_engine_names,
     "switching model (engine)"},
    {"routing", RS_OPT_CHOICE, "direct", 0, 0, rs_routing_names,
     "direct: the network's oblivious route; valiant: via a random intermediate terminal; "
     "ranade: via Ranade's random-but-not-independent intermediate (topology=benes)"},
    {"seed", RS_OPT_INT, "1", 0, 9007199254740991.0, NULL,
     "seed of every random choice (workload, Valiant, protocol)"},
    {"check", RS_OPT_BOOL, "0", 0, 0, NULL,
     "run the invariant checker after every step (slow; for tests and debugging)"},
    {"algorithm", RS_OPT_CHOICE, "greedy", 0, 0, rs_algo_names,
     "routing algorithm driving the engine (greedy: the engine's own rules)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static const char *const predict_names[] = {"lcan", NULL};

const struct rs_optdef rs_predict_options[] = {
    {"predict", RS_OPT_CHOICE, NULL, 0, 0, predict_names,
     "add a predictor's metrics: lcan = the root-permutation recurrence of 002 eq. 2-3 "
     "(CB-LCANs: predicted_cycles, predicted_first_cycle, predicted_per_cycle)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

/* The modules a parameter set selects, and their option tables. */
struct selection {
    const struct rs_topo_ops *topo;
    const struct rs_traffic_ops *traffic;
    const struct rs_engine_ops *engine;
    const struct rs_algo_ops *algo;
    const struct rs_optdef *tables[10];
    int ntables;
};

static int select_modules(const struct rs_params *p, struct selection *sel, int with_engine,
                          struct rs_err *err)
{
    int i, rc;
    memset(sel, 0, sizeof *sel);
    if ((rc = rs_opt_choice(p, rs_net_options, "topology", &i, err)))
        return rc;
    sel->topo = rs_topologies[i];
    if ((rc = rs_opt_choice(p, rs_problem_options, "traffic", &i, err)))
        return rc;
    sel->traffic = rs_traffics[i];
    sel->tables[sel->ntables++] = rs_net_options;
    sel->tables[sel->ntables++] = sel->topo->options;
    sel->tables[sel->ntables++] = rs_problem_options;
    sel->tables[sel->ntables++] = sel->traffic->options;
    sel->tables[sel->ntables++] = rs_run_options;
    sel->tables[sel->ntables++] = rs_predict_options;
    if (with_engine) {
        if ((rc = rs_opt_choice(p, rs_run_options, "switching", &i, err)))
            return rc;
        sel->engine = rs_engines[i];
        sel->tables[sel->ntables++] = sel->engine->options;
    }
    if ((rc = rs_opt_choice(p, rs_run_options, "algorithm", &i, err)))
        return rc;
    sel->algo = rs_algos[i];
    if (sel->algo->options)
        sel->tables[sel->ntables++] = sel->algo->options;
    if (with_engine &&
        (rc = rs_algo_check(sel->algo, sel->engine->name, sel->topo->name, err)))
        return rc;
    return rs_params_check_known(p, sel->tables, sel->ntables, err);
}

/* Add every option of table to out with its resolved value (defaults included); options
 * without a value and without a default are skipped. */
static int record_options(struct rs_record *out, const struct rs_params *p,
                          const struct rs_optdef *table, struct rs_err *err)
{
    for (const struct rs_optdef *d = table; d && d->name; d++) {
        const char *text = rs_params_text(p, d);
        int rc = 0;
        if (!text)
            continue;
        if (d->type == RS_OPT_INT) {
            int64_t v;
            if ((rc = rs_params_int(p, d, &v, err)))
                return rc;
            rc = rs_record_int(out, d->name, v);
        } else if (d->type == RS_OPT_BOOL) {
            int v;
            if ((rc = rs_params_bool(p, d, &v, err)))
                return rc;
            rc = rs_record_int(out, d->name, v);
        } else if (d->type == RS_OPT_DOUBLE) {
            double v;
            if ((rc = rs_params_double(p, d, &v, err)))
                return rc;
            rc = rs_record_double(out, d->name, v);
        } else {
            rc = rs_record_string(out, d->name, text);
        }
        if (rc)
            return rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    }
    return 0;
}

/* Everything both run and analyze need: modules, net, problem, routing, seed. */
struct prepared {
    struct selection sel;
    struct rs_net net;
    struct rs_problem pb;
    enum rs_routing routing;
    uint64_t seed;
    int check;
    int predict;                  /* predict=lcan given: pred holds the recurrence */
    struct rs_lcan_prediction pred;
};

static void prepared_free(struct prepared *x)
{
    rs_lcan_prediction_free(&x->pred);
    rs_problem_free(&x->pb);
    rs_net_free(&x->net);
}

static int prepare(struct prepared *x, const struct rs_params *p, int with_engine,
                   struct rs_record *out, struct rs_err *err)
{
    int rc, routing;
    int64_t seed;
    memset(x, 0, sizeof *x);
    if ((rc = select_modules(p, &x->sel, with_engine, err)))
        return rc;
    if ((rc = rs_opt_choice(p, rs_run_options, "routing", &routing, err)) ||
        (rc = rs_opt_int(p, rs_run_options, "seed", &seed, err)) ||
        (rc = rs_opt_bool(p, rs_run_options, "check", &x->check, err)))
        return rc;
    x->routing = (enum rs_routing)routing;
    x->seed = (uint64_t)seed;
    for (int i = 0; i < x->sel.ntables; i++)
        if ((rc = record_options(out, p, x->sel.tables[i], err)))
            return rc;
    out->n_params = out->n;
    if ((rc = rs_net_build(&x->net, p, err)))
        return rc;
    if ((rc = rs_route_check(&x->net, x->routing, err))) {
        prepared_free(x);
        return rc;
    }
    if ((rc = rs_problem_build(&x->pb, &x->net, p, x->seed, err))) {
        prepared_free(x);
        return rc;
    }
    /* the predictor is evaluated here, so that validation (sweeps) refuses a network it
     * does not apply to before anything runs */
    int which;
    x->predict = rs_params_find(p, "predict") != NULL;
    if (x->predict && ((rc = rs_opt_choice(p, rs_predict_options, "predict", &which, err)) ||
                       (rc = rs_lcan_predict(&x->net, &x->pred, err)))) {
        prepared_free(x);
        return rc;
    }
    return 0;
}

/* predict=lcan (the only predictor): the recurrence's cycles and successes per cycle. */
static int record_prediction(struct rs_record *out, const struct rs_lcan_prediction *pr,
                             struct rs_err *err)
{
    struct rs_buf b;
    int rc = 0;
    rs_buf_init(&b);
    for (uint32_t i = 0; i < pr->n_cycles && !rc; i++)
        rc = rs_buf_printf(&b, "%s%.6g", i ? ";" : "", pr->success[i]);
    rc |= rs_record_double(out, "predicted_cycles", pr->cycles);
    rc |= rs_record_double(out, "predicted_first_cycle", pr->n_cycles ? pr->success[0] : 0);
    rc |= rs_record_string(out, "predicted_per_cycle", b.data ? b.data : "");
    rs_buf_free(&b);
    return rc ? rs_err_set(err, RS_ENOMEM, "out of memory for the result record") : 0;
}

int rs_run(const struct rs_params *p, struct rs_record *out, char *deadlock_msg,
           size_t deadlock_len, struct rs_err *err)
{
    struct prepared x;
    struct rs_path_stats ps;
    int rc = prepare(&x, p, 1, out, err);
    if (rc)
        return rc;
    struct rs_engine_input in = {&x.net, &x.pb, p, x.routing, x.seed, x.check};
    rc = x.sel.algo->run(&in, x.sel.engine, out, deadlock_msg, deadlock_len, err);
    if (!rc && !(rc = rs_path_stats_compute(&ps, &x.net, &x.pb, x.routing, x.seed, err))) {
        if (rs_record_int(out, "congestion", ps.congestion) ||
            rs_record_int(out, "dilation", ps.dilation))
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
        rs_path_stats_free(&ps);
    }
    if (!rc && x.predict) /* after the metrics, beside the measurement */
        rc = record_prediction(out, &x.pred, err);
    prepared_free(&x);
    return rc;
}

int rs_analyze(const struct rs_params *p, struct rs_record *out, struct rs_err *err)
{
    struct prepared x;
    struct rs_path_stats ps;
    int rc = prepare(&x, p, 0, out, err);
    if (rc)
        return rc;
    rc = rs_path_stats_compute(&ps, &x.net, &x.pb, x.routing, x.seed, err);
    if (!rc) {
        int e = 0;
        e |= rs_record_int(out, "messages", (int64_t)x.pb.n_msgs);
        e |= rs_record_int(out, "congestion", ps.congestion);
        e |= rs_record_int(out, "dilation", ps.dilation);
        e |= rs_record_int(out, "total_hops", (int64_t)ps.total_hops);
        for (uint32_t l = 0; l < ps.n_levels; l++) {
            char name[48];
            snprintf(name, sizeof name, "level%u_max", l);
            e |= rs_record_int(out, name, ps.level_max[l]);
            snprintf(name, sizeof name, "level%u_msgs", l);
            e |= rs_record_int(out, name, (int64_t)ps.level_msgs[l]);
        }
        if (e)
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
        rs_path_stats_free(&ps);
    }
    if (!rc && x.predict)
        rc = record_prediction(out, &x.pred, err);
    prepared_free(&x);
    return rc;
}

int rs_validate(const struct rs_params *p, struct rs_record *params_out, struct rs_err *err)
{
    struct prepared x;
    struct rs_record scratch;
    rs_record_init(&scratch);
    int rc = prepare(&x, p, 1, params_out ? params_out : &scratch, err);
    if (!rc)
        prepared_free(&x);
    rs_record_free(&scratch);
    return rc;
}
