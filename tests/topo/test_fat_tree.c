/* topology=pruned_butterfly and topology=fat_tree as networks: Figure 1's marked path as a
 * route (leaf 10 to leaf 2 climbs through root 2), every network channel on the wire the
 * arithmetic names, wires per fat-tree channel equal to the capacity, the capacity rules of
 * fat_tree, and the build errors. */
#include "rs_test.h"

#include "routesim/pruned_butterfly.h"
#include "routesim/route.h"

/* Leaf 10 -> leaf 2 on N = 16 has its peak at the root; the route picks root 10 mod 4 = 2,
 * so it climbs exactly the path Figure 1 marks and descends the unique way to leaf 2. */
static void test_figure1_route(void **state)
{
    (void)state;
    static const char *const want[] = {"<4,10,0>", "<3,5,0>", "<2,2,0>", "<1,1,2>", "<0,0,2>",
                                       "<1,0,2>",  "<2,0,0>", "<3,1,0>", "<4,2,0>"};
    struct rs_net net;
    rs_test_net(&net, "topology=pruned_butterfly N=16");
    assert_non_null(rs__pb_of(&net));
    assert_ptr_equal(rs__ftree_of(&net), net.priv);
    struct rs_route_state st = {10, 2, RS_NONE, 0, 0};
    uint64_t ch[16];
    uint32_t end;
    assert_int_equal(rs_route_expand(&net, &st, ch, 16, 16, &end), 8);
    assert_int_equal(net.ops->path_length(&net, &st), 8);
    char label[32];
    for (int h = 0; h < 8; h++) {
        net.ops->label(&net, (uint32_t)(ch[h] / net.max_ports), label, sizeof label);
        assert_string_equal(label, want[h]);
    }
    net.ops->label(&net, end, label, sizeof label);
    assert_string_equal(label, want[8]);
    rs_net_free(&net);
}

/* Every channel (v, port) of the pruned butterfly for N = 4 .. 256 lies on the wire of the
 * fat-tree channel that rs__pb_channel_of names, joins the vertices that wire joins, and
 * each (channel, wire, direction) is used once: a channel of level i has cap(i) wires. */
static void test_wires_per_channel(void **state)
{
    (void)state;
    for (uint32_t N = 4; N <= 256; N *= 4) {
        char kv[64];
        struct rs_net net;
        snprintf(kv, sizeof kv, "topology=pruned_butterfly N=%u", N);
        rs_test_net(&net, kv);
        const struct rs__pb *pb = rs__pb_of(&net);
        uint32_t n = pb->ft.n, *count = calloc(2 * 2 * N, sizeof *count);
        assert_non_null(count);
        for (uint32_t v = 0; v < net.n_nodes; v++)
            for (uint32_t port = 0; port < net.max_ports; port++) {
                uint32_t chan, wire, slot, i, j, k, i2, j2, k2;
                int up;
                uint32_t w = net.ops->neighbor(&net, v, port, &slot);
                int rc = rs__pb_channel_of(pb, v, port, &chan, &wire, &up);
                assert_int_equal(rc == 0, w != RS_NONE);
                if (w == RS_NONE)
                    continue;
                rs__pb_decode(pb, v, &i, &j, &k);
                rs__pb_decode(pb, w, &i2, &j2, &k2);
                uint32_t li = rs__ft_level(chan), lj = rs__ft_index(chan);
                /* the wire joins <li, lj, wire mod W(li)> and <li-1, lj/2, wire> */
                uint32_t lo = rs__pb_vertex(pb, li, lj, wire % rs__pb_width(n, li));
                uint32_t hi = rs__pb_vertex(pb, li - 1, lj / 2, wire);
                assert_true(up ? (v == lo && w == hi) : (v == hi && w == lo));
                assert_true(wire < pb->ft.cap[li]);
                count[2 * chan + (uint32_t)up]++;
            }
        for (uint32_t c = 2; c < 2 * N; c++)
            for (int up = 0; up < 2; up++)
                assert_int_equal(count[2 * c + (uint32_t)up], pb->ft.cap[rs__ft_level(c)]);
        free(count);
        rs_net_free(&net);
    }
}

/* capacity rules on N = 16 (heights 1..4 = levels 4..1): area_universal 2,2,4,4 (the
 * pruned butterfly's), full 1,2,4,8, constant cap=3, list 1,3,2,5; N = 8 area_universal
 * 2,2,4 (2^ceil(h/2)). */
static void test_capacity_rules(void **state)
{
    (void)state;
    static const struct {
        const char *kv;
        uint32_t n, by_height[4];
    } c[] = {{"topology=fat_tree N=16", 4, {2, 2, 4, 4}},
             {"topology=fat_tree N=16 capacity=full", 4, {1, 2, 4, 8}},
             {"topology=fat_tree N=16 capacity=constant cap=3", 4, {3, 3, 3, 3}},
             {"topology=fat_tree N=16 capacity=list caps=1/3/2/5", 4, {1, 3, 2, 5}},
             {"topology=fat_tree N=8", 3, {2, 2, 4, 0}},
             {"topology=pruned_butterfly N=16", 4, {2, 2, 4, 4}}};
    for (size_t x = 0; x < sizeof c / sizeof c[0]; x++) {
        struct rs_net net;
        rs_test_net(&net, c[x].kv);
        const struct rs__ftree *ft = rs__ftree_of(&net);
        assert_non_null(ft);
        assert_int_equal(ft->n, c[x].n);
        for (uint32_t h = 1; h <= c[x].n; h++)
            assert_int_equal(ft->cap[c[x].n - h + 1], c[x].by_height[h - 1]);
        rs_net_free(&net);
    }
    struct rs_net net;
    rs_test_net(&net, "topology=butterfly N=16");
    assert_null(rs__ftree_of(&net));
    assert_null(rs__pb_of(&net));
    rs_net_free(&net);
    rs_test_net(&net, "topology=fat_tree N=16");
    assert_null(rs__pb_of(&net));
    rs_net_free(&net);
}

/* A fat_tree route takes wire `source mod cap` up and `target mod cap` down:
 * N = 8 area_universal, 5 -> 2 (peak 0): up from (3,5), (2,2), (1,1) on wire 1 each; down
 * from (0,0) on wire 2 mod 4 = 2, from (1,0) on 2 mod 2 = 0, from (2,1) on 0 to leaf (3,2). */
static void test_fat_tree_route(void **state)
{
    (void)state;
    struct rs_net net;
    rs_test_net(&net, "topology=fat_tree N=8");
    struct rs_route_state st = {5, 2, RS_NONE, 0, 0};
    uint64_t ch[8];
    uint32_t end;
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 8, &end), 6);
    /* node ids 2^i - 1 + j; ports: down c cap(i+1) + w, up 2 cap(i+1) + w */
    static const uint32_t node[6] = {7 + 5, 3 + 2, 1 + 1, 0, 1 + 0, 3 + 1};
    static const uint32_t port[6] = {0 + 1, 2 * 2 + 1, 2 * 2 + 1, 0 * 4 + 2, 1 * 2 + 0, 0 * 2 + 0};
    for (int h = 0; h < 6; h++) {
        assert_int_equal(ch[h] / net.max_ports, node[h]);
        assert_int_equal(ch[h] % net.max_ports, port[h]);
    }
    assert_int_equal(end, 7 + 2);
    rs_net_free(&net);
}

static void expect_error(const char *kv, int code, const char *msg)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    rs_test_params(&p, kv);
    int rc = rs_net_build(&net, &p, &err);
    if (rc != code || !strstr(err.msg, msg)) {
        print_error("%s: got %d '%s', want %d '%s'\n", kv, rc, err.msg, code, msg);
        fail();
    }
    assert_null(net.priv);
    rs_params_free(&p);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("topology=pruned_butterfly N=32", RS_ECONSTRAINT,
                 "topology=pruned_butterfly needs N a power of 4 (000 §3.1; got N=32)");
    expect_error("topology=pruned_butterfly N=24", RS_ECONSTRAINT, "power of two");
    expect_error("topology=pruned_butterfly N=2", RS_ECONSTRAINT, "key 'N'");
    expect_error("topology=fat_tree N=16 capacity=list caps=1,2,3", RS_EINVAL,
                 "topology=fat_tree: key 'caps': expected 4 integers 1..67108864 (one per "
                 "height, leaves' channels first, 2,2,4 or 2/2/4), got '1,2,3'");
    expect_error("topology=fat_tree N=4 capacity=list caps=1,2,3", RS_EINVAL, "expected 2 integers");
    expect_error("topology=fat_tree N=4 capacity=list caps=1,0", RS_EINVAL, "got '1,0'");
    expect_error("topology=fat_tree N=4 capacity=list caps=1,x", RS_EINVAL, "got '1,x'");
    expect_error("topology=fat_tree N=4 capacity=constant cap=0", RS_ECONSTRAINT, "key 'cap'");
    expect_error("topology=fat_tree capacity=thin", RS_EUNKNOWN,
                 "unknown value 'thin' for key 'capacity'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure1_route),    cmocka_unit_test(test_wires_per_channel),
        cmocka_unit_test(test_capacity_rules),   cmocka_unit_test(test_fat_tree_route),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
