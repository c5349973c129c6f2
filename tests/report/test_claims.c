/* Claims (src/exp/claims.c and the kinds claim_*.c) on hand-written statistics files:
 * verdicts at the edges the fixture of tests/cli/reproduce.sh does not reach (rounding of
 * the file, missing values, zero predictions and denominators, one run, unbounded Fieller
 * intervals, groups), the worked Welch example in a report, and key errors. */
#include "report/claim_fixture.h"

/* The statistics file keeps 9 significant digits: 5.0000000001 is 5 there, and a bound of
 * 5 holds; 5.001 does not. equal needs min and max both equal. */
static void test_bound_and_equal_rounding(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 x 2 5 0 5 5.0000000001", "32 x 2 6 0 5.999 6.001"};
    write_csv(f, rows, 2);
    expect(f, "kind=bound;bound=5;filter=N=16", 1, 0, 0, "margin -1e-10)");
    expect(f, "kind=bound;bound=5", 0, 1, 0,
           "1 of 2 rows exceed the bound; worst row N=32: makespan max 6.001 against the bound 5 "
           "(margin -1.001)");
    expect(f, "kind=bound;bound=N/4;direction=at_least", 0, 1, 0,
           "worst row N=32: makespan min 5.999 against the bound 8 (margin -2.001)");
    expect(f, "kind=equal;value=5;filter=N=16", 1, 0, 0, NULL);
    expect(f, "kind=equal;value=6;filter=N=32", 0, 1, 0, "makespan from 5.999 to 6.001 against 6");
}

/* A row without a value makes a claim that nothing else breaks inconclusive. */
static void test_missing_values(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 x 2 5 0 5 5", "32 x 2 - 0 6 -"};
    write_csv(f, rows, 2);
    expect(f, "kind=bound;bound=100", 0, 0, 1, "1 rows have no value");
    expect(f, "kind=bound;bound=1", 0, 1, 0, NULL); /* a violation decides */
    expect(f, "kind=bound;bound=100;filter=N=32", 0, 0, 1, "no row has a value of makespan");
    expect(f, "kind=prediction;predicted=5;tol=0.01;tolerance_reason=r", 0, 0, 1,
           "1 rows have no value of makespan");
}

/* A prediction of 0 is met only by a mean of exactly 0 (the relative error is otherwise
 * infinite). */
static void test_prediction_of_zero(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 x 2 0 0 0 0", "32 x 2 1 0 1 1"};
    write_csv(f, rows, 2);
    expect(f, "kind=prediction;predicted=0;tol=0.5;tolerance_reason=r;filter=N=16", 1, 0, 0,
           "0.00%");
    expect(f, "kind=prediction;predicted=0;tol=0.5;tolerance_reason=r;filter=N=32", 0, 1, 0,
           "inf%");
    /* relative error |1.1 - 1| / 1 = 10% (0.10000000000000009 in doubles: on the limit
     * within the file's rounding): inside 10%, outside 9% */
    const char *near[] = {"16 x 2 1.1 0 1.1 1.1"};
    write_csv(f, near, 1);
    expect(f, "kind=prediction;predicted=1;tol=0.1;tolerance_reason=r", 1, 0, 0, "10.00%");
    expect(f, "kind=prediction;predicted=1;tol=0.09;tolerance_reason=r", 0, 1, 0, NULL);
}

/* The worked example of tests/exp/test_stats.c in a comparison: A = (13, 2.5, 5 runs),
 * B = (10, 2.5, 5): t = 3, df = 8, p = 0.0171, interval 3 -+ 2.306004 = [0.693996, 5.306].
 * With one run there is no variance: inconclusive. */
static void test_compare(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 a 5 13 2.5 11 15", "16 b 5 10 2.5 8 12", "32 a 1 13 0 13 13",
                          "32 b 5 10 2.5 8 12"};
    write_csv(f, rows, 4);
    expect(f, "kind=compare;a=side=a;b=side=b;sign=greater;filter=N=16", 1, 0, 0,
           "| 3 [0.693996, 5.306] | 3 | 8.0 | 0.0171 | as claimed |");
    expect(f, "kind=compare;a=side=a;b=side=b;sign=less;filter=N=16", 0, 1, 0, NULL);
    expect(f, "kind=compare;a=side=a;b=side=b;sign=greater;filter=N=32", 0, 0, 1,
           "no variance (runs < 2)");
    /* one verdict per N */
    expect(f, "kind=compare;a=side=a;b=side=b;sign=greater;group=N", 1, 0, 1, NULL);
}

/* Factor, judged on its 95% interval: a zero denominator leaves the ratio undefined; a
 * denominator not significantly different from 0 (mean 1, se 0.5) gives an unbounded
 * Fieller set, and the delta method's interval 10 -+ t(df) 5.1 is as wide: both
 * inconclusive against 10 (1 -+ 1%). 1000 runs (N = 64: 10 / 1, interval 10 -+ 0.009)
 * decide both ways; no spread at all (N = 128) decides exactly, on the limits too. */
static void test_factor_edges(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 a 4 10 4 8 12",         "16 b 4 1 1 0 2",
                          "32 a 4 10 4 8 12",         "32 b 4 0 1 -1 1",
                          "64 a 1000 10 0.01 9 11",   "64 b 1000 1 0.0001 0.9 1.1",
                          "128 a 5 10 0 10 10",       "128 b 5 1 0 1 1"};
    write_csv(f, rows, 8);
    expect(f, "kind=factor;a=side=a;b=side=b;expect=10;tol=0.01;filter=N=16", 0, 0, 1,
           "unbounded (B not significantly ≠ 0)");
    expect(f, "kind=factor;a=side=a;b=side=b;expect=10;tol=0.01;filter=N=16;interval=delta", 0,
           0, 1, "reaches outside [9.9, 10.1]");
    expect(f, "kind=factor;a=side=a;b=side=b;expect=10;tol=0.01;filter=N=32", 0, 0, 1,
           "undefined in every pair");
    expect(f, "kind=factor;a=side=a;b=side=b;expect=10;tol=0.01;filter=N=64", 1, 0, 0,
           "within [9.9, 10.1]");
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=10.5;filter=N=64", 0, 1, 0,
           "wholly outside at least 10.5");
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=10;filter=N=64", 0, 0, 1,
           "reaches outside at least 10");
    /* one run: no interval, and the verdict does not pretend to know where it lies */
    const char *one[] = {"16 a 1 10 0 10 10", "16 b 4 5 1 4 6"};
    write_csv(f, one, 2);
    expect(f, "kind=factor;a=side=a;b=side=b;expect=2;tol=0.01", 0, 0, 1,
           "ratio A / B = 2, 95% interval — (runs < 2) (side=a against side=b): no interval to "
           "place against [1.98, 2.02].");
    write_csv(f, rows, 8);
    /* at_least / at_most instead of expect and tol, exact (every row's 5 runs identical:
     * detected): 10 / 1 = 10 is at least 10 (on the limit), not at least 10.5, and between
     * 9 and 11 */
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=10;filter=N=128", 1, 0, 0,
           "ratio A / B = 10 exactly (side=a against side=b): at least 10.");
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=10.5;filter=N=128", 0, 1, 0,
           "wholly outside at least 10.5");
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=9;at_most=11;filter=N=128", 1, 0, 0,
           "the ratio mean(A) / mean(B) is between 9 and 11");
    /* difference 10 - 1 = 9: at least 9 and at most 9 holds exactly; with spread (N = 16,
     * interval 9 -+ t sqrt(1.25)) it straddles */
    expect(f, "kind=difference;a=side=a;b=side=b;at_least=9;at_most=9;filter=N=128", 1, 0, 0,
           "between 9 and 9");
    expect(f, "kind=difference;a=side=a;b=side=b;at_least=9;at_most=9;filter=N=16", 0, 0, 1,
           "reaches outside between 9 and 9");
}

/* Exact verdicts (docs/reproduce.md): a deterministic experiment of one run per point has no
 * interval, so undeclared its claims are inconclusive; declared (deterministic=1) they are
 * judged on the exact values. Fixtures that hold and that do not: factor 40/10 = 4 and
 * 50/20 = 2.5 (at least 2 holds, at least 3 does not), compare (A > B holds, A < B does not),
 * prediction (10 N / 8 holds exactly, N does not), bounded_ratio on makespan = 3 log2 N
 * (ratio constant: β = 0, holds) and on log2(N)^2 + 1 (ratio ≈ log2 N: β ≈ 1, does not),
 * exponent (makespan = 2 N: exponent 1 holds, 2 does not). A declared claim whose row varies
 * is an error; identical replications (var 0 over 3 runs) are detected without the key,
 * and then an exact tie is not "greater". */
static void test_exact_verdicts(void **state)
{
    const struct fixture *f = *state;
    const char *pairs[] = {"8 a 1 40 0 40 40", "8 b 1 10 0 10 10", "16 a 1 50 0 50 50",
                           "16 b 1 20 0 20 20"};
    write_csv(f, pairs, 4);
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=2;group=N", 0, 0, 2, "no interval");
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=2;deterministic=1", 1, 0, 0,
           "every exact value inside");
    expect(f, "kind=factor;a=side=a;b=side=b;at_least=3;deterministic=1", 0, 1, 0,
           "1 of 2 pairs have their exact value wholly outside at least 3 (the first: N=16)");
    expect(f, "kind=difference;a=side=a;b=side=b;at_most=30;deterministic=1", 1, 0, 0, NULL);
    expect(f, "kind=difference;a=side=a;b=side=b;at_most=29.9;deterministic=1", 0, 1, 0, NULL);
    expect(f, "kind=compare;a=side=a;b=side=b;sign=greater", 0, 0, 1, "no variance (runs < 2)");
    expect(f, "kind=compare;a=side=a;b=side=b;sign=greater;deterministic=1", 1, 0, 0,
           "in all 2 pairs, exactly");
    expect(f, "kind=compare;a=side=a;b=side=b;sign=less;deterministic=1", 0, 1, 0,
           "exact values without mean(A) < mean(B)");
    expect(f, "kind=prediction;filter=side=b;predicted=10*N/8;tol=0;tolerance_reason=r;"
              "deterministic=1",
           1, 0, 0, "Exact: the points are deterministic (declared");
    expect(f, "kind=prediction;filter=side=b;predicted=N;tol=0.1;tolerance_reason=r;"
              "deterministic=1",
           0, 1, 0, NULL);
    expect(f, "kind=range;filter=side=b;lo=10;hi=20;deterministic=1", 1, 0, 0, NULL);
    expect(f, "kind=range;filter=side=b;lo=10;hi=19;deterministic=1", 0, 1, 0, NULL);

    /* growth over N = 16 .. 256: 3 log2 N, log2(N)^2 + 1 and 2 N, one run each */
    const char *series[] = {"16 a 1 12 0 12 12",   "32 a 1 15 0 15 15",   "64 a 1 18 0 18 18",
                            "128 a 1 21 0 21 21",  "256 a 1 24 0 24 24",  "16 b 1 17 0 17 17",
                            "32 b 1 26 0 26 26",   "64 b 1 37 0 37 37",   "128 b 1 50 0 50 50",
                            "256 b 1 65 0 65 65",  "16 c 1 32 0 32 32",   "32 c 1 64 0 64 64",
                            "64 c 1 128 0 128 128", "128 c 1 256 0 256 256",
                            "256 c 1 512 0 512 512"};
    write_csv(f, series, 15);
    expect(f, "kind=bounded_ratio;x=N;f=log2;filter=side=a;deterministic=1", 1, 0, 0,
           "β = 0.000 (exact fit");
    expect(f, "kind=bounded_ratio;x=N;f=log2;filter=side=b;deterministic=1", 0, 1, 0,
           "(exact fit");
    expect(f, "kind=exponent;x=N;expect=1;tol=0.01;filter=side=c;deterministic=1", 1, 0, 0,
           "fitted exponent 1.000 (exact fit");
    expect(f, "kind=exponent;x=N;expect=2;tol=0.1;filter=side=c;deterministic=1", 0, 1, 0,
           NULL);

    /* declared, but a row varies between its runs: an error naming the row */
    const char *varies[] = {"16 a 3 10 1 9 11", "16 b 3 5 0 5 5"};
    write_csv(f, varies, 2);
    struct rs_params p;
    struct rs_err err;
    struct rs_buf md;
    struct rs_claim_outcome o = {0, 0, 0, 0};
    rs_params_init(&p);
    rs_buf_init(&md);
    const char *kv[] = {"experiment=e", "kind=compare", "a=side=a", "b=side=b",
                        "sign=greater", "deterministic=1"};
    for (size_t i = 0; i < sizeof kv / sizeof *kv; i++)
        assert_int_equal(rs_params_parse_arg(&p, kv[i], &err), 0);
    rs_err_clear(&err);
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &o, &err), RS_EINVAL);
    assert_string_equal(err.msg, "claim 'c': deterministic = 1, but makespan varies between the "
                                 "runs of row side=a (makespan_var = 1)");
    rs_buf_free(&md);
    rs_params_free(&p);

    /* detected: every replication identical; an exact tie is not "greater" */
    const char *same[] = {"16 a 3 10 0 10 10", "16 b 3 10 0 10 10"};
    write_csv(f, same, 2);
    expect(f, "kind=compare;a=side=a;b=side=b;sign=greater", 0, 1, 0,
           "detected: every replication of every row identical");
}

/* Range on the variance, judged on its chi-square 95% interval: a sample variance of 0.02
 * from 5 runs has the interval [0.00718, 0.165], which straddles 0.02; from 1000 runs
 * [0.0184, 0.0219] it still does, and 0.0198 from 1000 runs is not "below 0.02"
 * ([0.0182, 0.0217]); 0.015 from 1000 runs is ([0.0138, 0.0164]), and 0.35 from 1000 runs
 * lies wholly above 0.28 ([0.321, 0.383]; 0.3 would straddle: [0.275, 0.328]). The extremes (min, max) are observed: judged exactly. */
static void test_range(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 x 5 4 0.02 3 5", "32 x 5 5 0.28 4 6", "64 x 5 6 0.3 5 7"};
    write_csv(f, rows, 3);
    expect(f, "kind=range;statistic=var;lo=0.02;hi=0.28;filter=N=16", 0, 0, 1,
           "| 0.02 | [0.00717921, 0.165146] | straddles |");
    expect(f, "kind=range;statistic=var;lo=0.02;hi=0.28", 0, 0, 1,
           "the 95% interval of 3 of 3 rows reaches outside 0.02 ≤ makespan_var ≤ 0.28 (the first: "
           "N=16): more runs needed");
    expect(f, "kind=range;statistic=max;lo=6", 0, 1, 0,
           "1 of 3 rows break makespan_max ≥ 6, their 95% interval wholly outside (the first: N=16)");
    const char *many[] = {"16 x 1000 4 0.02 3 5", "32 x 1000 4 0.0198 3 5",
                          "64 x 1000 4 0.015 3 5", "128 x 1000 4 0.35 3 5"};
    write_csv(f, many, 4);
    expect(f, "kind=range;statistic=var;hi=0.02;filter=N=16", 0, 0, 1, NULL);
    expect(f, "kind=range;statistic=var;hi=0.02;filter=N=32", 0, 0, 1, "more runs needed");
    expect(f, "kind=range;statistic=var;hi=0.02;filter=N=64", 1, 0, 0,
           "every 95% interval inside");
    expect(f, "kind=range;statistic=var;hi=0.28;filter=N=128", 0, 1, 0, "**above**");
    expect(f, "kind=range;statistic=sd;lo=0.1;hi=0.13;filter=N=64", 1, 0, 0, NULL);
    expect(f, "kind=range;statistic=mean;lo=3.99;hi=4.01", 0, 0, 1, "(the first: N=128)");
    expect(f, "kind=range;statistic=mean;lo=3.99;hi=4.01;filter=N=64", 1, 0, 0,
           "[3.9924, 4.0076] | yes |");
}

/* bounded_ratio with f an expression over the row: makespan = 8 / log2 N exactly (9 digits), so
 * makespan / (1/log2(N)) is 8 at every size and holds; f = 1/N makes the ratio 8N/log2 N, which
 * grows (51.2 at N = 32, 256 at N = 256) and fails; f may name statistics
 * (makespan / makespan_mean = 1);
 * an f of 0 or an unknown name is an error naming the key. The named f are unchanged. */
static void test_ratio_expression(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 x 5 2 0 2 2", "32 x 5 1.6 0 1.6 1.6", "64 x 5 1.33333333 0 1 2",
                          "128 x 5 1.14285714 0 1 2", "256 x 5 1 0 1 1"};
    write_csv(f, rows, 5);
    expect(f, "kind=bounded_ratio;f=1/log2(N)", 1, 0, 0,
           "ratio makespan/(1/log2(N)) from 8.000 to 8.000 over the last 4 sizes (N = 32 .. 256)");
    expect(f, "kind=bounded_ratio;f=1/log2(N)", 1, 0, 0, "| | 16 | 2.000 ± 0.000 | 0.250 | 8.000 |");
    expect(f, "kind=bounded_ratio;f=1/N", 0, 1, 0, "ratio makespan/(1/N) from 51.200 to 256.000");
    expect(f, "kind=bounded_ratio;f=makespan_mean", 1, 0, 0, "from 1.000 to 1.000");
    expect(f, "kind=bounded_ratio;f=log2", 1, 0, 0, "ratio makespan/log2(N) from 0.320 to 0.125");
    expect(f, "kind=report;f=1/log2(N)", 0, 0, 0, "| makespan | (1/log2(N)) | ratio |");
    struct rs_params p;
    struct rs_err err;
    struct rs_buf md;
    struct rs_claim_outcome out = {0, 0, 0, 0};
    rs_buf_init(&md);
    rs_test_params(&p, "experiment=e metric=makespan kind=bounded_ratio f=N-16");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EINVAL);
    assert_string_equal(err.msg, "claim 'c': key 'f': 'N-16' is 0 at N = 16");
    rs_params_free(&p);
    rs_test_params(&p, "experiment=e metric=makespan kind=exponent expect=1 tol=1 f=log2(M)");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "claim 'c': key 'f': cannot evaluate 'log2(M)' (row N=16): "));
    rs_params_free(&p);
    rs_buf_free(&md);
}

/* Key errors name the claim and the key. */
static void test_key_errors(void **state)
{
    const struct fixture *f = *state;
    const char *rows[] = {"16 x 2 5 0 5 5"};
    write_csv(f, rows, 1);
    struct rs_params p;
    struct rs_err err;
    struct rs_buf md;
    struct rs_claim_outcome out = {0, 0, 0, 0};
    rs_buf_init(&md);
    rs_test_params(&p, "experiment=e metric=makespan kind=bound bount=3");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "command line: claim 'c': unknown key 'bount' for kind bound "
                                 "(did you mean 'bound'?) (see `routesim help claims`)");
    rs_params_free(&p);
    rs_test_params(&p, "experiment=e metric=makespan kind=bound");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EINVAL);
    assert_string_equal(err.msg, "claim 'c': missing key 'bound' (the bound: an expression over "
                                 "the row's columns (e.g. N/(4*(queue_size+2)*(log2(N)+1))))");
    rs_params_free(&p);
    rs_test_params(&p, "experiment=e metric=makespan kind=equal value=log2(side)");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EINVAL);
    assert_string_equal(err.msg, "claim 'c': key 'value': cannot evaluate 'log2(side)' (row the "
                                 "only row): column 'side' is not a number ('x')");
    rs_params_free(&p);
    rs_test_params(&p, "experiment=e metric=makespan kind=factor a=side=x b=side=x at_least=2 "
                       "expect=2 tol=0.1");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EINVAL);
    assert_string_equal(err.msg, "claim 'c': a factor takes either expect and tol, or at_least "
                                 "/ at_most");
    rs_params_free(&p);
    rs_test_params(&p, "experiment=e metric=makespan kind=factor a=side=x b=side=x tol=0.1");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EINVAL);
    assert_string_equal(err.msg, "claim 'c': missing key 'expect' (the expected ratio mean(A) / "
                                 "mean(B) (with tol; or give at_least / at_most))");
    rs_params_free(&p);
    rs_test_params(&p, "experiment=nope kind=report");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EIO);
    rs_params_free(&p);
    /* the metric must be declared in the metrics table: a typo is refused by name, when
     * checked (before the file is read) and when validated (reproduce --dry-run) */
    const char *experiment = NULL;
    rs_test_params(&p, "experiment=nope metric=makespn kind=report");
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "claim 'c': unknown metric 'makespn' (did you mean "
                                 "'makespan'?)");
    assert_int_equal(rs_claim_validate("c", &p, &experiment, &err), RS_EUNKNOWN);
    assert_string_equal(err.msg, "claim 'c': unknown metric 'makespn' (did you mean "
                                 "'makespan'?)");
    rs_params_free(&p);
    /* a metric of the table, and a statistics column of one, pass the name check (the
     * latter then has no column makespan_mean_mean) */
    rs_test_params(&p, "experiment=e metric=latency_p99 kind=report");
    assert_int_equal(rs_claim_validate("c", &p, &experiment, &err), 0);
    rs_params_free(&p);
    rs_test_params(&p, "experiment=e metric=makespan_mean kind=report");
    assert_int_equal(rs_claim_validate("c", &p, &experiment, &err), 0);
    assert_int_equal(rs_claim_check("c", &p, f->dir, &md, &out, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "has no column 'makespan_mean_mean'"));
    rs_params_free(&p);
    assert_true(out.holds == 0 && out.fails == 0 && out.inconclusive == 0);
    rs_buf_free(&md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_bound_and_equal_rounding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prediction_of_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_factor_edges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exact_verdicts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ratio_expression, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
