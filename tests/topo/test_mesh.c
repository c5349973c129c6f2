/* Meshes, tori, chains, rings and hypercubes: node numbering and labels, ports and in-slots, and
 * hand-checked dimension-order routes including the torus tie rule (distance k/2 goes +)
 * and Valiant's two phases. Channel id = node * 2n + port; port 2i = +i, 2i+1 = -i. */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/route.h"


/* Expand (src, dst, mid) on net and compare with the channels written out by hand. */
static void expect_route(const struct rs_net *net, uint32_t s, uint32_t d, uint32_t m,
                         const uint64_t *want, uint32_t len)
{
    uint64_t chans[64];
    uint32_t end;
    struct rs_route_state st = {s, d, m, 0, 0};
    int64_t h = rs_route_expand(net, &st, chans, 64, 64, &end);
    if (h != (int64_t)len) {
        print_error("%s %u -> %u via %d: %lld hops, want %u\n", net->name, s, d, (int)m,
                    (long long)h, len);
        fail();
    }
    if (len)
        assert_memory_equal(chans, want, len * sizeof *want);
    assert_int_equal(end, d);
}

static void test_numbering_and_labels(void **state)
{
    struct rs_net net;
    char buf[32];
    rs_test_net(&net, "topology=mesh k=4 n=2");
    assert_int_equal(net.n_levels, 0);
    assert_int_equal(net.shape_k, 4);
    assert_int_equal(net.shape_n, 2);
    assert_int_equal(net.ops->level(&net, 7), -1);
    net.ops->label(&net, 9, buf, sizeof buf); /* 9 = 1 + 2*4 */
    assert_string_equal(buf, "(1,2)");
    net.ops->label(&net, 15, buf, sizeof buf);
    assert_string_equal(buf, "(3,3)");
    assert_int_equal(net.ops->src_node(&net, 9), 9);
    assert_int_equal(net.ops->dst_node(&net, 9), 9);
    rs_net_free(&net);
    rs_test_net(&net, "topology=mesh k=3 n=3");
    net.ops->label(&net, 5, buf, sizeof buf); /* 5 = 2 + 1*3 + 0*9 */
    assert_string_equal(buf, "(2,1,0)");
    rs_net_free(&net);
    rs_test_net(&net, "topology=ring k=6");
    assert_int_equal(net.max_ports, 2);
    assert_int_equal(net.shape_n, 1);
    net.ops->label(&net, 4, buf, sizeof buf);
    assert_string_equal(buf, "(4)");
    rs_net_free(&net);
}

/* 4x4 mesh, node 5 = (1,1): +0 to 6 entering at slot 1 (its -0 port), -0 to 4 at slot 0,
 * +1 to 9 at slot 3, -1 to 1 at slot 2. Node 0 = (0,0) has no -0 or -1 channel, node 3 =
 * (3,0) no +0. On the 4x4 torus those wrap: 3 +0 -> 0 at slot 1, 0 -1 -> 12 at slot 2. */
static void test_ports_and_slots(void **state)
{
    struct rs_net net;
    uint32_t slot;
    rs_test_net(&net, "topology=mesh k=4 n=2");
    static const uint32_t head[4] = {6, 4, 9, 1}, in[4] = {1, 0, 3, 2};
    for (uint32_t port = 0; port < 4; port++) {
        assert_int_equal(net.ops->neighbor(&net, 5, port, &slot), head[port]);
        assert_int_equal(slot, in[port]);
    }
    assert_int_equal(net.ops->neighbor(&net, 0, 1, NULL), RS_NONE);
    assert_int_equal(net.ops->neighbor(&net, 0, 3, NULL), RS_NONE);
    assert_int_equal(net.ops->neighbor(&net, 3, 0, NULL), RS_NONE);
    assert_int_equal(net.ops->neighbor(&net, 12, 3, NULL), 8);
    assert_int_equal(net.ops->neighbor(&net, 15, 2, NULL), RS_NONE);
    rs_net_free(&net);
    rs_test_net(&net, "topology=torus k=4 n=2");
    assert_int_equal(net.ops->neighbor(&net, 3, 0, &slot), 0);
    assert_int_equal(slot, 1);
    assert_int_equal(net.ops->neighbor(&net, 0, 3, &slot), 12);
    assert_int_equal(slot, 2);
    rs_net_free(&net);
    /* k = 2: the + and - channels between nodes 0 and 1 are two channels, at two slots */
    rs_test_net(&net, "topology=ring k=2");
    assert_int_equal(net.n_channels, 4);
    assert_int_equal(net.ops->neighbor(&net, 0, 0, &slot), 1);
    assert_int_equal(slot, 1);
    assert_int_equal(net.ops->neighbor(&net, 0, 1, &slot), 1);
    assert_int_equal(slot, 0);
    assert_int_equal(net.ops->neighbor(&net, 1, 0, &slot), 0);
    assert_int_equal(slot, 1);
    rs_net_free(&net);
}

/* 4x4, (0,0) = 0 to (2,3) = 14.
 * Torus: dimension 0 distance 2 both ways (tie): + : 0 -> 1 (channel 0*4+0 = 0), 1 -> 2
 * (4); dimension 1 from 0 to 3: 3 up or 1 down: -1: 2 -> 14 (2*4+3 = 11).
 * Mesh: + twice in dimension 0 (0, 4), then + three times in dimension 1: 2 -> 6
 * (2*4+2 = 10), 6 -> 10 (26), 10 -> 14 (42). */
static void test_worked_routes_4x4(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=torus k=4 n=2");
    expect_route(&net, 0, 14, RS_NONE, (const uint64_t[]){0, 4, 11}, 3);
    /* tie from x = 2 to x = 0 also goes +, round the wrap: 2 -> 3 (8), 3 -> 0 (12) */
    expect_route(&net, 2, 0, RS_NONE, (const uint64_t[]){8, 12}, 2);
    /* x = 3 to x = 1: + is 2, - is 2: tie, +: 3 -> 0 (12), 0 -> 1 (0) */
    expect_route(&net, 3, 1, RS_NONE, (const uint64_t[]){12, 0}, 2);
    /* x = 0 to x = 3: - is 1: 0 -> 3 (1) */
    expect_route(&net, 0, 3, RS_NONE, (const uint64_t[]){1}, 1);
    expect_route(&net, 6, 6, RS_NONE, NULL, 0);
    rs_net_free(&net);
    rs_test_net(&net, "topology=mesh k=4 n=2");
    expect_route(&net, 0, 14, RS_NONE, (const uint64_t[]){0, 4, 10, 26, 42}, 5);
    /* 15 -> 0: - three times in dimension 0 (15*4+1 = 61, 57, 53), then in dimension 1
     * (12*4+3 = 51, 35, 19) */
    expect_route(&net, 15, 0, RS_NONE, (const uint64_t[]){61, 57, 53, 51, 35, 19}, 6);
    rs_net_free(&net);
}

/* One dimension, channel id = 2*node + port. */
static void test_ring_and_chain(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=ring k=6");
    /* 0 -> 3: 3 either way, tie: + : 0, 2, 4 */
    expect_route(&net, 0, 3, RS_NONE, (const uint64_t[]){0, 2, 4}, 3);
    /* 0 -> 4: + is 4, - is 2: 0 -> 5 (1), 5 -> 4 (11) */
    expect_route(&net, 0, 4, RS_NONE, (const uint64_t[]){1, 11}, 2);
    /* 5 -> 1: + is 2 round the wrap: 5 -> 0 (10), 0 -> 1 (0) */
    expect_route(&net, 5, 1, RS_NONE, (const uint64_t[]){10, 0}, 2);
    rs_net_free(&net);
    rs_test_net(&net, "topology=ring k=7");
    /* 0 -> 4: + is 4, - is 3 (no tie when k is odd): 0 -> 6 (1), 6 -> 5 (13), 5 -> 4 (11) */
    expect_route(&net, 0, 4, RS_NONE, (const uint64_t[]){1, 13, 11}, 3);
    /* 0 -> 3: + is 3: 0, 2, 4 */
    expect_route(&net, 0, 3, RS_NONE, (const uint64_t[]){0, 2, 4}, 3);
    rs_net_free(&net);
    rs_test_net(&net, "topology=chain k=5");
    /* 4 -> 0: no wrap on a chain, 4 hops -: 9, 7, 5, 3 */
    expect_route(&net, 4, 0, RS_NONE, (const uint64_t[]){9, 7, 5, 3}, 4);
    assert_int_equal(net.ops->neighbor(&net, 4, 0, NULL), RS_NONE);
    assert_int_equal(net.ops->neighbor(&net, 0, 1, NULL), RS_NONE);
    rs_net_free(&net);
}

/* Valiant: phase A (dimension order to mid) then phase B (to dst); the switch happens when
 * hops reaches the DOR distance src -> mid. */
static void test_valiant_phases(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=mesh k=4 n=2");
    /* 0 -> mid 15 -> 0: A: +0 x3 (0, 4, 8), +1 x3 (3*4+2 = 14, 30, 46); B: -0 x3 (61, 57,
     * 53), -1 x3 (51, 35, 19) */
    expect_route(&net, 0, 0, 15,
                 (const uint64_t[]){0, 4, 8, 14, 30, 46, 61, 57, 53, 51, 35, 19}, 12);
    /* mid = src: phase A is empty: 0 -> 5 directly (0, 1*4+2 = 6) */
    expect_route(&net, 0, 5, 0, (const uint64_t[]){0, 6}, 2);
    /* mid = dst: phase B is empty */
    expect_route(&net, 0, 5, 5, (const uint64_t[]){0, 6}, 2);
    /* the port at a node depends on the phase: at node 15 after 6 hops head for dst 0 */
    struct rs_route_state st = {0, 0, 15, 6, 0};
    assert_int_equal(rs_route_port(&net, NULL, 15, &st), 1); /* -0 */
    st.hops = 12;
    assert_int_equal(rs_route_port(&net, NULL, 0, &st), RS_ROUTE_DONE);
    rs_net_free(&net);
    rs_test_net(&net, "topology=ring k=6");
    /* 0 -> mid 3 -> 0: both legs are ties, both go +: once round the ring */
    expect_route(&net, 0, 0, 3, (const uint64_t[]){0, 2, 4, 6, 8, 10}, 6);
    rs_net_free(&net);
    rs_test_net(&net, "topology=torus k=4 n=2");
    /* 0 -> mid 10 = (2,2) -> 0: ties everywhere: +0 +0 +1 +1 then +0 +0 +1 +1 round:
     * 0 -> 1 (0) -> 2 (4) -> 6 (10) -> 10 (26) -> 11 (40) -> 8 (44) -> 12 (34) -> 0 (50) */
    expect_route(&net, 0, 0, 10, (const uint64_t[]){0, 4, 10, 26, 40, 44, 34, 50}, 8);
    rs_net_free(&net);
}

/* The hypercube is the binary n-cube: every node v has one neighbour per dimension i, v ^ 2^i,
 * over port 2i (+i, bit i of v is 0) or 2i+1 (-i, bit i is 1) and no other; e-cube routes
 * flip the differing bits from the lowest up (channel id = node * 2n + port). */
static void test_hypercube(void **state)
{
    struct rs_net net;
    char buf[64];
    rs_test_net(&net, "topology=hypercube n=5");
    assert_int_equal(net.n_nodes, 32);
    assert_int_equal(net.n_terminals, 32);
    assert_int_equal(net.max_ports, 10);
    assert_int_equal(net.n_channels, 5 * 32);
    assert_int_equal(net.shape_k, 2);
    assert_int_equal(net.shape_n, 5);
    for (uint32_t v = 0; v < 32; v++)
        for (uint32_t i = 0; i < 5; i++) {
            uint32_t slot, up = net.ops->neighbor(&net, v, 2 * i, &slot),
                           down = net.ops->neighbor(&net, v, 2 * i + 1, &slot);
            if (v >> i & 1) {
                assert_int_equal(up, RS_NONE);
                assert_int_equal(down, v ^ (1u << i));
            } else {
                assert_int_equal(up, v ^ (1u << i));
                assert_int_equal(down, RS_NONE);
            }
        }
    net.ops->label(&net, 22, buf, sizeof buf); /* 22 = 0b10110: coordinates bit 0 first */
    assert_string_equal(buf, "(0,1,1,0,1)");
    /* 22 -> 13 (0b01101): bits 0, 1, 3, 4 differ: +0 to 23, -1 to 21, +3 to 29, -4 to 13 */
    const uint64_t want[] = {22 * 10 + 0, 23 * 10 + 3, 21 * 10 + 6, 29 * 10 + 9};
    expect_route(&net, 22, 13, RS_NONE, want, 4);
    rs_net_free(&net);
    rs_test_net(&net, "topology=hypercube n=1");
    assert_int_equal(net.n_nodes, 2);
    assert_int_equal(net.n_channels, 2);
    rs_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering_and_labels),
        cmocka_unit_test(test_ports_and_slots),
        cmocka_unit_test(test_worked_routes_4x4),
        cmocka_unit_test(test_ring_and_chain),
        cmocka_unit_test(test_valiant_phases),
        cmocka_unit_test(test_hypercube),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
