/* Tests of traffic=inverse_omega: the network by hand for N = 4, every switch setting of
 * N = 8 (exactly the 4096 permutations whose inverse passes the omega network: the window
 * condition), and the generator (always in the class, per_input, power-of-two error). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/fixture.h"
#include "routesim/omega.h"

/* pi is an inverse-omega permutation of N = 2^b exactly when pi^-1 passes the omega
 * network: for every j = 1..b-1 the windows (pi(x) mod 2^j, x div 2^j) are distinct (the
 * line an omega network's circuit from pi(x) to x occupies after b-j stages is that
 * window; Lawrie 1975). Checked here by brute force. */
static int is_inverse_omega(const uint32_t *pi, unsigned b)
{
    uint32_t n = (uint32_t)1 << b;
    uint8_t *seen = malloc(n);
    int ok = 1;
    for (unsigned j = 1; j < b && ok; j++) {
        memset(seen, 0, n);
        for (uint32_t x = 0; x < n && ok; x++) {
            uint32_t w = (pi[x] & ((1u << j) - 1)) | ((x >> j) << j);
            ok = !seen[w]++;
        }
    }
    free(seen);
    return ok;
}

/* N = 4, b = 2. Stage 0 crosses switch 0 (lines 0, 1): lines hold inputs 1 0 2 3; the
 * unshuffle sends line x to (x >> 1) | (x & 1) << 1: lines 0 1 2 3 -> 0 2 1 3, so lines
 * hold 1 2 0 3. Stage 1 crosses switch 1 (lines 2, 3): 1 2 3 0; unshuffle: 1 3 2 0. Input
 * 1 is on line 0, 3 on 1, 2 on 2, 0 on 3: pi = (0 -> 3, 1 -> 0, 2 -> 2, 3 -> 1).
 * Settings bits: stage 0 switch 0 is bit 0, stage 1 switch 1 is bit 2 + 1 = 3. */
static void test_hand_n4(void **state)
{
    uint32_t settings[1] = {1u | 1u << 3}, perm[4], scratch[8];
    rs__inverse_omega_perm(2, settings, perm, scratch);
    const uint32_t want[4] = {3, 0, 2, 1};
    for (int s = 0; s < 4; s++)
        assert_int_equal(perm[s], want[s]);
}

/* Every one of the 2^12 settings of N = 8 gives a different permutation, and all are in
 * the class; the class has exactly 4096 members among the 40320 permutations. */
static void test_every_setting_n8(void **state)
{
    uint8_t *hit = calloc(1u << 24, 1); /* a permutation of 8 packed in 3-bit digits */
    uint32_t perm[8], scratch[16], distinct = 0;
    for (uint32_t set = 0; set < 4096; set++) {
        uint32_t settings[1] = {set};
        rs__inverse_omega_perm(3, settings, perm, scratch);
        assert_true(is_inverse_omega(perm, 3));
        uint32_t key = 0;
        for (int s = 0; s < 8; s++)
            key |= perm[s] << (3 * s);
        distinct += !hit[key]++;
    }
    assert_int_equal(distinct, 4096);
    /* the class by the window condition, over all permutations (Heap's algorithm) */
    uint32_t p[8] = {0, 1, 2, 3, 4, 5, 6, 7}, c[8] = {0}, members = 0, inside = 0;
    for (int i = 0;;) {
        if (is_inverse_omega(p, 3)) {
            uint32_t key = 0;
            for (int s = 0; s < 8; s++)
                key |= p[s] << (3 * s);
            members++;
            inside += hit[key] != 0;
        }
        while (i < 8 && c[i] >= (uint32_t)i) {
            c[i] = 0;
            i++;
        }
        if (i == 8)
            break;
        uint32_t k = i % 2 ? c[i] : 0, t = p[k];
        p[k] = p[i];
        p[i] = t;
        c[i]++;
        i = 1;
    }
    assert_int_equal(members, 4096);
    assert_int_equal(inside, 4096);
    free(hit);
}

/* The generator: in the class for N = 8 .. 1024 and several seeds, all q messages of a
 * source alike; a bit reversal is not in the class (so the test can fail). */
static void test_generator(void **state)
{
    for (unsigned b = 3; b <= 10; b++)
        for (uint64_t seed = 1; seed <= 20; seed++) {
            char args[128];
            snprintf(args, sizeof args, "topology=butterfly N=%u traffic=inverse_omega "
                     "per_input=2", 1u << b);
            struct fx f;
            if (fx_build(&f, seed, args))
                fail_msg("%s: %s", args, f.err.msg);
            uint32_t n = 1u << b, *pi = malloc(n * sizeof *pi);
            for (uint32_t s = 0; s < n; s++) {
                assert_int_equal(f.pb.dst[2 * s], f.pb.dst[2 * s + 1]);
                pi[s] = f.pb.dst[2 * s];
            }
            assert_true(is_inverse_omega(pi, b));
            free(pi);
            fx_free(&f);
        }
    const uint32_t rev[8] = {0, 4, 2, 6, 1, 5, 3, 7};
    assert_false(is_inverse_omega(rev, 3));
    struct fx f;
    assert_int_equal(fx_build(&f, 1, "topology=ring k=12 traffic=inverse_omega"), RS_ECONSTRAINT);
    assert_string_equal(f.err.msg, "traffic=inverse_omega needs N a power of two (got N=12)");
    fx_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_n4),
        cmocka_unit_test(test_every_setting_n8),
        cmocka_unit_test(test_generator),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
