/* The Beneš network (two back-to-back butterflies sharing level n, 004 §5): which bit each
 * level's cross edge flips, N paths per input/output pair, hand-checked direct and Valiant
 * routes on 8 inputs, the middle row each route passes, and Ranade's first stage (a
 * hand-worked example, every block setting for N <= 8, channel loads at N = 2^10). */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/rng.h"
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

/* Ranade's first stage on N = 8, seed 1. The coins (RS_STREAM_RANADE, entity = the block's
 * row with the level's bit cleared, step = level; 1 = crossed) are
 *   level 0 (bit 0): {0,1} 0, {2,3} 1, {4,5} 0, {6,7} 1
 *   level 1 (bit 1): {0,2} 0, {1,3} 0, {4,6} 1, {5,7} 1
 *   level 2 (bit 2): {0,4} 0, {1,5} 0, {2,6} 1, {3,7} 1
 * Rows of sources 0..7 after level 0: 0 1 3 2 4 5 7 6; after level 1 (rows 4..7 cross):
 * 0 1 3 2 6 7 5 4; after level 2 (rows 2,3,6,7 cross): 0 1 7 6 2 3 5 4 -- the
 * intermediates, a permutation. Source 2's first half: <0,2> cross <1,3> straight <2,3>
 * cross <3,7>: channels 2*2+1 = 5, 2*11+0 = 22, 2*19+1 = 39. */
static void test_ranade_worked(void **state)
{
    static const uint32_t coin[3][8] = {{0, 0, 1, 1, 0, 0, 1, 1},
                                        {0, 0, 0, 0, 1, 1, 1, 1},
                                        {0, 0, 1, 1, 0, 0, 1, 1}};
    static const uint32_t want[8] = {0, 1, 7, 6, 2, 3, 5, 4};
    struct rs_net net;
    build_n(&net, 8);
    for (uint32_t l = 0; l < 3; l++)
        for (uint32_t row = 0; row < 8; row++)
            if (!(row >> l & 1)) /* the coin of the block {row, row ^ 2^l} */
                assert_int_equal(rs_rand_below(1, RS_STREAM_RANADE, row, l, 2), coin[l][row]);
    for (uint32_t t = 0; t < 8; t++) {
        assert_int_equal(net.ops->ranade_mid(&net, 1, t), want[t]);
        assert_int_equal(rs_route_mid_for(&net, RS_ROUTING_RANADE, 1, t, t, 0), want[t]);
    }
    struct rs_route_state st = {2, 0, want[2], 0, 2};
    uint64_t chans[6];
    assert_int_equal(rs_route_expand(&net, &st, chans, 6, 6, NULL), 6);
    assert_int_equal(chans[0], 5);
    assert_int_equal(chans[1], 22);
    assert_int_equal(chans[2], 39);
    rs_net_free(&net);
}

/* Every setting of the n*N/2 blocks, for N = 2, 4, 8 (2, 16 and 4096 settings): seeds are
 * tried until all distinct intermediate vectors have been seen (distinct settings give
 * distinct vectors: every block is crossed by two sources, whose paths determine it), and
 * each one is a permutation whose first-half paths use every first-half channel at most
 * once. Over all settings every source reaches every middle row equally often
 * (2^(nN/2) / N times): the intermediate of one source is uniform, and the sources of one
 * level-0 block always reach rows that differ in bit 0 (random, but not independent). */
static void test_ranade_every_setting(void **state)
{
    for (uint32_t N = 2; N <= 8; N *= 2) {
        struct rs_net net;
        build_n(&net, N);
        uint32_t n = net.log2n, bits = n * N; /* n bits per intermediate, N of them */
        uint64_t settings = 1ull << (n * N / 2), distinct = 0;
        uint8_t *seen = calloc((1ull << bits) / 8 + 1, 1);
        uint64_t *hits = calloc((size_t)N * N, sizeof *hits);
        uint8_t *load = calloc((size_t)net.n_nodes * 2, 1);
        assert_non_null(seen);
        assert_non_null(hits);
        assert_non_null(load);
        for (uint64_t seed = 1; distinct < settings && seed < 2000000; seed++) {
            uint32_t mid[8], used = 0;
            uint64_t key = 0;
            memset(load, 0, (size_t)net.n_nodes * 2);
            for (uint32_t t = 0; t < N; t++) {
                mid[t] = net.ops->ranade_mid(&net, seed, t);
                assert_true(mid[t] < N);
                assert_false(used >> mid[t] & 1);
                used |= 1u << mid[t];
                key |= (uint64_t)mid[t] << (n * t);
                uint64_t chans[6];
                struct rs_route_state st = {t, t, mid[t], 0, t};
                assert_int_equal(rs_route_expand(&net, &st, chans, 6, 6, NULL), 2 * n);
                for (uint32_t h = 0; h < n; h++)
                    assert_int_equal(load[chans[h]]++, 0);
            }
            for (uint32_t t = 0; t < N; t += 2)
                assert_int_equal((mid[t] ^ mid[t + 1]) & 1, 1);
            if (!(seen[key / 8] >> (key % 8) & 1)) {
                seen[key / 8] |= (uint8_t)(1u << (key % 8));
                distinct++;
                for (uint32_t t = 0; t < N; t++)
                    hits[t * N + mid[t]]++;
            }
        }
        assert_int_equal(distinct, settings);
        for (uint32_t i = 0; i < N * N; i++)
            assert_int_equal(hits[i], settings / N);
        free(seen);
        free(hits);
        free(load);
        rs_net_free(&net);
    }
}

/* N = 2^10, ten seeds, per the static analysis (the engines use the same intermediates):
 * with one message per input, every first-half channel a route uses carries exactly one
 * (levels 0..9: at most 1 per channel and 1024 crossings), for a permutation (bitrev) and
 * for random destinations alike, since the first stage depends on the sources only; with
 * per_input = 2 both messages of a source share its path: exactly 2. */
static void test_ranade_first_half_loads(void **state)
{
    static const char *const work[] = {"traffic=bitrev", "traffic=uniform",
                                       "traffic=randperm per_input=2"};
    for (int w = 0; w < 3; w++)
        for (int seed = 1; seed <= 10; seed++) {
            char kv[160], msg[256], name[32];
            struct rs_record r;
            uint32_t q = w == 2 ? 2 : 1;
            snprintf(kv, sizeof kv, "topology=benes N=1024 routing=ranade %s seed=%d", work[w],
                     seed);
            assert_int_equal(rs_test_try(kv, 0, &r, msg, sizeof msg), 0);
            for (int l = 0; l < 10; l++) {
                snprintf(name, sizeof name, "level%d_max", l);
                assert_int_equal(rs_test_int(&r, name), q);
                snprintf(name, sizeof name, "level%d_msgs", l);
                assert_int_equal(rs_test_int(&r, name), 1024 * q);
            }
            rs_record_free(&r);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cross_bits),
        cmocka_unit_test(test_n_paths_per_pair),
        cmocka_unit_test(test_worked_routes),
        cmocka_unit_test(test_middle_row),
        cmocka_unit_test(test_ranade_worked),
        cmocka_unit_test(test_ranade_every_setting),
        cmocka_unit_test(test_ranade_first_half_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
