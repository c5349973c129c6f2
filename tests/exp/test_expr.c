/* Expressions (src/exp/expr.c): precedence, every function against values worked by hand,
 * names looked up through a callback and through parameters, and every kind of error. */
#include <math.h>

#include "rs_test.h"

#include "routesim/expr.h"

/* Names for the tests: x = 3, big = 1e308; anything else is unknown. */
static int lookup(void *ctx, const char *name, double *out, char *why, size_t n)
{
    int *calls = ctx;
    (*calls)++;
    if (!strcmp(name, "x")) {
        *out = 3;
        return 0;
    }
    if (!strcmp(name, "big")) {
        *out = 1e308;
        return 0;
    }
    snprintf(why, n, "no column '%s'", name);
    return -1;
}

static double eval(const char *text)
{
    char why[256];
    double v = NAN;
    int calls = 0;
    if (rs__expr_eval_with(text, lookup, &calls, &v, why, sizeof why)) {
        print_error("'%s': %s\n", text, why);
        fail();
    }
    return v;
}

static void expect_error(const char *text, const char *want)
{
    char why[256] = "";
    double v;
    int calls = 0;
    assert_int_equal(rs__expr_eval_with(text, lookup, &calls, &v, why, sizeof why), -1);
    if (!strstr(why, want)) {
        print_error("'%s': got '%s', wanted '%s'\n", text, why, want);
        fail();
    }
}

/* Usual precedence; ^ binds tighter than unary minus and associates to the right. */
static void test_precedence(void **state)
{
    assert_true(eval("1 + 2 * 3") == 7);
    assert_true(eval("(1 + 2) * 3") == 9);
    assert_true(eval("10 / 4") == 2.5);
    assert_true(eval("10 - 4 - 3") == 3);  /* left to right */
    assert_true(eval("-2^2") == -4);       /* -(2^2) */
    assert_true(eval("(-2)^2") == 4);
    assert_true(eval("2^3^2") == 512);     /* 2^(3^2) */
    assert_true(eval("2^-1") == 0.5);
    assert_true(eval("2 * x^2 + 1") == 19); /* x = 3 */
    assert_true(eval("--x") == 3);
    assert_true(eval("+x") == 3);
    assert_true(eval("1e3 + .5") == 1000.5);
}

/* Every function on a value whose result is known exactly (or to the last bits). */
static void test_functions(void **state)
{
    assert_true(eval("sqrt(16)") == 4);
    assert_true(fabs(eval("log(exp(2))") - 2) < 1e-15); /* natural logarithm */
    assert_true(eval("log2(1024)") == 10);
    assert_true(eval("log10(1000)") == 3);
    assert_true(eval("abs(-3.5)") == 3.5);
    assert_true(eval("ceil(2.1)") == 3 && eval("ceil(-2.1)") == -2);
    assert_true(eval("floor(2.9)") == 2 && eval("floor(-2.1)") == -3);
    assert_true(eval("pow(2, 10)") == 1024);
    assert_true(eval("min(3, 1, 2)") == 1 && eval("max(3, 1, 2)") == 3);
    assert_true(eval("min(x)") == 3 && eval("max(-1, x, 2)") == 3);
    /* 0! = 1, 5! = 120, 20! = 2432902008176640000 (exact in a double: 2^18 * 9280784638125) */
    assert_true(eval("factorial(0)") == 1);
    assert_true(eval("factorial(5)") == 120);
    assert_true(eval("factorial(20)") == 2432902008176640000.0);
    /* (1/2)! = Γ(3/2) = √π / 2 = 0.886226925452758 (mpmath) */
    assert_true(fabs(eval("factorial(0.5)") - 0.886226925452758) < 1e-14);
    assert_true(eval("tgamma(5)") == 24); /* Γ(5) = 4! */
    /* nested: the fat-tree bound ceil((d/u)^(l-1)) with d = 8, u = 2, l = 3: 4^2 = 16 */
    assert_true(eval("ceil((8/2)^(3-1))") == 16);
}

/* Results that are not finite are returned as they are; the caller decides. */
static void test_not_finite(void **state)
{
    assert_true(isinf(eval("1/0")));
    assert_true(isnan(eval("sqrt(-1)")));
    assert_true(isinf(eval("big * 10")));
    assert_true(isnan(eval("factorial(-1)")));
}

static void test_errors(void **state)
{
    expect_error("foo(1)", "unknown function 'foo'");
    expect_error("pow(2)", "pow() takes 2 arguments, got 1");
    expect_error("sqrt(1, 2)", "sqrt() takes 1 argument, got 2");
    expect_error("min()", "expected a number, a name or '('");
    expect_error("y + 1", "no column 'y'");
    expect_error("2 +", "expected a number, a name or '(' at 'end'");
    expect_error("(1 + 2", "expected ')'");
    expect_error("pow(2 3)", "expected ',' or ')'");
    expect_error("1 2", "unexpected text at '2'");
    expect_error("2 ** 3", "expected a number, a name or '(' at '* 3'");
    expect_error("#", "expected a number, a name or '('");
    expect_error("", "expected a number, a name or '(' at 'end'");
    char deep[400];
    memset(deep, '(', 300);
    strcpy(deep + 300, "1");
    expect_error(deep, "nested too deeply");
    char longname[300];
    memset(longname, 'a', 200);
    longname[200] = '\0';
    expect_error(longname, "name too long");
}

/* The parameter form used by derived grid values: key values may be written 2^k; a value
 * that is not finite is an error there. N = 2^10, q = 2: the Maggs–Sitaraman lower bound
 * N / (4 (q+2) (log N + 1)) = 1024 / (4 * 4 * 11) = 1024 / 176 = 5.8181818... */
static void test_params(void **state)
{
    struct rs_params p;
    char why[256];
    double v;
    rs_test_params(&p, "N=2^10 q=2 t=bitrev");
    assert_int_equal(rs__expr_eval("N/(4*(q+2)*(log2(N)+1))", &p, &v, why, sizeof why), 0);
    assert_true(fabs(v - 1024.0 / 176) < 1e-13);
    assert_int_equal(rs__expr_eval("t + 1", &p, &v, why, sizeof why), -1);
    assert_string_equal(why, "key 't' is not a number ('bitrev')");
    assert_int_equal(rs__expr_eval("M", &p, &v, why, sizeof why), -1);
    assert_string_equal(why, "unknown key 'M'");
    assert_int_equal(rs__expr_eval("N / 0", &p, &v, why, sizeof why), -1);
    assert_string_equal(why, "the value is not finite");
    rs_params_free(&p);
}

static void test_number(void **state)
{
    double v;
    assert_int_equal(rs__expr_number("2^10", &v), 0);
    assert_true(v == 1024);
    assert_int_equal(rs__expr_number(" 3.5 ", &v), 0);
    assert_true(v == 3.5);
    assert_int_equal(rs__expr_number("-4", &v), 0);
    assert_true(v == -4);
    assert_int_equal(rs__expr_number("abc", &v), -1);
    assert_int_equal(rs__expr_number("2^", &v), -1);
    assert_int_equal(rs__expr_number("3x", &v), -1);
    assert_int_equal(rs__expr_number("inf", &v), -1);
    assert_int_equal(rs__expr_number("", &v), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_precedence), cmocka_unit_test(test_functions),
        cmocka_unit_test(test_not_finite), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_params),     cmocka_unit_test(test_number),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
