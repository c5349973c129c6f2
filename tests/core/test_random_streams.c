/* Tests of src/core/rng.c: Random123's published Philox4x32-10 answers, the documented
 * (seed, stream, entity, step, block) counter layout, determinism, separation of streams,
 * and the uniformity of rs_rng_below, rs_rng_unit and rs_random_permutation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include <Random123/philox.h>

#include "routesim/rng.h"

/* One Philox4x32-10 call through the Random123 header itself. */
static philox4x32_ctr_t philox(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0,
                               uint32_t k1)
{
    philox4x32_ctr_t c = {{c0, c1, c2, c3}};
    philox4x32_key_t k = {{k0, k1}};
    return philox4x32(c, k);
}

static void expect_words(philox4x32_ctr_t out, uint32_t w0, uint32_t w1, uint32_t w2,
                         uint32_t w3)
{
    assert_int_equal(out.v[0], w0);
    assert_int_equal(out.v[1], w1);
    assert_int_equal(out.v[2], w2);
    assert_int_equal(out.v[3], w3);
}

/* Known answers of Random123's kat_vectors for philox4x32 with 10 rounds. */
static void test_philox_known_answers(void **state)
{
    (void)state;
    expect_words(philox(0, 0, 0, 0, 0, 0), 0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8);
    expect_words(philox(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                        0xffffffff),
                 0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd);
    expect_words(philox(0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822,
                        0x299f31d0),
                 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1);
}

/* rs_rng_init(seed 0, stream 0, entity 0, step 0) is counter and key all zero (block 0),
 * so its first four draws are the all-zero vector; the fifth is block 1. */
static void test_zero_stream_is_zero_vector(void **state)
{
    (void)state;
    struct rs_rng r;
    rs_rng_init(&r, 0, 0, 0, 0);
    assert_int_equal(rs_rng_u32(&r), 0x6627e8d5);
    assert_int_equal(rs_rng_u32(&r), 0xe169c58d);
    assert_int_equal(rs_rng_u32(&r), 0xbc57ac4c);
    assert_int_equal(rs_rng_u32(&r), 0x9b00dbd8);
    philox4x32_ctr_t b1 = philox(0, 0, 0, 1, 0, 0);
    for (int i = 0; i < 4; i++)
        assert_int_equal(rs_rng_u32(&r), b1.v[i]);

    /* u64: the first draw is the high word */
    rs_rng_init(&r, 0, 0, 0, 0);
    assert_int_equal(rs_rng_u64(&r), 0x6627e8d5e169c58dull);
    assert_int_equal(rs_rng_u64(&r), 0xbc57ac4c9b00dbd8ull);

    /* unit: the top 53 bits of that u64 times 2^-53 */
    rs_rng_init(&r, 0, 0, 0, 0);
    double want = (double)(0x6627e8d5e169c58dull >> 11) * 0x1.0p-53;
    assert_true(rs_rng_unit(&r) == want);
    assert_true(want > 0.399 && want < 0.400); /* 0x6627e8d5 / 2^32 = 0.399046... */
}

/* The layout documented at the top of rng.c, checked against direct Philox calls:
 * key = {seed lo, seed hi}, ctr = {entity lo, entity bits 32-47 | stream << 16, step,
 * block}. */
static void test_counter_layout(void **state)
{
    (void)state;
    struct rs_rng r;
    uint64_t seed = 0x0123456789abcdefull, entity = 0x0000cdef12345678ull;
    rs_rng_init(&r, seed, 0x00ab, entity, 77);
    for (uint32_t block = 0; block < 3; block++) {
        philox4x32_ctr_t out = philox(0x12345678, 0x00abcdef, 77, block, 0x89abcdef, 0x01234567);
        for (int i = 0; i < 4; i++)
            assert_int_equal(rs_rng_u32(&r), out.v[i]);
    }
    /* the all-ones vector through rs_rng_init: every field at its maximum, block set by
     * hand in the plain value type (2^32 - 1 blocks cannot be drawn in a test) */
    rs_rng_init(&r, UINT64_MAX, 0xffff, 0xffffffffffffull, 0xffffffffu);
    r.ctr[3] = 0xffffffffu;
    assert_int_equal(rs_rng_u32(&r), 0x408f276d);
    assert_int_equal(rs_rng_u32(&r), 0x41c83b0e);
    assert_int_equal(rs_rng_u32(&r), 0xa20bc7c6);
    assert_int_equal(rs_rng_u32(&r), 0x6d5451fd);
    /* the pi vector: entity 0x08d3'243f6a88, stream 0x85a3, step 0x13198a2e */
    rs_rng_init(&r, 0x299f31d0a4093822ull, 0x85a3, 0x08d3243f6a88ull, 0x13198a2e);
    r.ctr[3] = 0x03707344;
    assert_int_equal(rs_rng_u32(&r), 0xd16cfe09);
    assert_int_equal(rs_rng_u32(&r), 0x94fdcceb);
    assert_int_equal(rs_rng_u32(&r), 0x5001e420);
    assert_int_equal(rs_rng_u32(&r), 0x24126ea1);
}

/* The first 16 draws of the stream (seed, stream, entity, step) into out. */
static void draws(uint64_t seed, uint32_t stream, uint64_t entity, uint32_t step,
                  uint32_t out[16])
{
    struct rs_rng r;
    rs_rng_init(&r, seed, stream, entity, step);
    for (int i = 0; i < 16; i++)
        out[i] = rs_rng_u32(&r);
}

static void test_determinism(void **state)
{
    (void)state;
    uint32_t a[16], b[16];
    draws(12345, RS_STREAM_TEST, 678, 9, a);
    draws(12345, RS_STREAM_TEST, 678, 9, b);
    assert_memory_equal(a, b, sizeof a);

    /* a copy of the reader continues identically (plain value type) */
    struct rs_rng r, s;
    rs_rng_init(&r, 1, RS_STREAM_TEST, 2, 3);
    for (int i = 0; i < 5; i++) /* mid-block */
        (void)rs_rng_u32(&r);
    s = r;
    for (int i = 0; i < 100; i++)
        assert_int_equal(rs_rng_u32(&r), rs_rng_u32(&s));

    /* the one-shot form equals the first rs_rng_below of a fresh reader */
    for (uint32_t e = 0; e < 50; e++) {
        rs_rng_init(&r, 99, RS_STREAM_TRAFFIC, e, 4);
        assert_int_equal(rs_rand_below(99, RS_STREAM_TRAFFIC, e, 4, 1000),
                         rs_rng_below(&r, 1000));
    }
}

/* Changing any one of seed, stream, entity (low and high words), step gives a different
 * sequence, and no two of these 16-draw sequences share a word at the same position. */
static void test_streams_differ(void **state)
{
    (void)state;
    uint32_t s[8][16];
    draws(7, RS_STREAM_TEST, 5, 3, s[0]);
    draws(8, RS_STREAM_TEST, 5, 3, s[1]);               /* seed */
    draws(7 + (1ull << 32), RS_STREAM_TEST, 5, 3, s[2]); /* seed high word */
    draws(7, RS_STREAM_TRAFFIC, 5, 3, s[3]);             /* stream */
    draws(7, RS_STREAM_TEST, 6, 3, s[4]);               /* entity */
    draws(7, RS_STREAM_TEST, 5 + (1ull << 40), 3, s[5]); /* entity bits 32-47 */
    draws(7, RS_STREAM_TEST, 5, 4, s[6]);               /* step */
    draws(7, RS_STREAM_TEST, 5, 0, s[7]);               /* step */
    for (int a = 0; a < 8; a++)
        for (int b = a + 1; b < 8; b++) {
            int same = 0;
            for (int i = 0; i < 16; i++)
                same += s[a][i] == s[b][i];
            /* 16 independent 32-bit words match by chance with probability ~ 2^-28 */
            assert_int_equal(same, 0);
        }
    /* within one stream the blocks differ too (the block counter advances) */
    for (int i = 0; i < 4; i++)
        assert_int_not_equal(s[0][i], s[0][i + 4]);
}

static void test_below_edges(void **state)
{
    (void)state;
    struct rs_rng r;
    rs_rng_init(&r, 2024, RS_STREAM_TEST, 0, 0);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(rs_rng_below(&r, 1), 0);
    uint32_t big = 3000000000u, seen_high = 0;
    for (int i = 0; i < 1000; i++) {
        uint32_t v = rs_rng_below(&r, big);
        assert_true(v < big);
        seen_high |= v >= 2000000000u;
    }
    assert_true(seen_high); /* P(no draw in the top third) = (2/3)^1000 */
    for (int i = 0; i < 1000; i++)
        assert_true(rs_rng_below(&r, 2) < 2);
    for (int i = 0; i < 1000; i++)
        assert_true(rs_rng_below(&r, UINT32_MAX) < UINT32_MAX);
}

/* Chi-square of rs_rng_below(10) over 100000 draws of the stream (seed 20240601,
 * RS_STREAM_TEST, entity 0, step 0). For 9 degrees of freedom the 0.001 and 0.999
 * quantiles are 1.15 and 27.88, so a correct generator fails this (for a random seed)
 * with probability 0.002; with this fixed seed the statistic is 9.9768 (counts 9965,
 * 9976, 10025, 9892, 10098, 10112, 10149, 9972, 9799, 10012 for 0..9). The counts are
 * also asserted exactly: they pin the stream and Lemire's reduction, so a change to
 * either shows here as well as in the known answers. */
static void test_below_chi_square(void **state)
{
    (void)state;
    struct rs_rng r;
    rs_rng_init(&r, 20240601, RS_STREAM_TEST, 0, 0);
    long count[10] = {0};
    const int draws_n = 100000;
    for (int i = 0; i < draws_n; i++) {
        uint32_t v = rs_rng_below(&r, 10);
        assert_true(v < 10);
        count[v]++;
    }
    double expect = draws_n / 10.0, chi2 = 0;
    for (int k = 0; k < 10; k++)
        chi2 += (count[k] - expect) * (count[k] - expect) / expect;
    static const long want[10] = {9965,  9976,  10025, 9892, 10098,
                                  10112, 10149, 9972,  9799, 10012};
    for (int k = 0; k < 10; k++)
        assert_int_equal(count[k], want[k]);
    assert_true(chi2 < 27.88);
    assert_true(chi2 > 1.15);
}

/* rs_rng_unit over 100000 draws: every value in [0, 1), the mean within 5 standard
 * errors of 1/2 (sd of the mean = sqrt(1/12 / 100000) = 0.000913, 5 sd = 0.0046), and
 * each tenth of the interval holds 10000 +- 500 draws (5 sd of a binomial(1e5, 0.1) is
 * 474). */
static void test_unit_range(void **state)
{
    (void)state;
    struct rs_rng r;
    rs_rng_init(&r, 31337, RS_STREAM_TEST, 1, 2);
    double sum = 0;
    long tenth[10] = {0};
    for (int i = 0; i < 100000; i++) {
        double u = rs_rng_unit(&r);
        assert_true(u >= 0.0);
        assert_true(u < 1.0);
        sum += u;
        tenth[(int)(u * 10)]++;
    }
    double mean = sum / 100000;
    assert_true(mean > 0.5 - 0.0046 && mean < 0.5 + 0.0046);
    for (int k = 0; k < 10; k++)
        assert_true(tenth[k] > 9500 && tenth[k] < 10500);
}

static void test_permutation_valid(void **state)
{
    (void)state;
    enum { N = 1000 };
    uint32_t perm[N], again[N];
    unsigned char seen[N];
    rs_random_permutation(perm, N, 5, RS_STREAM_PERM, 3);
    memset(seen, 0, sizeof seen);
    int fixed = 0;
    for (uint32_t i = 0; i < N; i++) {
        assert_true(perm[i] < N);
        assert_int_equal(seen[perm[i]], 0);
        seen[perm[i]] = 1;
        fixed += perm[i] == i;
    }
    assert_true(fixed < 10); /* not the identity: fixed points ~ Poisson(1) */
    rs_random_permutation(again, N, 5, RS_STREAM_PERM, 3);
    assert_memory_equal(perm, again, sizeof perm);
    rs_random_permutation(again, N, 5, RS_STREAM_PERM, 4);
    assert_true(memcmp(perm, again, sizeof perm) != 0);

    /* the contract: Fisher-Yates (Durstenfeld) over the stream (seed, stream, entity, 0) */
    struct rs_rng r;
    rs_rng_init(&r, 5, RS_STREAM_PERM, 3, 0);
    for (uint32_t i = 0; i < N; i++)
        again[i] = i;
    for (uint32_t i = N; i > 1; i--) {
        uint32_t j = rs_rng_below(&r, i), t = again[i - 1];
        again[i - 1] = again[j];
        again[j] = t;
    }
    assert_memory_equal(perm, again, sizeof perm);

    /* tiny sizes */
    uint32_t one = 77;
    rs_random_permutation(&one, 1, 5, RS_STREAM_PERM, 3);
    assert_int_equal(one, 0);
    rs_random_permutation(NULL, 0, 5, RS_STREAM_PERM, 3); /* nothing to write */
}

/* All 6 permutations of 3 elements over seeds 0..5999 (RS_STREAM_PERM, entity 0): each
 * appears, and the chi-square statistic (5 dof) is below the 0.999 quantile 20.52. With
 * these seeds the statistic is 5.332 (counts 980 for 012, then 1024, 959, 1023, 975, 1039
 * in lexicographic order of the permutation). */
static void test_permutation_uniform(void **state)
{
    (void)state;
    long count[6] = {0};
    for (uint64_t seed = 0; seed < 6000; seed++) {
        uint32_t p[3];
        rs_random_permutation(p, 3, seed, RS_STREAM_PERM, 0);
        assert_true(p[0] < 3 && p[1] < 3 && p[2] < 3);
        assert_true(p[0] != p[1] && p[0] != p[2] && p[1] != p[2]);
        /* lexicographic rank: 012 -> 0, 021 -> 1, 102 -> 2, 120 -> 3, 201 -> 4, 210 -> 5 */
        int rank = (int)p[0] * 2 + (p[1] > p[2]);
        count[rank]++;
    }
    double chi2 = 0;
    for (int k = 0; k < 6; k++) {
        assert_true(count[k] > 0);
        chi2 += (count[k] - 1000.0) * (count[k] - 1000.0) / 1000.0;
    }
    assert_true(chi2 < 20.52);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_philox_known_answers),
        cmocka_unit_test(test_zero_stream_is_zero_vector),
        cmocka_unit_test(test_counter_layout),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_streams_differ),
        cmocka_unit_test(test_below_edges),
        cmocka_unit_test(test_below_chi_square),
        cmocka_unit_test(test_unit_range),
        cmocka_unit_test(test_permutation_valid),
        cmocka_unit_test(test_permutation_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
