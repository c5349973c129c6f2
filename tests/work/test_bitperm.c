/* Tests of the bit permutations (bitrev, shuffle, bitcomp, bpc): hand-checked tables on
 * N = 8, the parsing and validation of the `bpc` key, the power-of-two constraint and the
 * random BPC permutation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/fixture.h"
#include "routesim/net.h"
#include "routesim/params.h"
#include "routesim/problem.h"



/* Build args and expect code and the exact message. */
static void expect_error(const char *args, int code, const char *msg)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, args), code);
    assert_string_equal(f.err.msg, msg);
    assert_null(f.pb.dst);
    fx_free(&f);
}

/* bitrev N=8 (bits s2 s1 s0 -> s0 s1 s2): 1 = 001 -> 100 = 4, 3 = 011 -> 110 = 6,
 * 6 = 110 -> 011 = 3; palindromes 0, 2 (010), 5 (101), 7 stay. */
static void test_bitrev_n8(void **state)
{
    const uint32_t want[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    expect_map("topology=butterfly N=8 traffic=bitrev", want, 8);
}

/* shuffle N=8 rotates left by one within 3 bits: 5 = 101 -> 011 = 3, 4 = 100 -> 001 = 1,
 * 3 = 011 -> 110 = 6, 6 = 110 -> 101 = 5. */
static void test_shuffle_n8(void **state)
{
    const uint32_t want[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    expect_map("topology=butterfly N=8 traffic=shuffle", want, 8);
}

/* bitcomp N=8: d = s xor 111 = 7 - s. */
static void test_bitcomp_n8(void **state)
{
    const uint32_t want[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    expect_map("topology=butterfly N=8 traffic=bitcomp", want, 8);
}

/* bpc=~0,2,1 on N=8: (d0, d1, d2) = (~s0, s2, s1).
 *   s=0 (s2 s1 s0 = 000): d0=1 d1=0 d2=0 -> 001 = 1
 *   s=1 (001): d0=0 d1=0 d2=0 -> 0
 *   s=2 (010): d0=1 d1=0 d2=1 -> 101 = 5
 *   s=3 (011): d0=0 d1=0 d2=1 -> 100 = 4
 *   s=4 (100): d0=1 d1=1 d2=0 -> 011 = 3
 *   s=5 (101): d0=0 d1=1 d2=0 -> 010 = 2
 *   s=6 (110): d0=1 d1=1 d2=1 -> 111 = 7
 *   s=7 (111): d0=0 d1=1 d2=1 -> 110 = 6 */
static void test_bpc_given(void **state)
{
    const uint32_t want[8] = {1, 0, 5, 4, 3, 2, 7, 6};
    expect_map("topology=butterfly N=8 traffic=bpc bpc=~0,2,1", want, 8);
    /* blanks around entries are allowed (the value comes from an INI file or quotes) */
    struct fx f;
    memset(&f, 0, sizeof f);
    rs_params_init(&f.p);
    assert_int_equal(rs_params_parse_arg(&f.p, "topology=butterfly", &f.err), 0);
    assert_int_equal(rs_params_parse_arg(&f.p, "N=8", &f.err), 0);
    assert_int_equal(rs_params_parse_arg(&f.p, "traffic=bpc", &f.err), 0);
    assert_int_equal(rs_params_parse_arg(&f.p, "bpc= ~0 ,2,\t1 ", &f.err), 0);
    assert_int_equal(rs_net_build(&f.net, &f.p, &f.err), 0);
    assert_int_equal(rs_problem_build(&f.pb, &f.net, &f.p, 1, &f.err), 0);
    assert_memory_equal(f.pb.dst, want, sizeof want);
    fx_free(&f);
}

/* bpc expresses the other bit permutations: 2,1,0 is bitrev, ~0,~1,~2 is bitcomp and
 * 1,2,0 (bit i -> bit i+1 mod 3) is shuffle; 0,1,2 is the identity. */
static void test_bpc_special_cases(void **state)
{
    const uint32_t rev[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    const uint32_t comp[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    const uint32_t shuf[8] = {0, 2, 4, 6, 1, 3, 5, 7};
    const uint32_t id[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    expect_map("topology=butterfly N=8 traffic=bpc bpc=2,1,0", rev, 8);
    expect_map("topology=butterfly N=8 traffic=bpc bpc=~0,~1,~2", comp, 8);
    expect_map("topology=butterfly N=8 traffic=bpc bpc=1,2,0", shuf, 8);
    expect_map("topology=butterfly N=8 traffic=bpc bpc=0,1,2", id, 8);
}

/* N = 2 (one bit): bitrev and shuffle are the identity, bitcomp swaps. */
static void test_one_bit(void **state)
{
    const uint32_t id[2] = {0, 1}, swap[2] = {1, 0};
    expect_map("topology=butterfly N=2 traffic=bitrev", id, 2);
    expect_map("topology=butterfly N=2 traffic=shuffle", id, 2);
    expect_map("topology=butterfly N=2 traffic=bitcomp", swap, 2);
    expect_map("topology=butterfly N=2 traffic=bpc bpc=~0", swap, 2);
}

/* On a 4x4 mesh (N = 16 = 2^4) the bit permutations use the 4 bits of the terminal
 * number: bitrev 1 = 0001 -> 1000 = 8, 3 = 0011 -> 1100 = 12, 6 = 0110 -> 6. */
static void test_bitrev_mesh(void **state)
{
    const uint32_t want[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
    expect_map("topology=mesh k=4 n=2 traffic=bitrev", want, 16);
}

/* With q messages per source, all of them go to the source's image. */
static void test_per_input(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, "topology=butterfly N=8 traffic=bitrev per_input=4"), 0);
    const uint32_t rev[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    for (uint32_t m = 0; m < 32; m++)
        assert_int_equal(f.pb.dst[m], rev[m / 4]);
    fx_free(&f);
}

static void test_power_of_two(void **state)
{
    expect_error("topology=ring k=12 traffic=bitrev", RS_ECONSTRAINT,
                 "traffic=bitrev needs N a power of two (got N=12)");
    expect_error("topology=ring k=12 traffic=shuffle", RS_ECONSTRAINT,
                 "traffic=shuffle needs N a power of two (got N=12)");
    expect_error("topology=ring k=12 traffic=bitcomp", RS_ECONSTRAINT,
                 "traffic=bitcomp needs N a power of two (got N=12)");
    expect_error("topology=ring k=12 traffic=bpc", RS_ECONSTRAINT,
                 "traffic=bpc needs N a power of two (got N=12)");
    expect_error("topology=mesh k=3 n=2 traffic=bpc bpc=0,1", RS_ECONSTRAINT,
                 "traffic=bpc needs N a power of two (got N=9)");
}

static void test_bpc_errors(void **state)
{
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,1", RS_ECONSTRAINT,
                 "key 'bpc': expected 3 entries for N=8, got 2");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,1,2,3", RS_ECONSTRAINT,
                 "key 'bpc': expected 3 entries for N=8, got 4");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=", RS_ECONSTRAINT,
                 "key 'bpc': expected 3 entries for N=8, got 1");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,1,1", RS_ECONSTRAINT,
                 "key 'bpc': destination bit 1 used twice");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=~1,0,1", RS_ECONSTRAINT,
                 "key 'bpc': destination bit 1 used twice");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,3,1", RS_ECONSTRAINT,
                 "key 'bpc': entry 1 names destination bit 3, expected 0..2");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,x,1", RS_EINVAL,
                 "key 'bpc': entry 1 is 'x', expected j or ~j with j in 0..2");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,1,-2", RS_EINVAL,
                 "key 'bpc': entry 2 is '-2', expected j or ~j with j in 0..2");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,,1", RS_EINVAL,
                 "key 'bpc': entry 1 is '', expected j or ~j with j in 0..2");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,~~1,2", RS_EINVAL,
                 "key 'bpc': entry 1 is '~~1', expected j or ~j with j in 0..2");
    expect_error("topology=butterfly N=8 traffic=bpc bpc=0,1,2x", RS_EINVAL,
                 "key 'bpc': entry 2 is '2x', expected j or ~j with j in 0..2");
}

/* The map f of a random BPC traffic is a BPC permutation: f(s) = f(0) xor the images of
 * s's bits, where bit i's image f(2^i) xor f(0) is a single bit, distinct for every i. */
static void assert_bpc_map(const uint32_t *dst, uint32_t n, unsigned b)
{
    uint32_t c = dst[0], used = 0, img[32];
    for (unsigned i = 0; i < b; i++) {
        img[i] = dst[(uint32_t)1 << i] ^ c;
        assert_true(img[i] != 0 && (img[i] & (img[i] - 1)) == 0);
        assert_true((used & img[i]) == 0);
        used |= img[i];
    }
    for (uint32_t s = 0; s < n; s++) {
        uint32_t d = c;
        for (unsigned i = 0; i < b; i++)
            if (s >> i & 1u)
                d ^= img[i];
        assert_int_equal(dst[s], d);
    }
}

/* Without `bpc` a random BPC permutation is drawn from the seed: same seed, same map;
 * over 64 seeds on N=16 the maps are BPC permutations, not all alike, and every bit
 * position and complement bit occurs both ways. */
static void test_bpc_random(void **state)
{
    uint32_t first[16];
    int distinct = 0;
    uint32_t comp_seen = 0, moved_seen = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        struct fx f, g;
        assert_int_equal(fx_build(&f, seed, "topology=mesh k=4 n=2 traffic=bpc"), 0);
        assert_int_equal(fx_build(&g, seed, "topology=mesh k=4 n=2 traffic=bpc"), 0);
        assert_memory_equal(f.pb.dst, g.pb.dst, 16 * sizeof(uint32_t));
        assert_bpc_map(f.pb.dst, 16, 4);
        if (seed == 1)
            memcpy(first, f.pb.dst, sizeof first);
        else if (memcmp(first, f.pb.dst, sizeof first) != 0)
            distinct++;
        comp_seen |= f.pb.dst[0];
        for (unsigned i = 0; i < 4; i++)
            if ((f.pb.dst[1u << i] ^ f.pb.dst[0]) != (1u << i))
                moved_seen |= 1u << i;
        fx_free(&f);
        fx_free(&g);
    }
    assert_true(distinct >= 32);
    assert_int_equal(comp_seen, 15);
    assert_int_equal(moved_seen, 15);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitrev_n8),
        cmocka_unit_test(test_shuffle_n8),
        cmocka_unit_test(test_bitcomp_n8),
        cmocka_unit_test(test_bpc_given),
        cmocka_unit_test(test_bpc_special_cases),
        cmocka_unit_test(test_one_bit),
        cmocka_unit_test(test_bitrev_mesh),
        cmocka_unit_test(test_per_input),
        cmocka_unit_test(test_power_of_two),
        cmocka_unit_test(test_bpc_errors),
        cmocka_unit_test(test_bpc_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
