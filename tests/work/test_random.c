/* Tests of the random workloads (uniform, randperm, qrelation): their exact definition in
 * terms of the rng.h streams, the permutation and q-relation properties, chi-square tests
 * of uniformity with fixed seeds, and determinism in the seed. */
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
#include "routesim/rng.h"


static void must_build(struct fx *f, uint64_t seed, const char *args)
{
    if (fx_build(f, seed, args) != 0)
        fail_msg("%s: %s", args, f->err.msg);
}

/* Pearson's statistic sum (o - e)^2 / e of counts[0..n) against a uniform expectation. */
static double chi_square(const uint64_t *counts, uint32_t n, uint64_t total)
{
    double e = (double)total / n, x = 0;
    for (uint32_t i = 0; i < n; i++) {
        double d = (double)counts[i] - e;
        x += d * d / e;
    }
    return x;
}

/* uniform is exactly dst[m] = rs_rand_below(seed, RS_STREAM_TRAFFIC, m, 0, N). */
static void test_uniform_definition(void **state)
{
    struct fx f;
    must_build(&f, 99, "topology=ring k=12 traffic=uniform per_input=3");
    assert_int_equal(f.pb.n_msgs, 36);
    for (uint64_t m = 0; m < 36; m++)
        assert_int_equal(f.pb.dst[m], rs_rand_below(99, RS_STREAM_TRAFFIC, m, 0, 12));
    fx_free(&f);
}

/* N = 16, q = 4096: 65536 destinations, 4096 expected per terminal. Pearson's statistic
 * has 15 degrees of freedom; with the fixed seed it must lie between the 0.001 quantile
 * (3.48: suspiciously even) and the 0.999 quantile (37.70: not uniform) of chi-square
 * with 15 dof. Per source the same holds with 4096 draws each, checked on sources 0 and
 * 15 (which also catches sources sharing one stream: they would have equal counts). */
static void test_uniform_chi_square(void **state)
{
    struct fx f;
    must_build(&f, 20240611, "topology=mesh k=4 n=2 traffic=uniform per_input=4096");
    assert_int_equal(f.pb.n_msgs, 65536);
    uint64_t all[16] = {0}, first[16] = {0}, last[16] = {0};
    for (uint64_t m = 0; m < f.pb.n_msgs; m++) {
        assert_true(f.pb.dst[m] < 16);
        all[f.pb.dst[m]]++;
        if (m < 4096)
            first[f.pb.dst[m]]++;
        if (m >= 15 * 4096)
            last[f.pb.dst[m]]++;
    }
    double x = chi_square(all, 16, 65536);
    if (!(x > 3.48 && x < 37.70))
        fail_msg("chi-square over all messages %.2f outside (3.48, 37.70)", x);
    double x0 = chi_square(first, 16, 4096), x15 = chi_square(last, 16, 4096);
    if (!(x0 > 3.48 && x0 < 37.70 && x15 > 3.48 && x15 < 37.70))
        fail_msg("chi-square of sources 0 / 15: %.2f / %.2f outside (3.48, 37.70)", x0, x15);
    assert_memory_not_equal(first, last, sizeof first);
    fx_free(&f);
}

/* randperm is exactly pi_k = rs_random_permutation(N, seed, RS_STREAM_PERM, k) and
 * dst[s*q + k] = pi_k[s]; each pi_k is a permutation. */
static void test_randperm_definition(void **state)
{
    struct fx f;
    must_build(&f, 5, "topology=mesh k=4 n=2 traffic=randperm per_input=7");
    uint32_t perm[16];
    for (uint32_t k = 0; k < 7; k++) {
        rs_random_permutation(perm, 16, 5, RS_STREAM_PERM, k);
        uint32_t seen = 0;
        for (uint32_t s = 0; s < 16; s++) {
            uint32_t d = f.pb.dst[s * 7 + k];
            assert_int_equal(d, perm[s]);
            assert_true((seen & (1u << d)) == 0);
            seen |= 1u << d;
        }
        assert_int_equal(seen, 0xffff);
    }
    fx_free(&f);
}

/* With q = 1, randperm is a permutation, on a power of two and on other N. */
static void test_randperm_is_permutation(void **state)
{
    const char *nets[] = {"topology=butterfly N=64", "topology=ring k=13",
                          "topology=mesh k=5 n=2"};
    for (int i = 0; i < 3; i++) {
        char args[128];
        snprintf(args, sizeof args, "%s traffic=randperm", nets[i]);
        for (uint64_t seed = 1; seed <= 5; seed++) {
            struct fx f;
            must_build(&f, seed, args);
            uint32_t n = f.pb.n_terminals;
            uint8_t *hit = calloc(n, 1);
            assert_non_null(hit);
            for (uint32_t s = 0; s < n; s++) {
                assert_true(f.pb.dst[s] < n);
                assert_int_equal(hit[f.pb.dst[s]], 0);
                hit[f.pb.dst[s]] = 1;
            }
            free(hit);
            fx_free(&f);
        }
    }
}

/* On N = 3, q = 6000 gives 6000 independent permutations pi_k, 1000 expected of each of
 * the 3! = 6. Pearson's statistic has 5 dof; with the fixed seed it must lie between the
 * 0.001 quantile (0.21) and the 0.999 quantile (20.52) of chi-square with 5 dof. */
static void test_randperm_chi_square(void **state)
{
    struct fx f;
    must_build(&f, 777, "topology=ring k=3 traffic=randperm per_input=6000");
    uint64_t counts[9] = {0}; /* indexed by 3*pi(0) + pi(1); 6 of the 9 cells occur */
    for (uint32_t k = 0; k < 6000; k++) {
        uint32_t a = f.pb.dst[0 * 6000 + k], b = f.pb.dst[1 * 6000 + k];
        uint32_t c = f.pb.dst[2 * 6000 + k];
        assert_true(a != b && b != c && a != c);
        counts[3 * a + b]++;
    }
    uint64_t six[6];
    int j = 0;
    for (int cell = 0; cell < 9; cell++) {
        if (cell / 3 == cell % 3) {
            assert_int_equal(counts[cell], 0);
            continue;
        }
        six[j++] = counts[cell];
    }
    double x = chi_square(six, 6, 6000);
    if (!(x > 0.21 && x < 20.52))
        fail_msg("chi-square over the 6 permutations %.2f outside (0.21, 20.52)", x);
    fx_free(&f);
}

/* qrelation is exactly sigma = rs_random_permutation(N*q, seed, RS_STREAM_PERM, 2^32)
 * and dst[m] = sigma[m] / q. */
static void test_qrelation_definition(void **state)
{
    struct fx f;
    must_build(&f, 11, "topology=ring k=6 traffic=qrelation per_input=4");
    uint32_t sigma[24];
    rs_random_permutation(sigma, 24, 11, RS_STREAM_PERM, (uint64_t)1 << 32);
    for (uint32_t m = 0; m < 24; m++)
        assert_int_equal(f.pb.dst[m], sigma[m] / 4);
    fx_free(&f);
}

/* Every destination receives exactly q messages, for several q and networks; for q >= 2
 * some source sends to two different destinations (it is not q copies of a permutation). */
static void test_qrelation_property(void **state)
{
    const char *nets[] = {"topology=mesh k=4 n=2", "topology=ring k=7", "topology=butterfly N=32"};
    const int qs[] = {1, 2, 3, 5, 8, 64};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 6; j++) {
            char args[128];
            snprintf(args, sizeof args, "%s traffic=qrelation per_input=%d", nets[i], qs[j]);
            struct fx f;
            must_build(&f, 3 + (uint64_t)j, args);
            uint32_t n = f.pb.n_terminals, q = (uint32_t)qs[j];
            assert_int_equal(f.pb.n_msgs, (uint64_t)n * q);
            uint64_t *h = calloc(n, sizeof *h);
            assert_non_null(h);
            int spread = 0;
            for (uint64_t m = 0; m < f.pb.n_msgs; m++) {
                assert_true(f.pb.dst[m] < n);
                h[f.pb.dst[m]]++;
                if (f.pb.dst[m] != f.pb.dst[m - m % q])
                    spread = 1;
            }
            for (uint32_t d = 0; d < n; d++)
                assert_int_equal(h[d], q);
            assert_int_equal(spread, q >= 2);
            free(h);
            fx_free(&f);
        }
    }
}

/* The same seed gives the same destinations; another seed gives others. qrelation and
 * randperm with q = 1 use different streams, so they differ under one seed. */
static void test_determinism(void **state)
{
    const char *traffics[] = {"uniform", "randperm", "qrelation", "bpc"};
    for (int t = 0; t < 4; t++) {
        char args[128];
        snprintf(args, sizeof args, "topology=butterfly N=64 traffic=%s per_input=2",
                 traffics[t]);
        struct fx a, b, c;
        must_build(&a, 1234, args);
        must_build(&b, 1234, args);
        must_build(&c, 1235, args);
        assert_memory_equal(a.pb.dst, b.pb.dst, 128 * sizeof(uint32_t));
        assert_memory_not_equal(a.pb.dst, c.pb.dst, 128 * sizeof(uint32_t));
        fx_free(&a);
        fx_free(&b);
        fx_free(&c);
    }
    struct fx r, q;
    must_build(&r, 1234, "topology=butterfly N=64 traffic=randperm");
    must_build(&q, 1234, "topology=butterfly N=64 traffic=qrelation");
    assert_memory_not_equal(r.pb.dst, q.pb.dst, 64 * sizeof(uint32_t));
    fx_free(&r);
    fx_free(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_definition),
        cmocka_unit_test(test_uniform_chi_square),
        cmocka_unit_test(test_randperm_definition),
        cmocka_unit_test(test_randperm_is_permutation),
        cmocka_unit_test(test_randperm_chi_square),
        cmocka_unit_test(test_qrelation_definition),
        cmocka_unit_test(test_qrelation_property),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
