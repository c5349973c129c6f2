/* The one run loop of every engine and of the algorithms' own step simulations: admits the
 * plan field by field, computes the static messages' release order and intermediates once,
 * sets up open-loop injection and its phases, applies the auto-check rule of small runs,
 * calls the step until a stop condition (all delivered, deadlock or stall, the open-loop
 * drain over), checks the invariants, reports progress, has the engine fill the typed result
 * and writes the record from it. Contracts in include/routesim/driver.h. */
#include "routesim/alloc.h"
#include "routesim/driver.h"
#include "core/events_hook.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/assert.h"
#include "routesim/metrics.h"
#include "routesim/options.h"

/* Steps between two progress reports when rs_engine_input.progress_every is 0. */
#define RS_DRIVER_PROGRESS_EVERY 4096u

/* The plan's fields in declaration order (bit i is entry i), with the test of "given". */
static const struct {
    unsigned bit;
    const char *name;
} plan_fields[] = {
    {RS_PLAN_RELEASE, "release"}, {RS_PLAN_MID, "mid"},       {RS_PLAN_LENGTH, "length"},
    {RS_PLAN_DISCARD, "discard_on_delay"}, {RS_PLAN_FINISH, "finish"}, {RS_PLAN_FATE, "fate"},
    {RS_PLAN_VIA, "via"},
};

_Static_assert(sizeof plan_fields / sizeof plan_fields[0] == RS_PLAN_N_FIELDS,
               "one entry per plan field");

static unsigned plan_given(const struct rs_engine_plan *pl)
{
    return (pl->release ? RS_PLAN_RELEASE : 0) | (pl->mid ? RS_PLAN_MID : 0) |
           (pl->length ? RS_PLAN_LENGTH : 0) | (pl->discard_on_delay ? RS_PLAN_DISCARD : 0) |
           (pl->finish ? RS_PLAN_FINISH : 0) | (pl->fate ? RS_PLAN_FATE : 0) |
           (pl->via ? RS_PLAN_VIA : 0);
}

/* Refuse a plan in open loop, and every field the lifecycle does not honour. */
static int admit_plan(const struct rs_driver *d, const struct rs_engine_life *life,
                      struct rs_err *err)
{
    const struct rs_engine_plan *pl = d->in->plan;
    if (!pl)
        return 0;
    if (d->ol)
        return rs_err_set(err, RS_EUNSUPPORTED,
                          "a plan (per-message schedule) needs injection_process=batch");
    unsigned refused = plan_given(pl) & ~life->plan_fields;
    for (size_t i = 0; i < sizeof plan_fields / sizeof plan_fields[0]; i++)
        if (refused & plan_fields[i].bit) {
            const char *why = life->plan_why ? life->plan_why[i] : NULL;
            return rs_err_set(err, RS_EUNSUPPORTED,
                              "switching=%s does not honour the plan field `%s`%s%s",
                              d->engine->name, plan_fields[i].name, why ? ": " : "",
                              why ? why : "");
        }
    return 0;
}

/* The open-loop keys; the packet length is the engine's `length` key (1 for engines
 * without one: a packet is one unit; batch runs have no packets). Starts the injection
 * process in open loop. */
static int setup_openloop(struct rs_driver *d, struct rs_openloop *ol, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    int64_t len = 1;
    enum rs_injection process;
    int rc;
    if ((rc = rs_openloop_process(in->params, &process, err)))
        return rc;
    if (process == RS_INJECT_BERNOULLI && d->engine->options && /* batch: no packets */
        rs_optdef_find(d->engine->options, "length") &&
        (rc = rs_opt_int(in->params, d->engine->options, "length", &len, err)))
        return rc;
    if ((rc = rs_openloop_config(&d->cfg, in->params, (uint32_t)len, err)))
        return rc;
    if (d->cfg.process != RS_INJECT_BERNOULLI)
        return 0;
    if (!d->engine->open)
        return rs_err_set(err, RS_EUNSUPPORTED, "switching=%s has no open-loop injection",
                          d->engine->name);
    if ((rc = rs_openloop_init(ol, &d->cfg, in->net, in->pb, in->params, in->routing, in->seed,
                               err)))
        return rc;
    d->ol = ol;
    if (!(d->newly = rs_malloc((size_t)in->pb->n_terminals * sizeof *d->newly + 1)))
        return rs_err_set(err, RS_ENOMEM, "out of memory for open-loop sources");
    return 0;
}

/* The event log: the packets generated at step get their ids and `generated` records, by
 * terminal (docs/events.md, "Open loop"). */
static __attribute__((noinline)) void log_generated(const struct rs_driver *d, uint32_t step)
{
    for (uint32_t t = 0; t < d->ol->n_terminals; t++)
        rs__events_ol_generated(d->in->events, step, t,
                                d->ol->term[t].started + d->ol->term[t].pending);
}

uint32_t rs__driver_generate(struct rs_driver *d, uint32_t step, const uint32_t **newly)
{
    *newly = d->newly;
    if (step > rs_openloop_last_step(d->ol))
        return 0;
    uint32_t n = rs_openloop_generate(d->ol, step, d->newly);
    if (__builtin_expect(d->in->events != NULL, 0))
        log_generated(d, step);
    return n;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Batch runs: the release order of the static messages (by release step, then id) and
 * their intermediates, once, before the engine's set-up. */
static int setup_schedule(struct rs_driver *d, struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    const struct rs_engine_plan *pl = in->plan;
    const struct rs_problem *pb = in->pb;
    if (d->ol)
        return 0;
    d->n_static = pb->n_msgs;
    if ((pl && pl->release) || in->routing->mid)
        if (pb->n_msgs >= UINT32_MAX)
            return rs_err_set(err, RS_ECONSTRAINT, "too many messages (%llu) for one run",
                              (unsigned long long)pb->n_msgs);
    if (pl && pl->release) {
        uint64_t *key = rs_malloc((size_t)pb->n_msgs * sizeof *key + 1);
        d->rel_order = rs_malloc((size_t)pb->n_msgs * sizeof *d->rel_order + 1);
        if (!key || !d->rel_order) {
            rs_free(key);
            return rs_err_set(err, RS_ENOMEM, "out of memory for the release order");
        }
        for (uint64_t m = 0; m < pb->n_msgs; m++) {
            if (pl->release[m] == UINT32_MAX) {
                rs_free(key);
                return rs_err_set(err, RS_EINVAL, "plan: message %llu has release step %u "
                                  "(at most %u)", (unsigned long long)m, UINT32_MAX,
                                  UINT32_MAX - 1);
            }
            key[m] = (uint64_t)pl->release[m] << 32 | m;
        }
        qsort(key, pb->n_msgs, sizeof *key, cmp_u64);
        for (uint64_t i = 0; i < pb->n_msgs; i++)
            d->rel_order[i] = (uint32_t)key[i];
        d->last_release = pb->n_msgs ? (uint32_t)(key[pb->n_msgs - 1] >> 32) : 0;
        rs_free(key);
        d->release = pl->release;
    }
    if (pl && pl->mid) {
        for (uint64_t m = 0; m < pb->n_msgs; m++)
            if (pl->mid[m] != RS_NONE && pl->mid[m] >= pb->n_terminals)
                return rs_err_set(err, RS_EINVAL,
                                  "plan: message %llu has intermediate %u, not a terminal "
                                  "(0..%u)",
                                  (unsigned long long)m, pl->mid[m], pb->n_terminals - 1);
        d->mid = pl->mid;
    } else if (in->routing->mid) { /* drawn once per message, as the engines did */
        if (!(d->mid_own = rs_malloc((size_t)pb->n_msgs * sizeof *d->mid_own + 1)))
            return rs_err_set(err, RS_ENOMEM, "out of memory for the intermediates");
        for (uint64_t m = 0; m < pb->n_msgs; m++)
            d->mid_own[m] = rs_route_mid_for(in->net, in->routing, in->seed, m,
                                             rs_problem_src(pb, m), pb->dst[m]);
        d->mid = d->mid_own;
    }
    return 0;
}

uint32_t rs_driver_released(struct rs_driver *d, uint32_t step, struct rs_released *out)
{
    uint64_t a = d->rel_pos, b = a;
    if (!d->release) { /* everything at step 0, in id order */
        b = d->n_static;
        *out = (struct rs_released){NULL, (uint32_t)a, (uint32_t)(b - a)};
    } else {
        while (b < d->n_static && d->release[d->rel_order[b]] <= step)
            b++;
        *out = (struct rs_released){d->rel_order + a, 0, (uint32_t)(b - a)};
    }
    d->rel_pos = b;
    return out->n;
}

/* The stall rule (rs_engine_life.stall) after a step: a step that moved nothing while items
 * wait is a deadlock, or a defect of a model that cannot deadlock. */
static int judge_stall(const char *who, const struct rs_engine_life *life, void *st,
                       struct rs_driver *d, struct rs_err *err)
{
    if (life->stall == RS_STALL_OWN || d->deadlock || d->moved || !d->live)
        return 0;
    if (life->stall == RS_STALL_DEADLOCK) {
        d->deadlock = 1;
        return 0;
    }
    char state[600] = "";
    if (life->describe_deadlock)
        life->describe_deadlock(st, state, sizeof state);
    return rs_err_set(err, RS_EINVARIANT,
                      "%s made no progress at step %u (it cannot deadlock: this is a "
                      "defect)%s%s",
                      who, d->step, state[0] ? ": " : "", state);
}

/* The loop: one step, then the stop conditions, the check and the progress report. */
static int drive(const char *who, const struct rs_engine_life *life, void *st,
                 struct rs_driver *d, int *deadlock, char *deadlock_msg, size_t deadlock_len,
                 struct rs_err *err)
{
    const struct rs_engine_input *in = d->in;
    uint32_t every = in->progress_every ? in->progress_every : RS_DRIVER_PROGRESS_EVERY;
    uint64_t n_steps = 0;
    int rc = 0;
    if (d->check && life->check && (rc = life->check(st, err)))
        return rc;
    for (;;) {
        if (!d->ol && d->remaining == 0)
            return 0; /* every static message delivered or dropped */
        d->accepted = 0;
        d->deadlock = 0;
        d->moved = d->live = 0;
        if ((rc = life->step(st, d, err)) || (rc = judge_stall(who, life, st, d, err)))
            return rc;
        if (d->ol)
            rs_openloop_accept(d->ol, d->step, d->accepted);
        if (d->deadlock) {
            *deadlock = 1;
            if (d->ol) /* stopped before the drain ended: saturated */
                rs_openloop_stop(d->ol);
            if (deadlock_msg && deadlock_len && life->describe_deadlock)
                life->describe_deadlock(st, deadlock_msg, deadlock_len);
            if (in->deadlock && life->deadlock_cycle) { /* the same cycle as data */
                in->deadlock->step = d->step;
                if (life->deadlock_cycle(st, in->deadlock))
                    return rs_err_set(err, RS_ENOMEM, "out of memory for the waiting cycle");
            }
            return 0;
        }
        if (d->check && life->check && (rc = life->check(st, err)))
            return rc;
        if (in->progress && ++n_steps % every == 0 &&
            in->progress(in->progress_user, d->step, d->ol ? 0 : d->remaining))
            return rs_err_set(err, RS_EINTERRUPTED, "interrupted at step %u", d->step);
        if (d->ol && rs_openloop_done(d->ol, d->step))
            return 0; /* the window is over and its packets are accounted for */
    }
}

/* Debug builds (RS_ALWAYS_CHECK) check small runs on their own: the one rule
 * (include/routesim/driver.h, RS_AUTO_CHECK_SIZE), before set-up. */
static void auto_check(const struct rs_engine_life *life, struct rs_driver *d)
{
#ifdef RS_ALWAYS_CHECK
    const struct rs_engine_input *in = d->in;
    if (!in->net)
        return;
    uint64_t size = (uint64_t)in->net->n_nodes * in->net->max_ports;
    size += d->ol || !in->pb ? 0 : in->pb->n_msgs;
    if (life->auto_check && life->check && size <= RS_AUTO_CHECK_SIZE &&
        (!d->ol || rs_openloop_last_step(d->ol) <= RS_AUTO_CHECK_STEPS))
        d->check = 1;
#else
    (void)life;
    (void)d;
#endif
}

/* One run of life (engine's, chosen by injection mode, when engine is given; an algorithm's
 * own simulation when engine is NULL: no open loop, plan or release schedule). */
static int run_life(const char *who, const struct rs_engine_ops *engine,
                    const struct rs_engine_life *life, const struct rs_engine_input *in,
                    const void *extra, struct rs_record *out, char *deadlock_msg,
                    size_t deadlock_len, struct rs_err *err)
{
    struct rs_driver d;
    struct rs_openloop ol;
    int deadlock = 0, rc = 0;
    memset(&d, 0, sizeof d);
    memset(&ol, 0, sizeof ol);
    d.in = in;
    d.engine = engine;
    d.extra = extra;
    d.check = in->check;
    if (deadlock_msg && deadlock_len)
        deadlock_msg[0] = '\0';
    if (in->deadlock)
        rs_deadlock_free(in->deadlock);
    if (engine) {
        rc = setup_openloop(&d, &ol, err);
        life = d.ol ? engine->open : engine->batch;
        if (!rc)
            rc = admit_plan(&d, life, err);
        if (!rc)
            rc = setup_schedule(&d, err);
    } else if (in->plan) {
        rc = rs_err_set(err, RS_EUNSUPPORTED, "%s takes no plan", who);
    }
    void *st = NULL;
    if (!rc && !(st = rs_calloc(1, life->size)))
        rc = rs_err_set(err, RS_ENOMEM, "out of memory for the engine's state");
    if (!rc) {
        auto_check(life, &d);
        rc = life->init(st, &d, err);
    }
    if (!rc)
        rc = drive(who, life, st, &d, &deadlock, deadlock_msg, deadlock_len, err);
    if (!rc) { /* the typed result, filled by the engine, written to the record once */
        struct rs_result own, *res = in->result ? in->result : &own;
        rs_result_init(res);
        if ((rc = life->collect(st, &d, res, deadlock)) ||
            (out && (rc = rs_result_record(res, life->columns, life->n_columns, out))))
            rs_err_set(err, rc, rc == RS_EIO ? "the exchange between MPI ranks failed while "
                                               "the result was collected"
                                             : "out of memory for the result record");
        res->delivered_per_cycle = NULL; /* it may point into the state, freed below */
    }
    if (st)
        life->free(st);
    rs_free(st);
    rs_free(d.newly);
    rs_free(d.rel_order);
    rs_free(d.mid_own);
    rs_openloop_free(&ol);
    return rc;
}

int rs__driver_run(const struct rs_engine_ops *engine, const struct rs_engine_input *in,
                   const void *extra, struct rs_record *out, char *deadlock_msg,
                   size_t deadlock_len, struct rs_err *err)
{
    RS_ASSERT(engine && engine->batch && in && in->net && in->pb && in->params && in->routing &&
              out);
    char who[64];
    snprintf(who, sizeof who, "switching=%s", engine->name);
    return run_life(who, engine, NULL, in, extra, out, deadlock_msg, deadlock_len, err);
}

int rs__driver_run_life(const char *who, const struct rs_engine_life *life,
                        const struct rs_engine_input *in, const void *extra,
                        struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                        struct rs_err *err)
{
    RS_ASSERT(who && life && life->init && life->step && life->collect && life->free && in);
    return run_life(who, NULL, life, in, extra, out, deadlock_msg, deadlock_len, err);
}

int rs_engine_run(const struct rs_engine_ops *engine, const struct rs_engine_input *in,
                  struct rs_record *out, char *deadlock_msg, size_t deadlock_len,
                  struct rs_err *err)
{
    return rs__driver_run(engine, in, NULL, out, deadlock_msg, deadlock_len, err);
}
