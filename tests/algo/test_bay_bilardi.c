/* algorithm=bay_bilardi's stages (000 §3.3): a run on N = 16 worked by hand (every batch,
 * where each message lands, every time of the bit-serial cost model), every message
 * delivered on random permutations and random sets of degree d, and Lemma 6 (lambda_T <=
 * 2 ceil(lambda(M))) and Lemma 7 (sidetracked messages at a processor <= (d+1) log N + d) on
 * them. */
#include <math.h>

#include "rs_test.h"

#include "routesim/alloc.h"
#include "routesim/bay_bilardi.h"
#include "routesim/rng.h"

/* ---- the hand-worked run ----------------------------------------------------------------- */

struct trace_log {
    char text[1024];
    size_t used;
};

static void trace(void *user, uint32_t stage, uint32_t subtree, uint32_t batch,
                  const uint32_t *msgs, const uint32_t *landed, uint32_t s)
{
    struct trace_log *t = user;
    t->used += (size_t)snprintf(t->text + t->used, sizeof t->text - t->used, "[%u %u %u:", stage,
                                subtree, batch);
    for (uint32_t h = 0; h < s; h++)
        t->used += (size_t)snprintf(t->text + t->used, sizeof t->text - t->used, " m%u>%u",
                                    msgs[h], landed[h]);
    t->used += (size_t)snprintf(t->text + t->used, sizeof t->text - t->used, "]");
}

/* N = 16, docs/bay-bilardi.md "A run worked by hand". Stage 0, T = left half: 6 messages,
 * c_T (4 wires) gives lambda_T = ceil(6/4) = 2; batch 0 = {m0, m2, m4} (positions 0, 2, 4
 * in leaf order), batch 1 = {m1, m3, m5}. Batch 1 sorted at the root: m3 (8), m5 (8), m1
 * (9); m3 and m1 meet at <2,2,0> both wanting node (3,4): m1 (larger destination) is
 * sidetracked to node (3,5) and, alone at <3,5,0> whose direction bit is "left", lands at
 * leaf 10. T = right half sends m6 to leaf 3. Stage 2: m1 (peak 2 from leaf 10) is
 * compressed to <2,2,0> and expanded to leaf 9. */
static void test_hand_worked_16(void **state)
{
    (void)state;
    struct rs__pb pb;
    rs__pb_init(&pb, 4);
    const uint32_t src[] = {0, 1, 2, 3, 4, 5, 12}, dst[] = {8, 9, 8, 8, 12, 8, 3};
    uint64_t fin[7];
    struct trace_log log = {.used = 0};
    struct rs__bb_run r = {.pb = &pb, .m = 7, .src = src, .dst = dst, .bits = 4,
                           .finish = fin, .trace = trace, .trace_user = &log};
    struct rs_err err;
    assert_int_equal(rs__bb_route(&r, &err), 0);
    assert_string_equal(log.text, "[0 0 0: m0>8 m2>8 m4>12][0 1 0: m6>3]"
                                  "[0 0 1: m3>8 m5>8 m1>10][2 5 0: m1>9]");
    assert_int_equal(r.delivered, 7);
    assert_int_equal(r.sidetracks, 1);
    assert_int_equal(r.sidetrack_max, 1);
    assert_int_equal(r.st_leaf, 10);
    assert_int_equal(r.compression_conflicts, 0);
    assert_int_equal(r.lambda_t_max, 2);
    assert_int_equal(r.lt_stage, 0);
    assert_int_equal(r.lt_subtree, 0);
    assert_int_equal(r.batch_rounds, 3);
    const uint32_t lam[4] = {2, 0, 1, 0};
    const uint64_t msgs[4] = {7, 0, 1, 0};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(r.stage_lambda[i], lam[i]);
        assert_int_equal(r.stage_msgs[i], msgs[i]);
    }
    /* cost model, n = 4, b = 4, W = bits of 7 = 3, R = 4 + 4 + 2 = 10: set-up 10; stage i
     * with D = 4 - i, sigma = ceil(D/2): partition 5(D + 2) + 3, arrive 4D + 6 sigma + 49,
     * batch arrive + 20 */
    assert_int_equal(r.setup, 10);
    assert_int_equal(r.stage_steps[0], 33 + 2 * 97);
    assert_int_equal(r.stage_steps[1], 28);
    assert_int_equal(r.stage_steps[2], 23 + 83);
    assert_int_equal(r.stage_steps[3], 18);
    assert_int_equal(r.bit_steps, 389);
    const uint64_t want[7] = {120, 351, 120, 217, 120, 217, 120};
    for (int m = 0; m < 7; m++)
        assert_int_equal(fin[m], want[m]);
    assert_int_equal(r.makespan, 351);
    assert_true(fabs(r.latency_mean - 1265.0 / 7) < 1e-9);
    assert_true(r.latency_p99 == 351.0);
}

/* The pieces of the cost model for one stage, by their formulas. */
static void test_cost_model(void **state)
{
    (void)state;
    struct rs__bb_cost c;
    struct rs__bb_stage_cost s;
    rs__bb_cost_init(&c, 10, 10, 1024); /* W = 11 bits, R = 10 + 10 + 4 */
    assert_int_equal(c.W, 11);
    assert_int_equal(c.R, 24);
    rs__bb_stage_cost(&c, 3, &s); /* D = 7, sigma = 4 */
    assert_int_equal(s.partition, 5 * (7 + 11 - 1) + 11);
    assert_int_equal(s.dequeue, 48);
    assert_int_equal(s.rank, 2 * 17);
    assert_int_equal(s.compress, 7 + (4 + 10 + 10) - 1);
    assert_int_equal(s.sort, (4 + 10 - 1) + (4 + 5 - 1) + (4 + 24 - 1));
    assert_int_equal(s.expand, 7 + 21 - 1);
    assert_int_equal(s.enqueue, 48);
    assert_int_equal(s.batch, s.arrive + 48);
}

/* ---- random sets ------------------------------------------------------------------------- */

static double load_factor(const struct rs__pb *pb, uint64_t m, const uint32_t *src,
                          const uint32_t *dst, uint64_t *degree)
{
    uint32_t n = pb->ft.n, N = pb->ft.N;
    uint64_t *load = rs_calloc(2 * (size_t)N, 8), *deg = rs_calloc(N, 8), d = 0;
    double best = 0;
    assert_true(load && deg);
    for (uint64_t q = 0; q < m; q++) {
        deg[src[q]]++;
        if (dst[q] != src[q])
            deg[dst[q]]++;
        for (uint32_t i = n; i >= 1 && (src[q] >> (n - i)) != (dst[q] >> (n - i)); i--) {
            load[rs__ft_node(i, src[q] >> (n - i))]++;
            load[rs__ft_node(i, dst[q] >> (n - i))]++;
        }
    }
    for (uint32_t id = 2; id < 2 * N; id++)
        if ((double)load[id] / pb->ft.cap[rs__ft_level(id)] > best)
            best = (double)load[id] / pb->ft.cap[rs__ft_level(id)];
    for (uint32_t l = 0; l < N; l++)
        d = deg[l] > d ? deg[l] : d;
    rs_free(load);
    rs_free(deg);
    *degree = d;
    return best;
}

/* q messages per source to random destinations (q = 0: a random permutation). */
static void random_set(uint32_t N, uint32_t q, uint64_t seed, uint32_t *src, uint32_t *dst,
                       uint64_t *m)
{
    struct rs_rng r;
    rs_rng_init(&r, seed, RS_STREAM_TRAFFIC, N, q);
    if (q == 0) {
        for (uint32_t l = 0; l < N; l++) {
            src[l] = l;
            dst[l] = l;
        }
        for (uint32_t l = N - 1; l > 0; l--) {
            uint32_t k = rs_rng_below(&r, l + 1), t = dst[l];
            dst[l] = dst[k];
            dst[k] = t;
        }
        *m = N;
        return;
    }
    for (uint64_t k = 0; k < (uint64_t)N * q; k++) {
        src[k] = (uint32_t)(k / q);
        dst[k] = rs_rng_below(&r, N);
    }
    *m = (uint64_t)N * q;
}

static void test_random_sets(void **state)
{
    (void)state;
    for (uint32_t n = 2; n <= 10; n += 2) {
        uint32_t N = 1u << n;
        for (uint32_t q = 0; q <= 3; q++)
            for (uint64_t seed = 1; seed <= (n <= 6 ? 20u : 3u); seed++) {
                struct rs__pb pb;
                uint64_t m, d;
                uint32_t *src = rs_malloc((size_t)N * 3 * 4), *dst = rs_malloc((size_t)N * 3 * 4);
                uint64_t *fin = rs_malloc((size_t)N * 3 * 8);
                assert_true(src && dst && fin);
                rs__pb_init(&pb, n);
                random_set(N, q, seed, src, dst, &m);
                for (uint64_t k = 0; k < m; k++)
                    fin[k] = UINT64_MAX;
                double lambda = load_factor(&pb, m, src, dst, &d);
                struct rs__bb_run r = {.pb = &pb, .m = m, .src = src, .dst = dst, .bits = n,
                                       .finish = fin};
                struct rs_err err;
                assert_int_equal(rs__bb_route(&r, &err), 0);
                assert_int_equal(r.delivered, m);
                for (uint64_t k = 0; k < m; k++) /* every message has an arrival time */
                    assert_true(fin[k] <= r.makespan && (fin[k] > 0 || src[k] == dst[k]));
                assert_true(r.makespan <= r.bit_steps);
                assert_int_equal(r.compression_conflicts, 0);             /* Corollary 1 */
                assert_true(r.lambda_t_max <= 2 * (uint64_t)ceil(lambda - 1e-12)); /* Lemma 6 */
                assert_true(r.sidetrack_max <= (d + 1) * n + d);           /* Lemma 7 */
                rs_free(src);
                rs_free(dst);
                rs_free(fin);
            }
    }
}

/* Same input, same output (no state survives a run). */
static void test_deterministic(void **state)
{
    (void)state;
    struct rs__pb pb;
    uint32_t src[256 * 2], dst[256 * 2];
    uint64_t m, fa[512], fb[512];
    rs__pb_init(&pb, 8);
    random_set(256, 2, 5, src, dst, &m);
    struct rs__bb_run a = {.pb = &pb, .m = m, .src = src, .dst = dst, .bits = 8, .finish = fa};
    struct rs__bb_run b = a;
    b.finish = fb;
    struct rs_err err;
    assert_int_equal(rs__bb_route(&a, &err), 0);
    assert_int_equal(rs__bb_route(&b, &err), 0);
    assert_int_equal(a.bit_steps, b.bit_steps);
    assert_int_equal(a.sidetracks, b.sidetracks);
    assert_memory_equal(fa, fb, m * sizeof *fa);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked_16),
        cmocka_unit_test(test_cost_model),
        cmocka_unit_test(test_random_sets),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
