/* routing=yx (dimension order from the highest dimension down) and the torus tie rule
 * (torus_tie=plus|split) on routes worked by hand; YX in every engine and the analysis. */
#include "rs_test.h"

#include "routesim/route.h"

/* Channels of the route src -> dst (no intermediate) under routing into ch; returns hops. */
static int64_t walk(const char *kv, const struct rs_routing_ops *routing, uint32_t src,
                    uint32_t dst, uint64_t *ch, uint32_t *end)
{
    struct rs_net net;
    struct rs_err err;
    rs_test_net(&net, kv);
    assert_int_equal(rs_route_check(&net, routing, &err), 0);
    struct rs_route_state st = {src, dst, RS_NONE, 0, 0};
    int64_t h = rs_route_walk(&net, routing, &st, ch, 16, 16, end);
    assert_int_equal(rs_route_length(&net, routing, &st, 16), h);
    rs_net_free(&net);
    return h;
}

#define EXPECT_WALK(kv, routing, src, dst, endnode, ...)                                       \
    do {                                                                                     \
        static const uint64_t want_[] = {__VA_ARGS__};                                       \
        uint64_t ch_[16];                                                                    \
        uint32_t end_;                                                                       \
        int64_t n_ = (int64_t)(sizeof want_ / sizeof want_[0]);                              \
        assert_int_equal(walk(kv, routing, src, dst, ch_, &end_), n_);                       \
        for (int64_t i_ = 0; i_ < n_; i_++)                                                  \
            assert_int_equal(ch_[i_], want_[i_]);                                            \
        assert_int_equal(end_, endnode);                                                     \
    } while (0)

/* 4x4 mesh, (0,0) = node 0 to (2,3) = node 14; channel id = 4 node + port, port 2i = +i,
 * 2i+1 = -i. YX: + three times in dimension 1 (nodes 4, 8, 12: channels 2, 18, 34), then +
 * twice in dimension 0 (13, 14: channels 48, 52). Dimension order (XY) takes 0, 4, 10, 26,
 * 42. 4x4 torus: dimension 1 is 0 -> 3, one step - (channel 3 to node 12), then dimension
 * 0 is a tie (distance 2) from the even coordinate 0: + under both rules (48, 52). */
static void test_yx_by_hand(void **state)
{
    (void)state;
    EXPECT_WALK("topology=mesh k=4 n=2", RS_ROUTING_YX, 0, 14, 14, 2, 18, 34, 48, 52);
    EXPECT_WALK("topology=mesh k=4 n=2", RS_ROUTING_DIRECT, 0, 14, 14, 0, 4, 10, 26, 42);
    EXPECT_WALK("topology=torus k=4 n=2", RS_ROUTING_YX, 0, 14, 14, 3, 48, 52);
    EXPECT_WALK("topology=torus k=4 n=2 torus_tie=split", RS_ROUTING_YX, 0, 14, 14, 3, 48,
                52);
    /* 3x3x3 mesh, (2,0,1) = node 11 to (0,2,0) = node 6: dimension 2 - (node 2, channel
     * 6*11+5 = 71), dimension 1 + twice (5, 8: channels 14, 32), dimension 0 - twice (7, 6:
     * channels 49, 43) */
    EXPECT_WALK("topology=mesh k=3 n=3", RS_ROUTING_YX, 11, 6, 6, 71, 14, 32, 49, 43);
    /* one dimension: YX is dimension order */
    EXPECT_WALK("topology=chain k=5", RS_ROUTING_YX, 4, 1, 1, 9, 7, 5);
}

/* The tie rule: 4x4 torus, (1,0) = node 1 to (3,3) = node 15. Dimension 0 is a tie from the
 * odd coordinate 1: plus goes + (nodes 2, 3: channels 4, 8), split goes - (nodes 0, 3:
 * channels 5, 1); then dimension 1 is 0 -> 3, one step - (channel 4*3+3 = 15). Under YX the
 * tie comes second: - in dimension 1 first (node 13, channel 7), then plus: 52, 56; split:
 * 53 (to node 12), 49. */
static void test_torus_tie(void **state)
{
    (void)state;
    EXPECT_WALK("topology=torus k=4 n=2", RS_ROUTING_DIRECT, 1, 15, 15, 4, 8, 15);
    EXPECT_WALK("topology=torus k=4 n=2 torus_tie=plus", RS_ROUTING_DIRECT, 1, 15, 15, 4, 8,
                15);
    EXPECT_WALK("topology=torus k=4 n=2 torus_tie=split", RS_ROUTING_DIRECT, 1, 15, 15, 5, 1,
                15);
    EXPECT_WALK("topology=torus k=4 n=2", RS_ROUTING_YX, 1, 15, 15, 7, 52, 56);
    EXPECT_WALK("topology=torus k=4 n=2 torus_tie=split", RS_ROUTING_YX, 1, 15, 15, 7, 53,
                49);
    /* ring of 6: 0 -> 3 goes + (0, 1, 2: channels 0, 2, 4) under both rules; 1 -> 4 goes +
     * under plus (2, 4, 6) and - under split (1 -> 0 -> 5 -> 4: channels 3, 1, 11) */
    EXPECT_WALK("topology=ring k=6 torus_tie=split", RS_ROUTING_DIRECT, 0, 3, 3, 0, 2, 4);
    EXPECT_WALK("topology=ring k=6", RS_ROUTING_DIRECT, 1, 4, 4, 2, 4, 6);
    EXPECT_WALK("topology=ring k=6 torus_tie=split", RS_ROUTING_DIRECT, 1, 4, 4, 3, 1, 11);

    /* dateline classes follow the direction taken: ring of 4, 1 -> 3 under split goes
     * 1 -> 0 (class 0) -> 3 (the wrap-around channel: class 1) */
    struct rs_net net;
    rs_test_net(&net, "topology=ring k=4 torus_tie=split");
    struct rs_route_state st = {1, 3, RS_NONE, 0, 0};
    assert_int_equal(rs_route_port(&net, NULL, 1, &st), 1);
    assert_int_equal(rs_route_vc_class(&net, NULL, 1, 1, &st), 0);
    st.hops = 1;
    assert_int_equal(rs_route_port(&net, NULL, 0, &st), 1);
    assert_int_equal(rs_route_vc_class(&net, NULL, 0, 1, &st), 1);
    rs_net_free(&net);
    /* productive ports list both directions at a tie, whatever the rule */
    rs_test_net(&net, "topology=torus k=4 n=2 torus_tie=split");
    uint32_t ports[RS_MAX_PRODUCTIVE];
    assert_int_equal(net.ops->productive(&net, 1, 3, ports), 2);
    assert_int_equal(ports[0], 0);
    assert_int_equal(ports[1], 1);
    assert_int_equal(net.ops->distance(&net, 1, 15), 3);
    rs_net_free(&net);
    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=torus k=4 torus_tie=minus", 0, &r, msg, sizeof msg),
                     RS_EUNKNOWN);
    assert_non_null(strstr(msg, "unknown value 'minus' for key 'torus_tie'"));
    rs_record_free(&r);
    /* the key belongs to wrap-around networks only */
    assert_int_equal(rs_test_try("topology=mesh k=4 torus_tie=split", 0, &r, msg, sizeof msg),
                     RS_EUNKNOWN);
    rs_record_free(&r);
}

/* Split balances the two directions of a ring: on a ring of 8 every terminal t sends to
 * t + 4 (tests/data/ring8_half.txt). plus sends all 8 routes of 4 hops the + way (every +
 * channel carries 4: congestion 4); split sends the even sources + and the odd ones -, and
 * every channel of both directions carries 2. */
static void test_split_balances(void **state)
{
    (void)state;
    static const char *const rule[] = {"plus", "split"};
    for (int i = 0; i < 2; i++) {
        struct rs_record r;
        char msg[512], kv[256], buf[1024];
        snprintf(kv, sizeof kv, "topology=ring k=8 traffic=file "
                 "traffic_file=@/ring8_half.txt torus_tie=%s", rule[i]);
        assert_int_equal(rs_test_try(rs_test_with_data(kv, buf, sizeof buf), 0, &r, msg,
                                     sizeof msg),
                         0);
        assert_int_equal(rs_test_int(&r, "congestion"), i ? 2 : 4);
        assert_int_equal(rs_test_int(&r, "total_hops"), 32);
        rs_record_free(&r);
    }
}

/* YX refused where there are no coordinates; it is oblivious, so every engine and the path
 * analysis take it, and its routes are minimal. */
static void test_yx_everywhere(void **state)
{
    (void)state;
    struct rs_net net;
    struct rs_err err;
    rs_test_net(&net, "topology=butterfly N=8");
    assert_int_equal(rs_route_check(&net, RS_ROUTING_YX, &err), RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "routing=yx needs topology=mesh|torus|chain|ring|hypercube (got "
                                 "butterfly)");
    rs_net_free(&net);
    assert_int_equal(rs_route_need_fixed(RS_ROUTING_YX, "x", &err), 0);
    assert_false(rs_route_is_direct(RS_ROUTING_YX));
    assert_false(rs_route_is_adaptive(RS_ROUTING_YX));

    static const char *const runs[] = {
        "switching=store_forward", "switching=wormhole vcs=1", "switching=wormhole vcs=2 "
        "vc_classes=dateline", "switching=virtual_cut_through", "switching=circuit",
        "switching=wormhole router=iq", NULL};
    for (int w = 0; w < 2; w++)
        for (int i = 0; runs[i]; i++) {
            char kv[256];
            struct rs_record r;
            snprintf(kv, sizeof kv, "topology=%s k=4 n=2 traffic=transpose routing=yx %s",
                     w ? "torus" : "mesh", runs[i]);
            if (!w && strstr(runs[i], "dateline"))
                continue;
            rs_test_run(kv, &r);
            assert_int_equal(rs_test_int(&r, "delivered"), 16);
            rs_record_free(&r);
        }
    /* transpose (x, y) -> (y, x) on the 4x4 mesh: every route is minimal, 2 |x - y| hops:
     * 2 (4 (1) + 3 (2) ... ) = 40 in all, the same under XY and YX */
    struct rs_record a, b;
    char msg[512];
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=transpose", 0, &a, msg,
                                 sizeof msg),
                     0);
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=transpose routing=yx", 0, &b,
                                 msg, sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&a, "total_hops"), 40);
    assert_int_equal(rs_test_int(&b, "total_hops"), 40);
    rs_record_free(&a);
    rs_record_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_yx_by_hand),
        cmocka_unit_test(test_torus_tie),
        cmocka_unit_test(test_split_balances),
        cmocka_unit_test(test_yx_everywhere),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
