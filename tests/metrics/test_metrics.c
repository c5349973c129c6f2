/* The metrics layer (src/metrics): the table declares every metric once and every key an
 * engine, algorithm, predictor or analysis writes; the percentile and histogram routines on
 * worked examples; NaN latency (never 0) for runs that deliver nothing or deadlock; metric
 * names checked with suggestions. */
#include <math.h>

#include "rs_test.h"

#include "routesim/engine.h"
#include "routesim/metrics.h"

/* ---- the table ---------------------------------------------------------------------------- */

static void test_table_complete_and_unique(void **state)
{
    (void)state;
    for (int i = 0; i < RS_M__COUNT; i++) {
        const struct rs_metric_def *d = &rs_metric_defs[i];
        assert_non_null(d->name); /* no id without its declaration */
        assert_true(d->unit && d->unit[0] && d->meaning && d->meaning[0] && d->producers &&
                    d->producers[0]);
        for (int j = 0; j < i; j++)
            if (!strcmp(d->name, rs_metric_defs[j].name)) {
                print_error("metric '%s' declared twice\n", d->name);
                fail();
            }
        if (!strstr(d->name, "<l>")) /* a pattern names no column itself */
            assert_ptr_equal(rs_metric_find(d->name), d);
        /* a field of the typed result holds a value of the declared type */
        if (d->field != RS_METRIC_NO_FIELD)
            assert_true(d->field + (d->type == RS_METRIC_DOUBLE ? sizeof(double)
                                    : d->type == RS_METRIC_INT  ? sizeof(int64_t)
                                                                : sizeof(char *)) <=
                        sizeof(struct rs_result));
    }
    assert_ptr_equal(rs_metric_find("level12_max"), &rs_metric_defs[RS_M_LEVEL_MAX]);
    assert_null(rs_metric_find("level_max"));
    assert_null(rs_metric_find("levelx_msgs"));
    assert_null(rs_metric_find("makespan_mean")); /* a statistics column, not a metric */
}

/* Every key after the parameters of rec is declared. */
static void all_declared(const char *kv, const struct rs_record *rec)
{
    assert_true(rec->n_params > 0 && rec->n_params < rec->n);
    for (size_t i = rec->n_params; i < rec->n; i++)
        if (!rs_metric_find(rec->f[i].name)) {
            print_error("%s: metric '%s' is not in the metrics table\n", kv, rec->f[i].name);
            fail();
        }
}

static void run_declared(const char *kv)
{
    struct rs_record r;
    rs_test_run(kv, &r);
    all_declared(kv, &r);
    rs_record_free(&r);
}

/* The engine's run of kv writes only metrics whose declared producers name it ("flit
 * engines" for the flit family, "open loop" for the module's metrics, "run" for those the
 * run appends). */
static void producers_honest(const char *kv, const char *engine, int openloop)
{
    struct rs_record r;
    rs_test_run(kv, &r);
    int flit = strcmp(engine, "store_forward") && strcmp(engine, "circuit");
    for (size_t i = r.n_params; i < r.n; i++) {
        const char *p = rs_metric_find(r.f[i].name)->producers;
        if (!strstr(p, engine) && !(flit && strstr(p, "flit engines")) &&
            !(openloop && strstr(p, "open loop")) && !strstr(p, "run")) {
            print_error("%s: writes '%s', declared as from %s\n", kv, r.f[i].name, p);
            fail();
        }
    }
    rs_record_free(&r);
}

/* Every engine on a small batch run (and open-loop run where it has one), every algorithm,
 * the predictor and analyze: no undeclared key, and an engine writes only metrics declared
 * as its own. */
static void test_every_key_declared(void **state)
{
    (void)state;
    char kv[512];
    for (int i = 0; rs_engines[i]; i++) {
        snprintf(kv, sizeof kv, "topology=butterfly N=8 switching=%s check=1", rs_engines[i]->name);
        run_declared(kv);
        producers_honest(kv, rs_engines[i]->name, 0);
        if (rs_engines[i]->openloop) {
            snprintf(kv, sizeof kv,
                     "topology=butterfly N=8 switching=%s injection_process=bernoulli "
                     "injection_rate=0.2 warmup_steps=20 measure_steps=50 drain_steps=200 check=1",
                     rs_engines[i]->name);
            run_declared(kv);
            producers_honest(kv, rs_engines[i]->name, 1);
        }
    }
    run_declared("topology=butterfly N=8 switching=store_forward protocol=rank check=1");
    run_declared("topology=baseline N=8 traffic=randperm switching=circuit algorithm=offline");
    run_declared("topology=lcan N=16 d=2 u=2 traffic=randperm switching=circuit "
                 "algorithm=self_route");
    run_declared("topology=butterfly N=8 wrap=1 switching=wormhole algorithm=cms_butterfly "
                 "traffic=bitrev length=2 pad=0");
    run_declared("topology=mesh k=4 n=2 traffic=randperm switching=wormhole length=3 "
                 "algorithm=colour_refine");
    run_declared("topology=lcan N=16 d=4 u=4 traffic=root switching=circuit predict=lcan");
    run_declared("topology=pruned_butterfly N=16 traffic=uniform per_input=2 switching=circuit "
                 "algorithm=bay_bilardi");
    struct rs_record r;
    char msg[512];
    const char *an = "topology=butterfly N=8 traffic=bitrev";
    assert_int_equal(rs_test_try(an, 0, &r, msg, sizeof msg), 0); /* analyze */
    all_declared(an, &r);
    assert_non_null(rs_record_get(&r, "level2_max"));
    rs_record_free(&r);
}

/* ---- statistics of one run ------------------------------------------------------------------ */

/* Nearest rank: the smallest v with at least ceil(frac n) values <= v. */
static void test_percentile_worked(void **state)
{
    (void)state;
    uint64_t h[101] = {0};
    for (int v = 1; v <= 100; v++) /* 1..100 once each: ceil(99) = 99 values -> 99 */
        h[v] = 1;
    assert_true(rs_hist_percentile(h, 101, 100, 0.99) == 99.0);
    assert_true(rs_hist_percentile(h, 101, 100, 0.5) == 50.0);
    assert_true(rs_hist_percentile(h, 101, 100, 1.0) == 100.0);
    assert_true(rs_hist_percentile(h, 101, 100, 0.001) == 1.0); /* at least one value */
    /* 1..10: ceil(9.9) = 10 values -> the largest */
    assert_true(rs_hist_percentile(h, 11, 10, 0.99) == 10.0);
    /* {2, 2, 2, 7}: 99% -> ceil(3.96) = 4 -> 7; 75% -> 3 values -> 2 */
    uint64_t g[8] = {0, 0, 3, 0, 0, 0, 0, 1};
    assert_true(rs_hist_percentile(g, 8, 4, 0.99) == 7.0);
    assert_true(rs_hist_percentile(g, 8, 4, 0.75) == 2.0);
    assert_true(isnan(rs_hist_percentile(g, 8, 0, 0.99))); /* nothing counted */
    struct rs_result r;
    rs_result_init(&r);
    rs_hist_summary(g, 8, &r); /* mean (6 + 7) / 4 */
    assert_true(r.latency_mean == 13.0 / 4 && r.latency_p99 == 7.0 && r.latency_max == 7.0);
    uint64_t z[4] = {0};
    rs_hist_summary(z, 4, &r);
    assert_true(isnan(r.latency_mean) && isnan(r.latency_p99) && isnan(r.latency_max));
    rs_hist_summary(NULL, 0, &r);
    assert_true(isnan(r.latency_mean));
}

static void test_lat_hist(void **state)
{
    (void)state;
    struct rs_lat_hist h;
    struct rs_result r;
    rs_lat_hist_init(&h);
    assert_int_equal(rs_lat_hist_add(&h, 0), 0);
    assert_int_equal(rs_lat_hist_add(&h, 1000), 0); /* grows past 64 */
    assert_int_equal(rs_lat_hist_add(&h, 3), 0);
    assert_true(h.cap > 1000 && h.n == 3 && h.count[1000] == 1 && h.count[0] == 1);
    rs_result_init(&r);
    rs_hist_summary(h.count, h.cap, &r);
    assert_true(r.latency_mean == 1003.0 / 3 && r.latency_p99 == 1000.0 && r.latency_max == 1000.0);
    rs_lat_hist_free(&h);
    assert_true(h.count == NULL && h.n == 0);
}

/* ---- NaN, never 0, when nothing is delivered ------------------------------------------------ */

static void assert_latency_nan(const struct rs_record *r)
{
    assert_true(isnan(rs_test_double(r, "latency_mean")));
    assert_true(isnan(rs_test_double(r, "latency_p99")));
    assert_true(isnan(rs_test_double(r, "latency_max")));
}

/* The deadlocks of docs/model-flit.md and docs/model-saf.md (tornado on a ring, one VC /
 * input queues of one packet): nothing delivered, latency NaN, written null in JSON. */
static void test_nan_on_deadlock(void **state)
{
    (void)state;
    struct rs_record r;
    struct rs_buf b;
    struct rs_err err;
    char msg[2048];
    assert_int_equal(
        rs_test_try("topology=ring k=8 traffic=tornado switching=wormhole", 1, &r, msg, sizeof msg),
        0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_int_equal(rs_test_int(&r, "delivered"), 0);
    assert_latency_nan(&r);
    rs_buf_init(&b);
    assert_int_equal(rs_records_write(&b, RS_FMT_JSON, &r, 1, &err), 0);
    assert_non_null(strstr(b.data, "\"latency_mean\":null,\"latency_p99\":null,"
                                   "\"latency_max\":null"));
    rs_buf_free(&b);
    rs_buf_init(&b);
    assert_int_equal(rs_records_write(&b, RS_FMT_CSV, &r, 1, &err), 0);
    assert_non_null(strstr(b.data, ",nan,nan,nan,"));
    rs_buf_free(&b);
    rs_record_free(&r);
    assert_int_equal(
        rs_test_try("topology=ring k=7 traffic=tornado queue_size=1", 1, &r, msg, sizeof msg), 0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_latency_nan(&r);
    rs_record_free(&r);
}

/* A message set of no messages on every engine: nothing delivered, latency NaN, makespan 0;
 * the typed result says the same as the record. */
static void test_nan_on_zero_messages(void **state)
{
    (void)state;
    for (int i = 0; rs_engines[i]; i++) {
        struct rs_test_fixture f;
        struct rs_record r;
        struct rs_result res;
        struct rs_err err;
        char kv[256], dl[256];
        snprintf(kv, sizeof kv, "topology=butterfly N=8 switching=%s", rs_engines[i]->name);
        rs_test_fx_open(&f, kv, 1);
        f.pb.n_msgs = 0;
        struct rs_engine_input in = {.net = &f.net, .pb = &f.pb, .params = &f.p,
                                     .routing = RS_ROUTING_DIRECT, .seed = 1, .check = 1,
                                     .result = &res};
        rs_record_init(&r);
        rs_result_init(&res);
        res.latency_mean = 0; /* must be written */
        if (rs_engine_run(rs_engines[i], &in, &r, dl, sizeof dl, &err)) {
            print_error("%s: %s\n", kv, err.msg);
            fail();
        }
        assert_int_equal(rs_test_int(&r, "messages"), 0);
        assert_int_equal(rs_test_int(&r, "delivered"), 0);
        assert_int_equal(rs_test_int(&r, "makespan"), 0);
        assert_latency_nan(&r);
        assert_true(res.messages == 0 && res.makespan == 0 && isnan(res.latency_mean) &&
                    isnan(res.latency_p99) && isnan(res.latency_max));
        rs_record_free(&r);
        rs_test_fx_close(&f);
    }
}

/* The typed result an algorithm reads holds what the record holds. */
static void test_typed_result_matches_record(void **state)
{
    (void)state;
    const char *kv[] = {"topology=butterfly N=16 traffic=randperm switching=store_forward",
                        "topology=butterfly N=16 traffic=randperm switching=wormhole length=3",
                        "topology=butterfly N=16 traffic=randperm switching=circuit"};
    for (int i = 0; i < 3; i++) {
        struct rs_test_fixture f;
        struct rs_record r;
        struct rs_result res;
        struct rs_err err;
        char dl[256];
        rs_test_fx_open(&f, kv[i], 3);
        struct rs_engine_input in = {.net = &f.net, .pb = &f.pb, .params = &f.p,
                                     .routing = RS_ROUTING_DIRECT, .seed = 3, .check = 1,
                                     .result = &res};
        const struct rs_param *sw = rs_params_find(&f.p, "switching");
        rs_record_init(&r);
        assert_int_equal(rs_engine_run(rs_engine_find(sw->value), &in, &r, dl, sizeof dl, &err), 0);
        assert_int_equal(res.makespan, rs_test_int(&r, "makespan"));
        assert_int_equal(res.delivered, rs_test_int(&r, "delivered"));
        assert_int_equal(res.delivered, 16);
        assert_true(res.latency_mean == rs_test_double(&r, "latency_mean"));
        assert_true(res.latency_p99 == rs_test_double(&r, "latency_p99"));
        assert_true(res.latency_max == rs_test_double(&r, "latency_max"));
        assert_true(res.latency_max == (double)res.makespan); /* all released at 0 */
        rs_record_free(&r);
        rs_test_fx_close(&f);
    }
}

/* ---- names -------------------------------------------------------------------------------- */

static void test_check_name(void **state)
{
    (void)state;
    struct rs_err err;
    assert_int_equal(rs_metric_check_name("makespan", "x", &err), 0);
    assert_int_equal(rs_metric_check_name("latency_p99_ci95", "x", &err), 0);
    assert_int_equal(rs_metric_check_name("level3_msgs", "x", &err), 0);
    assert_int_equal(rs_metric_check_name("cycles_mean", "x", &err), 0);
    assert_int_equal(rs_metric_check_name("makespn", "[plot] y", &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "[plot] y: unknown metric 'makespn' (did you mean 'makespan'?)");
    assert_int_equal(rs_metric_check_name("makespan_men", "x", &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "x: unknown metric 'makespan_men' (did you mean "
                                 "'makespan_mean'?)");
    assert_int_equal(rs_metric_check_name("N_mean", "x", &err), RS_EUNKNOWN);
    struct rs_buf b;
    rs_buf_init(&b);
    assert_int_equal(rs_metric_format_list(&b), 0);
    for (int i = 0; i < RS_M__COUNT; i++) /* every metric with its unit and meaning */
        assert_non_null(strstr(b.data, rs_metric_defs[i].meaning));
    rs_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_complete_and_unique),
        cmocka_unit_test(test_every_key_declared),
        cmocka_unit_test(test_percentile_worked),
        cmocka_unit_test(test_lat_hist),
        cmocka_unit_test(test_nan_on_deadlock),
        cmocka_unit_test(test_nan_on_zero_messages),
        cmocka_unit_test(test_typed_result_matches_record),
        cmocka_unit_test(test_check_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
