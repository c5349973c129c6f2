/* Edge colouring of regular bipartite multigraphs (src/algo/edge_colour.c): a hand-worked
 * Euler split, parallel edges, every degree 1..12 on random multigraphs of several sizes
 * (each vertex sees every colour once), reuse of one colourer, non-regular input refused. */
#include "rs_test.h"

#include "algo/lcan_plan.h"
#include "routesim/rng.h"

/* 1 when every vertex of the graph has exactly one edge of each colour 0..k-1. */
static int proper(uint32_t n, uint32_t k, const uint32_t *left, const uint32_t *right,
                  const uint32_t *colour)
{
    uint8_t *seen = calloc((size_t)2 * n * k, 1);
    int ok = 1;
    for (uint32_t e = 0; e < n * k && ok; e++) {
        ok = colour[e] < k && !seen[(size_t)left[e] * k + colour[e]]++ &&
             !seen[((size_t)n + right[e]) * k + colour[e]]++;
    }
    free(seen);
    return ok;
}

/* n = 2, k = 2, edges e0 = (0,1), e1 = (0,1), e2 = (1,0), e3 = (1,0). The split pairs the
 * edges at each vertex in list order: left 0 pairs e0-e1, left 1 e2-e3, right 0 e2-e3,
 * right 1 e0-e1. The walk from e0 gives e0 side 0, its right partner e1 side 1, whose left
 * partner is e0 again; then e2 side 0, e3 side 1. Side 0 keeps the lower colours: e0 and
 * e2 get colour 0, e1 and e3 colour 1. */
static void test_hand_worked(void **state)
{
    struct rs__colourer c;
    struct rs_err err;
    const uint32_t left[4] = {0, 0, 1, 1}, right[4] = {1, 1, 0, 0};
    uint32_t colour[4];
    assert_int_equal(rs__colour_init(&c, 2, 2, &err), 0);
    assert_int_equal(rs__colour_run(&c, left, right, 5, 0, colour, &err), 0);
    const uint32_t want[4] = {0, 1, 0, 1};
    for (int e = 0; e < 4; e++)
        assert_int_equal(colour[e], want[e]);
    rs__colour_free(&c);
}

/* One vertex per side, k parallel edges: the colours are 0..k-1 once each, for even and odd
 * k (an odd k takes a perfect matching first). */
static void test_parallel_edges(void **state)
{
    for (uint32_t k = 1; k <= 13; k++) {
        struct rs__colourer c;
        struct rs_err err;
        uint32_t left[13] = {0}, right[13] = {0}, colour[13];
        assert_int_equal(rs__colour_init(&c, 1, k, &err), 0);
        assert_int_equal(rs__colour_run(&c, left, right, 5, 0, colour, &err), 0);
        assert_true(proper(1, k, left, right, colour));
        rs__colour_free(&c);
    }
}

/* Random k-regular multigraphs: the union of k random perfect matchings (edge i of
 * matching r joins i to pi_r(i), so parallel edges occur), k = 1..12, n = 1, 2, 3, 7, 64,
 * 1000, each coloured by one colourer twice (reuse) with the same result. */
static void test_random_regular(void **state)
{
    const uint32_t sizes[] = {1, 2, 3, 7, 64, 1000};
    for (uint32_t k = 1; k <= 12; k++)
        for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
            uint32_t n = sizes[si], m = n * k;
            uint32_t *left = malloc(m * sizeof *left), *right = malloc(m * sizeof *right);
            uint32_t *colour = malloc(m * sizeof *colour), *again = malloc(m * sizeof *again);
            uint32_t *pi = malloc(n * sizeof *pi);
            for (uint32_t r = 0; r < k; r++) {
                rs_random_permutation(pi, n, 7, RS_STREAM_TEST, (uint64_t)k << 32 | n << 4 | r);
                for (uint32_t i = 0; i < n; i++) {
                    left[r * n + i] = i;
                    right[r * n + i] = pi[i];
                }
            }
            struct rs__colourer c;
            struct rs_err err;
            assert_int_equal(rs__colour_init(&c, n, k, &err), 0);
            assert_int_equal(rs__colour_run(&c, left, right, 5, 0, colour, &err), 0);
            if (!proper(n, k, left, right, colour))
                fail_msg("n=%u k=%u: not a proper colouring", n, k);
            assert_int_equal(rs__colour_run(&c, left, right, 5, 0, again, &err), 0);
            assert_memory_equal(colour, again, m * sizeof *colour);
            rs__colour_free(&c);
            free(left);
            free(right);
            free(colour);
            free(again);
            free(pi);
        }
}

/* A graph that is not k-regular is refused before anything is coloured; so is an end out
 * of range. */
static void test_not_regular(void **state)
{
    struct rs__colourer c;
    struct rs_err err;
    const uint32_t left[4] = {0, 0, 0, 1}, right[4] = {0, 1, 1, 0}, bad[4] = {0, 1, 2, 0};
    uint32_t colour[4];
    assert_int_equal(rs__colour_init(&c, 2, 2, &err), 0);
    assert_int_equal(rs__colour_run(&c, left, right, 5, 0, colour, &err), RS_EINVARIANT);
    assert_string_equal(err.msg, "edge colouring: left vertex 0 has degree 3, not 2");
    assert_int_equal(rs__colour_run(&c, left, bad, 5, 0, colour, &err), RS_EINVARIANT);
    assert_string_equal(err.msg, "edge colouring: edge 2 has an end out of 0..1");
    rs__colour_free(&c);
    assert_int_equal(rs__colour_init(&c, 0, 2, &err), RS_ECONSTRAINT);
    rs__colour_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_parallel_edges),
        cmocka_unit_test(test_random_regular),
        cmocka_unit_test(test_not_regular),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
