/* algorithm=wave: Maggs & Sitaraman's wave/token algorithm for k packets per input on the
 * butterfly with 0- and 1-queues of q items (004 §4), and §6's variant with greedy waves;
 * its options, checks of the run's keys, its simulator's lifecycle (run by the driver's
 * loop, src/engine/driver.c) and the record (docs/wave.md). */
#include <stdio.h>

#include "routesim/algo.h"
#include "routesim/alloc.h"
#include "routesim/driver.h"
#include "routesim/metrics.h"
#include "routesim/openloop.h"
#include "routesim/wave.h"

static const char *const wave_protocol_names[] = {"modes", "greedy", "fifo", NULL};

static const struct rs_optdef wave_options[] = {
    {"wave_protocol", RS_OPT_CHOICE, "modes", 0, 0, wave_protocol_names,
     "how a switch routes the packets of one wave: 0-mode then 1-mode, one packet a step "
     "(004 §4), or greedily from both queues, the waves still separated by tokens (004 §6); "
     "fifo: no tokens, greedy FIFO as switching=store_forward (the baseline)", "-"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* The store-and-forward keys the algorithm reads (queue_size) or refuses when they ask
 * for something else than its model: input queues, blocking, batch injection. */
static int wave_config(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                       uint32_t *q, int *proto, struct rs_err *err)
{
    const struct rs_net *net = in->net;
    int64_t qs;
    int at, prot, full, rc;
    enum rs_injection inj;
    if ((rc = rs_opt_int(in->params, engine->options, "queue_size", &qs, err)) ||
        (rc = rs_opt_choice(in->params, engine->options, "queue_at", &at, err)) ||
        (rc = rs_opt_choice(in->params, engine->options, "protocol", &prot, err)) ||
        (rc = rs_opt_choice(in->params, engine->options, "on_full", &full, err)) ||
        (rc = rs_opt_choice(in->params, wave_options, "wave_protocol", proto, err)) ||
        (rc = rs_openloop_process(in->params, &inj, err)))
        return rc;
    if (inj != RS_INJECT_BATCH)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave routes a static set of k packets per input (004 §4): "
                          "injection_process must be batch");
    if (net->wrap)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave routes from level 0 to level log N (004 §4): wrap "
                          "must be 0");
    if (!rs_route_is_direct(in->routing))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave sends every packet on its unique butterfly path: "
                          "routing must be direct");
    if (in->plan)
        return rs_err_set(err, RS_EUNSUPPORTED, "algorithm=wave takes no plan");
    if (in->pb->src)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave needs per_input packets at every input (one per "
                          "wave); this traffic gives the inputs different numbers");
    /* issue 14's queue threshold (004 §3), once the engine has it, is another queue model */
    if (rs_params_find(in->params, "queue_threshold"))
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave has 0- and 1-queues of queue_size items (004 §4): "
                          "queue_threshold (004 §3) does not apply");
    if (qs < 1 || qs > 65535)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave needs queue_size in 1..65535 (the 0- and 1-queues "
                          "of 004 §4 hold q items; got %lld)",
                          (long long)qs);
    if (at != 0 || prot != 0 || full != 0)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave has its own rules (004 §4): queue_at must be input, "
                          "protocol fifo, on_full block");
    if (net->log2n < 1 || net->log2n > 26)
        return rs_err_set(err, RS_EUNSUPPORTED, "algorithm=wave needs N in 2..2^26 (got %u)",
                          net->N);
    if ((uint64_t)net->N * in->pb->per_input >= RS_WAVE_TOKEN || in->pb->per_input < 1)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "algorithm=wave needs 1 <= N per_input < 2^31 (got %u x %u)", net->N,
                          in->pb->per_input);
    *q = (uint32_t)qs;
    return 0;
}

/* The common metrics the algorithm writes first, in this order. */
static const enum rs_metric wave_columns[] = {
    RS_M_MAKESPAN,    RS_M_MESSAGES,    RS_M_DELIVERED, RS_M_LATENCY_MEAN,
    RS_M_LATENCY_P99, RS_M_LATENCY_MAX, RS_M_STEPS,     RS_M_HOPS,
    RS_M_MAX_QUEUE};

/* ---- the lifecycle (the loop is the driver's, src/engine/driver.c) ----------------------- */

/* What collect hands back for the algorithm's own columns. */
struct wave_out {
    uint32_t n, k, makespan, max_q[2];
    uint64_t tokens_sent;
};

/* The typed set-up argument (rs_driver.extra). */
struct wave_args {
    uint32_t q;
    enum rs_wave_protocol proto;
    struct wave_out *out;
};

static int wave_life_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct rs_wave *w = st;
    const struct wave_args *a = d->extra;
    const struct rs_engine_input *in = d->in;
    /* d->check: check=1 or the driver's auto-check of small runs (Debug builds) */
    if (rs_wave_init(w, in->net->log2n, in->pb->per_input, a->q, a->proto, in->pb->dst,
                     d->check))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the wave algorithm's queues");
    d->remaining = w->in_net; /* packets and tokens not yet absorbed */
    return 0;
}

static int wave_life_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct rs_wave *w = st;
    d->moved = rs_wave_step(w, err);
    if (w->violated) /* a check inside the step failed: its message is in err */
        return RS_EINVARIANT;
    d->step = w->step;
    d->remaining = d->live = w->in_net;
    return rs_wave_done(w) ? rs_wave_check_end(w, err) : 0;
}

static int wave_life_check(void *st, struct rs_err *err)
{
    return rs__wave_check_state(st, err);
}

static void wave_life_describe(void *st, char *buf, size_t n)
{
    rs_wave_describe_stuck(st, buf, n);
}

static int wave_life_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    const struct rs_wave *w = st;
    const struct wave_args *a = d->extra;
    uint64_t n = (uint64_t)w->N * w->k;
    (void)deadlock; /* RS_STALL_DEFECT: a stall is an error, never a recorded deadlock */
    /* every packet released at step 0; finish 0 = not delivered */
    struct rs_lat_source ls = {.n = n, .finish = w->finish, .none = 0};
    int rc = rs_result_latency(res, &ls);
    if (rc)
        return RS_ENOMEM;
    res->makespan = w->makespan;
    res->messages = (int64_t)n;
    res->delivered = (int64_t)w->delivered;
    res->steps = w->step;
    res->hops = (int64_t)w->hops;
    res->max_queue = w->max_q[0] > w->max_q[1] ? w->max_q[0] : w->max_q[1];
    *a->out = (struct wave_out){.n = w->n, .k = w->k, .makespan = w->makespan,
                                .max_q = {w->max_q[0], w->max_q[1]},
                                .tokens_sent = w->tokens_sent};
    return 0;
}

static void wave_life_free(void *st)
{
    rs_wave_free(st);
}

static const struct rs_engine_life wave_life = {
    .size = sizeof(struct rs_wave),
    .init = wave_life_init,
    .step = wave_life_step,
    .check = wave_life_check,
    .auto_check = 1,
    .stall = RS_STALL_DEFECT, /* 004 §4's algorithm cannot deadlock */
    .describe_deadlock = wave_life_describe,
    .collect = wave_life_collect,
    .columns = wave_columns,
    .n_columns = sizeof wave_columns / sizeof *wave_columns,
    .free = wave_life_free,
};

/* The algorithm's own columns after the common ones. */
static int wave_record(const struct wave_out *o, struct rs_record *out)
{
    double bound = (double)o->k + o->n;
    int rc = rs_metric_int(out, RS_M_MAX_LAG, o->makespan > o->n ? o->makespan - o->n : 0);
    rc |= rs_metric_int(out, RS_M_MAX_QUEUE0, o->max_q[0]);
    rc |= rs_metric_int(out, RS_M_MAX_QUEUE1, o->max_q[1]);
    rc |= rs_metric_int(out, RS_M_TOKENS_SENT, (int64_t)o->tokens_sent);
    rc |= rs_metric_double(out, RS_M_BOUND, bound);
    rc |= rs_metric_double(out, RS_M_MEASURED_OVER_BOUND, o->makespan / bound);
    return rc ? RS_ENOMEM : 0;
}

static int wave_run(const struct rs_engine_input *in, const struct rs_engine_ops *engine,
                    struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                    struct rs_err *err)
{
    struct wave_out o;
    struct wave_args a = {.out = &o};
    int proto = 0, rc;
    if (deadlock_msg && deadlock_len)
        deadlock_msg[0] = '\0';
    if ((rc = wave_config(in, engine, &a.q, &proto, err)))
        return rc;
    a.proto = (enum rs_wave_protocol)proto;
    if ((rc = rs__driver_run_life("algorithm=wave", &wave_life, in, &a, out, deadlock_msg,
                                  deadlock_len, err)))
        return rc;
    if (wave_record(&o, out))
        return rs_err_set(err, RS_ENOMEM, "out of memory for the result record");
    return 0;
}

static const char *const wave_switching[] = {"store_forward", NULL};

const struct rs_algo_ops rs_algo_wave = {
    .name = "wave",
    .summary = "004 §4: k packets per input in waves separated by tokens, 0-mode/1-mode "
               "switches, 0- and 1-queues of queue_size items (wave_protocol=greedy: §6)",
    .options = wave_options,
    .switching = wave_switching,
    .needs = RS_CAP_BUTTERFLY,
    .run = wave_run,
};
