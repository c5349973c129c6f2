/* Schnorr–Shamir's mesh sort (003's ref [22], src/algo/ms_ss.c): random and few-valued grids of
 * side 16 and 81 sorted into row-major order (oracle: qsort), the counted steps equal to the
 * documented formula (worked by hand), and step 2 with it on a 64 x 64 mesh (Lemma 3). */
#include <stdlib.h>

#include "rs_test.h"

#include "routesim/ms_mesh.h"
#include "routesim/rng.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* q, and the step formula by hand: m = 16 (q = 2, b = 8): 4*16 + 2 S(8,8) + 1 S(16,8) + 4*8
 * = 64 + 2*56 + 104 + 32 = 312; m = 81 (q = 3, b = 27): 324 + 2*297 + 2*513 + 108 = 2052;
 * m = 256 (q = 4, b = 64): 1024 + 2*832 + 2*1408 + 256 = 5760; S(h, w) = (ceil log2 h + 1) w
 * + ceil(log2 h) h. Not q^4: 0 (shearsort is used). */
static void test_formula(void **state)
{
    (void)state;
    assert_int_equal(rs_ms_ss_q(16), 2);
    assert_int_equal(rs_ms_ss_q(81), 3);
    assert_int_equal(rs_ms_ss_q(256), 4);
    assert_int_equal(rs_ms_ss_q(1), 0);
    assert_int_equal(rs_ms_ss_q(32), 0);
    assert_int_equal(rs_ms_ss_q(64), 0);
    assert_int_equal(rs_ms_ss_steps(16), 312);
    assert_int_equal(rs_ms_ss_steps(81), 2052);
    assert_int_equal(rs_ms_ss_steps(256), 5760);
    assert_int_equal(rs_ms_ss_steps(32), 0);
}

/* Grids of side m with values below `range` (2: 0-1 inputs; 0: full 64-bit) sorted. */
static void sort_grids(uint32_t m, uint32_t range, int trials)
{
    size_t mm = (size_t)m * m;
    uint64_t *g = malloc(mm * sizeof *g), *want = malloc(mm * sizeof *want);
    uint32_t *tgt = malloc(mm * sizeof *tgt);
    assert_non_null(g);
    assert_non_null(want);
    assert_non_null(tgt);
    for (int t = 0; t < trials; t++) {
        struct rs_rng r;
        rs_rng_init(&r, 13, RS_STREAM_TEST, (uint64_t)m * 1000 + range * 100 + t, 0);
        for (size_t i = 0; i < mm; i++)
            want[i] = g[i] = range ? rs_rng_below(&r, range) : rs_rng_u64(&r);
        qsort(want, mm, sizeof *want, cmp_u64);
        assert_int_equal(rs__ms_ss_sort(g, tgt, m), rs_ms_ss_steps(m));
        assert_memory_equal(g, want, mm * sizeof *g);
    }
    free(g);
    free(want);
    free(tgt);
}

static void test_sort16(void **state)
{
    (void)state;
    sort_grids(16, 0, 20);
    sort_grids(16, 2, 20);
    sort_grids(16, 5, 20);
}

static void test_sort81(void **state)
{
    (void)state;
    sort_grids(81, 0, 4);
    sort_grids(81, 2, 4);
    sort_grids(81, 7, 2);
}

/* Step 2 on a 64 x 64 mesh with 16 x 16 submeshes: a random permutation, colouring C; the
 * sort is Schnorr–Shamir, checked sorted inside; u, v grow by at most f = 4 (Lemma 3), w, x
 * stay. Side 8 is not q^4: shearsort runs and says so. */
static void test_step2(void **state)
{
    (void)state;
    enum { M = 64 };
    static uint32_t src[M * M], pos[M * M], dst[M * M];
    static uint8_t black[M * M];
    uint32_t q[4], q2[4];
    struct rs_rng r;
    enum rs_ms_mesh_sort used = RS_MS_SORT_SHEARSORT;
    int rc = -1;
    rs_rng_init(&r, 5, RS_STREAM_TEST, 0, 0);
    for (uint32_t s = 0; s < M * M; s++)
        src[s] = pos[s] = dst[s] = s;
    for (uint32_t s = M * M - 1; s > 0; s--) {
        uint32_t j = rs_rng_below(&r, s + 1), x = dst[s];
        dst[s] = dst[j];
        dst[j] = x;
    }
    rs_ms_colour(M, M * M, src, dst, RS_MS_COL_C, 7, black);
    assert_int_equal(rs_ms_uvwx(M, M * M, src, dst, black, q), 0);
    assert_int_equal(rs_ms_sort_by(M, 16, M * M, pos, dst, black, RS_MS_SORT_SCHNORR_SHAMIR,
                                   &used, &rc),
                     312);
    assert_int_equal(rc, 0);
    assert_int_equal(used, RS_MS_SORT_SCHNORR_SHAMIR);
    assert_int_equal(rs_ms_uvwx(M, M * M, pos, dst, black, q2), 0);
    assert_true(q2[0] <= q[0] + 4 && q2[1] <= q[1] + 4);
    assert_int_equal(q2[2], q[2]);
    assert_int_equal(q2[3], q[3]);
    /* the same as shearsort's result: both reach the one sorted order */
    static uint32_t pos2[M * M];
    for (uint32_t s = 0; s < M * M; s++)
        pos2[s] = s;
    assert_int_equal(rs_ms_sort(M, 16, M * M, pos2, dst, black, &rc), rs_ms_sort_steps(16));
    assert_memory_equal(pos, pos2, sizeof pos);
    for (uint32_t s = 0; s < M * M; s++)
        pos2[s] = s;
    assert_int_equal(rs_ms_sort_by(M, 8, M * M, pos2, dst, black, RS_MS_SORT_SCHNORR_SHAMIR,
                                   &used, &rc),
                     rs_ms_sort_steps(8));
    assert_int_equal(used, RS_MS_SORT_SHEARSORT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formula),
        cmocka_unit_test(test_sort16),
        cmocka_unit_test(test_sort81),
        cmocka_unit_test(test_step2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
