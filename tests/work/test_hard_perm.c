/* traffic=hard_permutation (004 §3, Theorem 3.1): the choice of r, the construction (a
 * permutation, deterministic, the busy structure), the engine reproducing the adversary's
 * simulation step for step (same makespan), FIFO at or above the proof's bound on N = 64
 * and 256, a randomized protocol on the same permutation, and the refusals. */
#include "rs_test.h"

#include "routesim/hard_perm.h"

/* r maximises 2^d (r - (q+2)(d+1)) over r = 2^k, r^2 <= N, r > (q+2)(d+1), by hand:
 *   n=6,  q=2: k=3 (r=8, d=0): 8-4 = 4; k=2: 4 > 3*4 fails                -> (8, 0, 4)
 *   n=8,  q=2: k=4: 16-4 = 12; k=3 (d=2): 8 > 12 fails                      -> (16, 0, 12)
 *   n=9,  q=2: k=4 (d=1): 2*(16-8) = 16; k=3 (d=3): 8 > 16 fails            -> (16, 1, 16)
 *   n=12, q=2: k=6: 60; k=5 (d=2): 4*(32-12) = 80; k=4 (d=4): 16 > 20 fails -> (32, 2, 80)
 *   n=16, q=2: k=8: 252; k=7: 4*116 = 464; k=6 (d=4): 16*(64-20) = 704;
 *              k=5 (d=6): 64*(32-28) = 256                                  -> (64, 4, 704)
 *   n=4,  q=0: k=2: 4-2 = 2                                                  -> (4, 0, 2)
 * asymptotic N/(4(q+2)(n+1)): n=16, q=2: 65536/272. */
static void test_choose(void **state)
{
    static const struct {
        uint32_t n, q, r, d;
        uint64_t bound;
    } cases[] = {{6, 2, 8, 0, 4},   {8, 2, 16, 0, 12},  {9, 2, 16, 1, 16},
                 {12, 2, 32, 2, 80}, {16, 2, 64, 4, 704}, {4, 0, 4, 0, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct rs_hard_params hp;
        struct rs_err err;
        assert_int_equal(rs_hard_choose(cases[i].n, cases[i].q, &hp, &err), 0);
        assert_int_equal(hp.r, cases[i].r);
        assert_int_equal(hp.d, cases[i].d);
        assert_int_equal(hp.k + hp.k + hp.d, cases[i].n);
        assert_int_equal(hp.bound, cases[i].bound);
    }
    struct rs_hard_params hp;
    struct rs_err err;
    assert_int_equal(rs_hard_choose(16, 2, &hp, &err), 0);
    assert_true(hp.asymptotic == 65536.0 / 272.0);
    /* n=5, q=2: k=2 (d=1): 4 > 8 fails, k=1 (d=3): 2 > 16 fails; n=6 works */
    assert_int_equal(rs_hard_choose(5, 2, &hp, &err), RS_ECONSTRAINT);
    assert_non_null(strstr(err.msg, "the smallest N for it is 2^6 = 64"));
    assert_int_equal(rs_hard_choose(3, 0, &hp, &err), RS_ECONSTRAINT);
    assert_non_null(strstr(err.msg, "2^4 = 16"));
}

/* The construction is a permutation, the same twice, and has the proof's structure: the
 * N/r inputs whose top k bits are 0 go to the outputs whose low k bits are 0 (through the
 * input trees, the busy sub-butterfly and the output trees), the others elsewhere. */
static void test_permutation(void **state)
{
    static const enum rs_hard_proto protos[] = {RS_HARD_FIFO, RS_HARD_PRIORITY,
                                                RS_HARD_FURTHEST_FIRST};
    static const uint32_t ns[] = {6, 8, 9, 12};
    for (size_t i = 0; i < 4; i++)
        for (size_t p = 0; p < 3; p++) {
            struct rs_hard_params hp;
            struct rs_err err;
            uint32_t N = 1u << ns[i], m1, m2;
            uint32_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
            uint8_t *seen = calloc(N, 1);
            assert_true(a && b && seen);
            assert_int_equal(rs_hard_choose(ns[i], 2, &hp, &err), 0);
            assert_int_equal(rs_hard_build(&hp, protos[p], a, &m1, &err), 0);
            assert_int_equal(rs_hard_build(&hp, protos[p], b, &m2, &err), 0);
            assert_memory_equal(a, b, N * sizeof *a);
            assert_int_equal(m1, m2);
            uint32_t low = hp.r - 1;
            for (uint32_t t = 0; t < N; t++) {
                assert_true(a[t] < N && !seen[a[t]]);
                seen[a[t]] = 1;
                assert_int_equal(t < (N >> hp.k), (a[t] & low) == 0);
            }
            free(a);
            free(b);
            free(seen);
        }
}

/* Route the permutation with the protocol it was built for: the engine's makespan is the
 * construction's (its simulation is the engine's step), at least bound_hard, and the record
 * carries the bounds. Exact figures for FIFO, q = 2: N = 64: 13 steps, bound 4 (ratio 3.25);
 * N = 256: 23, bound 12 (1.92) -- at these sizes d = 0 and the busy sub-butterfly is one
 * switch through which r packets pass; N = 4096: 115 against 80 (d = 2). */
static void test_engine_reproduces(void **state)
{
    static const char *const names[] = {"fifo", "priority", "furthest_first"};
    static const enum rs_hard_proto protos[] = {RS_HARD_FIFO, RS_HARD_PRIORITY,
                                                RS_HARD_FURTHEST_FIRST};
    static const uint32_t ns[] = {6, 8, 9, 12};
    static const int64_t fifo_makespan[] = {13, 23, 34, 115};
    for (size_t i = 0; i < 4; i++)
        for (size_t p = 0; p < 3; p++) {
            struct rs_hard_params hp;
            struct rs_err err;
            struct rs_record r;
            uint32_t N = 1u << ns[i], predicted;
            uint32_t *dst = malloc(N * sizeof *dst);
            assert_non_null(dst);
            assert_int_equal(rs_hard_choose(ns[i], 2, &hp, &err), 0);
            assert_int_equal(rs_hard_build(&hp, protos[p], dst, &predicted, &err), 0);
            free(dst);
            char kv[256];
            snprintf(kv, sizeof kv,
                     "topology=butterfly N=%u traffic=hard_permutation queue_at=switch "
                     "queue_threshold=2 protocol=%s check=%d",
                     N, names[p], N <= 512);
            rs_test_run(kv, &r);
            assert_int_equal(rs_test_int(&r, "makespan"), predicted);
            assert_int_equal(rs_test_int(&r, "delivered"), N);
            assert_int_equal(rs_test_int(&r, "bound_hard"), (int64_t)hp.bound);
            assert_int_equal(rs_test_int(&r, "hard_r"), hp.r);
            assert_int_equal(rs_test_int(&r, "hard_depth"), hp.d);
            assert_true(rs_test_int(&r, "makespan") >= (int64_t)hp.bound);
            assert_true(rs_test_double(&r, "makespan_over_bound_hard") ==
                        (double)predicted / (double)hp.bound);
            if (p == 0)
                assert_int_equal(rs_test_int(&r, "makespan"), fifo_makespan[i]);
            /* congestion: r/2 paths on each edge out of a busy switch; the packets outside
             * (the k-bit fields swapped) take the straight edge r at a time through the
             * middle levels, which exist when d > 0 */
            assert_int_equal(rs_test_int(&r, "congestion"), hp.d ? hp.r : hp.r / 2);
            rs_record_free(&r);
        }
}

/* The FIFO permutation routed by protocol=random (seeds 1..5): within 2 (r + log2 N) steps
 * -- O(q log N), the permutation's congestion r/2 per edge plus the path -- where FIFO
 * takes 115 > 2 (32 + 12) = 88 steps at N = 4096. Measured: 13 (N = 64), 23 (256), 50-58
 * (4096). */
static void test_random_contrast(void **state)
{
    static const uint32_t ns[] = {6, 8, 12};
    for (size_t i = 0; i < 3; i++)
        for (int seed = 1; seed <= 5; seed++) {
            struct rs_hard_params hp;
            struct rs_err err;
            struct rs_record r;
            char kv[256];
            assert_int_equal(rs_hard_choose(ns[i], 2, &hp, &err), 0);
            snprintf(kv, sizeof kv,
                     "topology=butterfly N=%u traffic=hard_permutation queue_at=switch "
                     "queue_threshold=2 hard_protocol=fifo protocol=random seed=%d",
                     1u << ns[i], seed);
            rs_test_run(kv, &r);
            assert_true(rs_test_int(&r, "makespan") <= 2 * (int64_t)(hp.r + ns[i]));
            rs_record_free(&r);
        }
}

/* What the construction refuses, and why. */
static void test_refusals(void **state)
{
    static const struct {
        const char *kv, *msg;
    } cases[] = {
        {"N=64 protocol=random queue_at=switch queue_threshold=2", "it is randomized"},
        {"N=64 protocol=rank queue_at=switch queue_threshold=2", "draws its rank at random"},
        {"N=64 hard_protocol=random protocol=fifo queue_at=switch queue_threshold=2",
         "it is randomized"},
        {"N=32 queue_at=switch queue_threshold=2", "the smallest N for it is 2^6 = 64"},
        {"N=64 queue_at=switch queue_size=2", "needs queue_threshold=q and queue_at=switch"},
        {"N=64 queue_threshold=2", "needs queue_at=switch"},
        {"N=64 queue_at=switch queue_threshold=2 per_input=2", "per_input must be 1"},
        {"N=64 queue_at=switch queue_threshold=2 on_full=drop", "needs on_full=block"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char kv[256], msg[1024];
        struct rs_record r;
        snprintf(kv, sizeof kv, "topology=butterfly traffic=hard_permutation %s", cases[i].kv);
        assert_int_not_equal(rs_test_try(kv, 1, &r, msg, sizeof msg), 0);
        if (!strstr(msg, cases[i].msg))
            fail_msg("%s: got '%s'", kv, msg);
        rs_record_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choose),
        cmocka_unit_test(test_permutation),
        cmocka_unit_test(test_engine_reproduces),
        cmocka_unit_test(test_random_contrast),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
