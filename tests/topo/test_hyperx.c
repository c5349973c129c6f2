/* topology=hyperx and topology=flattened_butterfly: counts of a 4x4 HyperX, a 3-D HyperX
 * and two k-ary n-flats; a dimension-order route worked by hand on the 4x4 HyperX; every
 * channel's in-slot leads back to where it came from; hops equal to the number of differing
 * coordinates for every pair; the engines on it (several terminals per router, Valiant) and
 * no deadlock under saturation for dimension order and Valiant in both router models. */
#include "engine/flit_fixture.h"

#include "routesim/net.h"
#include "routesim/route.h"

static void test_counts(void **state)
{
    (void)state;
    struct rs_net net;
    rs_test_net(&net, "topology=hyperx S=4,4");
    assert_int_equal(net.n_nodes, 16);      /* 4 x 4 routers */
    assert_int_equal(net.max_ports, 6);     /* 3 + 3 neighbours */
    assert_int_equal(net.n_channels, 96);   /* 16 x 6 */
    assert_int_equal(net.n_terminals, 16);  /* T = 1 */
    assert_int_equal(net.shape_k, 4);       /* terminal = router coordinates */
    assert_int_equal(net.shape_n, 2);
    rs_net_free(&net);
    rs_test_net(&net, "topology=hyperx S=2,3,4 T=3");
    assert_int_equal(net.n_nodes, 24);
    assert_int_equal(net.max_ports, 1 + 2 + 3);
    assert_int_equal(net.n_channels, 24 * 6);
    assert_int_equal(net.n_terminals, 72);
    assert_int_equal(net.shape_n, 0); /* unequal sizes: no digit traffic */
    rs_net_free(&net);
    /* the 4-ary 3-flat: 2 dimensions of 4 routers, 4 terminals each */
    rs_test_net(&net, "topology=flattened_butterfly k=4 n=3");
    assert_int_equal(net.n_nodes, 16);
    assert_int_equal(net.n_terminals, 64);
    assert_int_equal(net.n_channels, 96);
    for (uint32_t t = 0; t < 64; t++) {
        assert_int_equal(net.ops->src_node(&net, t), t / 4);
        assert_int_equal(net.ops->dst_node(&net, t), t / 4);
    }
    rs_net_free(&net);
    /* the 2-ary 4-flat: a 3-cube of 8 routers, 2 terminals each */
    rs_test_net(&net, "topology=flattened_butterfly k=2 n=4");
    assert_int_equal(net.n_nodes, 8);
    assert_int_equal(net.max_ports, 3);
    assert_int_equal(net.n_channels, 24);
    assert_int_equal(net.n_terminals, 16);
    rs_net_free(&net);
}

/* By hand, 4x4 HyperX: terminal 1 = router (1,0) to terminal 14 = router (2,3). Dimension
 * 0 first: coordinate 1 -> 2 through port 0 + (2 - 1) = 1 (ports of dimension 0 are 0..2,
 * toward x_0 = 0, 2, 3 from x_0 = 1) to router 2 = (2,0); then dimension 1: 0 -> 3 through
 * port 3 + (3 - 1) = 5 to router 2 + 3 * 4 = 14. Channels are node * 6 + port. */
static void test_route_by_hand(void **state)
{
    (void)state;
    struct rs_net net;
    uint64_t ch[8];
    uint32_t end, slot;
    char buf[32];
    rs_test_net(&net, "topology=hyperx S=4,4");
    struct rs_route_state st = {1, 14, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 16, &end), 2);
    assert_int_equal(ch[0], 1 * 6 + 1);
    assert_int_equal(ch[1], 2 * 6 + 5);
    assert_int_equal(end, 14);
    assert_int_equal(net.ops->neighbor(&net, 1, 1, &slot), 2);
    assert_int_equal(slot, 1); /* at (2,0), port 1 goes back to x_0 = 1 */
    assert_int_equal(net.ops->neighbor(&net, 2, 5, &slot), 14);
    assert_int_equal(slot, 3); /* at (2,3), port 3 goes back to x_1 = 0 */
    net.ops->label(&net, 14, buf, sizeof buf);
    assert_string_equal(buf, "(2,3)");
    assert_int_equal(net.ops->neighbor(&net, 0, 6, NULL), RS_NONE);
    rs_net_free(&net);
}

/* Every channel's in-slot is the port that leads back; routes take exactly the number of
 * coordinates that differ, for every pair of terminals. */
static void test_wiring_and_lengths(void **state)
{
    (void)state;
    const char *const nets[] = {"topology=hyperx S=3,4,2 T=2", "topology=hyperx S=5",
                                "topology=flattened_butterfly k=3 n=3", NULL};
    for (int i = 0; nets[i]; i++) {
        struct rs_net net;
        rs_test_net(&net, nets[i]);
        uint64_t chans = 0;
        for (uint32_t v = 0; v < net.n_nodes; v++)
            for (uint32_t p = 0; p < net.max_ports; p++) {
                uint32_t slot, w = net.ops->neighbor(&net, v, p, &slot);
                assert_int_not_equal(w, RS_NONE);
                assert_int_not_equal(w, v);
                assert_int_equal(net.ops->neighbor(&net, w, slot, NULL), v);
                assert_int_equal(net.ops->distance(&net, v, w), 1);
                chans++;
            }
        assert_int_equal(chans, net.n_channels);
        uint64_t ch[16];
        uint32_t end;
        for (uint32_t s = 0; s < net.n_terminals; s++)
            for (uint32_t d = 0; d < net.n_terminals; d++) {
                struct rs_route_state st = {s, d, RS_NONE, 0, 0};
                uint32_t hops = rs_route_expand(&net, &st, ch, 16, 16, &end);
                assert_int_equal(end, net.ops->dst_node(&net, d));
                assert_int_equal(hops, net.ops->distance(&net, net.ops->src_node(&net, s), end));
            }
        rs_net_free(&net);
    }
}

static void test_no_deadlock_saturated(void **state)
{
    (void)state;
    const char *const runs[] = {
        "topology=hyperx S=3,3 T=2 switching=wormhole vcs=1 router=simple",
        "topology=hyperx S=3,3 T=2 switching=wormhole vcs=1 router=iq",
        "topology=hyperx S=3,3 T=2 routing=valiant switching=wormhole vcs=2 router=simple",
        "topology=hyperx S=3,3 T=2 routing=valiant switching=wormhole vcs=2 router=iq",
        "topology=flattened_butterfly k=2 n=4 switching=virtual_cut_through vcs=2 router=iq",
        NULL};
    rs_test_no_deadlock_saturated(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_route_by_hand),
        cmocka_unit_test(test_wiring_and_lengths),
        cmocka_unit_test(test_no_deadlock_saturated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
