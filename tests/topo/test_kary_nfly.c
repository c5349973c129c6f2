/* topology=kary_nfly (BookSim 2's k-ary n-fly): counts of the 2-ary 3-fly and the 4-ary
 * 2-fly, routes worked by hand on both, the wiring against BookSim's _InChannel formula,
 * one path from every input to every output, Valiant through the return channel (wrap=1),
 * and the engines on it: several terminals per router under router=iq and router=simple,
 * the unloaded iq latency worked by hand, and no deadlock of Valiant under saturation. */
#include "engine/flit_fixture.h"

#include "routesim/net.h"
#include "routesim/route.h"

static void build(struct rs_net *net, uint32_t k, uint32_t n, int wrap)
{
    char kv[96];
    snprintf(kv, sizeof kv, "topology=kary_nfly k=%u n=%u wrap=%d", k, n, wrap);
    rs_test_net(net, kv);
}

/* n stages of k^(n-1) routers; (n-1) k^n channels between stages (k^(n-1) more with
 * wrap=1); k terminals at each first- and last-stage router. */
static void test_counts(void **state)
{
    struct rs_net net;
    build(&net, 2, 3, 0);
    assert_int_equal(net.n_nodes, 12);
    assert_int_equal(net.n_channels, 16);
    assert_int_equal(net.max_ports, 2);
    assert_int_equal(net.n_terminals, 8);
    assert_int_equal(net.n_levels, 3);
    assert_int_equal(net.shape_k, 2);
    assert_int_equal(net.shape_n, 3);
    rs_net_free(&net);
    build(&net, 4, 2, 0);
    assert_int_equal(net.n_nodes, 8);
    assert_int_equal(net.n_channels, 16);
    assert_int_equal(net.max_ports, 4);
    assert_int_equal(net.n_terminals, 16);
    assert_int_equal(net.n_levels, 2);
    for (uint32_t t = 0; t < 16; t++) {
        assert_int_equal(net.ops->src_node(&net, t), t / 4);
        assert_int_equal(net.ops->dst_node(&net, t), 4 + t / 4);
    }
    rs_net_free(&net);
    build(&net, 4, 2, 1);
    assert_int_equal(net.n_channels, 20);
    assert_int_equal(net.max_ports, 5);
    assert_true(net.caps & RS_CAP_WRAP);
    rs_net_free(&net);
    /* the counts of the whole channel table, by walking it */
    build(&net, 3, 3, 1);
    uint64_t chans = 0;
    for (uint32_t v = 0; v < net.n_nodes; v++)
        for (uint32_t p = 0; p < net.max_ports; p++)
            chans += net.ops->neighbor(&net, v, p, NULL) != RS_NONE;
    assert_int_equal(chans, net.n_channels);
    assert_int_equal(net.n_channels, 2 * 27 + 9);
    rs_net_free(&net);
}

/* By hand. 2-ary 3-fly, terminal 1 (001) to 6 (110): injects at <0,00> (node 0); stage 0
 * takes port d_2 = 1 to <1,10> (node 6, in-slot 0 = digit 1 of address 00); stage 1 takes
 * port d_1 = 1 to <2,11> (node 11, in-slot 0), the router of terminals 6 and 7, where it
 * is delivered (ejection port d_0 = 0). 4-ary 2-fly, 5 (digits 1 1) to 14 (3 2): router
 * <0,1> (node 1), port d_1 = 3 to <1,3> (node 7, in-slot 1), delivered. */
static void test_routes_by_hand(void **state)
{
    struct rs_net net;
    uint64_t ch[8];
    uint32_t end, slot;
    char buf[32];
    build(&net, 2, 3, 0);
    struct rs_route_state st = {1, 6, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 16, &end), 2);
    assert_int_equal(ch[0], 0 * 2 + 1);
    assert_int_equal(ch[1], 6 * 2 + 1);
    assert_int_equal(end, 11);
    assert_int_equal(net.ops->neighbor(&net, 0, 1, &slot), 6);
    assert_int_equal(slot, 0);
    assert_int_equal(net.ops->neighbor(&net, 6, 1, &slot), 11);
    assert_int_equal(slot, 0);
    net.ops->label(&net, 6, buf, sizeof buf);
    assert_string_equal(buf, "<1,10>");
    assert_int_equal(net.ops->neighbor(&net, 11, 0, NULL), RS_NONE); /* last stage */
    rs_net_free(&net);
    build(&net, 4, 2, 0);
    st = (struct rs_route_state){5, 14, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 16, &end), 1);
    assert_int_equal(ch[0], 1 * 4 + 3);
    assert_int_equal(end, 7);
    assert_int_equal(net.ops->neighbor(&net, 1, 3, &slot), 7);
    assert_int_equal(slot, 1);
    net.ops->label(&net, 7, buf, sizeof buf);
    assert_string_equal(buf, "<1,3>");
    rs_net_free(&net);
    build(&net, 16, 3, 0); /* k > 10: digits separated by dots */
    net.ops->label(&net, 2 * 256 + 3 * 16 + 12, buf, sizeof buf);
    assert_string_equal(buf, "<2,3.12>");
    rs_net_free(&net);
}

/* BookSim's KNFly::_InChannel: input port q of router <s+1, b> is fed by output port
 * zd = digit n-2-s of b of router <s, b with that digit replaced by q>. */
static void test_booksim_wiring(void **state)
{
    const uint32_t shapes[][2] = {{2, 3}, {4, 3}, {3, 4}, {2, 10}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        struct rs_net net;
        uint32_t k = shapes[i][0], n = shapes[i][1], R = 1, slot;
        build(&net, k, n, 0);
        for (uint32_t j = 0; j + 1 < n; j++)
            R *= k;
        for (uint32_t s = 0; s + 1 < n; s++) {
            uint32_t sh = 1;
            for (uint32_t j = 0; j < n - 2 - s; j++)
                sh *= k;
            for (uint32_t b = 0; b < R; b++)
                for (uint32_t q = 0; q < k; q++) {
                    uint32_t zd = b / sh % k, a = b - zd * sh + q * sh;
                    assert_int_equal(net.ops->neighbor(&net, s * R + a, zd, &slot),
                                     (s + 1) * R + b);
                    assert_int_equal(slot, q);
                }
        }
        rs_net_free(&net);
    }
}

/* Exactly one path from every input router to every output router (dynamic programming
 * over the stages), and the route of every pair ends at its destination in n-1 hops. */
static void test_unique_paths(void **state)
{
    const uint32_t shapes[][2] = {{2, 1}, {2, 4}, {3, 3}, {4, 3}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        struct rs_net net;
        build(&net, shapes[i][0], shapes[i][1], 0);
        uint64_t *paths = calloc(net.n_nodes, sizeof *paths);
        assert_non_null(paths);
        for (uint32_t a = 0; a < net.n_terminals; a++) {
            memset(paths, 0, net.n_nodes * sizeof *paths);
            paths[net.ops->src_node(&net, a)] = 1;
            for (uint32_t v = 0; v < net.n_nodes; v++) /* ids increase with the stage */
                for (uint32_t p = 0; p < net.max_ports; p++) {
                    uint32_t w = net.ops->neighbor(&net, v, p, NULL);
                    if (w != RS_NONE)
                        paths[w] += paths[v];
                }
            for (uint32_t d = 0; d < net.n_terminals; d++) {
                uint32_t end;
                struct rs_route_state st = {a, d, RS_NONE, 0, 0};
                assert_int_equal(paths[net.ops->dst_node(&net, d)], 1);
                assert_int_equal(rs_route_expand(&net, &st, NULL, 0, 64, &end), net.dims - 1);
                assert_int_equal(end, net.ops->dst_node(&net, d));
            }
        }
        free(paths);
        rs_net_free(&net);
    }
}

/* Valiant on the 2-ary 3-fly with wrap=1, 1 via 4 to 6: <0,00> -1-> <1,10> -0-> <2,10>
 * (terminal 4's output router) -return-> <0,10> -1-> <1,10> -1-> <2,11>: 5 = 2n-1 hops,
 * classes 0 0 1 2 2. Without wrap it is refused. */
static void test_valiant(void **state)
{
    struct rs_net net;
    struct rs_err err;
    uint64_t ch[8];
    uint32_t end;
    build(&net, 2, 3, 0);
    assert_int_equal(rs_route_check(&net, RS_ROUTING_VALIANT, &err), RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "routing=valiant on topology=kary_nfly needs wrap=1 (the "
                                 "return channels from the last stage to the first)");
    rs_net_free(&net);
    build(&net, 2, 3, 1);
    assert_int_equal(rs_route_check(&net, RS_ROUTING_VALIANT, &err), 0);
    struct rs_route_state st = {1, 6, 4, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 16, &end), 5);
    assert_int_equal(net.ops->path_length(&net, &st), 5);
    const uint64_t want[] = {0 * 3 + 1, 6 * 3 + 0, 10 * 3 + 2, 2 * 3 + 1, 6 * 3 + 1};
    const uint32_t cls[] = {0, 0, 1, 2, 2};
    for (uint32_t h = 0; h < 5; h++) {
        assert_int_equal(ch[h], want[h]);
        st.hops = h;
        assert_int_equal(net.ops->vc_class(&net, (uint32_t)(ch[h] / 3), ch[h] % 3, &st), cls[h]);
    }
    assert_int_equal(end, 11);
    rs_net_free(&net);
}

/* router=iq with k terminals per router. One packet 0 -> 15 of the 4-ary 2-fly crosses two
 * routers and one channel: the timing of test_iq.c's mesh 0 -> 1, 15 cycles (2 injection,
 * 3 per router, 2 on the channel, 2 ejection, 3 more flits). Four packets from the four
 * terminals of router <0,0> to the four of <1,1> share one channel: all delivered, the
 * last no earlier than 4 packets x 4 flits after the first flit could cross it. */
static void test_iq_concentration(void **state)
{
    struct rs_record r;
    const char *kv = "switching=wormhole router=iq vcs=2 vc_depth=4 length=4";
    const uint32_t one[1][2] = {{0, 15}};
    flit_run("topology=kary_nfly k=4 n=2", kv, one, 1, NULL, &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 1);
    assert_int_equal(rs_test_int(&r, "makespan"), 15);
    rs_record_free(&r);
    const uint32_t four[4][2] = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
    flit_run("topology=kary_nfly k=4 n=2", kv, four, 4, NULL, &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 4);
    assert_true(rs_test_int(&r, "makespan") >= 15 + 12);
    rs_record_free(&r);
    flit_run("topology=kary_nfly k=4 n=2", "switching=wormhole vcs=2", four, 4, NULL, &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 4);
    rs_record_free(&r);
}

/* Deadlock freedom under saturation (offered 0.9 flits per terminal and cycle, far above
 * what the network accepts): destination tag on the acyclic fly with one VC, and Valiant
 * over the return channels with vc_classes=dateline, in both router models. */
static void test_no_deadlock_saturated(void **state)
{
    const char *const runs[] = {
        "topology=kary_nfly k=2 n=4 switching=wormhole vcs=1 router=simple",
        "topology=kary_nfly k=2 n=4 switching=wormhole vcs=1 router=iq",
        "topology=kary_nfly k=2 n=4 wrap=1 routing=valiant vc_classes=dateline "
        "switching=wormhole vcs=4 router=simple",
        "topology=kary_nfly k=2 n=4 wrap=1 routing=valiant vc_classes=dateline "
        "switching=wormhole vcs=4 router=iq",
        NULL};
    rs_test_no_deadlock_saturated(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_routes_by_hand),
        cmocka_unit_test(test_booksim_wiring),
        cmocka_unit_test(test_unique_paths),
        cmocka_unit_test(test_valiant),
        cmocka_unit_test(test_iq_concentration),
        cmocka_unit_test(test_no_deadlock_saturated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
