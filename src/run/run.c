/* One run from parameters to a record: validate every key against the option tables of the
 * chosen modules, build network and workload, run the engine, collect parameters and
 * metrics. Also the analysis-only variant behind `routesim analyze`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/buf.h"
#include "routesim/analysis.h"
#include "routesim/assert.h"
#include "routesim/channel_load.h"
#include "routesim/engine.h"
#include "routesim/exchange.h"
#include "core/events_hook.h"
#include "routesim/load_factor.h"
#include "routesim/openloop.h"
#include "routesim/saturate.h"
#include "routesim/problem.h"
#include "routesim/resources.h"
#include "routesim/route.h"
#include "routesim/run.h"

const struct rs_optdef rs_run_options[] = {
    {"switching", RS_OPT_CHOICE, "store_forward", 0, 0, rs_engine_names,
     "switching model (engine)", "-"},
    {"routing", RS_OPT_CHOICE, "direct", 0, 0, rs_routing_names,
     "routing function (`routesim list`): direct: the network's oblivious route; valiant: "
     "via a random intermediate terminal; ranade: via Ranade's random-but-not-independent "
     "intermediate (topology=benes); min_adaptive: minimal adaptive with dimension-order "
     "escape VCs (meshes and tori, flit engines); ugal_l, ugal_g: UGAL-L/G, minimal or Valiant "
     "by queue occupancy x hops (topology=dragonfly, flit engines)", "-"},
    {"seed", RS_OPT_INT, "1", 0, 9007199254740991.0, NULL,
     "seed of every random choice (workload, Valiant, protocol)", "-"},
    {"check", RS_OPT_BOOL, "0", 0, 0, NULL,
     "run the invariant checker after every step (slow; for tests and debugging)", "-"},
    {"algorithm", RS_OPT_CHOICE, "greedy", 0, 0, rs_algo_names,
     "routing algorithm driving the engine (greedy: the engine's own rules)", "-"},
    {"max_memory", RS_OPT_STRING, NULL, 0, 0, NULL,
     "refuse (exit 3) a run whose memory estimate exceeds this many bytes (512M, 4G; "
     "default: the memory available, MemAvailable); docs/resources.md", "bytes"},
    {"threads", RS_OPT_INT, "1", 1, 1024, NULL,
     "threads (OpenMP) that run one run's steps; the output is the same for every value "
     "(flit engines with an oblivious routing, link=per_vc, not cut_through_partial, "
     "docs/model-flit.md; router=iq, docs/model-iq.md; switching=circuit, docs/model-circuit.md; switching=store_forward "
     "with input queues or protocol=rank, docs/model-saf.md; other runs use one)", "1"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static const char *const predict_names[] = {"lcan", "channel_load", NULL};
enum { PREDICT_NONE, PREDICT_LCAN, PREDICT_CHANNEL_LOAD }; /* 1 + index in predict_names */

const struct rs_optdef rs_predict_options[] = {
    {"predict", RS_OPT_CHOICE, NULL, 0, 0, predict_names,
     "add a predictor's metrics: lcan = the root-permutation recurrence of 002 eq. 2-3 "
     "(CB-LCANs: predicted_cycles, predicted_first_cycle, predicted_per_cycle); "
     "channel_load = the channel-load bound of the traffic under the routing (channel_load, "
     "throughput_bound, hops_mean, local_fraction; docs/openloop.md)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* The modules a parameter set selects, and their option tables. */
struct selection {
    const struct rs_topo_ops *topo;
    const struct rs_traffic_ops *traffic;
    const struct rs_engine_ops *engine;
    const struct rs_algo_ops *algo;
    const struct rs_routing_ops *routing;
    const struct rs_optdef *tables[10];
    int ntables;
};

/* Append to buf the names of the modules of list (ops structs whose first members are
 * name, summary, options) declaring key; returns how many. */
#define RS__OWNERS(list, key, buf, n, count)                                                \
    for (int i_ = 0; (list)[i_]; i_++)                                                     \
        if (rs_optdef_find((list)[i_]->options, key)) {                                    \
            size_t used_ = strlen(buf);                                                    \
            snprintf(buf + used_, n - used_, "%s%s", (count)++ ? "|" : "", (list)[i_]->name); \
        }

/* After an unknown-key error: when the first unknown key belongs to another topology,
 * traffic, engine, algorithm or routing, say so and what the chosen one takes (even if the key
 * also looks like a typo of one of those), e.g. "command line: unknown key 'N' for
 * topology=mesh (it is a key of topology=butterfly|...); mesh takes k, n" (a
 * topology's keys are named after the parenthesis).
 * Otherwise (a key nobody declares) err is left as it is, with its typo suggestion. */
static void foreign_key(const struct rs_params *p, const struct selection *sel,
                        int with_engine, struct rs_err *err)
{
    const struct rs_param *q = NULL;
    for (size_t i = 0; i < p->n && !q; i++) {
        int known = strchr(p->v[i].key, '.') != NULL;
        for (int t = 0; t < sel->ntables && !known; t++)
            known = rs_optdef_find(sel->tables[t], p->v[i].key) != NULL;
        if (!known)
            q = &p->v[i];
    }
    if (!q)
        return;
    char owners[256] = "", where[512];
    int count = 0;
    const char *kind = "topology", *chosen = sel->topo->name;
    const struct rs_optdef *own = sel->topo->options;
    RS__OWNERS(rs_topologies, q->key, owners, sizeof owners, count)
    if (!count) {
        kind = "traffic";
        chosen = sel->traffic->name;
        own = sel->traffic->options;
        RS__OWNERS(rs_traffics, q->key, owners, sizeof owners, count)
    }
    if (!count && with_engine) {
        kind = "switching";
        chosen = sel->engine->name;
        own = sel->engine->options;
        RS__OWNERS(rs_engines, q->key, owners, sizeof owners, count)
    }
    if (!count) {
        kind = "algorithm";
        chosen = sel->algo->name;
        own = sel->algo->options;
        RS__OWNERS(rs_algos, q->key, owners, sizeof owners, count)
    }
    if (!count) {
        kind = "routing";
        chosen = sel->routing->name;
        own = sel->routing->options;
        RS__OWNERS(rs_routings, q->key, owners, sizeof owners, count)
    }
    /* a key another module declares is named as such, even when it also looks like a typo
     * of a key of the chosen modules (N on topology=mesh is not a misspelt n) */
    if (!count)
        return;
    char takes[256] = ""; /* the chosen topology's own keys */
    for (const struct rs_optdef *d = own; d && d->name; d++) {
        size_t used = strlen(takes);
        snprintf(takes + used, sizeof takes - used, "%s%s", used ? ", " : "", d->name);
    }
    rs_param_where(q, where, sizeof where);
    rs_err_set(err, RS_EUNKNOWN, "%s: unknown key '%s' for %s=%s (it is a key of %s=%s)%s%s%s%s",
               where, q->key, kind, chosen, kind, owners, own == sel->topo->options ? "; " : "",
               own == sel->topo->options ? chosen : "",
               own == sel->topo->options ? " takes " : "",
               own == sel->topo->options ? takes : "");
}
#undef RS__OWNERS

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
    if ((rc = rs_opt_choice(p, rs_run_options, "algorithm", &i, err)))
        return rc;
    sel->algo = rs_algos[i];
    if ((rc = rs_opt_choice(p, rs_run_options, "routing", &i, err)))
        return rc;
    sel->routing = rs_routings[i];
    if (sel->routing->options) /* a routing's keys: in its runs only */
        sel->tables[sel->ntables++] = sel->routing->options;
    if (with_engine) {
        /* an algorithm that fixes its model selects it when switching= is not given */
        const char *fixed = rs_algo_fixed_switching(sel->algo);
        if (fixed && !rs_params_find(p, "switching")) {
            sel->engine = rs_engine_find(fixed);
            RS_ASSERT(sel->engine != NULL);
        } else {
            if ((rc = rs_opt_choice(p, rs_run_options, "switching", &i, err)))
                return rc;
            sel->engine = rs_engines[i];
        }
        sel->tables[sel->ntables++] = sel->engine->options;
    }
    if (sel->algo->options)
        sel->tables[sel->ntables++] = sel->algo->options;
    if (with_engine &&
        ((rc = rs_algo_check(sel->algo, sel->engine->name, sel->topo, err)) ||
         (rc = rs_algo_check_timed(sel->algo, sel->engine, p, err))))
        return rc;
    if ((rc = rs_params_check_known(p, sel->tables, sel->ntables, err)) == RS_EUNKNOWN)
        foreign_key(p, sel, with_engine, err);
    return rc;
}

/* Add every option of table to out with its resolved value (defaults included); options
 * without a value and without a default are skipped, and so are those of skip (NULL: none)
 * and max_memory and threads. */
static int record_options(struct rs_record *out, const struct rs_params *p,
                          const struct rs_optdef *table, const struct rs_optdef *skip,
                          struct rs_err *err)
{
    for (const struct rs_optdef *d = table; d && d->name; d++) {
        const char *text = rs_params_text(p, d);
        int rc = 0;
        if (!text || (skip && rs_optdef_find(skip, d->name)))
            continue;
        if (rs_optdef_find(rs_iq_options, d->name) && !rs_router_is_iq(p))
            continue; /* router=iq's keys: columns of router=iq runs only */
        if (d == rs_optdef_find(rs_run_options, "max_memory") || /* a limit, not a parameter */
            d == rs_optdef_find(rs_run_options, "threads"))     /* of the result (threads: the */
            continue; /* same bytes for every value): never a column */
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

/* Apply the chosen topology's linked keys (rs_topo_ops.linked_keys) to p, the run's own
 * copy of the parameters: for each pair whose engine key the chosen engine declares, a key
 * the user left out takes the value of its partner (or the engine key the topology key's
 * default). The value added remembers where its partner came from, so that a range error
 * names the key the user wrote. */
static int link_keys(struct rs_params *p, const struct selection *sel, char *note, size_t nn,
                     struct rs_err *err)
{
    const char *const *k = sel->topo->linked_keys;
    for (; k && k[0] && k[1] && sel->engine; k += 2) {
        const struct rs_optdef *td = rs_optdef_find(sel->topo->options, k[0]);
        if (!td || !rs_optdef_find(sel->engine->options, k[1]))
            continue;
        const struct rs_param *pt = rs_params_find(p, k[0]), *pe = rs_params_find(p, k[1]);
        if (pt && pe)
            continue;
        /* only the topology key, or neither: the engine key follows; only the engine key:
         * the topology key follows */
        const struct rs_param *from = pt ? pt : pe;
        const char *fkey = pe ? k[1] : k[0], *tkey = pe ? k[0] : k[1];
        char where[512], origin[768];
        if (from) {
            rs_param_where(from, where, sizeof where);
            snprintf(origin, sizeof origin, "%s (%s follows %s=%s of topology=%s)", where, tkey,
                     fkey, from->value, sel->topo->name);
        } else {
            snprintf(origin, sizeof origin, "topology=%s (%s follows the default %s=%s)",
                     sel->topo->name, k[1], k[0], td->def);
        }
        if (rs_params_set(p, tkey, from ? from->value : td->def, origin, 0, err))
            return rs_err_set(err, RS_ENOMEM, "out of memory for the parameters");
        if (from && !pt) { /* a topology key the user did not write: say so if it fails */
            size_t used = strlen(note);
            snprintf(note + used, nn - used, "%s%s=%s follows %s=%s", used ? ", " : "", tkey,
                     from->value, fkey, from->value);
        }
    }
    return 0;
}

/* ---- self-contained models (rs_algo_ops.model: algorithm=flexible_sort) ---------------- */

/* The algorithm p names when it is a self-contained model, else NULL (a bad algorithm= is
 * left to the ordinary path, which reports it). */
static const struct rs_algo_ops *model_algo(const struct rs_params *p)
{
    int i;
    struct rs_err e;
    if (rs_opt_choice(p, rs_run_options, "algorithm", &i, &e))
        return NULL;
    return rs_algos[i]->model ? rs_algos[i] : NULL;
}

/* Run (out set, want_metrics) or check a model: only algorithm, seed and the algorithm's
 * own keys are accepted and recorded (out may be NULL when only checking). */
static int model_run(const struct rs_algo_ops *algo, const struct rs_params *p,
                     struct rs_record *out, int want_metrics, struct rs_err *err)
{
    struct rs_optdef run_keys[3] = {*rs_optdef_find(rs_run_options, "algorithm"),
                                    *rs_optdef_find(rs_run_options, "seed"),
                                    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};
    const struct rs_optdef *tables[2] = {run_keys, algo->options};
    struct rs_record scratch;
    int64_t seed;
    int rc = rs_params_check_known(p, tables, 2, err);
    if (rc == RS_EUNKNOWN) { /* say why the usual keys are refused */
        size_t used = strlen(err->msg);
        snprintf(err->msg + used, sizeof err->msg - used,
                 " (algorithm=%s is a self-contained model: no topology, traffic or engine)",
                 algo->name);
    }
    if (rc || (rc = rs_opt_int(p, rs_run_options, "seed", &seed, err)))
        return rc;
    rs_record_init(&scratch);
    struct rs_record *rec = out ? out : &scratch;
    if (!(rc = record_options(rec, p, run_keys, NULL, err)) &&
        !(rc = record_options(rec, p, algo->options, NULL, err))) {
        rec->n_params = rec->n;
        rc = algo->model(p, (uint64_t)seed, want_metrics ? rec : NULL, err);
    }
    rs_record_free(&scratch);
    return rc;
}

/* Everything both run and analyze need: modules, the parameters as the modules read them
 * (linked keys applied), net, problem, routing, seed. */
struct prepared {
    struct selection sel;
    struct rs_params params;
    struct rs_net net;
    struct rs_problem pb;
    const struct rs_routing_ops *routing;
    uint64_t seed;
    int check;
    int predict;                  /* PREDICT_...: lcan: pred holds the recurrence; */
    struct rs_lcan_prediction pred; /* channel_load: cl holds the analysis */
    struct rs_channel_load cl;
    int ranks; /* the MPI ranks the run is partitioned over (0: not partitioned) */
};

static void prepared_free(struct prepared *x)
{
    rs_lcan_prediction_free(&x->pred);
    rs_problem_free(&x->pb);
    rs_net_free(&x->net);
    rs_params_free(&x->params);
}

/* The memory limit of a run: max_memory (validated; *text "max_memory") or the memory
 * available now (*text NULL). */
static int memory_limit(const struct rs_params *p, uint64_t *limit, const char **text,
                        struct rs_err *err)
{
    const struct rs_optdef *d = rs_optdef_find(rs_run_options, "max_memory");
    const char *v = rs_params_text(p, d);
    *text = "max_memory";
    if (v)
        return rs_bytes_parse("max_memory", v, limit, err);
    *text = NULL; /* the memory available */
    *limit = rs_mem_available();
    return 0;
}

/* The process's own footprint (program, libraries, records): `routesim run N=2` peaks at
 * 3.2 MiB resident (docs/resources.md). */
#define RS__PROCESS_BYTES ((uint64_t)4 << 20)

/* Refuse (RS_ERESOURCE) a run whose estimate exceeds its limit: the process itself, the
 * workload of n_msgs messages (pb_bytes), the engine's state (with_engine), the path
 * statistics. */
static int check_memory(const struct prepared *x, int with_engine, uint64_t n_msgs,
                        uint64_t pb_bytes, struct rs_err *err)
{
    uint64_t limit, need = pb_bytes;
    const char *text;
    int rc = memory_limit(&x->params, &limit, &text, err);
    if (rc)
        return rc;
    if (with_engine && x->sel.engine->estimate) {
        /* over P ranks, one rank's share (docs/distributed.md) */
        need += x->sel.engine->estimate(x->sel.engine, &x->net, n_msgs, &x->params,
                                        x->ranks > 1 ? x->ranks : 1);
    }
    if (with_engine) /* the driver's per-message arrays: release order (4 B, plus 8 B while
                        sorting) and intermediates (4 B) (src/engine/driver.c) */
        need += n_msgs * 16;
    if (!(with_engine && x->sel.engine->counts_paths &&
          x->sel.engine->counts_paths(x->sel.engine, &x->net, &x->params,
                                      x->ranks > 1 ? x->ranks : 1)))
        need += (uint64_t)x->net.n_nodes * x->net.max_ports * 4; /* congestion's channel loads */
    if (rs__ftree_of(&x->net)) /* load factors: 2N channel loads, N + N degrees, a peak each */
        need += 24ull * x->net.n_terminals + n_msgs;
    need += RS__PROCESS_BYTES;
    char what[160];
    char per_rank[48] = "";
    if (x->ranks > 1)
        snprintf(per_rank, sizeof per_rank, ", on each of %d MPI ranks,", x->ranks);
    snprintf(what, sizeof what, "topology=%s with N=%u and %llu messages%s", x->net.name,
             x->net.n_terminals, (unsigned long long)n_msgs, per_rank);
    return rs_mem_check(what, need, limit, text, err);
}

/* The checks that build nothing: modules, keys, linked keys, every value against its type
 * and range (record_options reads each), open-loop keys, max_memory's syntax. */
static int check_steps(struct prepared *x, const struct rs_params *user, int with_engine,
                       struct rs_record *out, char *note, size_t nn, struct rs_err *err)
{
    int rc, routing;
    int64_t seed;
    if ((rc = select_modules(user, &x->sel, with_engine, err)))
        return rc;
    if (rs_params_copy(&x->params, user))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the parameters");
    if (with_engine && !rs_params_find(&x->params, "switching") &&
        rs_algo_fixed_switching(x->sel.algo)) { /* recorded as if given: the model run */
        char origin[96];
        snprintf(origin, sizeof origin, "algorithm=%s (its model)", x->sel.algo->name);
        if (rs_params_set(&x->params, "switching", x->sel.engine->name, origin, 0, err))
            return rs_err_set(err, RS_ENOMEM, "out of memory for the parameters");
    }
    if ((rc = link_keys(&x->params, &x->sel, note, nn, err)))
        return rc;
    const struct rs_params *p = &x->params;
    if ((rc = rs_opt_choice(p, rs_run_options, "routing", &routing, err)) ||
        (rc = rs_opt_int(p, rs_run_options, "seed", &seed, err)) ||
        (rc = rs_opt_bool(p, rs_run_options, "check", &x->check, err)))
        return rc;
    x->routing = rs_routings[routing];
    x->seed = (uint64_t)seed;
    /* the open-loop keys describe open-loop runs only: a batch run refuses them (they would
     * be ignored) and its record has none of them, so static records keep their columns */
    enum rs_injection inj = RS_INJECT_BATCH;
    if (with_engine && x->sel.engine->openloop && (rc = rs_openloop_process(p, &inj, err)))
        return rc;
    for (const struct rs_optdef *d = rs_openloop_options; inj == RS_INJECT_BATCH && d->name; d++)
        if (strcmp(d->name, "injection_process") != 0 && rs_params_find(p, d->name))
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "%s= is a key of open-loop injection: it needs "
                              "injection_process=bernoulli",
                              d->name);
    /* BookSim's run control (sim_type) has keys of its own, and the fixed phases theirs:
     * each refuses and leaves out the other's, so fixed-phase records keep their columns */
    const struct rs_optdef *skip = inj == RS_INJECT_BATCH ? rs_openloop_options : NULL;
    int sim_type = RS_SIM_FIXED;
    if (inj != RS_INJECT_BATCH &&
        (rc = rs_opt_choice(p, rs_openloop_options, "sim_type", &sim_type, err)))
        return rc;
    if (inj != RS_INJECT_BATCH) {
        skip = sim_type == RS_SIM_FIXED ? rs_openloop_runctl_options : rs_openloop_fixed_options;
        for (const struct rs_optdef *d = skip; d->name; d++)
            if (strcmp(d->name, "sim_type") != 0 && rs_params_find(p, d->name))
                return rs_err_set(err, RS_EUNSUPPORTED, "%s= is a key of %s: it needs %s",
                                  d->name, sim_type == RS_SIM_FIXED ? "BookSim's run control"
                                                                    : "the fixed phases",
                                  sim_type == RS_SIM_FIXED ? "sim_type=latency or throughput"
                                                           : "sim_type=fixed");
    }
    for (int i = 0; i < x->sel.ntables; i++)
        if ((rc = record_options(out, p, x->sel.tables[i], skip, err)))
            return rc;
    out->n_params = out->n;
    uint64_t limit;
    const char *text;
    return memory_limit(p, &limit, &text, err);
}

static int prepare_steps(struct prepared *x, const struct rs_params *user, int with_engine,
                         struct rs_record *out, struct rs_err *err)
{
    char note[256] = "";
    int rc = check_steps(x, user, with_engine, out, note, sizeof note, err);
    if (rc)
        return rc;
    const struct rs_params *p = &x->params;
    if ((rc = rs_net_build(&x->net, p, err)) && note[0]) {
        size_t used = strlen(err->msg);
        snprintf(err->msg + used, sizeof err->msg - used, " (%s)", note);
    }
    if (rc || (rc = rs_route_check(&x->net, x->routing, err)) ||
        (rc = rs_route_prepare(&x->net, x->routing, p, x->seed, err)))
        return rc;
    /* the memory estimate, before the workload and the engine allocate (a workload sized
     * by its file is estimated once built; one of 2^32 messages or more is bad input, which
     * its build says whatever the memory) */
    uint64_t n_msgs, pb_bytes = rs_problem_estimate(&x->net, p, &n_msgs);
    if ((n_msgs && n_msgs < ((uint64_t)1 << 32) &&
         (rc = check_memory(x, with_engine, n_msgs, pb_bytes, err))) ||
        (rc = rs_problem_build(&x->pb, &x->net, p, x->seed, err)) ||
        (!n_msgs && (rc = check_memory(x, with_engine, x->pb.n_msgs, 0, err))))
        return rc;
    /* explicit sources (traffic=paths): per_input is the most messages one terminal sends */
    if (x->pb.src && rs_metric_int(out, RS_M_PER_INPUT, x->pb.per_input))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    /* the predictor is evaluated here, so that validation (sweeps) refuses a network it
     * does not apply to before anything runs */
    int which;
    if (!rs_params_find(p, "predict"))
        return 0;
    if ((rc = rs_opt_choice(p, rs_predict_options, "predict", &which, err)))
        return rc; /* prepare frees x */
    x->predict = which + 1;
    if (x->predict == PREDICT_LCAN)
        return rs_lcan_predict(&x->net, &x->pred, err);
    return rs_channel_load(&x->cl, &x->net, &x->pb,
                           x->sel.traffic == rs_traffic_find("uniform"), x->routing, NULL, err);
}

/* predict=lcan: the recurrence's cycles and successes per cycle; predict=channel_load: the
 * channel-load analysis. */
static int record_prediction(struct rs_record *out, const struct prepared *x,
                             struct rs_err *err)
{
    const struct rs_lcan_prediction *pr = &x->pred;
    struct rs_buf b;
    int rc = 0;
    if (x->predict == PREDICT_CHANNEL_LOAD) {
        rc = rs_metric_double(out, RS_M_CHANNEL_LOAD, x->cl.gamma_max) ||
             rs_metric_double(out, RS_M_THROUGHPUT_BOUND, x->cl.theta) ||
             rs_metric_double(out, RS_M_HOPS_MEAN, x->cl.hops_mean) ||
             rs_metric_double(out, RS_M_LOCAL_FRACTION, x->cl.local_fraction);
        return rc ? rs_err_set(err, RS_ENOMEM, "out of memory for the result record") : 0;
    }
    rs_buf_init(&b);
    for (uint32_t i = 0; i < pr->n_cycles && !rc; i++)
        rc = rs_buf_printf(&b, "%s%.6g", i ? ";" : "", pr->success[i]);
    rc |= rs_metric_double(out, RS_M_PREDICTED_CYCLES, pr->cycles);
    rc |= rs_metric_double(out, RS_M_PREDICTED_FIRST_CYCLE, pr->n_cycles ? pr->success[0] : 0);
    rc |= rs_metric_string(out, RS_M_PREDICTED_PER_CYCLE, b.data ? b.data : "");
    rs_buf_free(&b);
    return rc ? rs_err_set(err, RS_ENOMEM, "out of memory for the result record") : 0;
}

/* Fill x (freed again on error) for run or analyze. */
/* ranks: the MPI ranks a run is partitioned over (0: none), for the memory estimate. */
static int prepare(struct prepared *x, const struct rs_params *user, int with_engine,
                   int ranks, struct rs_record *out, struct rs_err *err)
{
    memset(x, 0, sizeof *x);
    x->ranks = ranks;
    rs_params_init(&x->params);
    int rc = prepare_steps(x, user, with_engine, out, err);
    if (rc)
        prepared_free(x);
    return rc;
}

/* On a fat-tree (RS_CAP_FAT_TREE): the load factors of the message set (000 §2) into out,
 * load_factor, reference_load_factor and degree; with all, also the largest load factor of
 * every tree level and the peak-level histogram (analyze). Elsewhere nothing. Returns 0 or
 * RS_ENOMEM. */
static int record_load_factors(struct rs_record *out, const struct prepared *x, int all,
                               struct rs_err *err)
{
    const struct rs__ftree *ft = rs__ftree_of(&x->net);
    struct rs_load_factor lf;
    if (!ft)
        return 0;
    int rc = rs_load_factor_compute(&lf, ft, &x->pb, err);
    if (rc)
        return rc;
    int e = rs_metric_double(out, RS_M_LOAD_FACTOR, lf.load_factor);
    e |= rs_metric_double(out, RS_M_REFERENCE_LOAD_FACTOR, lf.reference_load_factor);
    e |= rs_metric_int(out, RS_M_DEGREE, lf.degree);
    for (uint32_t i = 1; all && i <= ft->n; i++)
        e |= rs_metric_level_double(out, RS_M_CHANNEL_LOAD_FACTOR, i, lf.level_load_factor[i]);
    for (uint32_t i = 0; all && i <= ft->n; i++)
        e |= rs_metric_level_int(out, RS_M_PEAK_MSGS, i, (int64_t)lf.peak_hist[i]);
    rs_load_factor_free(&lf);
    return e ? rs_err_set(err, RS_ENOMEM, "out of memory for the result record") : 0;
}

/* The event log (docs/events.md) covers batch and open-loop runs of algorithm=greedy on
 * store_forward and the flit engines (each engine refuses the rest of its own
 * configurations at set-up). Returns 0 with the log sized for the message set (batch) or
 * set up for ids given at generation (open loop), or RS_EUNSUPPORTED / RS_ENOMEM. */
static int events_admit(const struct prepared *x, struct rs_events *ev, struct rs_err *err)
{
    enum rs_injection inj = RS_INJECT_BATCH;
    int rc;
    if (strcmp(x->sel.algo->name, "greedy"))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "--events: only algorithm=greedy is covered, not algorithm=%s",
                          x->sel.algo->name);
    if (x->sel.algo->timed)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "--events: switching=%s is not covered (store_forward, the flit "
                          "engines and circuit are)",
                          x->sel.engine->name);
    if (x->sel.engine->openloop && (rc = rs_openloop_process(&x->params, &inj, err)))
        return rc;
    if (inj != RS_INJECT_BATCH && !strcmp(x->sel.engine->name, "circuit"))
        return rs_err_set(err, RS_EUNSUPPORTED, "--events: switching=circuit with open-loop "
                          "injection is not covered (batch circuit runs are)");
    if (inj == RS_INJECT_BATCH)
        return rs__events_start(ev, x->pb.n_msgs, err);
    uint32_t n = x->net.n_terminals; /* open loop: ids given at generation */
    uint32_t *node = rs_malloc((size_t)n * sizeof *node + 1);
    if (!node)
        return rs_err_set(err, RS_ENOMEM, "out of memory for the event log");
    for (uint32_t t = 0; t < n; t++)
        node[t] = x->net.ops->src_node(&x->net, t);
    rc = rs__events_start_openloop(ev, n, node, err);
    rs_free(node);
    return rc;
}

int rs_run(const struct rs_params *p, struct rs_record *out, char *deadlock_msg,
           size_t deadlock_len, struct rs_err *err)
{
    return rs_run_followed(p, NULL, out, deadlock_msg, deadlock_len, err);
}

int rs_run_followed(const struct rs_params *p, const struct rs_run_progress *progress,
                    struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                    struct rs_err *err)
{
    return rs_run_traced(p, progress, out, deadlock_msg, deadlock_len, NULL, err);
}

/* A run partitioned over ranks (progress->exchange, size > 1): batch and open-loop runs of
 * switching=circuit, of the flit engines and of switching=store_forward (with input queues:
 * its leveled butterfly kernel or the general engine, which saf.c and saf_dist.c check),
 * with algorithm=greedy only
 * (docs/distributed.md);
 * the others would run whole on every rank. Returns 0 or RS_EUNSUPPORTED naming what is not
 * partitioned. */
static int partition_admit(const struct prepared *x, int ranks, struct rs_err *err)
{
    enum rs_injection inj = RS_INJECT_BATCH;
    int rc = rs_openloop_process(&x->params, &inj, err);
    if (rc)
        return rc;
    static const char *const split[] = {"circuit", "store_forward", "wormhole",
                                        "virtual_cut_through", "store_forward_flits"};
    int known = 0;
    for (size_t i = 0; i < sizeof split / sizeof *split; i++)
        known |= !strcmp(x->sel.engine->name, split[i]);
    if (!known)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "switching=%s is not partitioned over MPI ranks (circuit, "
                          "store_forward, wormhole, virtual_cut_through and store_forward_flits "
                          "are): run it without mpirun -np %d, or use threads= or a sweep",
                          x->sel.engine->name, ranks);
    if (strcmp(x->sel.algo->name, "greedy"))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=%s is not partitioned over MPI ranks (only greedy is): "
                          "run it without mpirun -np %d",
                          x->sel.algo->name, ranks);
    return 0;
}

int rs_run_traced(const struct rs_params *p, const struct rs_run_progress *progress,
                  struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                  struct rs_deadlock *cycle, struct rs_err *err)
{
    struct prepared x;
    struct rs_path_stats ps;
    const struct rs_algo_ops *model = model_algo(p);
    if (cycle)
        rs_deadlock_free(cycle);
    struct rs_events *events = progress ? progress->events : NULL;
    if (events && (rs_params_find(p, "search") || model))
        return rs_err_set(err, RS_EUNSUPPORTED, "--events: %s has no per-packet events",
                          model ? "a self-contained model" : "the saturation search");
    const struct rs_exchange *xc = progress ? progress->exchange : NULL;
    int ranks = xc && xc->size > 1 ? xc->size : 0;
    if (ranks && (rs_params_find(p, "search") || model))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "%s is not partitioned over MPI ranks: run it without mpirun -np %d",
                          model ? "a self-contained model" : "the saturation search", ranks);
    if (rs_params_find(p, "search")) /* the saturation search: many runs (saturate.h) */
        return rs_saturate_run(p, out, err);
    if (model)
        return model_run(model, p, out, 1, err);
    int rc = prepare(&x, p, 1, ranks, out, err);
    if (rc)
        return rc;
    if (ranks && (rc = partition_admit(&x, ranks, err))) {
        prepared_free(&x);
        return rc;
    }
    if (events && (rc = events_admit(&x, events, err))) {
        prepared_free(&x);
        return rc;
    }
    struct rs_engine_paths counted = {0};
    struct rs_engine_input in = {.net = &x.net, .pb = &x.pb, .params = &x.params,
                                 .routing = x.routing, .seed = x.seed, .check = x.check,
                                 /* greedy runs the engine on the run's own message set;
                                    other algorithms may run it on others (sub-problems) */
                                 .paths = !strcmp(x.sel.algo->name, "greedy") ? &counted : NULL};
    in.deadlock = cycle;
    if (progress) {
        in.progress = progress->fn;
        in.progress_user = progress->user;
        in.progress_every = progress->every;
        in.events = progress->events;
        in.exchange = progress->exchange;
    }
    enum rs_injection inj = RS_INJECT_BATCH;
    RS_ASSERT(x.sel.algo->run != NULL); /* every algorithm without a model op has one */
    rc = x.sel.algo->run(&in, x.sel.algo->timed ? NULL : x.sel.engine, out, deadlock_msg,
                         deadlock_len, err);
    /* congestion and dilation describe the static message set's fixed paths; open-loop
     * runs and adaptive routings have none. An engine that walked every route whole during
     * the run counted them (counted.filled); otherwise the routes are expanded again. */
    if (!rc && x.sel.engine->openloop)
        rc = rs_openloop_process(&x.params, &inj, err);
    if (!rc && inj == RS_INJECT_BATCH && !rs_route_is_adaptive(x.routing) && !counted.filled &&
        !(rc = rs_path_stats_compute(&ps, &x.net, &x.pb, x.routing, x.seed, err))) {
        counted.congestion = ps.congestion;
        counted.dilation = ps.dilation;
        counted.filled = 1;
        rs_path_stats_free(&ps);
    }
    if (!rc && inj == RS_INJECT_BATCH && !rs_route_is_adaptive(x.routing) &&
        (rs_metric_int(out, RS_M_CONGESTION, counted.congestion) ||
         rs_metric_int(out, RS_M_DILATION, counted.dilation)))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    if (!rc && inj == RS_INJECT_BATCH) /* a property of the message set, any routing */
        rc = record_load_factors(out, &x, 0, err);
    if (!rc && x.predict) /* after the metrics, beside the measurement */
        rc = record_prediction(out, &x, err);
    if (!rc && x.sel.traffic->metrics) /* the workload's bound beside the makespan */
        rc = x.sel.traffic->metrics(&x.net, &x.params, out, err);
    prepared_free(&x);
    return rc;
}

int rs_analyze(const struct rs_params *p, struct rs_record *out, struct rs_err *err)
{
    struct prepared x;
    struct rs_path_stats ps;
    const struct rs_algo_ops *model = model_algo(p);
    if (model)
        return rs_err_set(err, RS_EUNSUPPORTED, "algorithm=%s is a self-contained model with "
                          "no network to analyze: use routesim run", model->name);
    int rc = prepare(&x, p, 0, 0, out, err);
    if (rc)
        return rc;
    /* an adaptive routing has no fixed paths, but its channel-load bound */
    int paths = !(rs_route_is_adaptive(x.routing) && x.predict == PREDICT_CHANNEL_LOAD);
    rc = paths ? rs_path_stats_compute(&ps, &x.net, &x.pb, x.routing, x.seed, err) : 0;
    if (!rc && paths) {
        int e = 0;
        e |= rs_metric_int(out, RS_M_MESSAGES, (int64_t)x.pb.n_msgs);
        e |= rs_metric_int(out, RS_M_CONGESTION, ps.congestion);
        e |= rs_metric_int(out, RS_M_DILATION, ps.dilation);
        e |= rs_metric_int(out, RS_M_TOTAL_HOPS, (int64_t)ps.total_hops);
        for (uint32_t l = 0; l < ps.n_levels; l++) {
            e |= rs_metric_level_int(out, RS_M_LEVEL_MAX, l, ps.level_max[l]);
            e |= rs_metric_level_int(out, RS_M_LEVEL_MSGS, l, (int64_t)ps.level_msgs[l]);
        }
        if (e)
            rc = rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
        rs_path_stats_free(&ps);
    }
    if (!rc)
        rc = record_load_factors(out, &x, 1, err);
    if (!rc && x.predict)
        rc = record_prediction(out, &x, err);
    prepared_free(&x);
    return rc;
}

int rs_predict_record(const struct rs_params *p, struct rs_record *out, struct rs_err *err)
{
    struct prepared x;
    struct rs_record scratch;
    rs_record_init(&scratch);
    int rc = prepare(&x, p, 1, 0, &scratch, err);
    rs_record_free(&scratch);
    if (rc)
        return rc;
    if (x.predict)
        rc = record_prediction(out, &x, err);
    prepared_free(&x);
    return rc;
}

int rs_traffic_save(const struct rs_params *p, int with_engine, const char *path,
                    struct rs_err *err)
{
    struct prepared x;
    struct rs_record scratch;
    struct rs_buf b;
    rs_record_init(&scratch);
    int rc = prepare(&x, p, with_engine, 0, &scratch, err);
    rs_record_free(&scratch);
    if (rc)
        return rc;
    if (x.pb.src) {
        prepared_free(&x);
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "--save-traffic: traffic=%s gives each message its source, which a "
                          "traffic_file cannot hold",
                          x.sel.traffic->name);
    }
    rs_buf_init(&b);
    rs_buf_printf(&b, "# traffic=%s N=%u per_input=%u (routesim --save-traffic)\n",
                  x.sel.traffic->name, x.pb.n_terminals, x.pb.per_input);
    for (uint64_t m = 0; m < x.pb.n_msgs; m++)
        rs_buf_printf(&b, "%u\n", x.pb.dst[m]);
    rc = rs_buf_write_file(&b, path, err);
    rs_buf_free(&b);
    prepared_free(&x);
    return rc;
}

int rs_validate(const struct rs_params *p, struct rs_record *params_out, struct rs_err *err)
{
    struct prepared x;
    struct rs_record scratch;
    const struct rs_algo_ops *model = model_algo(p);
    if (rs_params_find(p, "search")) {
        rs_record_init(&scratch);
        int rc = rs_saturate_params(p, params_out ? params_out : &scratch, err);
        rs_record_free(&scratch);
        return rc;
    }
    if (model)
        return model_run(model, p, params_out, 0, err);
    rs_record_init(&scratch);
    int rc = prepare(&x, p, 1, 0, params_out ? params_out : &scratch, err);
    if (!rc)
        prepared_free(&x);
    rs_record_free(&scratch);
    return rc;
}

int rs_check(const struct rs_params *p, struct rs_err *err)
{
    struct prepared x;
    struct rs_record scratch;
    char note[256] = "";
    const struct rs_algo_ops *model = model_algo(p);
    if (rs_params_find(p, "search"))
        return rs_saturate_check(p, err);
    if (model)
        return model_run(model, p, NULL, 0, err);
    memset(&x, 0, sizeof x);
    rs_params_init(&x.params);
    rs_record_init(&scratch);
    int rc = check_steps(&x, p, 1, &scratch, note, sizeof note, err);
    prepared_free(&x);
    rs_record_free(&scratch);
    return rc;
}
