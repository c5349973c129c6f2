/* Makedon–Symvonis (003) §3 steps 1 and 2 worked by hand on a 4 x 4 mesh: colourings A and B
 * with their (u, v, w, x), the submesh sort (side 4 and side 2) with its exchange-step count,
 * f(n) rounding, and the random colouring's determinism and balance. */
#include "rs_test.h"

#include "routesim/ms_mesh.h"

#define N 4
#define RC(r, c) ((r) * N + (c))

/* The hand-worked permutation: source (r, c) -> destination, row by row. */
static const uint32_t DST[16] = {
    RC(3, 3), RC(2, 0), RC(1, 1), RC(0, 2), /* row 0 */
    RC(3, 1), RC(0, 0), RC(2, 3), RC(1, 0), /* row 1 */
    RC(0, 3), RC(3, 2), RC(1, 2), RC(2, 1), /* row 2 */
    RC(1, 3), RC(0, 1), RC(3, 0), RC(2, 2), /* row 3 */
};

static void sources(uint32_t *src)
{
    for (uint32_t s = 0; s < 16; s++)
        src[s] = s;
}

/* A: black iff (r + c) even. Whites 2 per row, blacks 2 per column; whites go to columns
 * 0,2,1,3,2,1,3,0 (2 each); blacks go to rows 3,1,0,1,0,1,0,2 (3 to rows 0 and 1):
 * (2, 2, 2, 3). B: black iff the destination is; black sources (0,0..3), (1,0), (1,1),
 * (3,0), (3,3): row 2 all white (u = 4), column 0 three blacks (v = 3), chessboard
 * destinations (w = x = 2): (4, 3, 2, 2). */
static void test_colourings(void **state)
{
    (void)state;
    uint32_t src[16], q[4];
    uint8_t black[16];
    sources(src);
    rs_ms_colour(N, 16, src, DST, RS_MS_COL_A, 1, black);
    for (uint32_t s = 0; s < 16; s++)
        assert_int_equal(black[s], ((s / N + s % N) % 2) == 0);
    assert_int_equal(rs_ms_uvwx(N, 16, src, DST, black, q), 0);
    assert_int_equal(q[0], 2);
    assert_int_equal(q[1], 2);
    assert_int_equal(q[2], 2);
    assert_int_equal(q[3], 3);
    rs_ms_colour(N, 16, src, DST, RS_MS_COL_B, 1, black);
    static const uint8_t want_b[16] = {1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1};
    assert_memory_equal(black, want_b, 16);
    assert_int_equal(rs_ms_uvwx(N, 16, src, DST, black, q), 0);
    assert_int_equal(q[0], 4);
    assert_int_equal(q[1], 3);
    assert_int_equal(q[2], 2);
    assert_int_equal(q[3], 2);
}

/* Colouring A sorted over the whole 4 x 4 mesh (side 4). Blacks by destination row-major:
 * (0,0)<-(1,1), (0,1)<-(3,1), (0,3)<-(2,0), (1,0)<-(1,3), (1,1)<-(0,2), (1,2)<-(2,2),
 * (2,2)<-(3,3), (3,3)<-(0,0) fill rows 0 and 1. Whites by destination column-major (col,
 * row): (0,2)<-(0,1), (0,3)<-(3,2), (1,2)<-(2,3), (1,3)<-(1,0), (2,0)<-(0,3), (2,3)<-(2,1),
 * (3,1)<-(3,0), (3,2)<-(1,2) fill columns 0 and 1 top-down. Shearsort on m = 4: 3 row
 * phases, 2 column phases, 1 final row phase of 4 steps = 24 exchange steps. */
static void test_sort_whole(void **state)
{
    (void)state;
    uint32_t pos[16], q[4];
    uint8_t black[16];
    int rc = -1;
    sources(pos);
    rs_ms_colour(N, 16, pos, DST, RS_MS_COL_A, 1, black);
    assert_int_equal(rs_ms_sort(N, 4, 16, pos, DST, black, &rc), 24);
    assert_int_equal(rc, 0);
    assert_int_equal(pos[RC(1, 1)], RC(0, 0));
    assert_int_equal(pos[RC(3, 1)], RC(0, 1));
    assert_int_equal(pos[RC(2, 0)], RC(0, 2));
    assert_int_equal(pos[RC(1, 3)], RC(0, 3));
    assert_int_equal(pos[RC(0, 2)], RC(1, 0));
    assert_int_equal(pos[RC(2, 2)], RC(1, 1));
    assert_int_equal(pos[RC(3, 3)], RC(1, 2));
    assert_int_equal(pos[RC(0, 0)], RC(1, 3));
    assert_int_equal(pos[RC(0, 1)], RC(0, 0));
    assert_int_equal(pos[RC(3, 2)], RC(1, 0));
    assert_int_equal(pos[RC(2, 3)], RC(2, 0));
    assert_int_equal(pos[RC(1, 0)], RC(3, 0));
    assert_int_equal(pos[RC(0, 3)], RC(0, 1));
    assert_int_equal(pos[RC(2, 1)], RC(1, 1));
    assert_int_equal(pos[RC(3, 0)], RC(2, 1));
    assert_int_equal(pos[RC(1, 2)], RC(3, 1));
    assert_int_equal(rs_ms_uvwx(N, 16, pos, DST, black, q), 0);
    assert_int_equal(q[0], 2);
    assert_int_equal(q[1], 2);
    assert_int_equal(q[2], 2);
    assert_int_equal(q[3], 3);
}

/* Side 2 (f = 2): each 2 x 2 submesh sorts its two blacks into its top row and its two
 * whites into its left column; 8 exchange steps (m = 2: 2 + 1 + 1 phases of 2). */
static void test_sort_submeshes(void **state)
{
    (void)state;
    uint32_t pos[16];
    uint8_t black[16];
    int rc = -1;
    sources(pos);
    rs_ms_colour(N, 16, pos, DST, RS_MS_COL_A, 1, black);
    assert_int_equal(rs_ms_sort(N, 2, 16, pos, DST, black, &rc), 8);
    assert_int_equal(rc, 0);
    /* blacks */
    assert_int_equal(pos[RC(1, 1)], RC(0, 0));
    assert_int_equal(pos[RC(0, 0)], RC(0, 1));
    assert_int_equal(pos[RC(1, 3)], RC(0, 2));
    assert_int_equal(pos[RC(0, 2)], RC(0, 3));
    assert_int_equal(pos[RC(3, 1)], RC(2, 0));
    assert_int_equal(pos[RC(2, 0)], RC(2, 1));
    assert_int_equal(pos[RC(2, 2)], RC(2, 2));
    assert_int_equal(pos[RC(3, 3)], RC(2, 3));
    /* whites */
    assert_int_equal(pos[RC(0, 1)], RC(0, 0));
    assert_int_equal(pos[RC(1, 0)], RC(1, 0));
    assert_int_equal(pos[RC(0, 3)], RC(0, 2));
    assert_int_equal(pos[RC(1, 2)], RC(1, 2));
    assert_int_equal(pos[RC(2, 1)], RC(2, 0));
    assert_int_equal(pos[RC(3, 0)], RC(3, 0));
    assert_int_equal(pos[RC(3, 2)], RC(2, 2));
    assert_int_equal(pos[RC(2, 3)], RC(3, 2));
}

/* f(n): largest divisor of n up to round(log2 n) or round(sqrt n); shearsort's count. */
static void test_f_and_cost(void **state)
{
    (void)state;
    assert_int_equal(rs_ms_f(256, 0), 8);
    assert_int_equal(rs_ms_f(256, 1), 16);
    assert_int_equal(rs_ms_f(64, 0), 4); /* log2 64 = 6 does not divide 64 */
    assert_int_equal(rs_ms_f(64, 1), 8);
    assert_int_equal(rs_ms_f(8, 1), 2);  /* sqrt 8 = 2.83 -> 3 -> 2 */
    assert_int_equal(rs_ms_f(4, 0), 2);
    assert_int_equal(rs_ms_f(2, 0), 1);
    assert_int_equal(rs_ms_sort_steps(1), 0);
    assert_int_equal(rs_ms_sort_steps(2), 8);
    assert_int_equal(rs_ms_sort_steps(32), 384);
    assert_int_equal(rs_ms_sort_steps(5), 40); /* ceil(log2 5) = 3: (6 + 2) * 5 */
}

/* Random colouring of 64 x 64 sources and destinations (the identity): the same seed gives
 * the same colours, another seed others; (u, v, w, x) within Lemma 5's n/2 + sqrt(3n ln 2n)
 * = 32 + 30.2 (it holds with probability above 1 - 1/n; seed fixed). After a sort in
 * 16 x 16 submeshes, u and v grow by at most f = 4 (Lemma 3), w and x stay. */
static void test_random(void **state)
{
    (void)state;
    enum { M = 64 };
    static uint32_t src[M * M], pos[M * M];
    static uint8_t b1[M * M], b2[M * M];
    uint32_t q[4], q2[4];
    int rc = -1;
    for (uint32_t s = 0; s < M * M; s++)
        src[s] = pos[s] = s;
    rs_ms_colour(M, M * M, src, src, RS_MS_COL_C, 7, b1);
    rs_ms_colour(M, M * M, src, src, RS_MS_COL_RANDOM, 7, b2);
    assert_memory_equal(b1, b2, M * M);
    rs_ms_colour(M, M * M, src, src, RS_MS_COL_RANDOM, 8, b2);
    assert_memory_not_equal(b1, b2, M * M);
    assert_int_equal(rs_ms_uvwx(M, M * M, src, src, b1, q), 0);
    for (int i = 0; i < 4; i++)
        assert_in_range(q[i], 33, 62);
    assert_int_equal(rs_ms_sort(M, 16, M * M, pos, src, b1, &rc), rs_ms_sort_steps(16));
    assert_int_equal(rc, 0);
    assert_int_equal(rs_ms_uvwx(M, M * M, pos, src, b1, q2), 0);
    assert_true(q2[0] <= q[0] + 4 && q2[1] <= q[1] + 4);
    assert_int_equal(q2[2], q[2]);
    assert_int_equal(q2[3], q[3]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colourings),     cmocka_unit_test(test_sort_whole),
        cmocka_unit_test(test_sort_submeshes), cmocka_unit_test(test_f_and_cost),
        cmocka_unit_test(test_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
