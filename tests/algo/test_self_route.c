/* algorithm=self_route on CB-LCAN(N,2,2) through the circuit engine (002 §4.2): a
 * hand-worked permutation outside the classes that conflicts; every BPC permutation of
 * N = 8 and 16 and every inverse-omega permutation of N = 8 conflict-free with priority to
 * the lower input (Nassimi-Sahni), every linear and affine permutation of N = 8
 * conflict-free with priority to the smaller destination (Raghavendra-Boppana), random
 * members of the classes on larger networks, what each rule does outside its class, and
 * the refusals. The invariant checker runs on every engine run here. */
#include "rs_test.h"

#include "routesim/algo.h"
#include "routesim/engine.h"
#include "routesim/problem.h"
#include "routesim/rng.h"
#include "routesim/omega.h"

/* Self-route the fixture's problem; returns its conflicts (and *cycles). */
static int64_t conflicts(struct rs_test_fixture *f, int64_t *cycles)
{
    struct rs_engine_input in = {.net = &f->net, .pb = &f->pb, .params = &f->p,
                                 .routing = RS_ROUTING_DIRECT, .seed = 1, .check = 1};
    struct rs_record r;
    struct rs_err err;
    rs_record_init(&r);
    if (rs_algo_find("self_route")->run(&in, rs_engine_find("circuit"), &r, NULL, 0, &err))
        fail_msg("%s", err.msg);
    int64_t c = rs_test_int(&r, "conflicts");
    assert_int_equal(rs_test_int(&r, "delivered"), f->pb.n_msgs);
    if (cycles)
        *cycles = rs_test_int(&r, "cycles");
    rs_record_free(&r);
    return c;
}

/* The four configurations of every class test: both priorities, both turn levels. */
static const char *const configs[] = {
    "switching=circuit priority=lower_input", "switching=circuit priority=lower_input turn=top",
    "switching=circuit priority=smaller_tag", "switching=circuit priority=smaller_tag turn=top"};

static void open_config(struct rs_test_fixture *f, uint32_t N, const char *config)
{
    char kv[256];
    snprintf(kv, sizeof kv, "topology=baseline N=%u traffic=identity %s", N, config);
    rs_test_fx_open(f, kv, 1);
}

/* N = 8, 3 -> 4, 4 -> 3, 5 -> 6, 6 -> 5, the others fixed (not affine, not inverse-omega).
 * Level 0 (wish: destination bit 0): switch {0,1}: 0 takes upper 0, 1 upper 1; {2,3}: 2
 * (dst 2) upper 0, 3 upper 1; {4,5}: 4 (dst 3) upper 1, 5 upper 0; {6,7}: 6 (dst 5) upper
 * 1, 7 upper 0. Level 1 (wish: destination bit 1; the lower input is the one from the
 * lower half): switch (0, k0=0) holds 0 and 2: 0 (dst 0) upper 0, 2 upper 1; (0, 1): 1
 * (dst 1) upper 0, 3 upper 1; (1, 1): 4 (dst 3) upper 1, 6 upper 0; (1, 0): 5 (dst 6) upper
 * 1, 7 upper 0. The smaller destination is the lower input at every switch, so both rules
 * agree. 3 -> 4 (LCA level 2) goes up 1, 1 to the top and down to level-1 switch (1, 1),
 * then down its downer 0 toward PE 4; 6 -> 5 (LCA level 1) turns at level-1 switch (1, 1)
 * and needs the same downer toward PE 5: one is refused and goes in the second cycle. */
static void test_counterexample(void **state)
{
    const uint32_t dst[8] = {0, 1, 2, 4, 3, 6, 5, 7};
    for (int c = 0; c < 4; c++) {
        struct rs_test_fixture f;
        int64_t cycles;
        open_config(&f, 8, configs[c]);
        memcpy(f.pb.dst, dst, sizeof dst);
        assert_int_equal(conflicts(&f, &cycles), 1);
        assert_int_equal(cycles, 2);
        rs_test_fx_close(&f);
    }
}

/* Every BPC permutation of N = 2^b: source bit i to destination bit to[i], complemented by
 * mask (b! 2^b of them), conflict-free in one cycle under every configuration. */
static void all_bpc(uint32_t b)
{
    uint32_t N = 1u << b, to[8], c[8] = {0}, count = 0;
    for (uint32_t i = 0; i < b; i++)
        to[i] = i;
    for (int k = 0; k < 4; k++) {
        struct rs_test_fixture f;
        open_config(&f, N, configs[k]);
        memset(c, 0, sizeof c);
        for (uint32_t i = 0;;) {
            for (uint32_t mask = 0; mask < N; mask++) {
                for (uint32_t s = 0; s < N; s++) {
                    uint32_t d = 0;
                    for (uint32_t j = 0; j < b; j++)
                        d |= ((s >> j) & 1) << to[j];
                    f.pb.dst[s] = d ^ mask;
                }
                int64_t cycles;
                if (conflicts(&f, &cycles) || cycles != 1)
                    fail_msg("N=%u %s: a BPC permutation conflicts", N, configs[k]);
                count++;
            }
            while (i < b && c[i] >= i) {
                c[i] = 0;
                i++;
            }
            if (i == b)
                break;
            uint32_t x = i % 2 ? c[i] : 0, t = to[x];
            to[x] = to[i];
            to[i] = t;
            c[i]++;
            i = 1;
        }
        rs_test_fx_close(&f);
    }
    uint32_t want = 4 * N;
    for (uint32_t i = 2; i <= b; i++)
        want *= i;
    assert_int_equal(count, want);
}

static void test_every_bpc(void **state)
{
    all_bpc(3);
    all_bpc(4);
}

/* Every inverse-omega permutation of N = 8 (the 4096 settings of the inverse omega network,
 * tests/work/test_omega.c) is conflict-free under every configuration (002 §4.2 claims it
 * for the lower-input rule; the smaller-destination rule measured conflict-free too). */
static void test_every_inverse_omega_n8(void **state)
{
    for (int k = 0; k < 4; k++) {
        struct rs_test_fixture f;
        uint32_t scratch[16];
        open_config(&f, 8, configs[k]);
        for (uint32_t set = 0; set < 4096; set++) {
            uint32_t settings[1] = {set};
            rs__inverse_omega_perm(3, settings, f.pb.dst, scratch);
            if (conflicts(&f, NULL))
                fail_msg("%s: inverse-omega setting %u conflicts", configs[k], set);
        }
        rs_test_fx_close(&f);
    }
}

/* Every linear permutation of N = 8 (rows of the 512 matrices that are invertible: 168)
 * and its 8 complements (affine): conflict-free with priority to the smaller destination.
 * With priority to the lower input 24 of the 168 linear ones conflict when circuits turn at
 * their LCA level and 58 when they all go to the top (measured, and the same in an
 * independent Python model of the channels; a linear permutation need not be in
 * Nassimi-Sahni's family, and turning early removes some conflicts). */
static void test_every_linear_n8(void **state)
{
    uint32_t linear = 0, lower_bad = 0, lower_top_bad = 0;
    struct rs_test_fixture tag, low, low_top;
    open_config(&tag, 8, "switching=circuit priority=smaller_tag");
    open_config(&low, 8, "switching=circuit priority=lower_input");
    open_config(&low_top, 8, "switching=circuit priority=lower_input turn=top");
    for (uint32_t a = 0; a < 512; a++) {
        uint32_t rows[3] = {a & 7, (a >> 3) & 7, a >> 6}, seen = 0, pi[8];
        for (uint32_t s = 0; s < 8; s++) {
            pi[s] = 0;
            for (uint32_t i = 0; i < 3; i++)
                pi[s] |= (uint32_t)__builtin_parity(rows[i] & s) << i;
            seen |= 1u << pi[s];
        }
        if (seen != 0xff)
            continue; /* singular */
        linear++;
        for (uint32_t comp = 0; comp < 8; comp++) {
            for (uint32_t s = 0; s < 8; s++)
                tag.pb.dst[s] = pi[s] ^ comp;
            if (conflicts(&tag, NULL))
                fail_msg("matrix rows %u,%u,%u complement %u conflicts", rows[0], rows[1],
                         rows[2], comp);
        }
        memcpy(low.pb.dst, pi, sizeof pi);
        memcpy(low_top.pb.dst, pi, sizeof pi);
        lower_bad += conflicts(&low, NULL) > 0;
        lower_top_bad += conflicts(&low_top, NULL) > 0;
    }
    assert_int_equal(linear, 168);
    assert_int_equal(lower_bad, 24);
    assert_int_equal(lower_top_bad, 58);
    rs_test_fx_close(&tag);
    rs_test_fx_close(&low);
    rs_test_fx_close(&low_top);
}

/* Random members on larger networks (seeds 1..100 for N = 64, 1..20 for N = 1024): BPC and
 * inverse omega with the lower-input rule, linear and affine with the smaller-destination
 * rule, turning at the LCA level and at the top. */
static void test_random_members(void **state)
{
    const char *cases[] = {
        "traffic=bpc switching=circuit priority=lower_input",
        "traffic=inverse_omega switching=circuit priority=lower_input",
        "traffic=inverse_omega switching=circuit priority=lower_input turn=top",
        "traffic=linear switching=circuit priority=smaller_tag",
        "traffic=linear complement=5 switching=circuit priority=smaller_tag turn=top",
        "traffic=bpc switching=circuit priority=smaller_tag"};
    const uint32_t sizes[] = {64, 1024}, seeds[] = {100, 20};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
        for (size_t n = 0; n < 2; n++)
            for (uint64_t seed = 1; seed <= seeds[n]; seed++) {
                char kv[256];
                struct rs_test_fixture f;
                snprintf(kv, sizeof kv, "topology=baseline N=%u %s", sizes[n], cases[c]);
                rs_test_fx_open(&f, kv, seed);
                if (conflicts(&f, NULL))
                    fail_msg("%s seed %llu conflicts", kv, (unsigned long long)seed);
                rs_test_fx_close(&f);
            }
}

/* Outside the classes: random permutations of N = 64 conflict under both rules (seeds
 * 1..20: every one of them), and so do the linear permutations under the lower-input rule
 * for most seeds. */
static void test_outside(void **state)
{
    uint32_t bad[3] = {0, 0, 0};
    const char *cases[] = {"traffic=randperm switching=circuit priority=lower_input",
                           "traffic=randperm switching=circuit priority=smaller_tag",
                           "traffic=linear switching=circuit priority=lower_input"};
    for (int c = 0; c < 3; c++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            char kv[256];
            struct rs_test_fixture f;
            snprintf(kv, sizeof kv, "topology=baseline N=64 %s", cases[c]);
            rs_test_fx_open(&f, kv, seed);
            bad[c] += conflicts(&f, NULL) > 0;
            rs_test_fx_close(&f);
        }
    assert_int_equal(bad[0], 20);
    assert_int_equal(bad[1], 20);
    assert_true(bad[2] >= 10);
}

/* Refusals; N = 2 (one switch) routes in one cycle. */
static void test_refusals_and_n2(void **state)
{
    rs_test_expect_error("topology=lcan N=16 d=4 u=4 traffic=randperm switching=circuit "
                 "algorithm=self_route",
                 RS_EUNSUPPORTED,
                 "algorithm=self_route needs CB-LCAN(N,2,2), whose unfolding is a Beneš network "
                 "(002 §4.2); got d=4 u=4");
    rs_test_expect_error("topology=lcan N=16 d=2 u=4 traffic=randperm switching=circuit "
                 "algorithm=self_route",
                 RS_EUNSUPPORTED,
                 "algorithm=self_route needs CB-LCAN(N,2,2), whose unfolding is a Beneš network "
                 "(002 §4.2); got d=2 u=4");
    rs_test_expect_error("topology=baseline N=16 traffic=randperm per_input=2 switching=circuit "
                 "algorithm=self_route",
                 RS_ECONSTRAINT,
                 "algorithm=self_route routes a permutation: every PE sends one message and "
                 "receives one, got 32 messages for 16 PEs");
    rs_test_expect_error("topology=baseline N=16 traffic=randperm switching=circuit "
                 "algorithm=self_route up=random_per_permutation",
                 RS_EUNSUPPORTED,
                 "command line: key 'up' has no effect with algorithm=self_route: the switches "
                 "set themselves");
    /* trac is an LCAN (RS_CAP_LCA), so the capability test passes; d=3 is refused */
    rs_test_expect_error("topology=trac N=27 traffic=randperm switching=circuit algorithm=self_route",
                 RS_EUNSUPPORTED,
                 "algorithm=self_route needs CB-LCAN(N,2,2), whose unfolding is a Beneš "
                 "network (002 §4.2); got d=3 u=2");
    rs_test_expect_error("topology=mesh k=4 traffic=randperm switching=circuit algorithm=self_route",
                 RS_EUNSUPPORTED,
                 "algorithm=self_route needs topology=lcan|baseline|swbanyan|trac|cm5 (got "
                 "mesh)");
    rs_test_expect_error("topology=baseline N=16 traffic=randperm switching=circuit algorithm=greedy "
                 "priority=smaller_tag",
                 RS_EUNKNOWN,
                 "command line: unknown key 'priority' for algorithm=greedy (it is a key of algorithm=self_route)");
    struct rs_record r;
    rs_test_run("topology=baseline N=2 traffic=bitcomp switching=circuit algorithm=self_route",
                &r);
    assert_int_equal(rs_test_int(&r, "cycles"), 1);
    assert_int_equal(rs_test_int(&r, "conflicts"), 0);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counterexample),
        cmocka_unit_test(test_every_bpc),
        cmocka_unit_test(test_every_inverse_omega_n8),
        cmocka_unit_test(test_every_linear_n8),
        cmocka_unit_test(test_random_members),
        cmocka_unit_test(test_outside),
        cmocka_unit_test(test_refusals_and_n2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
