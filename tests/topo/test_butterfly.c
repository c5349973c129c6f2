/* The butterfly of 004 §1.1: unique input-to-output paths, the bit-fixing path through
 * <l, d_0..d_{l-1} a_l..a_{n-1}>, hand-checked 8-input routes and labels, the wrapped
 * butterfly (level n identified with level 0) and Valiant's two passes on it (004 §2.2). */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/route.h"


static void build_n(struct rs_net *net, uint32_t N, int wrap)
{
    char kv[64];
    snprintf(kv, sizeof kv, "topology=butterfly N=%u wrap=%d", N, wrap);
    rs_test_net(net, kv);
}

/* Number of paths from input a to every node, by dynamic programming over the levels
 * (channels only go from level l to l+1): exactly one to every output, N = 2..64. */
static void test_unique_paths(void **state)
{
    for (uint32_t N = 2; N <= 64; N *= 2) {
        struct rs_net net;
        build_n(&net, N, 0);
        uint64_t *paths = calloc(net.n_nodes, sizeof *paths);
        assert_non_null(paths);
        for (uint32_t a = 0; a < N; a++) {
            memset(paths, 0, net.n_nodes * sizeof *paths);
            paths[net.ops->src_node(&net, a)] = 1;
            for (uint32_t v = 0; v < net.n_nodes; v++) /* ids increase with the level */
                for (uint32_t port = 0; port < 2; port++) {
                    uint32_t w = net.ops->neighbor(&net, v, port, NULL);
                    if (w != RS_NONE)
                        paths[w] += paths[v];
                }
            for (uint32_t d = 0; d < N; d++)
                assert_int_equal(paths[net.ops->dst_node(&net, d)], 1);
        }
        free(paths);
        rs_net_free(&net);
    }
}

/* 004 §1.1: a packet from <0, a> to <n, d> passes through <l, d_0..d_{l-1} a_l..a_{n-1}>,
 * i.e. row (d mod 2^l) | (a with its low l bits cleared), at every level l. */
static void test_bit_fixing_path(void **state)
{
    for (uint32_t N = 2; N <= 64; N *= 2) {
        struct rs_net net;
        build_n(&net, N, 0);
        uint32_t n = net.log2n;
        uint64_t chans[8];
        for (uint32_t a = 0; a < N; a++)
            for (uint32_t d = 0; d < N; d++) {
                struct rs_route_state st = {a, d, RS_NONE, 0, 0};
                uint32_t end;
                assert_int_equal(rs_route_expand(&net, &st, chans, 8, 64, &end), n);
                for (uint32_t l = 0; l < n; l++) {
                    uint32_t low = (1u << l) - 1, row = (d & low) | (a & ~low);
                    assert_int_equal(chans[l] / 2, l * N + row);
                    /* straight when d_l = a_l, cross otherwise */
                    assert_int_equal(chans[l] % 2, ((a ^ d) >> l) & 1);
                }
                assert_int_equal(end, n * N + d);
            }
        rs_net_free(&net);
    }
}

/* N = 8 by hand. Node <l, c0c1c2> has id 8l + row, row = c0 + 2c1 + 4c2; channel (v, port)
 * has id 2v + port.
 *   a = 5 = <0,101> to d = 3 (110):
 *     l=0: bit0 of 5^3=6 is 0: straight to <1,101> = 13, channel 2*5+0  = 10
 *     l=1: bit1 of 6 is 1: cross to row 5^2=7: <2,111> = 23, channel 2*13+1 = 27
 *     l=2: bit2 of 7^3=4 is 1: cross to row 3: <3,110> = 27, channel 2*23+1 = 47
 *   a = 0 = <0,000> to d = 7 (111): cross, cross, cross: 9, 19, 31; channels 1, 19, 39
 *   a = 6 = <0,011> to d = 6: straight three times: 14, 22, 30; channels 12, 28, 44 */
static void test_eight_input_examples(void **state)
{
    static const struct {
        uint32_t a, d;
        uint64_t chans[3];
        uint32_t end;
    } ex[] = {{5, 3, {10, 27, 47}, 27}, {0, 7, {1, 19, 39}, 31}, {6, 6, {12, 28, 44}, 30}};
    struct rs_net net;
    build_n(&net, 8, 0);
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        struct rs_route_state st = {ex[i].a, ex[i].d, RS_NONE, 0, 0};
        uint64_t chans[3];
        uint32_t end;
        assert_int_equal(rs_route_expand(&net, &st, chans, 3, 3, &end), 3);
        assert_memory_equal(chans, ex[i].chans, sizeof chans);
        assert_int_equal(end, ex[i].end);
    }
    /* labels, c_0 first */
    static const struct {
        uint32_t node;
        const char *label;
    } lab[] = {{0, "<0,000>"}, {5, "<0,101>"}, {10, "<1,010>"}, {13, "<1,101>"},
               {23, "<2,111>"}, {27, "<3,110>"}, {25, "<3,100>"}};
    for (size_t i = 0; i < sizeof lab / sizeof lab[0]; i++) {
        char buf[32];
        net.ops->label(&net, lab[i].node, buf, sizeof buf);
        assert_string_equal(buf, lab[i].label);
    }
    /* edges of <1,010> = 10: straight to <2,010> = 18 at in-slot 0, cross (bit c_1) to
     * <2,000> = 16 at in-slot 1; outputs (level 3) have none */
    uint32_t slot;
    assert_int_equal(net.ops->neighbor(&net, 10, 0, &slot), 18);
    assert_int_equal(slot, 0);
    assert_int_equal(net.ops->neighbor(&net, 10, 1, &slot), 16);
    assert_int_equal(slot, 1);
    assert_int_equal(net.ops->neighbor(&net, 27, 0, NULL), RS_NONE);
    assert_int_equal(net.ops->neighbor(&net, 27, 1, NULL), RS_NONE);
    assert_int_equal(net.ops->route(&net, 27, &(struct rs_route_state){5, 3, RS_NONE, 3, 0}),
                     RS_ROUTE_DONE);
    assert_int_equal(net.ops->level(&net, 23), 2);
    assert_int_equal(net.ops->src_node(&net, 5), 5);
    assert_int_equal(net.ops->dst_node(&net, 5), 29);
    rs_net_free(&net);
}

/* wrap=1, N = 8: levels 0..2 (24 nodes); the edges out of level 2 go to level 0:
 * <2,101> = 21: straight to <0,101> = 5, cross (bit c_2) to <0,100> = 1. */
static void test_wrap_identification(void **state)
{
    struct rs_net net;
    build_n(&net, 8, 1);
    assert_int_equal(net.n_nodes, 24);
    assert_int_equal(net.n_levels, 3);
    assert_int_equal(net.n_channels, 48);
    uint32_t slot;
    assert_int_equal(net.ops->neighbor(&net, 21, 0, &slot), 5);
    assert_int_equal(slot, 0);
    assert_int_equal(net.ops->neighbor(&net, 21, 1, &slot), 1);
    assert_int_equal(slot, 1);
    for (uint32_t t = 0; t < 8; t++) {
        assert_int_equal(net.ops->src_node(&net, t), t);
        assert_int_equal(net.ops->dst_node(&net, t), t);
    }
    /* direct routes: n hops, input row a back to level 0 at row d, the same rows as the
     * unwrapped butterfly (5 -> 3: 13, 23, then <0,110> = 3) */
    uint64_t chans[3];
    uint32_t end;
    struct rs_route_state st = {5, 3, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, chans, 3, 3, &end), 3);
    assert_int_equal(chans[0], 10);
    assert_int_equal(chans[1], 27);
    assert_int_equal(chans[2], 47);
    assert_int_equal(end, 3);
    /* a packet already at its destination node still goes round once: the route counts
     * hops, not positions (a -> a is n straight edges) */
    st = (struct rs_route_state){4, 4, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, chans, 3, 3, &end), 3);
    assert_int_equal(chans[0], 8);  /* 2*4 + 0 */
    assert_int_equal(chans[1], 24); /* 2*12 + 0 */
    assert_int_equal(chans[2], 40); /* 2*20 + 0 */
    assert_int_equal(end, 4);
    rs_net_free(&net);
}

/* Valiant on the wrapped butterfly: 2n hops; after n hops the packet is at row mid of
 * level 0 (= terminal mid, where 004 §2.2 queues it between the phases), having taken the
 * direct route src -> mid, and then the direct route mid -> dst. */
static void test_valiant_on_wrap(void **state)
{
    for (uint32_t N = 2; N <= 16; N *= 2) {
        struct rs_net net;
        struct rs_err err;
        build_n(&net, N, 1);
        uint32_t n = net.log2n;
        assert_int_equal(net.ops->valiant_ok(&net, &err), 0);
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t m = 0; m < N; m++)
                for (uint32_t d = 0; d < N; d++) {
                    uint64_t chans[16], a[8], b[8];
                    uint32_t end, mid_end;
                    struct rs_route_state st = {s, d, m, 0, 0};
                    assert_int_equal(rs_route_expand(&net, &st, chans, 16, 64, &end), 2 * n);
                    assert_int_equal(end, d);
                    st = (struct rs_route_state){s, m, RS_NONE, 0, 0};
                    assert_int_equal(rs_route_expand(&net, &st, a, 8, 64, &mid_end), n);
                    assert_int_equal(mid_end, m);
                    st = (struct rs_route_state){m, d, RS_NONE, 0, 0};
                    assert_int_equal(rs_route_expand(&net, &st, b, 8, 64, NULL), n);
                    assert_memory_equal(chans, a, n * sizeof *a);
                    assert_memory_equal(chans + n, b, n * sizeof *b);
                    /* the channel of hop n leaves node mid (level 0, row m) */
                    assert_int_equal(chans[n] / 2, m);
                }
        rs_net_free(&net);
    }
    /* worked N = 8: 5 -> mid 0 -> 3: 5 cross 12 (bit0) straight 20 cross <0,000> = 0
     * [channels 11, 24, 41]; then 0 cross 9 cross 19 straight <0,110> = 3 [1, 19, 38] */
    struct rs_net net;
    build_n(&net, 8, 1);
    uint64_t chans[6], want[6] = {11, 24, 41, 1, 19, 38};
    struct rs_route_state st = {5, 3, 0, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, chans, 6, 6, NULL), 6);
    assert_memory_equal(chans, want, sizeof chans);
    rs_net_free(&net);
}

static void test_valiant_needs_wrap(void **state)
{
    struct rs_net net;
    struct rs_err err;
    build_n(&net, 8, 0);
    assert_int_equal(net.ops->valiant_ok(&net, &err), RS_EUNSUPPORTED);
    assert_string_equal(err.msg,
                        "routing=valiant on a butterfly needs wrap=1 (004 §2.2) or topology=benes");
    rs_net_free(&net);
}

static void test_shape(void **state)
{
    struct rs_net net;
    build_n(&net, 64, 0);
    assert_int_equal(net.shape_k, 2);
    assert_int_equal(net.shape_n, 6);
    assert_int_equal(net.N, 64);
    assert_int_equal(net.log2n, 6);
    assert_int_equal(net.n_levels, 7);
    assert_int_equal(net.n_nodes, 7 * 64);
    char buf[32];
    net.ops->label(&net, 6 * 64 + 1, buf, sizeof buf); /* row 1 = c_0 set */
    assert_string_equal(buf, "<6,100000>");
    rs_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unique_paths),
        cmocka_unit_test(test_bit_fixing_path),
        cmocka_unit_test(test_eight_input_examples),
        cmocka_unit_test(test_wrap_identification),
        cmocka_unit_test(test_valiant_on_wrap),
        cmocka_unit_test(test_valiant_needs_wrap),
        cmocka_unit_test(test_shape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
