/* traffic=root (002 §3): every pair of every drawn permutation has LCA level l-1 and the
 * result is a permutation; the sampler is uniform over all root permutations on tiny
 * cases where they can be enumerated (Pearson chi-square over every permutation, fixed
 * seeds, stated threshold), and the same test rejects a chain that is too short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routesim/lcan.h"
#include "work/fixture.h"
#include "work/root.h"

/* Every message's pair has LCA level l-1 and every terminal receives q messages. */
static void check_root(const char *args, uint32_t q)
{
    struct fx f;
    char full[512];
    snprintf(full, sizeof full, "%s traffic=root per_input=%u", args, q);
    if (fx_build(&f, 7, full) != 0)
        fail_msg("%s: %s", full, f.err.msg);
    const struct rs_lcan *lc = rs__lcan_of(&f.net);
    uint32_t *seen = calloc(f.pb.n_terminals, sizeof *seen);
    assert_non_null(seen);
    for (uint64_t m = 0; m < f.pb.n_msgs; m++) {
        uint32_t s = (uint32_t)(m / q), t = f.pb.dst[m];
        assert_true(t < f.pb.n_terminals);
        seen[t]++;
        assert_int_equal(rs__lcan_lca_level(lc, s, t), lc->l - 1);
        assert_int_not_equal(rs__lcan_group(lc, s), rs__lcan_group(lc, t));
    }
    for (uint32_t t = 0; t < f.pb.n_terminals; t++)
        assert_int_equal(seen[t], q);
    free(seen);
    fx_free(&f);
}

static void test_every_pair_is_root(void **state)
{
    check_root("topology=lcan N=64 d=4 u=4", 1);
    check_root("topology=lcan N=64 d=4 u=2", 3);
    check_root("topology=trac N=27", 2);
    check_root("topology=baseline N=16", 1);
    check_root("topology=cm5 N=256", 1);
    check_root("topology=lcan N=32 d=4 u=2 pi=tree", 2);
    check_root("topology=lcan N=4096 d=64 u=16", 1);
}

static void test_needs_an_lcan(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 1, "topology=butterfly N=16 traffic=root"), RS_EUNSUPPORTED);
    assert_string_equal(f.err.msg, "traffic=root needs an LCAN (topology=lcan, baseline, "
                                   "swbanyan, trac or cm5), got topology=butterfly");
    fx_free(&f);
}

/* A one-level LCAN is one switch: every permutation is a root permutation. */
static void test_one_level(void **state)
{
    struct fx f;
    assert_int_equal(fx_build(&f, 3, "topology=lcan N=4 d=4 u=4 traffic=root"), 0);
    uint32_t seen = 0;
    for (uint32_t s = 0; s < 4; s++)
        seen |= 1u << f.pb.dst[s];
    assert_int_equal(seen, 15);
    fx_free(&f);
}

/* Code of a permutation of n <= 9 elements as a base-n number. */
static uint64_t code(const uint32_t *p, uint32_t n)
{
    uint64_t c = 0;
    for (uint32_t i = 0; i < n; i++)
        c = c * n + p[i];
    return c;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* All root permutations of n terminals in `groups` groups, sorted by code (Heap's
 * algorithm over all n! permutations). Returns their number. */
static uint32_t enumerate_root(uint32_t n, uint32_t groups, uint64_t *out)
{
    uint32_t p[16], c[16] = {0}, m = n / groups, count = 0;
    for (uint32_t i = 0; i < n; i++)
        p[i] = i;
    for (uint32_t i = 1;;) {
        int ok = 1;
        for (uint32_t s = 0; s < n && ok; s++)
            ok = p[s] / m != s / m;
        if (ok)
            out[count++] = code(p, n);
        while (i < n && c[i] >= i) {
            c[i] = 0;
            i++;
        }
        if (i >= n)
            break;
        uint32_t j = i % 2 ? c[i] : 0, t = p[j];
        p[j] = p[i];
        p[i] = t;
        c[i]++;
        i = 1;
    }
    qsort(out, count, sizeof *out, cmp_u64);
    return count;
}

/* Pearson's chi-square of `per_cell` x (number of root permutations) samples against the
 * uniform law; returns the statistic and writes the 0.001 critical value. */
static double chi_square(uint32_t n, uint32_t groups, uint64_t steps, uint32_t per_cell,
                         double *critical, uint32_t *cells)
{
    static uint64_t all[400000];
    uint32_t total = enumerate_root(n, groups, all), perm[16];
    uint32_t *hits = calloc(total, sizeof *hits);
    assert_non_null(hits);
    uint64_t samples = (uint64_t)per_cell * total;
    for (uint64_t r = 0; r < samples; r++) {
        rs__root_permutation(perm, n, groups, steps, 2024, r);
        uint64_t c = code(perm, n);
        uint64_t *at = bsearch(&c, all, total, sizeof *all, cmp_u64);
        assert_non_null(at); /* it is a root permutation */
        hits[at - all]++;
    }
    double chi = 0;
    for (uint32_t i = 0; i < total; i++)
        chi += ((double)hits[i] - per_cell) * ((double)hits[i] - per_cell) / per_cell;
    *critical = gsl_cdf_chisq_Qinv(0.001, total - 1.0);
    *cells = total;
    free(hits);
    return chi;
}

/* Uniformity, stated tolerance: the chi-square p-value over every root permutation must
 * exceed 0.001 with the chain length traffic=root uses (seed 2024, entities 0..R-1).
 * N = 8 in 2 groups (576 root permutations: (4!)^2), N = 8 in 4 groups (4752) and N = 9
 * in 3 groups (12096; 3 groups are where plain swaps cannot change how many sources of
 * one group go to another, so the 3-rotations matter). The same statistic with a chain of
 * N steps is far above the threshold: the test can fail. */
static void test_uniform_on_tiny_cases(void **state)
{
    const uint32_t cases[][3] = {{8, 2, 20}, {8, 4, 6}, {9, 3, 6}};
    const uint32_t want_cells[] = {576, 4752, 12096};
    for (int c = 0; c < 3; c++) {
        double crit, chi;
        uint32_t cells, n = cases[c][0];
        chi = chi_square(n, cases[c][1], rs__root_steps(n), cases[c][2], &crit, &cells);
        assert_int_equal(cells, want_cells[c]);
        if (!(chi < crit))
            fail_msg("N=%u groups=%u: chi-square %.1f >= %.1f (p < 0.001)", n, cases[c][1], chi,
                     crit);
        chi = chi_square(n, cases[c][1], n, cases[c][2], &crit, &cells);
        assert_true(chi > crit);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pair_is_root),
        cmocka_unit_test(test_needs_an_lcan),
        cmocka_unit_test(test_one_level),
        cmocka_unit_test(test_uniform_on_tiny_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
