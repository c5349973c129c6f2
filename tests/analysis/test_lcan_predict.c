/* The LCAN root-permutation recurrence (002 eq. 2-3, as docs/model-circuit.md reads it):
 * values worked by hand on small CB-LCANs, the d > u load rule, the one-level case, the
 * errors, and `analyze predict=lcan` (an analyze-only key that `run` refuses). */
#include "rs_test.h"

#include <math.h>

#include "routesim/analysis.h"

static void predict(const char *kv, struct rs_lcan_prediction *pr)
{
    struct rs_net net;
    struct rs_err err;
    rs_test_net(&net, kv);
    if (rs_lcan_predict(&net, pr, &err)) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
    rs_net_free(&net);
}

static int close_to(double a, double b)
{
    return fabs(a - b) <= 1e-9 * (fabs(b) + 1);
}

/* CB-LCAN(16,4,4): two levels, the top (level 1) has 4 switches, 16 downers; one
 * contention point (the top's down channels), none on the PE links.
 *   cycle 1: p = 16/16 = 1; q = 1 - (1 - 1/4)^4 = 175/256; s = 16 q = 10.9375
 *   cycle 2: x = 5.0625, p = x/16; q = 1 - (1 - p/4)^4; s = 16 q
 *   cycle 3: and so on while x >= 1; cycles = i + x_i. */
static void test_two_levels_by_hand(void **state)
{
    struct rs_lcan_prediction pr;
    predict("topology=lcan N=16 d=4 u=4", &pr);
    assert_true(close_to(pr.success[0], 10.9375));
    double x = 16 - 10.9375, p = x / 16, s2 = 16 * (1 - pow(1 - p / 4, 4));
    assert_true(close_to(pr.success[1], s2));
    x -= s2;
    uint32_t i = 2;
    while (x >= 1) {
        p = x / 16;
        x -= 16 * (1 - pow(1 - p / 4, 4));
        i++;
    }
    assert_int_equal(pr.n_cycles, i);
    assert_true(close_to(pr.left, x));
    assert_true(close_to(pr.cycles, i + x));
    rs_lcan_prediction_free(&pr);
}

/* CB-LCAN(64,4,4): three levels, eq. 2 applied twice: q_top = 175/256 on the top's down
 * channels, then at level 1 q = 1 - (1 - q_top/4)^4 (arrivals on its u = 4 uppers), and
 * the 64 channels from level 1 to level 0 give s = 64 q. */
static void test_three_levels(void **state)
{
    struct rs_lcan_prediction pr;
    predict("topology=lcan N=64 d=4 u=4", &pr);
    double q = 1 - pow(1 - (175.0 / 256) / 4, 4);
    assert_true(close_to(pr.success[0], 64 * q));
    rs_lcan_prediction_free(&pr);
}

/* d > u: CB-LCAN(64,4,2): S = 16, 8, 4; the top has 4 x 4 = 16 downers, load 1 while at
 * least 16 pairs remain (002 §3); q_top = 1 - (3/4)^4 (the top switch's arrivals come in
 * on its d = 4 downers), level 1 has u = 2 uppers: q = 1 - (1 - q_top/4)^2, and 8 x 4 = 32
 * channels into level 0: s = 32 q. The load stays 1 for the first cycles: equal
 * successes. */
static void test_d_greater_than_u(void **state)
{
    struct rs_lcan_prediction pr;
    predict("topology=lcan N=64 d=4 u=2", &pr);
    double q = 1 - pow(1 - (175.0 / 256) / 4, 2), s = 32 * q;
    assert_true(close_to(pr.success[0], s));
    assert_true(close_to(pr.success[1], s)); /* 64 - s >= 16: still full load */
    double x = 64;
    uint32_t i = 0;
    while (x >= 1) {
        double p = x / 16 < 1 ? x / 16 : 1, qt = 1 - pow(1 - p / 4, 4);
        x -= 32 * (1 - pow(1 - qt / 4, 2));
        i++;
    }
    assert_int_equal(pr.n_cycles, i);
    assert_true(close_to(pr.cycles, i + x));
    rs_lcan_prediction_free(&pr);
    /* per-level lists follow the same rule: d=4,4,4 u=2,2,2 is CB-LCAN(64,4,2) */
    struct rs_lcan_prediction pl;
    predict("topology=lcan N=64 d=4,4,4 u=2,2,2", &pl);
    assert_true(close_to(pl.cycles, i + x));
    rs_lcan_prediction_free(&pl);
}

/* One level: one crossbar, every permutation in one cycle. */
static void test_one_level(void **state)
{
    struct rs_lcan_prediction pr;
    predict("topology=lcan N=8 d=8 u=8", &pr);
    assert_int_equal(pr.n_cycles, 1);
    assert_true(close_to(pr.success[0], 8));
    assert_true(close_to(pr.cycles, 1));
    rs_lcan_prediction_free(&pr);
}

static void test_errors(void **state)
{
    struct rs_net net;
    struct rs_err err;
    struct rs_lcan_prediction pr;
    rs_test_net(&net, "topology=lcan N=16 d=4 u=2 pi=tree");
    assert_int_equal(rs_lcan_predict(&net, &pr, &err), RS_EUNSUPPORTED);
    assert_string_equal(err.msg, "predict=lcan is the recurrence of CB-LCANs (002 §3); "
                                 "topology=lcan pi=tree is not one");
    assert_null(pr.success);
    rs_net_free(&net);
    rs_test_net(&net, "topology=butterfly N=16");
    assert_int_equal(rs_lcan_predict(&net, &pr, &err), RS_EUNSUPPORTED);
    rs_net_free(&net);
}

/* analyze adds the prediction only when asked (run too: tests/exp/test_run.c). */
static void test_analyze_key(void **state)
{
    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=lcan N=16 d=4 u=4 traffic=root predict=lcan", 0, &r,
                                 msg, sizeof msg),
                     0);
    assert_true(close_to(rs_test_double(&r, "predicted_first_cycle"), 10.9375));
    assert_non_null(rs_record_get(&r, "predicted_cycles"));
    const struct rs_field *f = rs_record_get(&r, "predicted_per_cycle");
    assert_non_null(f);
    assert_int_equal(strncmp(f->s, "10.9375;", 8), 0);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=lcan N=16 d=4 u=4", 0, &r, msg, sizeof msg), 0);
    assert_null(rs_record_get(&r, "predicted_cycles"));
    assert_null(rs_record_get(&r, "predict"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh predict=lcan", 0, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_levels_by_hand), cmocka_unit_test(test_three_levels),
        cmocka_unit_test(test_d_greater_than_u),   cmocka_unit_test(test_one_level),
        cmocka_unit_test(test_errors),             cmocka_unit_test(test_analyze_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
