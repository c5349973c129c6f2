/* routing=min_adaptive in the flit engines: no deadlock under open-loop saturation on a mesh
 * and on tori with the invariant checker on (while the same choices without the escape
 * channel do deadlock), more accepted throughput than dimension order on transpose traffic
 * on an 8x8 mesh, static runs deliver everything deterministically, and the refusals. */
#include "rs_test.h"

#include "routesim/engine.h"
#include "routesim/route.h"

/* Far above saturation (0.9 packets of 5 flits per terminal per step), long enough for the
 * network to fill many times over; check=1 runs the invariant checker after every step. */
#define SATURATE                                                                             \
    "traffic=uniform length=5 injection_process=bernoulli injection_rate=0.9 "              \
    "warmup_steps=200 measure_steps=600 drain_steps=600 seed=3 check=1 "

static void expect_saturated_no_deadlock(const char *kv)
{
    struct rs_record r;
    rs_test_run(kv, &r);
    if (rs_test_int(&r, "deadlock") != 0) {
        print_error("%s: deadlock\n", kv);
        fail();
    }
    /* a saturation verdict (the offered load is far above what the network accepts) */
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_true(rs_test_double(&r, "accepted") > 0.2);
    rs_record_free(&r);
}

static void test_no_deadlock_under_saturation(void **state)
{
    expect_saturated_no_deadlock("topology=mesh k=8 switching=wormhole routing=min_adaptive "
                                 "vcs=2 vc_depth=2 " SATURATE);
    expect_saturated_no_deadlock("topology=torus k=4 switching=wormhole routing=min_adaptive "
                                 "vcs=3 vc_depth=2 " SATURATE);
    expect_saturated_no_deadlock("topology=torus k=5 switching=wormhole routing=min_adaptive "
                                 "vcs=3 vc_depth=1 link=shared " SATURATE);
    expect_saturated_no_deadlock("topology=torus k=4 switching=virtual_cut_through "
                                 "routing=min_adaptive vcs=4 " SATURATE);
    expect_saturated_no_deadlock("topology=mesh k=3 n=3 switching=wormhole "
                                 "routing=min_adaptive vcs=2 " SATURATE);
}

/* min_adaptive's choices with the escape rule dropped: every VC on every productive port.
 * Cyclic channel dependencies are then possible, and the test above must be able to see
 * what they do. */
static uint32_t no_escape_choose(const struct rs_net *net, uint32_t node,
                                 const struct rs_route_state *st,
                                 const struct rs_route_view *view, struct rs_route_choice *out)
{
    uint32_t n = rs_routing_min_adaptive.choose(net, node, st, view, out);
    for (uint32_t i = 0; i < n; i++) {
        out[i].vc_lo = 0;
        out[i].vc_hi = view->vcs;
    }
    return n ? n - 1 : 0; /* the escape entry repeats a productive port */
}

/* On the 8x8 mesh with two VCs of one flit, the choices without the escape rule deadlock
 * within the run; with it, the same fixture does not. */
static void test_escape_is_what_prevents_deadlock(void **state)
{
    struct rs_routing_ops broken = rs_routing_min_adaptive;
    struct rs_test_fixture f;
    struct rs_record r;
    struct rs_err err;
    char dl[1024] = "";
    broken.choose = no_escape_choose;
    rs_test_fx_open(&f, "topology=mesh k=8 switching=wormhole vcs=2 vc_depth=1 " SATURATE, 3);
    struct rs_engine_input in = {.net = &f.net, .pb = &f.pb, .params = &f.p, .routing = &broken,
                                 .seed = 3, .check = 1};
    rs_record_init(&r);
    assert_int_equal(rs_engine_run(rs_engine_find("wormhole"), &in, &r, dl, sizeof dl, &err), 0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_non_null(strstr(dl, "waiting cycle"));
    rs_record_free(&r);
    /* the real routing on the same fixture: no deadlock */
    in.routing = RS_ROUTING_MIN_ADAPTIVE;
    rs_record_init(&r);
    assert_int_equal(rs_engine_run(rs_engine_find("wormhole"), &in, &r, dl, sizeof dl, &err), 0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    rs_record_free(&r);
    rs_test_fx_close(&f);
}

/* docs/routing.md's table: transpose on the 8x8 mesh, seed 1. Dimension order loads the
 * channels of one dimension; min_adaptive spreads over both. */
#define TRANSPOSE                                                                            \
    "topology=mesh k=8 n=2 switching=wormhole vcs=4 vc_depth=4 length=4 traffic=transpose " \
    "injection_process=bernoulli injection_rate=0.5 warmup_steps=500 measure_steps=2000 "   \
    "drain_steps=2000 seed=1 "

static void test_transpose_accepts_more(void **state)
{
    struct rs_record a, b;
    rs_test_run(TRANSPOSE "routing=direct", &a);
    rs_test_run(TRANSPOSE "routing=min_adaptive", &b);
    double dor = rs_test_double(&a, "accepted"), ad = rs_test_double(&b, "accepted");
    assert_int_equal(rs_test_int(&a, "deadlock"), 0);
    assert_int_equal(rs_test_int(&b, "deadlock"), 0);
    if (!(ad > 1.2 * dor)) {
        print_error("transpose: min_adaptive accepted %g, dimension order %g\n", ad, dor);
        fail();
    }
    rs_record_free(&a);
    rs_record_free(&b);
}

/* A static message set: every message delivered, with the checker on, the same bytes for
 * the same seed; no congestion/dilation columns (adaptive paths are not fixed). */
static void test_static_runs(void **state)
{
    static const char *const kvs[] = {
        "topology=mesh k=6 switching=wormhole routing=min_adaptive vcs=2 traffic=transpose "
        "per_input=4 length=6 check=1 seed=2",
        "topology=torus k=5 switching=virtual_cut_through routing=min_adaptive vcs=3 "
        "traffic=randperm per_input=3 length=3 check=1 seed=2",
        NULL};
    for (int i = 0; kvs[i]; i++) {
        struct rs_record r;
        struct rs_buf x, y;
        rs_test_run(kvs[i], &r);
        assert_int_equal(rs_test_int(&r, "deadlock"), 0);
        assert_int_equal(rs_test_int(&r, "delivered"), rs_test_int(&r, "messages"));
        assert_null(rs_record_get(&r, "congestion"));
        rs_record_free(&r);
        rs_test_csv(kvs[i], &x);
        rs_test_csv(kvs[i], &y);
        assert_int_equal(x.len, y.len);
        assert_memory_equal(x.data, y.data, x.len);
        rs_buf_free(&x);
        rs_buf_free(&y);
    }
}

/* Decide, then commit: a header orders its choices by the free slots at the START of the
 * step, whatever older worms moved before it in the step. Exact records of two static runs;
 * when written, a view reading the buffers' current counts instead (flit.c free_slots
 * without flit_cnt_start) gave makespan 31, latency_mean 13.9609375, 680 blocked header
 * steps on the mesh and 21, 8.1484375, 296 on the torus, so these values catch a decision
 * that reads mid-step state (and any other change of the rule). */
static void test_decisions_read_start_of_step(void **state)
{
    struct rs_record r;
    rs_test_run("topology=mesh k=4 traffic=uniform per_input=8 vcs=3 vc_depth=2 length=5 "
                "switching=wormhole routing=min_adaptive seed=1 check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 31);
    assert_true(rs_test_double(&r, "latency_mean") == 13.9296875); /* a dyadic fraction: exact */
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 681);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 1665); /* minimal: 5 x total distance */
    rs_record_free(&r);
    rs_test_run("topology=torus k=4 traffic=uniform per_input=8 vcs=4 vc_depth=2 length=5 "
                "switching=wormhole routing=min_adaptive seed=1 check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 20);
    assert_true(rs_test_double(&r, "latency_mean") == 7.8359375); /* a dyadic fraction: exact */
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 256);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 1255);
    rs_record_free(&r);
}

/* The view's contract (include/routesim/route.h): free slots in [0, depth] for every VC of
 * every channel out of the header's node, whatever worms moved before the header in the
 * step. spy_choose reads them all before min_adaptive's choices (when it is given a view:
 * the routes fixed at injection are not); the worst reading is kept.
 * (Until 2026-11-29 the head VC of a worm whose header had been delivered read depth + 1
 * once the worm had passed a flit on in the step, and UGAL's occupancy, depth - free slots,
 * wrapped to 2^32 - 1: this test then read 3 on the mesh fixture, vc_depth 2.) */
static uint32_t spy_worst;

static uint32_t spy_choose(const struct rs_net *net, uint32_t node,
                           const struct rs_route_state *st, const struct rs_route_view *view,
                           struct rs_route_choice *out)
{
    for (uint32_t port = 0; view->free_slots && port < net->max_ports; port++) {
        if (net->ops->neighbor(net, node, port, NULL) == RS_NONE)
            continue;
        for (uint32_t vc = 0; vc < view->vcs; vc++) {
            uint32_t s = view->free_slots(view->ctx, node, port, vc);
            if (s > spy_worst)
                spy_worst = s;
        }
    }
    return rs_routing_min_adaptive.choose(net, node, st, view, out);
}

static void test_view_within_depth(void **state)
{
    static const char *const kvs[] = {
        "topology=mesh k=6 switching=wormhole vcs=2 vc_depth=2 " SATURATE,
        "topology=torus k=4 switching=wormhole vcs=3 vc_depth=2 " SATURATE,
        NULL};
    struct rs_routing_ops spy = rs_routing_min_adaptive;
    spy.choose = spy_choose;
    for (int i = 0; kvs[i]; i++) {
        struct rs_test_fixture f;
        struct rs_record r;
        struct rs_err err;
        char dl[1024] = "";
        rs_test_fx_open(&f, kvs[i], 3);
        struct rs_engine_input in = {.net = &f.net, .pb = &f.pb, .params = &f.p,
                                     .routing = &spy, .seed = 3};
        spy_worst = 0;
        rs_record_init(&r);
        assert_int_equal(rs_engine_run(rs_engine_find("wormhole"), &in, &r, dl, sizeof dl, &err),
                         0);
        if (spy_worst != 2) { /* vc_depth: an empty VC is seen under this load */
            print_error("%s: the view read %u free slots, depth 2\n", kvs[i], spy_worst);
            fail();
        }
        rs_record_free(&r);
        rs_test_fx_close(&f);
    }
}

static void expect_error(const char *kv, int simulate, int code, const char *msg)
{
    struct rs_record r;
    char got[1024];
    int rc = rs_test_try(kv, simulate, &r, got, sizeof got);
    if (rc != code || !strstr(got, msg)) {
        print_error("%s: got %d '%s', want %d '%s'\n", kv, rc, got, code, msg);
        fail();
    }
    rs_record_free(&r);
}

static void test_refusals(void **state)
{
    expect_error("topology=mesh k=4 switching=wormhole routing=min_adaptive vcs=1", 1,
                 RS_ECONSTRAINT,
                 "routing=min_adaptive needs vcs >= 2 on topology=mesh (VC 0 for the "
                 "dimension-order escape, at least one adaptive VC; got vcs=1)");
    expect_error("topology=torus k=4 switching=wormhole routing=min_adaptive vcs=2", 1,
                 RS_ECONSTRAINT,
                 "routing=min_adaptive needs vcs >= 3 on topology=torus (the dateline pair "
                 "VC 0-1 for the dimension-order escape, at least one adaptive VC; got vcs=2)");
    expect_error("topology=butterfly N=8 switching=wormhole routing=min_adaptive vcs=2", 1,
                 RS_EUNSUPPORTED,
                 "routing=min_adaptive needs topology=mesh|torus|chain|ring|hypercube|hyperx|"
                 "flattened_butterfly (got butterfly)");
    expect_error("topology=mesh k=4 switching=store_forward routing=min_adaptive", 1,
                 RS_EUNSUPPORTED,
                 "routing=min_adaptive is adaptive (a packet's path depends on the network "
                 "state as it moves); switching=store_forward needs fixed paths");
    expect_error("topology=mesh k=4 switching=circuit routing=min_adaptive", 1, RS_EUNSUPPORTED,
                 "switching=circuit needs fixed paths");
    expect_error("topology=mesh k=4 switching=cut_through_partial routing=min_adaptive vcs=2",
                 1, RS_EUNSUPPORTED, "switching=cut_through_partial needs fixed paths");
    expect_error("topology=torus k=4 switching=wormhole routing=min_adaptive vcs=4 "
                 "vc_classes=dateline",
                 1, RS_EUNSUPPORTED,
                 "vc_classes=dateline has no effect with routing=min_adaptive");
    expect_error("topology=mesh k=4 routing=min_adaptive", 0, RS_EUNSUPPORTED,
                 "path analysis (congestion, dilation) needs fixed paths");
    expect_error("topology=mesh k=4 switching=wormhole routing=min_adaptiv vcs=2", 1,
                 RS_EUNKNOWN, "did you mean 'min_adaptive'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_deadlock_under_saturation),
        cmocka_unit_test(test_escape_is_what_prevents_deadlock),
        cmocka_unit_test(test_transpose_accepts_more),
        cmocka_unit_test(test_static_runs),
        cmocka_unit_test(test_decisions_read_start_of_step),
        cmocka_unit_test(test_view_within_depth),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
