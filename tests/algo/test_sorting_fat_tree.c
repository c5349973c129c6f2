/* algorithm=sorting_fat_tree (000 §4.3): the smallest sorting fat-tree with a tree (N = 32,
 * two 4 x 4 meshes) worked by hand, every step's time exact; every message delivered and
 * Lemma 10's count on random permutations; the refusal of a set that is no partial
 * permutation. */
#include <string.h>

#include "rs_test.h"

#include "routesim/flexsort.h"
#include "routesim/sorting_fat_tree.h"

/* N = 32 side=4: meshes 0 (terminals 0..15) and 1 (16..31), H = 1, cap(1) = 4, the root's
 * sorter (b=L, s=8, l=32). b = 4: L = 4 + 2*5 + ceil(log2 2) + ceil(log2 5) = 18. m0: 0 ->
 * 16 and m1: 17 -> 1 (peak 0), m2: 5 -> 6 (local). Mesh sort 3*4 + 18 = 30 (steps 1, 3, 8).
 * Step 2: 5 + 1 * 2 (5 + 3 - 1) + 3 = 22 (W = 3 counter bits). Ranks by source: m0 0, m1 1:
 * up-batches 0 and 1 of 5. Step 4: 11 stages (2*4 + 1 + 1 + 1) of sync 2; batch j leaves its
 * mesh in stage 2j + 1 (one wave, 18) and is sorted at the root in stage 2j + 2 (F1 =
 * sorter time of 1 word): 11*2 + 2*18 + 2 F1. Step 5: 2 + F2 (both at the root). Step 6:
 * by destination m1 (1) then m0 (16): down-batches 0, 1; 2 + 3 + F2. Step 7: 9 stages
 * (2*4 + 1) of sync 2, batch j at the root in stage 2j: F1 + one wave 18 each. */
static void test_hand_worked_32(void **state)
{
    (void)state;
    struct rs__sft s;
    rs__sft_init(&s, 5, 2);
    assert_int_equal(s.H, 1);
    assert_int_equal(s.cap[1], 4);
    const uint32_t src[] = {0, 17, 5}, dst[] = {16, 1, 6};
    uint64_t fin[3];
    struct rs__sft_run r = {.s = &s, .m = 3, .src = src, .dst = dst, .bits = 4, .finish = fin};
    struct rs_err err;
    struct rs_fsort_time f1, f2;
    assert_int_equal(rs_fsort_time(18, 8, 1, 32, &f1, &err), 0);
    assert_int_equal(rs_fsort_time(18, 8, 2, 32, &f2, &err), 0);
    assert_int_equal(rs__sft_route(&r, &err), 0);
    assert_int_equal(r.L, 18);
    const uint64_t want[8] = {30, 22, 30, 22 + 36 + 2 * f1.total, 2 + f2.total,
                              5 + f2.total, 18 + 36 + 2 * f1.total, 30};
    for (int i = 0; i < 8; i++)
        assert_int_equal(r.step[i], want[i]);
    assert_int_equal(r.bit_steps, 231 + 4 * f1.total + 2 * f2.total);
    assert_int_equal(r.stages_up, 11);
    assert_int_equal(r.stages_down, 9);
    assert_int_equal(r.delivered, 3);
    assert_int_equal(r.local, 1);
    assert_int_equal(fin[2], 30);
    assert_int_equal(fin[0], r.bit_steps);
    /* one message up and one down on each mesh channel of 4 wires */
    assert_true(r.lambda_a == 0.25 && r.lambda_d == 0.25 && r.lambda == 0.5);
    assert_true(r.batch_lambda_a[0] == 0.25 && r.batch_lambda_a[1] == 0.25 &&
                r.batch_lambda_a[2] == 0);
    assert_int_equal(r.lemma10_excess, 0);
    /* the flexible sorter of one and two words: one partly empty column, w = 1 */
    assert_int_equal(f1.total, f2.total);
}

/* Random permutations on N = 256 (4 meshes of 16 x 16) and N = 128 side=2 (32 meshes):
 * every message delivered, Lemma 10's count, and its batches' load factors within
 * 1 + lambda_a / log N (the proof's explicit bound, capacities >= 1). */
static void test_random_sets(void **state)
{
    (void)state;
    const char *const kv[] = {
        "topology=sorting_fat_tree N=256 traffic=randperm switching=circuit "
        "algorithm=sorting_fat_tree seed=%u",
        "topology=sorting_fat_tree N=128 side=2 traffic=randperm switching=circuit "
        "algorithm=sorting_fat_tree seed=%u"};
    for (unsigned k = 0; k < 2; k++)
        for (unsigned seed = 1; seed <= 4; seed++) {
            char buf[256];
            struct rs_record rec;
            snprintf(buf, sizeof buf, kv[k], seed);
            rs_test_run(buf, &rec);
            assert_int_equal(rs_test_int(&rec, "delivered"), rs_test_int(&rec, "messages"));
            assert_int_equal(rs_test_int(&rec, "lemma10_excess"), 0);
            assert_true(rs_test_int(&rec, "bit_steps") > 0);
            assert_true(rs_test_double(&rec, "theorem3_ratio") > 0);
            rs_record_free(&rec);
        }
}

static void test_refusals(void **state)
{
    (void)state;
    struct rs_record rec;
    char msg[512];
    assert_int_equal(rs_test_try("topology=sorting_fat_tree N=64 traffic=uniform "
                                 "switching=circuit algorithm=sorting_fat_tree seed=3",
                                 1, &rec, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "routes partial permutations"));
    rs_record_free(&rec);
    assert_int_equal(rs_test_try("topology=fat_tree N=64 traffic=randperm "
                                 "switching=circuit algorithm=sorting_fat_tree",
                                 1, &rec, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&rec);
}

/* Theorem 2's premise in the tree (000 §4.2): every node's (b, 2 cap(k+1), n_k)-sorter has
 * l = n_k <= s^2 / 2 (gamma = 2), so the phases Lemma 8 needs for any w <= l/s it can be
 * asked stay a constant: at most 16 (depth 2) for every node of every N = 2^6 .. 2^22, and
 * exactly 16 at the root's w = N/(2s) (a random permutation's peak set) from N = 2^9 on,
 * never growing with N. Integer-rounded virtual columns give depth 2, not the formula's. */
static void test_sorter_phases_constant(void **state)
{
    (void)state;
    struct rs_err err = {0};
    for (uint32_t n = 6; n <= 22; n++) {
        uint32_t logm = 1;
        while ((1u << logm) < n)
            logm++;
        struct rs__sft s;
        rs__sft_init(&s, n, logm);
        for (uint32_t k = 0; k < s.H; k++) {
            uint32_t sz = 2 * s.cap[k + 1], l = 1u << (n - k);
            assert_true((uint64_t)l * 2 <= (uint64_t)sz * sz);
            for (uint32_t w = 1; w <= l / sz; w *= 2) {
                struct rs_fsort_shape sh;
                assert_int_equal(rs_fsort_shape(sz, w, &sh, &err), 0);
                assert_true(sh.phases <= 16);
                if (k == 0 && n >= 9 && w == (1u << (n - 1)) / sz)
                    assert_int_equal(sh.phases, 16);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked_32),
        cmocka_unit_test(test_random_sets),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_sorter_phases_constant),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
