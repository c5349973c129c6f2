/* routing=min_adaptive on HyperX and the flattened butterfly: the productive ports (one per
 * differing dimension) and the choices worked by hand, the non-dimension-order port taken
 * when the dimension-order one has no free slot, more throughput than dimension order where
 * the dimension-order channel is shared, no deadlock under saturation with the escape VC
 * (and a deadlock without it), and the refusals (vcs, fixed-path engines). */
#include "rs_test.h"

#include "routesim/engine.h"
#include "routesim/route.h"

/* Free slots of a fake view: none on port 0 (every VC), 4 elsewhere. */
static uint32_t port0_full(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    (void)ctx;
    (void)node;
    (void)vc;
    return port == 0 ? 0 : 4;
}

static uint32_t all_free(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    (void)ctx;
    (void)node;
    (void)port;
    (void)vc;
    return 4;
}

/* 4x4 HyperX, router 0 = (0,0) toward terminal 5 = router (1,1): the productive ports are
 * port 0 (dimension 0, toward x_0 = 1: ports 0..2 reach x_0 = 1, 2, 3) and port 3 + 0 = 3
 * (dimension 1, toward x_1 = 1); dimension order (the escape) is port 0. With every VC free
 * (4 slots, vcs = 3) port 0 scores its two adaptive VCs and the escape VC (12) against port
 * 3's 8: order 0, 3, then the escape (port 0, VC 0). With port 0 full the packet is offered
 * port 3 first: the non-dimension-order hop to router (0,1) = 4, then port 0 to router 5. */
static void test_choices_by_hand(void **state)
{
    (void)state;
    struct rs_net net;
    struct rs_err err;
    struct rs_route_choice ch[RS_ROUTE_MAX_CHOICES];
    uint32_t ports[RS_MAX_PRODUCTIVE];
    rs_test_net(&net, "topology=hyperx S=4,4");
    assert_int_equal(rs_route_check(&net, RS_ROUTING_MIN_ADAPTIVE, &err), 0);
    assert_int_equal(net.ops->productive(&net, 0, 5, ports), 2);
    assert_int_equal(ports[0], 0);
    assert_int_equal(ports[1], 3);
    struct rs_route_state st = {0, 5, RS_NONE, 0, 0};
    struct rs_route_view view = {NULL, 3, 4, all_free};
    assert_int_equal(rs_routing_min_adaptive.choose(&net, 0, &st, &view, ch), 3);
    static const uint32_t want_free[3][3] = {{0, 1, 3}, {3, 1, 3}, {0, 0, 1}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ch[i].port, want_free[i][0]);
        assert_int_equal(ch[i].vc_lo, want_free[i][1]);
        assert_int_equal(ch[i].vc_hi, want_free[i][2]);
    }
    view.free_slots = port0_full;
    assert_int_equal(rs_routing_min_adaptive.choose(&net, 0, &st, &view, ch), 3);
    static const uint32_t want_full[3][3] = {{3, 1, 3}, {0, 1, 3}, {0, 0, 1}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(ch[i].port, want_full[i][0]);
        assert_int_equal(ch[i].vc_lo, want_full[i][1]);
        assert_int_equal(ch[i].vc_hi, want_full[i][2]);
    }
    uint32_t slot;
    assert_int_equal(net.ops->neighbor(&net, 0, 3, &slot), 4);
    st.hops = 1; /* at router 4 = (0,1) only dimension 0 is left: port 0 to router 5 */
    assert_int_equal(rs_routing_min_adaptive.choose(&net, 4, &st, &view, ch), 2);
    assert_int_equal(ch[0].port, 0);
    assert_int_equal(ch[1].port, 0);
    assert_int_equal(ch[1].vc_lo, 0);
    assert_int_equal(net.ops->neighbor(&net, 4, 0, NULL), 5);
    st.hops = 2;
    assert_int_equal(rs_routing_min_adaptive.choose(&net, 5, &st, &view, ch), 0);
    rs_net_free(&net);

    /* 3x3x3 HyperX, router 0 -> router 26 = (2,2,2): ports 0 + 1, 2 + 1, 4 + 1; escape 1 */
    rs_test_net(&net, "topology=hyperx S=3,3,3");
    assert_int_equal(net.ops->productive(&net, 0, 26, ports), 3);
    assert_int_equal(ports[0], 1);
    assert_int_equal(ports[1], 3);
    assert_int_equal(ports[2], 5);
    struct rs_route_state s3 = {0, 26, RS_NONE, 0, 0};
    struct rs_route_view fixed = {NULL, 2, 4, NULL}; /* no state: port order */
    assert_int_equal(rs_routing_min_adaptive.choose(&net, 0, &s3, &fixed, ch), 4);
    assert_int_equal(ch[0].port, 1);
    assert_int_equal(ch[1].port, 3);
    assert_int_equal(ch[2].port, 5);
    assert_int_equal(ch[3].port, 1);
    assert_int_equal(ch[3].vc_hi, 1);
    rs_net_free(&net);
}

/* A static problem on the 4x4 HyperX with T = 4 (tests/data/hyperx4_row.txt): on each router
 * (x,0) of row 0 the terminals j = 1, 2, 3 send to terminal j of router (x+1,j); every other
 * terminal sends to itself (no move). link=shared: one flit per channel per step. Dimension
 * order sends the three packets of a router over its one channel to (x+1,0), one after the
 * other: 3 x 8 = 24 steps, and one more for the last flit's second hop: makespan 25.
 * min_adaptive sends them over (x,j) -> (x+1,j) instead (the non-dimension-order port
 * first), on channels no other packet uses, so each takes the unblocked D + L - 1 = 2 + 8 -
 * 1 = 9 steps. Both minimal: 12 packets x 2 hops x 8 flits = 192 flit hops. */
static void test_beats_dimension_order(void **state)
{
    (void)state;
    static const char *const routing[] = {"direct", "min_adaptive"};
    static const int64_t makespan[] = {25, 9};
    for (int i = 0; i < 2; i++) {
        char kv[512], buf[1024];
        struct rs_record r;
        snprintf(kv, sizeof kv, "topology=hyperx S=4,4 T=4 traffic=file "
                 "traffic_file=@/hyperx4_row.txt file_kind=any length=8 switching=wormhole "
                 "vcs=2 vc_depth=4 link=shared check=1 routing=%s", routing[i]);
        rs_test_run(rs_test_with_data(kv, buf, sizeof buf), &r);
        assert_int_equal(rs_test_int(&r, "delivered"), 64);
        assert_int_equal(rs_test_int(&r, "flit_hops"), 192);
        assert_int_equal(rs_test_int(&r, "makespan"), makespan[i]);
        assert_int_equal(rs_test_int(&r, "deadlock"), 0);
        rs_record_free(&r);
    }
}

/* Saturation: 0.9 flits per terminal per step, packets of 4 flits (rs_test.h). With several
 * terminals per router and link=shared every network here accepts less than that (seed 1:
 * 0.76 on the 4x4 with T = 4, 0.39 on the 3x3x3 with T = 6, 0.88, 0.78, 0.78), so packets
 * wait and the escape VCs are used. */
#define HX_SAT "switching=wormhole vcs=2 vc_depth=1 link=shared routing=min_adaptive"
static void test_no_deadlock_saturated(void **state)
{
    (void)state;
    const char *const runs[] = {
        "topology=hyperx S=4,4 T=4 " HX_SAT,
        "topology=hyperx S=3,3,3 T=6 " HX_SAT,
        "topology=hyperx S=3,5 T=3 switching=wormhole vcs=3 vc_depth=2 link=shared "
        "routing=min_adaptive",
        "topology=hyperx S=4,4 T=4 switching=virtual_cut_through vcs=2 link=shared "
        "routing=min_adaptive",
        "topology=flattened_butterfly k=3 n=3 " HX_SAT,
        NULL};
    rs_test_no_deadlock_saturated(runs);
}

/* min_adaptive's choices with the escape rule dropped: every VC on every productive port. */
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

/* The saturation test can fail on HyperX: on the 3x3x3 HyperX with T = 6 and one VC of one
 * flit, the same choices without the escape rule (any productive port, nothing held back
 * for dimension order) deadlock: packets that turned between dimensions in different orders
 * wait for each other in a cycle. min_adaptive needs a second VC for its escape; with it the
 * same network and traffic run without deadlock. (With two VCs the choices without the
 * escape rule did not deadlock on any HyperX tried: 4x4 T=4 and T=8, 3x3x3 T=6, 8x8 T=8,
 * 4x4x4 T=4, packets of 4 to 16 flits (64 on 4x4 T=4 and 8x8), shared or per-VC links; the
 * escape VC is what Duato's argument needs, docs/routing.md.) */
#define HX_FIX                                                                               \
    "topology=hyperx S=3,3,3 T=6 switching=wormhole vc_depth=1 traffic=uniform length=4 "  \
    "injection_process=bernoulli injection_rate=0.9 injection_rate_uses_flits=1 "          \
    "warmup_steps=500 measure_steps=2000 drain_steps=0 check=1 "
static void test_escape_is_what_prevents_deadlock(void **state)
{
    (void)state;
    struct rs_routing_ops broken = rs_routing_min_adaptive;
    struct rs_test_fixture f;
    struct rs_record r;
    struct rs_err err;
    char dl[1024] = "";
    broken.choose = no_escape_choose;
    broken.check_vcs = NULL; /* one VC: no room for an escape */
    rs_test_fx_open(&f, HX_FIX "vcs=1", 3);
    struct rs_engine_input in = {.net = &f.net, .pb = &f.pb, .params = &f.p, .routing = &broken,
                                 .seed = 3, .check = 1};
    rs_record_init(&r);
    assert_int_equal(rs_engine_run(rs_engine_find("wormhole"), &in, &r, dl, sizeof dl, &err), 0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_non_null(strstr(dl, "waiting cycle"));
    rs_record_free(&r);
    rs_test_fx_close(&f);
    rs_test_fx_open(&f, HX_FIX "vcs=2", 3);
    in = (struct rs_engine_input){.net = &f.net, .pb = &f.pb, .params = &f.p,
                                  .routing = RS_ROUTING_MIN_ADAPTIVE, .seed = 3, .check = 1};
    rs_record_init(&r);
    assert_int_equal(rs_engine_run(rs_engine_find("wormhole"), &in, &r, dl, sizeof dl, &err), 0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    assert_true(rs_test_int(&r, "delivered") > 1000);
    rs_record_free(&r);
    rs_test_fx_close(&f);
}

static void test_refusals(void **state)
{
    (void)state;
    rs_test_expect_error("topology=hyperx S=4,4 switching=wormhole routing=min_adaptive vcs=1",
                         RS_ECONSTRAINT,
                         "routing=min_adaptive needs vcs >= 2 on topology=hyperx (VC 0 for "
                         "the dimension-order escape, at least one adaptive VC; got vcs=1)");
    struct rs_record r;
    char msg[1024];
    assert_int_equal(rs_test_try("topology=hyperx S=4,4 routing=min_adaptive", 1, &r, msg,
                                 sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "switching=store_forward needs fixed paths"));
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choices_by_hand),
        cmocka_unit_test(test_beats_dimension_order),
        cmocka_unit_test(test_no_deadlock_saturated),
        cmocka_unit_test(test_escape_is_what_prevents_deadlock),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
