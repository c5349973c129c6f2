/* The engine driver (src/engine/driver.c) on a tiny fake engine that delivers one released
 * message per step: the stop conditions (all delivered, deadlock, the open-loop phases),
 * the checks, the progress callback, release plans and the refusal of plan fields an engine
 * does not honour (also by the real engines). */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "routesim/driver.h"
#include "rs_test.h"

/* What the fake's operations saw, reset by every test. */
static struct {
    int inits, steps, checks, collects, frees;
    int fail_init;          /* set-up fails with RS_EINVAL */
    uint32_t deadlock_at;   /* the step that reports a deadlock (0: never) */
    int deliver;            /* open loop: a packet is delivered in the step it is generated */
    uint32_t seen_step;     /* d->step when collected */
    int deadlock;           /* collect's argument */
    uint32_t arrival_calls; /* open loop: rs_driver_arrivals calls */
    uint64_t packets;       /* open loop: packets taken from the module */
    uint32_t prog_step[8];  /* progress callback: its arguments */
    uint64_t prog_left[8];
    int n_prog, stop_prog;  /* calls; the call (1-based) that asks to stop (0: none) */
    uint32_t rel_step[8], rel_id[8], rel_next[8]; /* batch: the releases handed out: the
                                                     step asked, the id, the next release
                                                     step after the call */
    int n_rel;
} lg;

struct fake {
    uint32_t n, step, delivered;
    uint8_t *done;          /* [n] delivered */
    uint8_t *released;      /* [n] handed out by the driver (rs_driver_released) */
};

/* The messages the driver releases at step (the fake asks once per step). */
static void fake_take(struct fake *f, struct rs_driver *d, uint32_t step)
{
    struct rs_released r;
    uint32_t n = rs_driver_released(d, step, &r);
    for (uint32_t i = 0; i < n; i++) {
        f->released[rs_released_id(&r, i)] = 1;
        if (lg.n_rel < 8) {
            lg.rel_step[lg.n_rel] = step;
            lg.rel_id[lg.n_rel] = rs_released_id(&r, i);
            lg.rel_next[lg.n_rel++] = rs_driver_next_release(d);
        }
    }
}

static int fake_init(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct fake *f = st;
    lg.inits++;
    if (lg.fail_init)
        return rs_err_set(err, RS_EINVAL, "fake set-up fails");
    f->n = (uint32_t)d->in->pb->n_msgs;
    if (!(f->done = calloc(f->n + 1, 1)) || !(f->released = calloc(f->n + 1, 1)))
        return RS_ENOMEM;
    fake_take(f, d, 0);
    d->remaining = f->n;
    return 0;
}

/* Batch: the lowest undelivered message released before this step is delivered. */
static int fake_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct fake *f = st;
    (void)err;
    lg.steps++;
    f->step++;
    fake_take(f, d, f->step - 1); /* released at step - 1: may be delivered now */
    for (uint32_t m = 0; m < f->n; m++)
        if (!f->done[m] && f->released[m]) {
            f->done[m] = 1;
            f->delivered++;
            break;
        }
    d->step = f->step;
    d->remaining = f->n - f->delivered;
    d->deadlock = f->step == lg.deadlock_at;
    return 0;
}

/* Open loop: every packet generated in the step leaves its FIFO; delivered at once with
 * lg.deliver, else held for ever. */
static int fake_open_step(void *st, struct rs_driver *d, struct rs_err *err)
{
    struct fake *f = st;
    const uint32_t *newly;
    (void)err;
    lg.steps++;
    f->step++;
    uint32_t n_new = rs_driver_arrivals(d, f->step, &newly);
    lg.arrival_calls++;
    for (uint32_t i = 0; i < n_new; i++)
        while (d->ol->term[newly[i]].pending) {
            struct rs_ol_packet pk;
            rs_openloop_front(d->ol, newly[i], &pk);
            rs_openloop_start(d->ol, newly[i]);
            lg.packets++;
            if (lg.deliver) {
                rs_openloop_finish(d->ol, pk.gen, pk.length, f->step, 1);
                d->accepted += pk.length;
            }
        }
    d->step = f->step;
    d->deadlock = f->step == lg.deadlock_at;
    return 0;
}

static int fake_check(void *st, struct rs_err *err)
{
    struct fake *f = st;
    uint32_t n = 0;
    lg.checks++;
    for (uint32_t m = 0; m < f->n; m++)
        n += f->done[m];
    return n == f->delivered ? 0 : rs_err_set(err, RS_EINVARIANT, "fake counts disagree");
}

static void fake_describe(void *st, char *buf, size_t n)
{
    snprintf(buf, n, "fake cycle at step %u", ((struct fake *)st)->step);
}

static int fake_collect(void *st, struct rs_driver *d, struct rs_result *res, int deadlock)
{
    struct fake *f = st;
    lg.collects++;
    lg.seen_step = d->step;
    lg.deadlock = deadlock;
    if (d->ol)
        rs_openloop_result(d->ol, res);
    res->steps = f->step;
    res->deadlock = deadlock;
    return 0;
}

static const enum rs_metric fake_batch_columns[] = {RS_M_STEPS, RS_M_DEADLOCK};
static const enum rs_metric fake_open_columns[] = {RS_OPENLOOP_COLUMNS, RS_M_STEPS};

static void fake_free(void *st)
{
    lg.frees++;
    free(((struct fake *)st)->done);
    free(((struct fake *)st)->released);
}

static const struct rs_engine_life fake_batch = {
    .size = sizeof(struct fake),
    .plan_fields = RS_PLAN_RELEASE,
    .init = fake_init,
    .step = fake_step,
    .check = fake_check,
    .describe_deadlock = fake_describe,
    .collect = fake_collect,
    .columns = fake_batch_columns,
    .n_columns = 2,
    .free = fake_free,
};

static const struct rs_engine_life fake_open = {
    .size = sizeof(struct fake),
    .plan_fields = RS_PLAN_RELEASE,
    .init = fake_init,
    .step = fake_open_step,
    .check = fake_check,
    .describe_deadlock = fake_describe,
    .collect = fake_collect,
    .columns = fake_open_columns,
    .n_columns = sizeof fake_open_columns / sizeof *fake_open_columns,
    .free = fake_free,
};

static const struct rs_engine_ops fake_engine = {
    .name = "fake", .summary = "test", .options = NULL,
    .batch = &fake_batch, .open = &fake_open, .openloop = 1};

static const struct rs_engine_ops fake_batch_only = {
    .name = "fake_batch", .summary = "test", .options = NULL, .batch = &fake_batch};

static int progress(void *user, uint32_t step, uint64_t remaining)
{
    (void)user;
    lg.prog_step[lg.n_prog] = step;
    lg.prog_left[lg.n_prog] = remaining;
    return ++lg.n_prog == lg.stop_prog;
}

#define CHAIN "topology=chain k=4"
#define OPEN                                                                                   \
    " injection_process=bernoulli injection_rate=0.5 warmup_steps=10 measure_steps=20 "        \
    "drain_steps=30"

/* Where run() asks for the typed result (NULL: not wanted). */
static struct rs_result *run_result;

/* Run engine on kv with plan and the progress callback every `every` steps (0: none). */
static int run(const struct rs_engine_ops *engine, const char *kv,
               const struct rs_engine_plan *plan, uint32_t every, struct rs_record *rec,
               char *msg, size_t msg_len, struct rs_err *err)
{
    struct rs_test_fixture f;
    rs_test_fx_open(&f, kv, 1);
    assert_int_equal(f.pb.n_msgs, 4);
    struct rs_engine_input in = {.net = &f.net, .pb = &f.pb, .params = &f.p,
                                 .routing = RS_ROUTING_DIRECT, .seed = 3, .check = 1,
                                 .plan = plan, .result = run_result};
    if (every) {
        in.progress = progress;
        in.progress_every = every;
    }
    rs_record_init(rec);
    int rc = rs_engine_run(engine, &in, rec, msg, msg_len, err);
    rs_test_fx_close(&f);
    return rc;
}

static void reset(void)
{
    memset(&lg, 0, sizeof lg);
}

/* Four messages, one per step: the run stops after step 4, checked after set-up and after
 * every step, with a progress report every 2 steps. */
static void test_batch_all_delivered(void **state)
{
    struct rs_record r;
    struct rs_err err;
    char msg[64] = "x";
    (void)state;
    reset();
    assert_int_equal(run(&fake_engine, CHAIN, NULL, 2, &r, msg, sizeof msg, &err), 0);
    assert_int_equal(lg.steps, 4);
    assert_int_equal(lg.checks, 5);
    assert_int_equal(lg.seen_step, 4);
    assert_int_equal(lg.deadlock, 0);
    assert_string_equal(msg, "");
    assert_int_equal(lg.n_prog, 2);
    assert_int_equal(lg.prog_step[0], 2);
    assert_int_equal(lg.prog_left[0], 2);
    assert_int_equal(lg.prog_step[1], 4);
    assert_int_equal(lg.prog_left[1], 0);
    assert_int_equal(rs_test_int(&r, "steps"), 4);
    assert_int_equal(lg.inits + lg.collects + lg.frees, 3);
    rs_record_free(&r);
}

/* The typed result is the driver's: it initialises the caller's (or its own), the engine's
 * collect op fills it, the driver writes the lifecycle's columns from it, in order, and
 * hands it back with its strings cleared. */
static void test_typed_result(void **state)
{
    struct rs_record r;
    struct rs_err err;
    struct rs_result res;
    (void)state;
    reset();
    memset(&res, 0xff, sizeof res);
    run_result = &res;
    assert_int_equal(run(&fake_engine, CHAIN, NULL, 0, &r, NULL, 0, &err), 0);
    run_result = NULL;
    assert_int_equal(res.steps, 4);
    assert_int_equal(res.deadlock, 0);
    assert_int_equal(res.makespan, 0);  /* not the fake's: as rs_result_init left it */
    assert_true(isnan(res.latency_mean));
    assert_int_equal(r.n, 2);           /* the batch columns: steps, deadlock */
    assert_string_equal(r.f[0].name, "steps");
    assert_string_equal(r.f[1].name, "deadlock");
    rs_record_free(&r);
    /* a real engine with a string metric: in the record, NULL in the result */
    memset(&res, 0, sizeof res);
    run_result = &res;
    assert_int_equal(run(rs_engine_find("circuit"), CHAIN, NULL, 0, &r, NULL, 0, &err), 0);
    run_result = NULL;
    assert_null(res.delivered_per_cycle);
    assert_int_equal(res.delivered, 4);
    assert_int_equal(rs_test_int(&r, "delivered"), 4);
    assert_int_equal(rs_test_int(&r, "cycles"), res.cycles);
    assert_non_null(rs_record_get(&r, "delivered_per_cycle"));
    assert_int_equal(rs_record_get(&r, "delivered_per_cycle")->type, RS_VAL_STRING);
    rs_record_free(&r);
}

/* A progress callback that asks to stop ends the run with RS_EINTERRUPTED: no record, the
 * state freed. */
static void test_progress_stops(void **state)
{
    struct rs_record r;
    struct rs_err err;
    (void)state;
    reset();
    lg.stop_prog = 1;
    assert_int_equal(run(&fake_engine, CHAIN, NULL, 3, &r, NULL, 0, &err), RS_EINTERRUPTED);
    assert_string_equal(err.msg, "interrupted at step 3");
    assert_int_equal(lg.steps, 3);
    assert_int_equal(lg.collects, 0);
    assert_int_equal(lg.frees, 1);
    rs_record_free(&r);
}

/* A deadlock at step 2 stops the run there, unchecked, described, and recorded. */
static void test_deadlock_stops(void **state)
{
    struct rs_record r;
    struct rs_err err;
    char msg[64];
    (void)state;
    reset();
    lg.deadlock_at = 2;
    assert_int_equal(run(&fake_engine, CHAIN, NULL, 0, &r, msg, sizeof msg, &err), 0);
    assert_int_equal(lg.steps, 2);
    assert_int_equal(lg.checks, 2); /* after set-up and step 1 */
    assert_int_equal(lg.deadlock, 1);
    assert_string_equal(msg, "fake cycle at step 2");
    rs_record_free(&r);
}

/* A set-up failure is returned and the partial state freed; nothing is collected. */
static void test_init_failure(void **state)
{
    struct rs_record r;
    struct rs_err err;
    (void)state;
    reset();
    lg.fail_init = 1;
    assert_int_equal(run(&fake_engine, CHAIN, NULL, 0, &r, NULL, 0, &err), RS_EINVAL);
    assert_string_equal(err.msg, "fake set-up fails");
    assert_int_equal(lg.frees, 1);
    assert_int_equal(lg.collects + lg.steps, 0);
    rs_record_free(&r);
}

/* The plan field the fake honours (release) reaches it: released at 5, the four messages
 * are delivered at steps 6..9. Any other field is refused before set-up, naming it; a plan
 * in an open-loop run is refused whatever its fields. */
static void test_plan_fields(void **state)
{
    struct rs_record r;
    struct rs_err err;
    uint32_t rel[4] = {5, 5, 5, 5}, mid[4] = {0, 0, 0, 0}, fin[4];
    (void)state;
    reset();
    struct rs_engine_plan plan = {.release = rel};
    assert_int_equal(run(&fake_engine, CHAIN, &plan, 0, &r, NULL, 0, &err), 0);
    assert_int_equal(lg.seen_step, 9);
    rs_record_free(&r);
    /* the driver hands the messages out once, at their release step, in id order */
    reset();
    uint32_t rel2[4] = {3, 1, 3, 0};
    plan.release = rel2;
    assert_int_equal(run(&fake_engine, CHAIN, &plan, 0, &r, NULL, 0, &err), 0);
    assert_int_equal(lg.n_rel, 4);
    const uint32_t want_step[4] = {0, 1, 3, 3}, want_id[4] = {3, 1, 0, 2},
                   want_next[4] = {1, 3, UINT32_MAX, UINT32_MAX};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(lg.rel_step[i], want_step[i]);
        assert_int_equal(lg.rel_id[i], want_id[i]);
        assert_int_equal(lg.rel_next[i], want_next[i]);
    }
    assert_int_equal(lg.seen_step, 5); /* 3 at step 1, 1 at 2, 0 and 2 at 4 and 5 */
    rs_record_free(&r);
    plan.release = rel;
    reset();
    struct rs_engine_plan bad = {.release = rel, .mid = mid};
    assert_int_equal(run(&fake_engine, CHAIN, &bad, 0, &r, NULL, 0, &err), RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "switching=fake does not honour the plan field `mid`");
    assert_int_equal(lg.inits, 0);
    rs_record_free(&r);
    struct rs_engine_plan discard = {.discard_on_delay = 1};
    assert_int_equal(run(&fake_engine, CHAIN, &discard, 0, &r, NULL, 0, &err),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "`discard_on_delay`"));
    rs_record_free(&r);
    struct rs_engine_plan empty = {0};
    assert_int_equal(run(&fake_engine, CHAIN OPEN, &empty, 0, &r, NULL, 0, &err),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "needs injection_process=batch"));
    rs_record_free(&r);
    /* the real engines declare theirs: store_forward honours release and mid (and says why
     * it refuses discard_on_delay), circuit release and via, the flit engines all but via */
    struct rs_engine_plan out = {.finish = fin};
    assert_int_equal(run(rs_engine_find("store_forward"), CHAIN, &discard, 0, &r, NULL, 0, &err),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "switching=store_forward does not honour the plan field "
                                    "`discard_on_delay`: a store-and-forward packet waits"));
    rs_record_free(&r);
    assert_int_equal(run(rs_engine_find("store_forward"), CHAIN, &out, 0, &r, NULL, 0, &err),
                     RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "switching=store_forward does not honour the plan field `finish`");
    rs_record_free(&r);
    assert_int_equal(run(rs_engine_find("store_forward"), CHAIN, &plan, 0, &r, NULL, 0, &err), 0);
    rs_record_free(&r);
    assert_int_equal(run(rs_engine_find("circuit"), CHAIN, &out, 0, &r, NULL, 0, &err),
                     RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "switching=circuit does not honour the plan field `finish`");
    rs_record_free(&r);
    struct rs_engine_plan via = {.via = mid};
    assert_int_equal(run(rs_engine_find("wormhole"), CHAIN, &via, 0, &r, NULL, 0, &err),
                     RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "switching=wormhole does not honour the plan field `via`");
    rs_record_free(&r);
    assert_int_equal(run(rs_engine_find("circuit"), CHAIN, &plan, 0, &r, NULL, 0, &err), 0);
    rs_record_free(&r);
}

/* Open loop: warm-up 10, measurement 20, drain 30. Packets delivered at once: the run
 * stops right after the window (step 30), unsaturated, every measured packet delivered.
 * Packets never delivered: it runs to the last step (60) and is saturated. A deadlock
 * stops it early, saturated. An engine without open loop refuses it. */
static void test_open_phases(void **state)
{
    struct rs_record r;
    struct rs_err err;
    (void)state;
    reset();
    lg.deliver = 1;
    assert_int_equal(run(&fake_engine, CHAIN OPEN, NULL, 0, &r, NULL, 0, &err), 0);
    assert_int_equal(lg.seen_step, 30);
    assert_int_equal(lg.arrival_calls, 30);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(rs_test_int(&r, "measured_packets") > 10);
    assert_int_equal(rs_test_int(&r, "measured_delivered"), rs_test_int(&r, "measured_packets"));
    assert_int_equal(rs_test_int(&r, "delivered"), (int64_t)lg.packets);
    assert_true(rs_test_double(&r, "accepted") == rs_test_double(&r, "offered"));
    rs_record_free(&r);
    reset();
    assert_int_equal(run(&fake_engine, CHAIN OPEN, NULL, 0, &r, NULL, 0, &err), 0);
    assert_int_equal(lg.seen_step, 60);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_int_equal(rs_test_int(&r, "delivered"), 0);
    rs_record_free(&r);
    reset();
    lg.deliver = 1;
    lg.deadlock_at = 15;
    assert_int_equal(run(&fake_engine, CHAIN OPEN, NULL, 0, &r, NULL, 0, &err), 0);
    assert_int_equal(lg.seen_step, 15);
    assert_int_equal(lg.deadlock, 1);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    rs_record_free(&r);
    assert_int_equal(run(&fake_batch_only, CHAIN OPEN, NULL, 0, &r, NULL, 0, &err),
                     RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "switching=fake_batch has no open-loop injection");
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_all_delivered), cmocka_unit_test(test_progress_stops),
        cmocka_unit_test(test_deadlock_stops),      cmocka_unit_test(test_init_failure),
        cmocka_unit_test(test_plan_fields),         cmocka_unit_test(test_typed_result),         cmocka_unit_test(test_open_phases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
