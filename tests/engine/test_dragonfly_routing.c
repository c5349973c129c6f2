/* Routing on the dragonfly: UGAL's choice by hand on p=1 a=2 h=1 (a full minimal channel
 * sends the packet over its Valiant path; UGAL-G also sees the global channel), PAR's
 * re-decision by hand, UGAL and PAR taking non-minimal paths under group_shift in the flit
 * engine, no deadlock under saturation for minimal, Valiant (vc_classes=dateline, both router
 * models), UGAL-L/G and PAR (their own classes) while minimal without classes deadlocks, and
 * store-and-forward runs of the oblivious ones. */
#include "rs_test.h"

#include "routesim/dragonfly.h"
#include "routesim/route.h"

/* A view in which the channels listed in full[] (node * 8 + port) have no free slot. */
struct fake {
    uint32_t full[4], n;
};

static uint32_t fake_free(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    const struct fake *f = ctx;
    (void)vc;
    for (uint32_t i = 0; i < f->n; i++)
        if (f->full[i] == node * 8 + port)
            return 0;
    return 4;
}

static struct rs_route_choice choose(const struct rs_routing_ops *r, const struct rs_net *net,
                                     uint32_t node, uint32_t hops, const struct fake *f)
{
    struct rs_route_view view = {f, 3, 4, f ? fake_free : NULL};
    struct rs_route_choice out[RS_ROUTE_MAX_CHOICES];
    /* 0 -> 5 with mid 0: g = 3 leaves group 1 as the only intermediate group */
    struct rs_route_state st = {0, 5, 0, hops, 0};
    assert_int_equal(r->choose(net, node, &st, &view, out), 1);
    return out[0];
}

/* p=1 a=2 h=1 (tests/topo/test_dragonfly.c): terminal 0 at r0.0 (node 6), terminal 5 at r2.1
 * (node 11). At r0.0 minimal is local port 1 (to r0.1, which holds the link to group 2: H = 4
 * channels to go), Valiant is r0.0's own global port 2 to group 1 (H = 4: r1.0, local to r1.1,
 * global to r2.1, eject). */
static void test_ugal_by_hand(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=dragonfly p=1 a=2 h=1");
    const struct rs_routing_ops *L = rs_routing_find("ugal_l"), *G = rs_routing_find("ugal_g");
    assert_non_null(L);
    assert_non_null(G);
    struct fake empty = {{0}, 0}, min_full = {{6 * 8 + 1}, 1}, global_full = {{7 * 8 + 2}, 1};
    struct rs_route_choice c;
    /* empty queues: q = 0 on both, minimal (ties go minimal); class 0 = VC 0 of 3 */
    c = choose(L, &net, 6, 1, &empty);
    assert_int_equal(c.port, 1);
    assert_int_equal(c.vc_lo, 0);
    assert_int_equal(c.vc_hi, 1);
    /* the minimal first channel full (4 flits x 4 hops > 0): non-minimal */
    c = choose(L, &net, 6, 1, &min_full);
    assert_int_equal(c.port, 2);
    c = choose(G, &net, 6, 1, &min_full);
    assert_int_equal(c.port, 2);
    /* r0.1's global channel to group 2 full: only UGAL-G sees it */
    c = choose(L, &net, 6, 1, &global_full);
    assert_int_equal(c.port, 1);
    c = choose(G, &net, 6, 1, &global_full);
    assert_int_equal(c.port, 2);
    /* without state (what the packet is said to wait for): minimal */
    c = choose(L, &net, 6, 1, NULL);
    assert_int_equal(c.port, 1);
    /* after the minimal local hop, r0.1 holds only the minimal link: its global port, class 0,
     * whatever the queues */
    c = choose(L, &net, 7, 2, &global_full);
    assert_int_equal(c.port, 2);
    assert_int_equal(c.vc_lo, 0);
    /* in the intermediate group (r1.0): local to r1.1, class 1 */
    c = choose(L, &net, 8, 2, &empty);
    assert_int_equal(c.port, 1);
    assert_int_equal(c.vc_lo, 1);
    assert_int_equal(c.vc_hi, 2);
    /* in the destination group (r2.0): local to r2.1 in class 2; at r2.1 eject on any VC */
    c = choose(L, &net, 10, 3, &empty);
    assert_int_equal(c.port, 1);
    assert_int_equal(c.vc_lo, 2);
    c = choose(L, &net, 11, 4, &empty);
    assert_int_equal(c.port, 0);
    assert_int_equal(c.vc_lo, 0);
    assert_int_equal(c.vc_hi, 3);
    /* the threshold: T = 100 flits keeps the packet minimal with the minimal channel full */
    rs_net_free(&net);
    rs_test_net(&net, "topology=dragonfly p=1 a=2 h=1 ugal_threshold=100");
    c = choose(L, &net, 6, 1, &min_full);
    assert_int_equal(c.port, 1);
    rs_net_free(&net);
}

#define OPEN "injection_process=bernoulli warmup_steps=300 measure_steps=600 drain_steps=600 seed=5 "

/* group_shift at 0.3 flits per terminal per step, above minimal's 1/(a p) = 1/8: UGAL takes
 * longer paths (more flit-hops per delivered flit than minimal's at most 5) and accepts what
 * is offered, minimal saturates at 1/8. */
/* PAR (4 classes, one VC each) on the same network, terminal 0 -> 5: at the source router
 * r0.0 (hops 1) UGAL-L's decision; at r0.1 (node 7, hops 2), the router of the minimal global
 * link, the re-decision: its global port 2 (class 0) unless that channel is fuller, x the
 * channels left, than the local hop back to r0.0 (port 1, class 1), from which the packet,
 * now at hops 3, takes r0.0's global link to group 1 in class 1. */
static struct rs_route_choice par_choose(const struct rs_net *net, uint32_t node, uint32_t hops,
                                         const struct fake *f)
{
    const struct rs_routing_ops *r = rs_routing_find("par");
    assert_non_null(r);
    struct rs_route_view view = {f, 4, 4, f ? fake_free : NULL};
    struct rs_route_choice out[RS_ROUTE_MAX_CHOICES];
    struct rs_route_state st = {0, 5, 0, hops, 0};
    assert_int_equal(r->choose(net, node, &st, &view, out), 1);
    return out[0];
}

static void test_par_by_hand(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=dragonfly p=1 a=2 h=1");
    struct fake empty = {{0}, 0}, min_full = {{6 * 8 + 1}, 1}, global_full = {{7 * 8 + 2}, 1};
    struct rs_route_choice c;
    c = par_choose(&net, 6, 1, &empty); /* at the source: minimal, class 0 */
    assert_int_equal(c.port, 1);
    assert_int_equal(c.vc_lo, 0);
    assert_int_equal(c.vc_hi, 1);
    c = par_choose(&net, 6, 1, &min_full); /* UGAL-L: Valiant's global port, class 0 */
    assert_int_equal(c.port, 2);
    assert_int_equal(c.vc_lo, 0);
    c = par_choose(&net, 7, 2, &empty); /* the re-decision, nothing queued: minimal */
    assert_int_equal(c.port, 2);
    assert_int_equal(c.vc_lo, 0);
    assert_int_equal(c.vc_hi, 1);
    c = par_choose(&net, 7, 2, &global_full); /* its global channel full: back to r0.0 */
    assert_int_equal(c.port, 1);
    assert_int_equal(c.vc_lo, 1);
    assert_int_equal(c.vc_hi, 2);
    c = par_choose(&net, 6, 3, &empty); /* re-routed: r0.0's link to group 1, class 1 */
    assert_int_equal(c.port, 2);
    assert_int_equal(c.vc_lo, 1);
    assert_int_equal(c.vc_hi, 2);
    /* UGAL-L at the source does not see r0.1's global channel; PAR re-decides there */
    c = par_choose(&net, 6, 1, &global_full);
    assert_int_equal(c.port, 1);
    c = par_choose(&net, 11, 5, &empty); /* in the destination group: eject, any VC */
    assert_int_equal(c.port, 0);
    assert_int_equal(c.vc_lo, 0);
    assert_int_equal(c.vc_hi, 4);
    rs_net_free(&net);
}

static void test_ugal_goes_non_minimal(void **state)
{
    const char *base = "topology=dragonfly p=2 switching=wormhole link=shared vcs=6 vc_depth=8 "
                       "length=1 traffic=group_shift injection_rate=0.3 " OPEN;
    char kv[512];
    struct rs_record r;
    snprintf(kv, sizeof kv, "%s routing=direct vc_classes=dateline", base);
    rs_test_run(kv, &r);
    double min_acc = rs_test_double(&r, "accepted");
    assert_true(min_acc <= 0.126 && min_acc > 0.12);
    rs_record_free(&r);
    static const char *const ugal[] = {"ugal_l", "ugal_g", "par"};
    for (int i = 0; i < 3; i++) {
        snprintf(kv, sizeof kv, "%s routing=%s%s", base, ugal[i], i == 2 ? " vcs=8" : "");
        rs_test_run(kv, &r);
        double acc = rs_test_double(&r, "accepted");
        if (!(acc > 0.29) || rs_test_int(&r, "saturated") != 0)
            fail_msg("%s: accepted %g", ugal[i], acc);
        /* flit-hops per delivered packet above 5, minimal's longest path */
        double hops = (double)rs_test_int(&r, "flit_hops") / (double)rs_test_int(&r, "delivered");
        if (!(hops > 5.5))
            fail_msg("%s: %g channels per packet", ugal[i], hops);
        rs_record_free(&r);
    }
}

static void expect_no_deadlock(const char *kv)
{
    struct rs_record r;
    rs_test_run(kv, &r);
    if (rs_test_int(&r, "deadlock") != 0)
        fail_msg("%s: deadlock", kv);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    /* packets per terminal per step: minimal under group_shift carries 1/(a p) = 1/8 flit,
     * 1/32 packet of 4 flits */
    if (!(rs_test_double(&r, "accepted") > 0.025))
        fail_msg("%s: accepted %g", kv, rs_test_double(&r, "accepted"));
    rs_record_free(&r);
}

/* Offered load 0.9 packets of 4 flits per terminal per step, VCs of one or two flits, the
 * invariant checker after every step. */
#define SAT "injection_rate=0.9 length=4 check=1 " OPEN

static void test_no_deadlock_under_saturation(void **state)
{
    static const char *const traffic[] = {"uniform", "group_shift"};
    static const char *const kvs[] = {
        "switching=wormhole routing=direct vc_classes=dateline vcs=2 vc_depth=1",
        "switching=wormhole routing=valiant vc_classes=dateline vcs=4 vc_depth=1",
        "switching=wormhole routing=ugal_l vcs=3 vc_depth=1",
        "switching=wormhole routing=ugal_g vcs=3 vc_depth=2",
        "switching=virtual_cut_through routing=ugal_l vcs=3",
        "switching=wormhole routing=par vcs=4 vc_depth=1",
        "switching=virtual_cut_through routing=par vcs=4",
        "switching=wormhole router=iq routing=direct vc_classes=dateline vcs=2 vc_depth=2",
        "switching=wormhole router=iq routing=valiant vc_classes=dateline vcs=4 vc_depth=2",
        NULL};
    char kv[512];
    for (int t = 0; t < 2; t++)
        for (int i = 0; kvs[i]; i++) {
            snprintf(kv, sizeof kv, "topology=dragonfly p=2 traffic=%s %s " SAT, traffic[t],
                     kvs[i]);
            expect_no_deadlock(kv);
        }
    /* the same minimal routes with every VC open to every hop do deadlock */
    struct rs_record r;
    rs_test_run("topology=dragonfly p=2 traffic=uniform switching=wormhole routing=direct vcs=1 "
                "vc_depth=1 " SAT,
                &r);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    rs_record_free(&r);
}

/* Store-and-forward (paths fixed up front) for minimal and Valiant: everything delivered,
 * dilation 5 and 7 (terminal channels included). */
static void test_store_forward(void **state)
{
    struct rs_record r;
    rs_test_run("topology=dragonfly p=2 switching=store_forward routing=direct "
                "traffic=group_shift per_input=4 seed=2",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 288);
    assert_int_equal(rs_test_int(&r, "dilation"), 5);
    /* the 32 messages of a group share one global channel */
    assert_int_equal(rs_test_int(&r, "congestion"), 32);
    rs_record_free(&r);
    rs_test_run("topology=dragonfly p=2 switching=store_forward routing=valiant "
                "traffic=group_shift per_input=4 seed=2",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 288);
    assert_int_equal(rs_test_int(&r, "dilation"), 7);
    assert_true(rs_test_int(&r, "congestion") < 32);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ugal_by_hand),
        cmocka_unit_test(test_par_by_hand),
        cmocka_unit_test(test_ugal_goes_non_minimal),
        cmocka_unit_test(test_no_deadlock_under_saturation),
        cmocka_unit_test(test_store_forward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
