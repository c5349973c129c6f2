/* Meshes, tori, chains and rings with concentration (key c: c terminals per router, terminal
 * t on router t / c): counts, routes worked by hand on a 2x2 mesh with c = 2, the engines
 * that run it and the ones that refuse it, no deadlock under saturation, the channel-load
 * analysis; and the torus tie rule on a ring of 4 (torus_tie=split sends half the tied
 * pairs each way, and the analysis sees both directions equally loaded). */
#include <math.h>

#include "routesim/channel_load.h"
#include "routesim/route.h"
#include "rs_test.h"

static void test_counts(void **state)
{
    (void)state;
    struct rs_net net;
    rs_test_net(&net, "topology=mesh k=4 n=2 c=4");
    assert_int_equal(net.n_nodes, 16);
    assert_int_equal(net.n_terminals, 64);
    assert_int_equal(net.N, 64);
    assert_int_equal(net.max_ports, 4);
    assert_int_equal(net.n_channels, 48); /* 2 dims x 4 lines x 3 links x 2 directions */
    assert_int_equal(net.shape_n, 0);     /* terminal addresses are not coordinates */
    for (uint32_t t = 0; t < 64; t++) {
        assert_int_equal(net.ops->src_node(&net, t), t / 4);
        assert_int_equal(net.ops->dst_node(&net, t), t / 4);
    }
    rs_net_free(&net);
    rs_test_net(&net, "topology=torus k=4 n=2 c=3");
    assert_int_equal(net.n_nodes, 16);
    assert_int_equal(net.n_terminals, 48);
    assert_int_equal(net.n_channels, 64);
    assert_int_equal(net.ops->src_node(&net, 47), 15);
    rs_net_free(&net);
    rs_test_net(&net, "topology=ring k=5 c=2");
    assert_int_equal(net.n_nodes, 5);
    assert_int_equal(net.n_terminals, 10);
    assert_int_equal(net.n_channels, 10);
    rs_net_free(&net);
    rs_test_net(&net, "topology=chain k=5 c=3");
    assert_int_equal(net.n_terminals, 15);
    assert_int_equal(net.n_channels, 8);
    rs_net_free(&net);
    /* c = 1 is today's network: terminal t is node t, digits as before */
    rs_test_net(&net, "topology=mesh k=4 n=2 c=1");
    assert_int_equal(net.n_terminals, 16);
    assert_int_equal(net.shape_k, 4);
    assert_int_equal(net.shape_n, 2);
    assert_int_equal(net.ops->src_node(&net, 9), 9);
    rs_net_free(&net);

    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=mesh k=4 c=0", 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    assert_non_null(strstr(msg, "key 'c': expected an integer in [1, 256], got '0'"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4096 n=2 c=8", 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    assert_string_equal(msg, "topology=mesh needs k^n c <= 2^26 terminals (got k=4096 n=2 "
                             "c=8)");
    rs_record_free(&r);
    /* digit traffic needs terminal addresses as coordinates */
    assert_int_equal(rs_test_try("topology=mesh k=4 c=2 traffic=transpose", 1, &r, msg,
                                 sizeof msg),
                     RS_EUNSUPPORTED);
    assert_string_equal(msg, "traffic=transpose needs terminal addresses as digits, which "
                             "topology 'mesh' does not give (shape k=0 n=0, N=32)");
    rs_record_free(&r);
}

/* Channels of the route s -> d (via m) on net into ch; returns hops; *end the last node. */
static int64_t walk(const struct rs_net *net, uint32_t s, uint32_t d, uint32_t m, uint64_t *ch,
                    uint32_t *end)
{
    struct rs_route_state st = {s, d, m, 0, 0};
    int64_t h = rs_route_expand(net, &st, ch, 16, 16, end);
    assert_int_equal(rs_route_length(net, NULL, &st, 16), h);
    return h;
}

/* By hand, 2x2 mesh with c = 2: nodes 0 = (0,0), 1 = (1,0), 2 = (0,1), 3 = (1,1); terminals
 * 2v and 2v+1 on node v; channel id = 4 node + port (port 0 = +0, 1 = -0, 2 = +1, 3 = -1).
 * Terminal 1 (node 0) -> terminal 7 (node 3): +0 to node 1 (channel 0), +1 to node 3
 * (channel 1*4+2 = 6). Terminal 2 (node 1) -> terminal 5 (node 2): -0 to node 0 (channel
 * 5), +1 to node 2 (channel 2). Terminals 6 -> 7 share node 3: no hop. Valiant 1 -> 7 via
 * terminal 5 (node 2): +1 to node 2 (channel 2), then +0 to node 3 (channel 8). */
static void test_route_by_hand(void **state)
{
    (void)state;
    struct rs_net net;
    uint64_t ch[16];
    uint32_t end;
    rs_test_net(&net, "topology=mesh k=2 n=2 c=2");
    assert_int_equal(net.n_terminals, 8);
    assert_int_equal(walk(&net, 1, 7, RS_NONE, ch, &end), 2);
    assert_int_equal(ch[0], 0);
    assert_int_equal(ch[1], 6);
    assert_int_equal(end, 3);
    assert_int_equal(walk(&net, 2, 5, RS_NONE, ch, &end), 2);
    assert_int_equal(ch[0], 5);
    assert_int_equal(ch[1], 2);
    assert_int_equal(end, 2);
    assert_int_equal(walk(&net, 6, 7, RS_NONE, ch, &end), 0);
    assert_int_equal(end, 3);
    assert_int_equal(walk(&net, 1, 7, 5, ch, &end), 2);
    assert_int_equal(ch[0], 2);
    assert_int_equal(ch[1], 8);
    assert_int_equal(end, 3);
    rs_net_free(&net);

    /* dateline classes count from the source terminal's node: ring of 4 with c = 2 and the
     * split tie rule, terminal 3 (node 1, odd) -> terminal 7 (node 3) goes -: 1 -> 0 in
     * class 0, then 0 -> 3 over the wrap-around channel in class 1 */
    rs_test_net(&net, "topology=ring k=4 c=2 torus_tie=split");
    struct rs_route_state st = {3, 7, RS_NONE, 0, 0};
    assert_int_equal(rs_route_port(&net, NULL, 1, &st), 1);
    assert_int_equal(rs_route_vc_class(&net, NULL, 1, 1, &st), 0);
    st.hops = 1;
    assert_int_equal(rs_route_port(&net, NULL, 0, &st), 1);
    assert_int_equal(rs_route_vc_class(&net, NULL, 0, 1, &st), 1);
    st.hops = 2;
    assert_int_equal(rs_route_port(&net, NULL, 3, &st), RS_ROUTE_DONE);
    rs_net_free(&net);
}

/* Every flit engine and router model and circuit switching run a concentrated mesh or
 * torus (two packets per terminal to uniform destinations, all delivered, the checker on);
 * store-and-forward refuses it with one line. */
static void test_engines(void **state)
{
    (void)state;
    static const char *const runs[] = {
        "topology=mesh k=3 n=2 c=2 switching=wormhole length=3 vcs=1",
        "topology=mesh k=3 n=2 c=3 switching=wormhole length=3 vcs=2 routing=yx",
        "topology=mesh k=3 n=2 c=2 switching=virtual_cut_through length=3 vcs=2",
        "topology=mesh k=3 n=2 c=2 switching=cut_through_partial length=3 vc_depth=3",
        "topology=mesh k=3 n=2 c=2 switching=store_forward_flits length=3 vcs=2",
        "topology=mesh k=3 n=2 c=2 switching=wormhole length=3 vcs=2 router=iq",
        "topology=mesh k=3 n=2 c=2 switching=wormhole length=3 vcs=4 routing=valiant "
        "vc_classes=dateline",
        "topology=mesh k=3 n=2 c=4 switching=wormhole length=3 vcs=2 routing=min_adaptive",
        "topology=torus k=4 n=2 c=2 switching=wormhole length=3 vcs=2 vc_classes=dateline",
        "topology=torus k=4 n=2 c=2 switching=wormhole length=3 vcs=3 routing=min_adaptive",
        "topology=ring k=6 c=2 torus_tie=split switching=wormhole length=3 vcs=2 "
        "vc_classes=dateline router=iq",
        "topology=mesh k=3 n=2 c=2 switching=circuit",
        "topology=torus k=3 n=2 c=3 switching=circuit routing=valiant",
        "topology=mesh k=3 n=2 c=2 switching=store_forward",
        "topology=mesh k=3 n=2 c=3 switching=store_forward queue_at=output queue_size=2",
        "topology=torus k=4 n=2 c=2 switching=store_forward routing=valiant",
        NULL};
    for (int i = 0; runs[i]; i++) {
        char kv[512];
        struct rs_record r;
        snprintf(kv, sizeof kv, "%s traffic=uniform per_input=2 seed=4 check=1",
                 runs[i]);
        rs_test_run(kv, &r);
        struct rs_net net;
        rs_test_net(&net, runs[i]);
        assert_int_equal(rs_test_int(&r, "delivered"), 2 * net.n_terminals);
        if (!strstr(runs[i], "circuit")) /* circuits cannot deadlock: no such column */
            assert_int_equal(rs_test_int(&r, "deadlock"), 0);
        rs_net_free(&net);
        rs_record_free(&r);
    }
}

static void test_no_deadlock_saturated(void **state)
{
    (void)state;
    const char *const runs[] = {
        "topology=mesh k=4 n=2 c=2 switching=wormhole vcs=1 router=simple",
        "topology=mesh k=4 n=2 c=2 switching=wormhole vcs=2 router=iq",
        "topology=mesh k=4 n=2 c=4 switching=wormhole vcs=2 routing=min_adaptive",
        "topology=torus k=4 n=2 c=2 switching=wormhole vcs=2 vc_classes=dateline",
        "topology=torus k=4 n=2 c=2 switching=wormhole vcs=3 routing=min_adaptive",
        "topology=ring k=6 c=3 torus_tie=split switching=virtual_cut_through vcs=2 "
        "vc_classes=dateline router=iq",
        NULL};
    rs_test_no_deadlock_saturated(runs);
}

/* |got - want| <= 1e-12 (cmocka's float assertion rounds to float). */
static void near(double got, double want, int line)
{
    if (!(fabs(got - want) <= 1e-12))
        fail_msg("line %d: got %.17g, want %.17g", line, got, want);
}

/* The channel-load analysis of kv (uniform traffic, direct routing) into cl and load. */
static void analyse(const char *kv, struct rs_channel_load *cl, double *load)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_problem pb;
    struct rs_err err;
    rs_test_params(&p, kv);
    rs_test_net(&net, kv);
    assert_int_equal(rs_problem_build(&pb, &net, &p, 1, &err), 0);
    if (rs_channel_load(cl, &net, &pb, 1, RS_ROUTING_DIRECT, load, &err))
        fail_msg("%s: %s", kv, err.msg);
    rs_problem_free(&pb);
    rs_net_free(&net);
    rs_params_free(&p);
}

/* Chain of 4 under uniform traffic: the + channel with tail 1 carries the sources on nodes
 * 0, 1 to the destinations on nodes 2, 3. With c = 1, 2 x 2 pairs of weight 1/4: 1; with
 * c = 2, 4 x 4 pairs of weight 1/8: 2, so the bound halves (Theta 1/2). */
static void test_channel_load(void **state)
{
    (void)state;
    struct rs_channel_load cl;
    double load[8];
    analyse("topology=chain k=4 traffic=uniform", &cl, load);
    near(load[2], 1.0, __LINE__);
    near(cl.gamma_max, 1.0, __LINE__);
    near(cl.theta, 1.0, __LINE__);
    analyse("topology=chain k=4 c=2 traffic=uniform", &cl, load);
    near(load[2], 2.0, __LINE__);
    near(load[0], 1.5, __LINE__); /* tail 0: 2 x 6 pairs of 1/8 */
    near(cl.gamma_max, 2.0, __LINE__);
    near(cl.theta, 0.5, __LINE__);
}

/* Ring of 4 (the 4-ary 1-cube): the tied pairs are s -> s + 2. Under plus all four go +;
 * under split the even sources 0 and 2 go + and the odd ones 1 and 3 go -: two each way.
 * Uniform traffic (weight 1/4 per pair): every + channel carries offset 1 (1/4) and the
 * ties through it; under plus the two ties from its tail and the node before (3/4 in all)
 * and - channels 1/4; under split exactly one tie crosses each channel of either
 * direction, so all eight channels carry 1/2. */
static void test_ring4_tie_split(void **state)
{
    (void)state;
    struct rs_net net;
    uint64_t ch[16];
    uint32_t end;
    static const char *const rule[] = {"plus", "split"};
    for (int r = 0; r < 2; r++) {
        char kv[128];
        snprintf(kv, sizeof kv, "topology=ring k=4 torus_tie=%s", rule[r]);
        rs_test_net(&net, kv);
        uint32_t plus = 0, minus = 0;
        for (uint32_t s = 0; s < 4; s++) {
            assert_int_equal(walk(&net, s, (s + 2) % 4, RS_NONE, ch, &end), 2);
            assert_int_equal(end, (s + 2) % 4);
            uint32_t dir = ch[0] % 2; /* port 0 = +, port 1 = - */
            assert_int_equal(ch[1] % 2, dir);
            plus += dir == 0;
            minus += dir == 1;
            if (r) /* split: + from the even sources */
                assert_int_equal(dir, s % 2);
        }
        assert_int_equal(plus, r ? 2 : 4);
        assert_int_equal(minus, r ? 2 : 0);
        rs_net_free(&net);

        struct rs_channel_load cl;
        double load[8];
        snprintf(kv, sizeof kv, "topology=ring k=4 torus_tie=%s traffic=uniform", rule[r]);
        analyse(kv, &cl, load);
        for (int node = 0; node < 4; node++) {
            near(load[2 * node], r ? 0.5 : 0.75, __LINE__);
            near(load[2 * node + 1], r ? 0.5 : 0.25, __LINE__);
        }
        near(cl.gamma_max, r ? 0.5 : 0.75, __LINE__);
        near(cl.hops_mean, 1.0, __LINE__); /* (0 + 1 + 2 + 1) / 4 */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_route_by_hand),
        cmocka_unit_test(test_engines),
        cmocka_unit_test(test_no_deadlock_saturated),
        cmocka_unit_test(test_channel_load),
        cmocka_unit_test(test_ring4_tie_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
