/* The Lev-Pippenger-Valiant router on CB-LCAN(N,d,d) (src/algo/lpv.c), checked on the
 * channels themselves (the engine check is tests/algo/test_offline.c): a hand-worked N = 4
 * example, every permutation of N = 8 (d = 2) and of N = 9 (d = 3), random permutations
 * of larger networks, l = 1, and a destination list that is not a permutation. */
#include "rs_test.h"

#include "algo/lcan_plan.h"
#include "routesim/rng.h"

/* 1 when the circuits s -> dst[s] through top switches top[s] (base-d digits k_0 ..
 * k_{l-2}) use every up channel (s div d^(j+1), k_0..k_j) and every down channel
 * (dst div d^(j+1), k_0..k_j) once, j = 0..l-2 (002 §2.1 labels; the same channels in the
 * CB-LCAN and in its unfolding). */
static int disjoint(uint32_t N, uint32_t d, uint32_t l, const uint32_t *dst,
                    const uint32_t *top)
{
    uint8_t *up = calloc(N, 1), *down = calloc(N, 1);
    int ok = 1;
    uint32_t span = d, rest = N / d; /* d^(j+1), d^(l-1-j) */
    for (uint32_t j = 0; j + 1 < l && ok; j++, span *= d) {
        rest /= d; /* d^(l-2-j): the digits below k_j */
        memset(up, 0, N);
        memset(down, 0, N);
        for (uint32_t s = 0; s < N && ok; s++) {
            uint32_t k = top[s] / rest; /* k_0..k_j, d^(j+1) values */
            ok = !up[(s / span) * span + k]++ && !down[(dst[s] / span) * span + k]++;
        }
    }
    free(up);
    free(down);
    return ok;
}

/* N = 4, d = 2, l = 2: 0 -> 2, 1 -> 3, 2 -> 0, 3 -> 1. Level 0 is the graph left s div 2,
 * right dst div 2: e0 = (0,1), e1 = (0,1), e2 = (1,0), e3 = (1,0); its colouring (worked in
 * test_edge_colour.c) gives k_0 = 0, 1, 0, 1: PEs 0 and 2 through top switch 0, PEs 1 and
 * 3 through top switch 1; both level-0 switches send one message up each upper. */
static void test_hand_worked(void **state)
{
    const uint32_t dst[4] = {2, 3, 0, 1}, want[4] = {0, 1, 0, 1};
    uint32_t top[4];
    struct rs_err err;
    assert_int_equal(rs__lpv_route(4, 2, 2, dst, 1, top, &err), 0);
    for (int s = 0; s < 4; s++)
        assert_int_equal(top[s], want[s]);
    assert_true(disjoint(4, 2, 2, dst, top));
    /* the other pairing shares level-0 channels: PEs 0 and 1 both on upper 0 */
    const uint32_t wrong[4] = {0, 0, 1, 1};
    assert_false(disjoint(4, 2, 2, dst, wrong));
}

/* Visit every permutation of n (Heap's algorithm) and route it. */
static void all_permutations(uint32_t n, uint32_t d, uint32_t l)
{
    uint32_t p[16], c[16] = {0}, top[16], count = 0;
    struct rs_err err;
    for (uint32_t i = 0; i < n; i++)
        p[i] = i;
    for (uint32_t i = 0;;) {
        assert_int_equal(rs__lpv_route(n, d, l, p, 1, top, &err), 0);
        if (!disjoint(n, d, l, p, top))
            fail_msg("N=%u d=%u: permutation %u is not routed disjointly", n, d, count);
        count++;
        while (i < n && c[i] >= i) {
            c[i] = 0;
            i++;
        }
        if (i == n)
            break;
        uint32_t k = i % 2 ? c[i] : 0, t = p[k];
        p[k] = p[i];
        p[i] = t;
        c[i]++;
        i = 1;
    }
    uint32_t fact = 1;
    for (uint32_t i = 2; i <= n; i++)
        fact *= i;
    assert_int_equal(count, fact);
}

static void test_every_permutation(void **state)
{
    all_permutations(8, 2, 3);
    all_permutations(9, 3, 2);
}

/* Random permutations of N = d^l for d = 2..9 and several l: disjoint circuits. */
static void test_random(void **state)
{
    const uint32_t cases[][2] = {{2, 10}, {3, 5}, {4, 4}, {5, 3}, {6, 3}, {7, 3}, {8, 3}, {9, 3},
                                 {16, 2}, {64, 2}};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        uint32_t d = cases[c][0], l = cases[c][1], N = 1;
        for (uint32_t j = 0; j < l; j++)
            N *= d;
        uint32_t *dst = malloc(N * sizeof *dst), *top = malloc(N * sizeof *top);
        for (uint64_t r = 0; r < 20; r++) {
            struct rs_err err;
            rs_random_permutation(dst, N, 11, RS_STREAM_TEST, (uint64_t)d << 32 | r);
            assert_int_equal(rs__lpv_route(N, d, l, dst, 1, top, &err), 0);
            if (!disjoint(N, d, l, dst, top))
                fail_msg("N=%u d=%u: replication %llu not disjoint", N, d, (unsigned long long)r);
        }
        free(dst);
        free(top);
    }
}

/* One level (N = d): no up choice, top switch 0; two PEs bound for one destination are
 * refused. */
static void test_edges(void **state)
{
    const uint32_t dst[4] = {3, 1, 2, 0}, bad[4] = {1, 1, 2, 0};
    uint32_t top[4] = {9, 9, 9, 9};
    struct rs_err err;
    assert_int_equal(rs__lpv_route(4, 4, 1, dst, 1, top, &err), 0);
    for (int s = 0; s < 4; s++)
        assert_int_equal(top[s], 0);
    assert_int_equal(rs__lpv_route(4, 2, 2, bad, 1, top, &err), RS_EINVARIANT);
    assert_string_equal(err.msg, "off-line router: level 0 is not a d-regular graph (the "
                                 "destinations are not a permutation)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_every_permutation),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
