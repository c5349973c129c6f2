/* Summary statistics against values worked by hand. */
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_five_values),
        cmocka_unit_test(test_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
