/* routing=romm (Nesson and Johnsson's two-phase randomized minimal routing): the intermediate
 * lies in the minimal quadrant and is uniform there, every route is minimal, the second phase
 * is VC class bit 1, the runs of every engine and the analysis take it, and it never
 * deadlocks saturated with its phase classes. */
#include "rs_test.h"

#include "routesim/route.h"

/* Coordinate i of node v (k per dimension). */
static uint32_t coord(const struct rs_net *net, uint32_t v, uint32_t i)
{
    for (uint32_t j = 0; j < i; j++)
        v /= net->k;
    return v % net->k;
}

/* Every pair of an 8x8 mesh and 8x8 tori (both tie rules), 8 messages each, batch and open
 * loop: on the mesh each coordinate of the intermediate lies between the source's and the
 * destination's; everywhere the route is minimal (dist(s, mid) + dist(mid, t) = dist(s, t)
 * and the walk takes that many channels) and ends at the destination. */
static void test_quadrant_and_minimal(void **state)
{
    static const char *const nets[] = {"topology=mesh k=8 n=2", "topology=torus k=8 n=2",
                                       "topology=torus k=8 n=2 torus_tie=split",
                                       "topology=mesh k=3 n=3", "topology=ring k=7", NULL};
    for (int i = 0; nets[i]; i++) {
        struct rs_net net;
        struct rs_err err;
        rs_test_net(&net, nets[i]);
        assert_int_equal(rs_route_check(&net, RS_ROUTING_ROMM, &err), 0);
        const struct rs_topo_ops *o = net.ops;
        uint32_t N = net.n_terminals;
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t t = 0; t < N; t++)
                for (uint32_t m = 0; m < 16; m++) {
                    uint64_t id = ((uint64_t)s * N + t) * 8 + m % 8;
                    uint32_t mid = m < 8 ? rs_route_mid_for(&net, RS_ROUTING_ROMM, 3, id, s, t)
                                         : RS_ROUTING_ROMM->mid_openloop(&net, 3, s, t, m);
                    assert_true(mid < N);
                    if (!net.wrap)
                        for (uint32_t d = 0; d < net.dims; d++) {
                            uint32_t a = coord(&net, s, d), b = coord(&net, t, d);
                            uint32_t x = coord(&net, mid, d);
                            assert_true(x >= (a < b ? a : b) && x <= (a < b ? b : a));
                        }
                    uint32_t dist = o->distance(&net, s, t);
                    assert_int_equal(o->distance(&net, s, mid) + o->distance(&net, mid, t), dist);
                    struct rs_route_state st = {s, t, mid, 0, (uint32_t)id};
                    uint32_t end;
                    assert_int_equal(rs_route_walk(&net, RS_ROUTING_ROMM, &st, NULL, 0, 64, &end),
                                     dist);
                    assert_int_equal(end, t);
                    assert_int_equal(rs_route_length(&net, RS_ROUTING_ROMM, &st, 64), dist);
                }
        rs_net_free(&net);
    }
}

/* 8x8 mesh, (1,2) = node 17 to (4,6) = node 52: the quadrant has 4 x 5 = 20 nodes; 20,000
 * messages put 1,000 on each within 5 standard deviations (sd = sqrt(20000 / 20 * 19 / 20) =
 * 30.8), and never one outside. The draw depends on the seed: another seed moves most. */
static void test_uniform_in_quadrant(void **state)
{
    struct rs_net net;
    uint32_t count[64] = {0}, moved = 0;
    rs_test_net(&net, "topology=mesh k=8 n=2");
    for (uint64_t id = 0; id < 20000; id++) {
        uint32_t mid = rs_route_mid_for(&net, RS_ROUTING_ROMM, 11, id, 17, 52);
        count[mid]++;
        moved += mid != rs_route_mid_for(&net, RS_ROUTING_ROMM, 12, id, 17, 52);
    }
    for (uint32_t v = 0; v < 64; v++) {
        uint32_t x = v % 8, y = v / 8;
        if (x >= 1 && x <= 4 && y >= 2 && y <= 6)
            assert_true(count[v] > 1000 - 154 && count[v] < 1000 + 154);
        else
            assert_int_equal(count[v], 0);
    }
    assert_true(moved > 20000 * 9 / 10); /* 19/20 expected */
    rs_net_free(&net);
}

/* A route by hand: 4x4 mesh, node 0 = (0,0) to node 15 = (3,3) via mid 6 = (2,1): phase 1 in
 * dimension order (x twice: channels 0, 4; then y once: 4*2+2 = 10), phase 2 (x once from
 * node 6: 24; y twice from 7: 30, 46). The class of each hop: bit 1 from hop 3 on (the
 * second phase); the mesh has no dateline bit. */
static void test_route_by_hand(void **state)
{
    struct rs_net net;
    uint64_t ch[8];
    uint32_t end;
    static const uint64_t want[6] = {0, 4, 10, 24, 30, 46};
    rs_test_net(&net, "topology=mesh k=4 n=2");
    struct rs_route_state st = {0, 15, 6, 0, 0};
    assert_int_equal(rs_route_walk(&net, RS_ROUTING_ROMM, &st, ch, 8, 64, &end), 6);
    assert_int_equal(end, 15);
    for (uint32_t h = 0; h < 6; h++) {
        assert_int_equal(ch[h], want[h]);
        st.hops = h;
        uint32_t node = (uint32_t)(ch[h] / net.max_ports), port = (uint32_t)(ch[h] % net.max_ports);
        assert_int_equal(rs_route_port(&net, RS_ROUTING_ROMM, node, &st), port);
        assert_int_equal(rs_route_vc_class(&net, RS_ROUTING_ROMM, node, port, &st),
                         h < 3 ? 0u : 2u);
    }
    rs_net_free(&net);
}

/* Where ROMM runs: networks with coordinates; refused elsewhere with one line. */
static void test_refused(void **state)
{
    (void)state;
    rs_test_expect_error("topology=butterfly N=8 routing=romm", RS_EUNSUPPORTED,
                         "routing=romm needs topology=mesh|torus|chain|ring|hypercube (got butterfly)");
    rs_test_expect_error("topology=kary_ntree k=2 n=2 routing=romm", RS_EUNSUPPORTED,
                         "routing=romm needs topology=mesh|torus|chain|ring|hypercube (got kary_ntree)");
}

/* Every engine and the analysis take ROMM's routes: transpose on a 4x4 mesh (dilation = the
 * largest distance, 6: minimal), store-and-forward, circuit and wormhole deliver everything;
 * one seed gives one record, bytes and all. */
static void test_engines(void **state)
{
    static const char *const runs[] = {
        "topology=mesh k=4 n=2 routing=romm traffic=transpose switching=store_forward",
        "topology=mesh k=4 n=2 routing=romm traffic=transpose switching=wormhole vcs=4 "
        "vc_classes=dateline",
        "topology=mesh k=4 n=2 routing=romm traffic=transpose switching=circuit",
        "topology=torus k=4 n=2 routing=romm traffic=transpose switching=virtual_cut_through "
        "vcs=4 vc_classes=dateline",
        NULL};
    for (int i = 0; runs[i]; i++) {
        struct rs_record r;
        rs_test_run(runs[i], &r);
        assert_int_equal(rs_test_int(&r, "delivered"), 16);
        assert_int_equal(rs_test_int(&r, "dilation"), strstr(runs[i], "torus") ? 4 : 6);
        rs_record_free(&r);
        struct rs_buf a, b;
        rs_test_csv(runs[i], &a);
        rs_test_csv(runs[i], &b);
        assert_int_equal(a.len, b.len);
        assert_memory_equal(a.data, b.data, a.len);
        rs_buf_free(&a);
        rs_buf_free(&b);
    }
}

/* Saturated (0.9 flits per terminal and cycle offered): each phase is dimension order on its
 * own classes (bit 1 = phase, bit 0 = dateline on tori), and a packet only moves from the
 * first phase's classes to the second's, so no deadlock, in both router models. */
static void test_no_deadlock_saturated(void **state)
{
    (void)state;
#define R "routing=romm switching=wormhole vcs=4 vc_classes=dateline "
    const char *const runs[] = {"topology=mesh k=4 n=2 " R "router=simple",
                                "topology=mesh k=4 n=2 " R "router=iq",
                                "topology=torus k=4 n=2 " R "router=simple",
                                "topology=torus k=4 n=2 " R "router=iq",
                                "topology=torus k=5 n=2 torus_tie=split " R "router=simple",
                                NULL};
#undef R
    rs_test_no_deadlock_saturated(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quadrant_and_minimal),
        cmocka_unit_test(test_uniform_in_quadrant),
        cmocka_unit_test(test_route_by_hand),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_engines),
        cmocka_unit_test(test_no_deadlock_saturated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
