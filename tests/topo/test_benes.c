/* The Beneš network (two back-to-back butterflies sharing level n, 004 §5): which bit each
 * level's cross edge flips, N paths per input/output pair, hand-checked direct and Valiant
 * routes on 8 inputs, and the middle row each route passes. */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/route.h"

static void build_n(struct rs_net *net, uint32_t N)
{
    struct rs_params p;
    struct rs_err err;
    char kv[64];
    snprintf(kv, sizeof kv, "topology=benes N=%u", N);
    rs_test_params(&p, kv);
    int rc = rs_net_build(net, &p, &err);
    rs_params_free(&p);
    if (rc) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
}

/* N = 8 (n = 3): the cross edge out of level l flips bit l for l < 3 and bit 5-l after:
 * bits 0, 1, 2, 2, 1, 0 for levels 0..5. */
static void test_cross_bits(void **state)
{
    static const uint32_t bit[6] = {0, 1, 2, 2, 1, 0};
    struct rs_net net;
    build_n(&net, 8);
    assert_int_equal(net.n_levels, 7);
    assert_int_equal(net.n_nodes, 56);
    assert_int_equal(net.n_channels, 96);
    for (uint32_t l = 0; l < 7; l++)
        for (uint32_t row = 0; row < 8; row++) {
            uint32_t v = 8 * l + row, slot;
            assert_int_equal(net.ops->level(&net, v), (int)l);
            if (l == 6) {
                assert_int_equal(net.ops->neighbor(&net, v, 0, NULL), RS_NONE);
                assert_int_equal(net.ops->neighbor(&net, v, 1, NULL), RS_NONE);
                continue;
            }
            assert_int_equal(net.ops->neighbor(&net, v, 0, &slot), 8 * (l + 1) + row);
            assert_int_equal(slot, 0);
            assert_int_equal(net.ops->neighbor(&net, v, 1, &slot),
                             8 * (l + 1) + (row ^ (1u << bit[l])));
            assert_int_equal(slot, 1);
        }
    for (uint32_t t = 0; t < 8; t++) {
        assert_int_equal(net.ops->src_node(&net, t), t);
        assert_int_equal(net.ops->dst_node(&net, t), 48 + t);
    }
    char buf[32];
    net.ops->label(&net, 8 * 4 + 6, buf, sizeof buf);
    assert_string_equal(buf, "<4,011>");
    rs_net_free(&net);
}

/* Paths from an input to an output by dynamic programming over levels: N of them (one per
 * row of the middle level, each reached by a unique butterfly path and left by one). */
static void test_n_paths_per_pair(void **state)
{
    for (uint32_t N = 2; N <= 64; N *= 2) {
        struct rs_net net;
        build_n(&net, N);
        uint64_t *paths = calloc(net.n_nodes, sizeof *paths);
        assert_non_null(paths);
        for (uint32_t a = 0; a < N; a++) {
            memset(paths, 0, net.n_nodes * sizeof *paths);
            paths[a] = 1;
            for (uint32_t v = 0; v < net.n_nodes; v++)
                for (uint32_t port = 0; port < 2; port++) {
                    uint32_t w = net.ops->neighbor(&net, v, port, NULL);
                    if (w != RS_NONE)
                        paths[w] += paths[v];
                }
            for (uint32_t d = 0; d < N; d++)
                assert_int_equal(paths[net.ops->dst_node(&net, d)], N);
        }
        free(paths);
        rs_net_free(&net);
    }
}

/* N = 8, channel id = 2*node + port, node = 8*level + row.
 * Direct 5 -> 3: straight through the first half (5, 13, 21, 29 = <3,101>), then fix bits
 * 2, 1, 0 toward 3: bit2 of 5^3=6 is 1: cross to row 1 (33); bit1 of 1^3=2 is 1: cross to
 * row 3 (43); bit0 of 0 is 0: straight to <6,110> = 51.
 * channels 10, 26, 42, 59, 67, 86.
 * Valiant 5 -> mid 2 -> 3: first half fixes bits 0, 1, 2 toward 2: 5^2=7: cross to row 4
 * (12), 4^2=6: cross to row 6 (22), 6^2=4: cross to row 2 (26 = <3,010>, the middle row
 * mid); then bit2 of 2^3=1 is 0: straight (34); bit1 0: straight (42); bit0 1: cross to
 * row 3 (51). channels 11, 25, 45, 52, 68, 85. */
static void test_worked_routes(void **state)
{
    struct rs_net net;
    build_n(&net, 8);
    uint64_t chans[6];
    uint32_t end;
    static const uint64_t direct[6] = {10, 26, 42, 59, 67, 86};
    static const uint64_t valiant[6] = {11, 25, 45, 52, 68, 85};
    struct rs_route_state st = {5, 3, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, chans, 6, 6, &end), 6);
    assert_memory_equal(chans, direct, sizeof chans);
    assert_int_equal(end, 51);
    st.mid = 2;
    assert_int_equal(rs_route_expand(&net, &st, chans, 6, 6, &end), 6);
    assert_memory_equal(chans, valiant, sizeof chans);
    assert_int_equal(end, 51);
    rs_net_free(&net);
}

/* Every route takes 2n hops; at level n it is at row src (direct) or row mid (Valiant);
 * it ends at dst_node(dst). Valiant is one pass, not via a terminal. */
static void test_middle_row(void **state)
{
    for (uint32_t N = 2; N <= 32; N *= 2) {
        struct rs_net net;
        struct rs_err err;
        build_n(&net, N);
        uint32_t n = net.log2n;
        assert_true(!net.ops->valiant_ok || net.ops->valiant_ok(&net, &err) == 0);
        assert_int_equal(net.ops->valiant_via_terminal, 0);
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t d = 0; d < N; d++)
                for (uint32_t m = 0; m <= N; m++) {
                    struct rs_route_state st = {s, d, m == N ? RS_NONE : m, 0, 0};
                    uint64_t chans[12];
                    uint32_t end;
                    assert_int_equal(rs_route_expand(&net, &st, chans, 12, 64, &end), 2 * n);
                    assert_int_equal(end, 2 * n * N + d);
                    /* channel of hop n leaves <n, middle row> */
                    assert_int_equal(chans[n] / 2, n * N + (m == N ? s : m));
                }
        rs_net_free(&net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cross_bits),
        cmocka_unit_test(test_n_paths_per_pair),
        cmocka_unit_test(test_worked_routes),
        cmocka_unit_test(test_middle_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
