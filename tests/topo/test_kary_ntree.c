/* topology=kary_ntree (Petrini & Vanneschi's k-ary n-tree, a folded Clos) and
 * routing=nca_adaptive: counts of the 2-ary 2-tree and the 4-ary 3-tree, one route by hand,
 * the random up-port (uniform per packet, fixed for the packet), the adaptive up-port toward
 * the most free slots, and no deadlock under saturation (up/down is acyclic). */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/rng.h"
#include "routesim/route.h"

/* n levels of k^(n-1) switches, 2 (n-1) k^n channels (each of the (n-1) k^n links both
 * ways), k^n terminals, k on each leaf. */
static void test_counts(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=kary_ntree k=2 n=2");
    assert_int_equal(net.n_nodes, 4);
    assert_int_equal(net.n_channels, 8);
    assert_int_equal(net.max_ports, 4);
    assert_int_equal(net.n_terminals, 4);
    for (uint32_t t = 0; t < 4; t++) {
        assert_int_equal(net.ops->src_node(&net, t), 2 + t / 2);
        assert_int_equal(net.ops->dst_node(&net, t), 2 + t / 2);
    }
    rs_net_free(&net);
    rs_test_net(&net, "topology=kary_ntree k=4 n=3");
    assert_int_equal(net.n_nodes, 48);
    assert_int_equal(net.n_channels, 256);
    assert_int_equal(net.max_ports, 8);
    assert_int_equal(net.n_terminals, 64);
    uint64_t chans = 0;
    for (uint32_t v = 0; v < net.n_nodes; v++)
        for (uint32_t p = 0; p < net.max_ports; p++) {
            uint32_t slot, w = net.ops->neighbor(&net, v, p, &slot);
            if (w == RS_NONE)
                continue;
            chans++;
            /* the channel back enters v at the slot of the port it leaves by */
            uint32_t back = net.ops->neighbor(&net, w, slot, NULL);
            assert_int_equal(back, v);
        }
    assert_int_equal(chans, 256);
    rs_net_free(&net);
}

/* By hand, 2-ary 2-tree: terminal 0 (digits 0 0) to 3 (1 1). Leaf <1,0> (node 2) does not
 * reach 3 (w_0 = 0, t_0 = 1): up on port 2 + j to root <0,j> (node j), j the packet's
 * draw; the root reaches everything: down port t_0 = 1 to leaf <1,1> (node 3), which
 * delivers. 0 to 1 share leaf <1,0>: no channel. */
static void test_route_by_hand(void **state)
{
    struct rs_net net;
    uint64_t ch[8];
    uint32_t end;
    char buf[32];
    rs_test_net(&net, "topology=kary_ntree k=2 n=2");
    for (uint32_t msg = 0; msg < 8; msg++) {
        /* a network built alone has seed 0 (rs_route_prepare sets the run's) */
        uint32_t j = rs_rand_below(0, RS_STREAM_NCA_UP, (uint64_t)msg << 32, 3u << 6 | 1, 2);
        struct rs_route_state st = {0, 3, RS_NONE, 0, msg};
        assert_int_equal(rs_route_expand(&net, &st, ch, 8, 16, &end), 2);
        assert_int_equal(ch[0], 2 * 4 + 2 + j);
        assert_int_equal(ch[1], j * 4 + 1);
        assert_int_equal(end, 3);
        assert_int_equal(net.ops->path_length(&net, &st), 2);
    }
    struct rs_route_state st = {0, 1, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 16, &end), 0);
    assert_int_equal(end, 2);
    net.ops->label(&net, 3, buf, sizeof buf);
    assert_string_equal(buf, "<1,1>");
    rs_net_free(&net);
}

/* 4-ary 3-tree, terminal 0 to 63 (NCA: the roots): the up-port of each of 4000 packets is
 * fixed by (source, packet, level); each of the 4 ports at the leaf is taken by 1000 of
 * them within 5 standard deviations (sd = sqrt(4000 / 4 * 3 / 4) = 27.4). */
static void test_random_up_port(void **state)
{
    struct rs_net net;
    uint64_t ch[8];
    uint32_t count[4] = {0};
    rs_test_net(&net, "topology=kary_ntree k=4 n=3");
    for (uint32_t msg = 0; msg < 4000; msg++) {
        struct rs_route_state st = {0, 63, RS_NONE, 0, msg};
        assert_int_equal(rs_route_expand(&net, &st, ch, 8, 16, NULL), 4);
        assert_true(ch[0] % 8 >= 4);
        count[ch[0] % 8 - 4]++;
        uint64_t again[8];
        assert_int_equal(rs_route_expand(&net, &st, again, 8, 16, NULL), 4);
        assert_memory_equal(ch, again, sizeof ch[0] * 4);
    }
    for (int p = 0; p < 4; p++)
        assert_true(count[p] > 1000 - 137 && count[p] < 1000 + 137);
    rs_net_free(&net);
}

/* The up-ports follow the run seed (net->seed, set by rs_route_prepare): two networks
 * prepared with one seed route every packet alike, two seeds route most packets apart (4-ary
 * 3-tree, 0 to 63: two up-port draws, so 1/16 of the packets agree by chance; more than 150
 * of 300 must differ), and a whole run of a fixed permutation gives the same latency under
 * one seed and another under another. */
static void test_seeded_up_ports(void **state)
{
    struct rs_net a, b, c;
    struct rs_err err;
    uint64_t pa[8], pb[8], pc[8];
    uint32_t differ = 0;
    rs_test_net(&a, "topology=kary_ntree k=4 n=3");
    rs_test_net(&b, "topology=kary_ntree k=4 n=3");
    rs_test_net(&c, "topology=kary_ntree k=4 n=3");
    assert_int_equal(rs_route_prepare(&a, RS_ROUTING_DIRECT, NULL, 1, &err), 0);
    assert_int_equal(rs_route_prepare(&b, RS_ROUTING_DIRECT, NULL, 1, &err), 0);
    assert_int_equal(rs_route_prepare(&c, RS_ROUTING_DIRECT, NULL, 2, &err), 0);
    assert_true(a.seed == 1 && c.seed == 2);
    for (uint32_t msg = 0; msg < 300; msg++) {
        struct rs_route_state st = {0, 63, RS_NONE, 0, msg};
        assert_int_equal(rs_route_expand(&a, &st, pa, 8, 16, NULL), 4);
        assert_int_equal(rs_route_expand(&b, &st, pb, 8, 16, NULL), 4);
        assert_int_equal(rs_route_expand(&c, &st, pc, 8, 16, NULL), 4);
        assert_memory_equal(pa, pb, sizeof pa[0] * 4);
        differ += memcmp(pa, pc, sizeof pa[0] * 4) != 0;
    }
    assert_true(differ > 150);
    rs_net_free(&a);
    rs_net_free(&b);
    rs_net_free(&c);
    /* end to end: the run hands its seed to the route (bitrev is the same permutation under
     * every seed, and the flit engine draws nothing else, so only the up-ports can differ) */
    struct rs_record x, y, z;
#define RUN "topology=kary_ntree k=4 n=3 traffic=bitrev switching=wormhole vcs=2 length=4 "
    rs_test_run(RUN "seed=1", &x);
    rs_test_run(RUN "seed=1", &y);
    rs_test_run(RUN "seed=2", &z);
#undef RUN
    assert_true(rs_test_double(&x, "latency_mean") == rs_test_double(&y, "latency_mean"));
    assert_int_equal(rs_test_int(&x, "makespan"), rs_test_int(&y, "makespan"));
    assert_true(rs_test_double(&x, "latency_mean") != rs_test_double(&z, "latency_mean"));
    rs_record_free(&x);
    rs_record_free(&y);
    rs_record_free(&z);
}

/* The engine's view for nca_adaptive: free slots per (port) at one node. */
static uint32_t fake_free(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    const uint32_t *free_of = ctx;
    (void)node;
    (void)vc;
    return free_of[port];
}

/* Going up, every up-port by most free slots (ties by port id); going down, one port;
 * at the destination's leaf, none. Refused where there is no up/down tree. */
static void test_nca_adaptive(void **state)
{
    struct rs_net net;
    struct rs_err err;
    struct rs_route_choice out[RS_ROUTE_MAX_CHOICES];
    const uint32_t free_of[8] = {0, 0, 0, 0, 1, 3, 0, 3};
    struct rs_route_view view = {free_of, 2, 4, fake_free};
    rs_test_net(&net, "topology=kary_ntree k=4 n=3");
    assert_int_equal(rs_route_check(&net, RS_ROUTING_NCA_ADAPTIVE, &err), 0);
    struct rs_route_state st = {0, 63, RS_NONE, 0, 0};
    uint32_t leaf = net.ops->src_node(&net, 0);
    assert_int_equal(RS_ROUTING_NCA_ADAPTIVE->choose(&net, leaf, &st, &view, out), 4);
    const uint32_t want[4] = {5, 7, 4, 6};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(out[i].port, want[i]);
        assert_int_equal(out[i].vc_lo, 0);
        assert_int_equal(out[i].vc_hi, 2);
    }
    /* root <0,00> (node 0): down port t_0 = 3 */
    assert_int_equal(RS_ROUTING_NCA_ADAPTIVE->choose(&net, 0, &st, &view, out), 1);
    assert_int_equal(out[0].port, 3);
    assert_int_equal(RS_ROUTING_NCA_ADAPTIVE->choose(&net, net.ops->dst_node(&net, 63), &st,
                                                     &view, out),
                     0);
    rs_net_free(&net);
    rs_test_net(&net, "topology=kary_nfly k=2 n=3");
    assert_int_equal(rs_route_check(&net, RS_ROUTING_NCA_ADAPTIVE, &err), RS_EUNSUPPORTED);
    rs_net_free(&net);
}

/* Saturated (0.9 flits per terminal and cycle offered), one VC: random and adaptive
 * up-ports, in both router models where they run, never deadlock; Valiant (which turns up
 * again at mid) with its second leg in its own class. */
static void test_no_deadlock_saturated(void **state)
{
#define NTREE "topology=kary_ntree k=2 n=4 switching=wormhole "
    const char *const runs[] = {NTREE "vcs=1 router=simple",
                                NTREE "vcs=1 router=iq",
                                NTREE "vcs=1 routing=nca_adaptive",
                                NTREE "vcs=2 routing=nca_adaptive",
                                NTREE "vcs=4 routing=valiant vc_classes=dateline router=simple",
                                NTREE "vcs=4 routing=valiant vc_classes=dateline router=iq",
                                NULL};
#undef NTREE
    rs_test_no_deadlock_saturated(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_route_by_hand),
        cmocka_unit_test(test_random_up_port),
        cmocka_unit_test(test_seeded_up_ports),
        cmocka_unit_test(test_nca_adaptive),
        cmocka_unit_test(test_no_deadlock_saturated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
