/* Route_on_a_Chain (003 §2.1, the line simulator's FIFO discipline) against the flit
 * engine's switching=cut_through_partial on topology=chain and ring: every message's
 * delivery step on every permutation of chains n <= 6 (k = 1..4) and on random
 * many-to-one chains and rings (docs/ms-chain.md, "The flit engine and Route_on_a_Chain"). */
#include "rs_test.h"

#include "engine/flit_fixture.h"
#include "routesim/ms_line.h"
#include "routesim/rng.h"

/* Engine finish steps of the messages pairs[0..m) on net_kv with length k and vc_depth
 * depth, into fin. */
static void engine_finish(const char *net_kv, const uint32_t (*pairs)[2], uint32_t m, uint32_t k,
                          uint32_t depth, uint32_t *fin)
{
    char kv[128];
    uint8_t fate[64];
    struct rs_engine_plan plan = {.finish = fin, .fate = fate};
    struct rs_record r;
    snprintf(kv, sizeof kv, "switching=cut_through_partial length=%u vc_depth=%u", k, depth);
    flit_run(net_kv, kv, pairs, m, &plan, &r);
    rs_record_free(&r);
    for (uint32_t i = 0; i < m; i++)
        assert_int_equal(fate[i], RS_FATE_DELIVERED);
}

/* Number of messages whose finish differs between the engine (depth) and ms_line. */
static uint32_t differ(enum rs_ms_shape shape, uint32_t n, const uint32_t (*pairs)[2], uint32_t m,
                       uint32_t k, uint32_t depth)
{
    char net_kv[64];
    struct rs_ms_packet pkt[64];
    uint64_t fin[64];
    uint32_t efin[64];
    struct rs_err err = {0};
    snprintf(net_kv, sizeof net_kv, "topology=%s k=%u", shape == RS_MS_RING ? "ring" : "chain", n);
    for (uint32_t i = 0; i < m; i++)
        pkt[i] = (struct rs_ms_packet){0, pairs[i][0], pairs[i][1], 0};
    struct rs_ms_line_problem pb = {.lines = 1, .n = n, .shape = shape, .disc = RS_MS_FIFO,
                                    .k = k, .m = m, .pkt = pkt, .check = 1};
    struct rs_ms_line_result res;
    assert_int_equal(rs__ms_line_route(&pb, &res, fin, NULL, &err), 0);
    engine_finish(net_kv, pairs, m, k, depth, efin);
    uint32_t d = 0;
    for (uint32_t i = 0; i < m; i++)
        d += efin[i] != fin[i];
    return d;
}

/* With vc_depth = k + 1 the engine delivers every message at the step Route_on_a_Chain
 * does, on every permutation of chains of 2..6 processors and k = 1..4. */
static void test_permutations_agree(void **state)
{
    (void)state;
    for (uint32_t n = 2; n <= 6; n++)
        for (uint32_t k = 1; k <= 4; k++) {
            uint32_t a[8], pairs[8][2];
            for (uint32_t i = 0; i < n; i++)
                a[i] = i;
            do {
                for (uint32_t i = 0; i < n; i++)
                    pairs[i][0] = i, pairs[i][1] = a[i];
                uint32_t d = differ(RS_MS_CHAIN, n, (const uint32_t(*)[2])pairs, n, k, k + 1);
                if (d) {
                    print_error("n=%u k=%u: %u messages differ\n", n, k, d);
                    fail();
                }
            } while (rs_test_next_perm(a, n));
        }
}

/* The engine's default vc_depth = k is slower: a FIFO that is full at the start of a step
 * refuses another message's header although it sends its front flit in that step
 * (docs/model-flit.md), where 003's FIFO appends what arrived and sends. Chain of 4, k = 1,
 * 0->2, 1->3, 2->0, 3->1: in step 1, 0->2 enters the buffer of 0->1 and 1->3 that of 1->2;
 * in step 2 the paper sends both on (both done at 2), the engine with depth 1 holds 0->2 at
 * 1 (the buffer of 1->2 was full at the start of the step): done at 3. Likewise 3->1. */
static void test_depth_k_differs(void **state)
{
    (void)state;
    static const uint32_t pairs[][2] = {{0, 2}, {1, 3}, {2, 0}, {3, 1}};
    uint32_t efin[4];
    engine_finish("topology=chain k=4", pairs, 4, 1, 1, efin);
    assert_int_equal(efin[0], 3);
    assert_int_equal(efin[1], 2);
    assert_int_equal(efin[2], 2);
    assert_int_equal(efin[3], 3);
    assert_int_equal(differ(RS_MS_CHAIN, 4, pairs, 4, 1, 1), 2);
    assert_int_equal(differ(RS_MS_CHAIN, 4, pairs, 4, 1, 2), 0);
}

/* Random many-to-one chains and rings (sources on even positions, uniform destinations,
 * shortest ways): the engine with vc_depth = k + 1 agrees message by message. */
static void test_random_agree(void **state)
{
    (void)state;
    uint32_t pairs[64][2];
    for (uint32_t trial = 0; trial < 120; trial++) {
        int ring = trial & 1;
        uint32_t n = 4 + 2 * rs_rand_below(7, 21, trial, 0, 14);
        uint32_t k = 1 + rs_rand_below(7, 21, trial, 1, 6);
        uint32_t m = 0;
        for (uint32_t s = 0; s < n; s += ring ? 2 : 1)
            if (rs_rand_below(7, 22, trial * 64 + s, 0, 3)) {
                pairs[m][0] = s;
                pairs[m][1] = rs_rand_below(7, 22, trial * 64 + s, 1, n);
                m++;
            }
        if (m == 0)
            continue;
        uint32_t d = differ(ring ? RS_MS_RING : RS_MS_CHAIN, n, (const uint32_t(*)[2])pairs, m,
                            k, k + 1);
        if (d) {
            print_error("trial %u (%s n=%u k=%u m=%u): %u messages differ\n", trial,
                        ring ? "ring" : "chain", n, k, m, d);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_permutations_agree),
        cmocka_unit_test(test_depth_k_differs),
        cmocka_unit_test(test_random_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
