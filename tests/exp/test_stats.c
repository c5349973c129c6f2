/* Statistics against values worked by hand: summaries, Welch's t test, Fieller and
 * delta-method ratio intervals. Reference values of t quantiles and tails were computed
 * independently with mpmath (30 digits: regularised incomplete beta, root finding). */
#include <math.h>

#include "rs_test.h"

#include "routesim/stats.h"

/* {1,2,3,4,5}: mean 3; squared deviations 4+1+0+1+4 = 10, variance 10/4 = 2.5,
 * sd 1.58113883; t(0.975, 4) = 2.77644511 (tables), ci95 = 2.77644511 * 1.58113883 / sqrt 5
 * = 1.96324316. */
static void test_five_values(void **state)
{
    const double x[] = {3, 1, 5, 2, 4};
    struct rs_summary s;
    rs_summarize(x, 5, &s);
    assert_int_equal(s.n, 5);
    assert_true(s.mean == 3.0);
    assert_true(fabs(s.var - 2.5) < 1e-12);
    assert_true(fabs(s.sd - 1.58113883) < 1e-8);
    assert_true(s.min == 1.0 && s.max == 5.0);
    assert_true(fabs(s.ci95 - 1.96324316) < 1e-7);
}

/* One value: no spread, and no confidence interval (NaN). Constant values: ci 0. */
static void test_degenerate(void **state)
{
    const double one[] = {7}, same[] = {2, 2, 2};
    struct rs_summary s;
    rs_summarize(one, 1, &s);
    assert_true(s.mean == 7 && s.var == 0 && s.sd == 0 && isnan(s.ci95));
    rs_summarize(same, 3, &s);
    assert_true(s.mean == 2 && s.var == 0 && s.ci95 == 0);
}

/* Welch, equal variances and runs: A = (mean 13, var 2.5, 5 runs), B = (10, 2.5, 5).
 * var/n = 0.5 each, se = sqrt(0.5 + 0.5) = 1, t = (13 - 10) / 1 = 3,
 * df = (0.5 + 0.5)^2 / (0.5^2/4 + 0.5^2/4) = 1 / 0.125 = 8 (the pooled df 2(n-1), as it
 * must be here). p = 2 P(T_8 > 3) = 0.0170716812 (tables: 0.017); t(0.975, 8) =
 * 2.3060041352, so the 95% interval of the difference is 3 -+ 2.3060041352. */
static void test_welch_equal(void **state)
{
    struct rs_sample a = {13, 2.5, 5}, b = {10, 2.5, 5};
    struct rs_welch w;
    assert_int_equal(rs_welch(&a, &b, &w), 0);
    assert_true(w.diff == 3 && w.se == 1 && w.t == 3);
    assert_true(fabs(w.df - 8) < 1e-12);
    assert_true(fabs(w.p - 0.0170716812) < 1e-9);
    assert_true(fabs(w.lo - (3 - 2.3060041352)) < 1e-9);
    assert_true(fabs(w.hi - (3 + 2.3060041352)) < 1e-9);
    /* the other way round: same p, negative t */
    assert_int_equal(rs_welch(&b, &a, &w), 0);
    assert_true(w.t == -3 && fabs(w.p - 0.0170716812) < 1e-9);
}

/* Welch, unequal: A = (20, 8, 4 runs), B = (17, 3, 6 runs). var/n: 2 and 0.5;
 * se = sqrt(2.5) = 1.5811388301, t = 3 / 1.5811388301 = 1.8973665961,
 * df = 2.5^2 / (2^2/3 + 0.5^2/5) = 6.25 / 1.3833333 = 4.5180722892 (not an integer: GSL's
 * t distribution takes real df), p = 0.1224179963, t(0.975, 4.518...) = 2.6552843518,
 * interval 3 -+ 2.6552843518 * 1.5811388301 = [-1.1983731935, 7.1983731935]: the difference
 * is not significant at 95%. */
static void test_welch_unequal(void **state)
{
    struct rs_sample a = {20, 8, 4}, b = {17, 3, 6};
    struct rs_welch w;
    assert_int_equal(rs_welch(&a, &b, &w), 0);
    assert_true(fabs(w.se - 1.5811388301) < 1e-9);
    assert_true(fabs(w.t - 1.8973665961) < 1e-9);
    assert_true(fabs(w.df - 4.5180722892) < 1e-9);
    assert_true(fabs(w.p - 0.1224179963) < 1e-9);
    assert_true(fabs(w.lo + 1.1983731935) < 1e-8);
    assert_true(fabs(w.hi - 7.1983731935) < 1e-8);
}

/* No spread: a deterministic metric that differs is infinitely significant; one that does
 * not differ is not significant. One run has no variance: refused. */
static void test_welch_degenerate(void **state)
{
    struct rs_sample a = {7, 0, 3}, b = {5, 0, 3}, one = {5, 0, 1};
    struct rs_welch w;
    assert_int_equal(rs_welch(&a, &b, &w), 0);
    assert_true(isinf(w.t) && w.t > 0 && w.p == 0 && w.lo == 2 && w.hi == 2);
    assert_int_equal(rs_welch(&b, &b, &w), 0);
    assert_true(w.t == 0 && w.p == 1 && w.lo == 0 && w.hi == 0);
    /* one side constant: df = n - 1 of the other side */
    struct rs_sample c = {6, 3, 4};
    assert_int_equal(rs_welch(&c, &b, &w), 0);
    assert_true(fabs(w.df - 3) < 1e-12);
    assert_int_equal(rs_welch(&a, &one, &w), -1);
}

/* Ratio of means: A = (10, var 4, 4 runs), B = (5, var 1, 4 runs): R = 2.
 * var/n: vA = 1, vB = 0.25. The variance of mean_a - R mean_b is vA + R^2 vB = 1 + 1 = 2,
 * with df = 2^2 / (1^2/3 + 1^2/3) = 6; t(0.975, 6) = 2.4469118511.
 * Fieller: (10 - 5R)^2 <= t^2 (1 + 0.25 R^2), i.e. (25 - 0.25 t^2) R^2 - 100 R +
 * (100 - t^2) <= 0, roots (50 -+ t sqrt(25 + 25 - 0.25 t^2)) / (25 - 0.25 t^2)
 * = [1.4023085679, 2.8524392502] (asymmetric around 2, as a ratio's interval should be).
 * Delta method: se(R) = sqrt(2) / 5, interval 2 -+ t sqrt(2)/5 = [1.3079088148,
 * 2.6920911852]. */
static void test_ratio_interval(void **state)
{
    struct rs_sample a = {10, 4, 4}, b = {5, 1, 4};
    struct rs_ratio r;
    assert_int_equal(rs_ratio_interval(&a, &b, RS_RATIO_FIELLER, &r), 0);
    assert_true(r.ratio == 2 && r.bounded && fabs(r.df - 6) < 1e-12);
    assert_true(fabs(r.lo - 1.4023085679) < 1e-9);
    assert_true(fabs(r.hi - 2.8524392502) < 1e-9);
    assert_int_equal(rs_ratio_interval(&a, &b, RS_RATIO_DELTA, &r), 0);
    assert_true(r.ratio == 2 && r.bounded);
    assert_true(fabs(r.lo - 1.3079088148) < 1e-9);
    assert_true(fabs(r.hi - 2.6920911852) < 1e-9);
}

/* Fieller's set is unbounded when the denominator's mean is not significantly different
 * from 0: B = (1, var 1, 4 runs) has mean 1 and se 0.5, and t > 2, so
 * mean_b^2 = 1 < t^2 * 0.25. Constant samples give a zero-width interval; a zero
 * denominator or a single run is refused. */
static void test_ratio_degenerate(void **state)
{
    struct rs_sample a = {10, 4, 4}, b = {1, 1, 4}, k1 = {6, 0, 3}, k2 = {3, 0, 3};
    struct rs_sample zero = {0, 1, 4}, one = {5, 0, 1};
    struct rs_ratio r;
    assert_int_equal(rs_ratio_interval(&a, &b, RS_RATIO_FIELLER, &r), 0);
    assert_true(!r.bounded && isinf(r.lo) && isinf(r.hi) && r.ratio == 10);
    assert_int_equal(rs_ratio_interval(&k1, &k2, RS_RATIO_FIELLER, &r), 0);
    assert_true(r.ratio == 2 && r.lo == 2 && r.hi == 2);
    assert_int_equal(rs_ratio_interval(&a, &zero, RS_RATIO_FIELLER, &r), -1);
    assert_int_equal(rs_ratio_interval(&a, &one, RS_RATIO_DELTA, &r), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_five_values),
        cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_welch_equal),
        cmocka_unit_test(test_welch_unequal),
        cmocka_unit_test(test_welch_degenerate),
        cmocka_unit_test(test_ratio_interval),
        cmocka_unit_test(test_ratio_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
