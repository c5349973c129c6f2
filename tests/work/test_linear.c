/* Tests of traffic=linear: hand-checked tables on N = 8 (given matrices, with and without a
 * complement), every error of the `matrix` and `complement` keys, and the random matrix:
 * always invertible, and uniform over the 168 invertible 3 x 3 matrices (chi-square). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/fixture.h"

static void expect_error(const char *args, int code, const char *msg)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, args), code);
    assert_string_equal(f.err.msg, msg);
    assert_null(f.pb.dst);
    fx_free(&f);
}

/* matrix=3,2,4 on N=8: d0 = s0 ^ s1, d1 = s1, d2 = s2.
 *   s=1 (001): d0=1 -> 1;  s=2 (010): d0=1 d1=1 -> 3;  s=3 (011): d0=0 d1=1 -> 2;
 *   s=6 (110): d0=1 d1=1 d2=1 -> 7;  s=7 (111): d0=0 d1=1 d2=1 -> 6; 0, 4, 5 stay.
 * matrix=0b110,0b001,0x4: d0 = s1 ^ s2, d1 = s0, d2 = s2.
 *   s=1: d1 -> 2;  s=2: d0 -> 1;  s=3: d0 d1 -> 3;  s=4: d0 d2 -> 5;  s=5: d0 d1 d2 -> 7;
 *   s=6: d2 -> 4;  s=7: d1 d2 -> 6.
 * complement=4 XORs bit 2 into every destination. */
static void test_given_matrix_n8(void **state)
{
    const uint32_t a[8] = {0, 1, 3, 2, 4, 5, 7, 6};
    const uint32_t b[8] = {0, 2, 1, 3, 5, 7, 4, 6};
    const uint32_t c[8] = {4, 6, 5, 7, 1, 3, 0, 2};
    expect_map("topology=butterfly N=8 traffic=linear matrix=3,2,4", a, 8);
    expect_map("topology=butterfly N=8 traffic=linear matrix=0b110,0b001,0x4", b, 8);
    expect_map("topology=butterfly N=8 traffic=linear matrix=6,1,4 complement=4", c, 8);
    /* blanks around rows; the identity matrix; bit permutations are linear */
    const uint32_t id[8] = {0, 1, 2, 3, 4, 5, 6, 7}, rev[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    expect_map("topology=butterfly N=8 traffic=linear matrix=1,2,4", id, 8);
    expect_map("topology=butterfly N=8 traffic=linear matrix=4,\t2\t,1", rev, 8);
}

static void test_errors(void **state)
{
    expect_error("topology=butterfly N=8 traffic=linear matrix=1,2", RS_ECONSTRAINT,
                 "key 'matrix': expected 3 rows for N=8, got 2");
    expect_error("topology=butterfly N=8 traffic=linear matrix=1,x,4", RS_EINVAL,
                 "key 'matrix': row 1 is 'x', expected a bit mask (5, 0b101 or 0x5)");
    expect_error("topology=butterfly N=8 traffic=linear matrix=1,0b,4", RS_EINVAL,
                 "key 'matrix': row 1 is '0b', expected a bit mask (5, 0b101 or 0x5)");
    expect_error("topology=butterfly N=8 traffic=linear matrix=1,2,4a", RS_EINVAL,
                 "key 'matrix': row 2 is '4a', expected a bit mask (5, 0b101 or 0x5)");
    expect_error("topology=butterfly N=8 traffic=linear matrix=1,2,99999999999", RS_EINVAL,
                 "key 'matrix': row 2 is '99999999999', expected a bit mask (5, 0b101 or 0x5)");
    expect_error("topology=butterfly N=8 traffic=linear matrix=1,8,4", RS_ECONSTRAINT,
                 "key 'matrix': row 1 is 8, expected a mask of the 3 source bits (below 8)");
    /* 3 ^ 5 = 6: row 2 depends on rows 0 and 1; a zero row is dependent at once */
    expect_error("topology=butterfly N=8 traffic=linear matrix=3,5,6", RS_ECONSTRAINT,
                 "key 'matrix': row 2 is a XOR of earlier rows, so the matrix is singular over "
                 "GF(2) and does not give a permutation");
    expect_error("topology=butterfly N=8 traffic=linear matrix=0,1,2", RS_ECONSTRAINT,
                 "key 'matrix': row 0 is a XOR of earlier rows, so the matrix is singular over "
                 "GF(2) and does not give a permutation");
    expect_error("topology=butterfly N=8 traffic=linear complement=8", RS_ECONSTRAINT,
                 "key 'complement': 8 is not a mask of the 3 address bits (below N=8)");
    expect_error("topology=ring k=12 traffic=linear", RS_ECONSTRAINT,
                 "traffic=linear needs N a power of two (got N=12)");
}

/* Index of the matrix of a linear permutation of N = 8: its columns are dst(1), dst(2),
 * dst(4) (complement 0), read as one base-8 number. */
static uint32_t matrix_index(const uint32_t *dst)
{
    return dst[1] + 8 * dst[2] + 64 * dst[4];
}

/* The random matrix is invertible (the map is a bijection and linear: dst(s ^ t) =
 * dst(s) ^ dst(t)), and uniform over GL(3, 2): 168 x 60 seeds, Pearson's chi-square with
 * 167 degrees of freedom below its 0.999 quantile (stated tolerance: p >= 0.001). A
 * larger N: N = 2^10 is a bijection too. */
static void test_random_uniform(void **state)
{
    uint32_t hits[512] = {0}, cells = 0, samples = 168 * 60;
    for (uint32_t seed = 1; seed <= samples; seed++) {
        struct fx f;
        assert_int_equal(fx_build(&f, seed, "topology=butterfly N=8 traffic=linear"), 0);
        uint8_t seen[8] = {0};
        for (uint32_t s = 0; s < 8; s++) {
            seen[f.pb.dst[s]]++;
            for (uint32_t t = 0; t < 8; t++)
                assert_int_equal(f.pb.dst[s ^ t], f.pb.dst[s] ^ f.pb.dst[t]);
        }
        for (uint32_t t = 0; t < 8; t++)
            assert_int_equal(seen[t], 1);
        hits[matrix_index(f.pb.dst)]++;
        fx_free(&f);
    }
    double chi = 0, mean = samples / 168.0;
    for (uint32_t i = 0; i < 512; i++)
        if (hits[i]) {
            cells++;
            chi += (hits[i] - mean) * (hits[i] - mean) / mean;
        }
    assert_int_equal(cells, 168);
    double crit = gsl_cdf_chisq_Qinv(0.001, 167);
    if (!(chi < crit))
        fail_msg("chi-square %.1f >= %.1f", chi, crit);
    struct fx f;
    assert_int_equal(fx_build(&f, 3, "topology=butterfly N=1024 traffic=linear per_input=2"), 0);
    uint8_t *seen = calloc(1024, 1);
    for (uint32_t m = 0; m < 2048; m += 2) {
        assert_int_equal(f.pb.dst[m], f.pb.dst[m + 1]);
        seen[f.pb.dst[m]]++;
    }
    for (uint32_t t = 0; t < 1024; t++)
        assert_int_equal(seen[t], 1);
    free(seen);
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_given_matrix_n8),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_random_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
