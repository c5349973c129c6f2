/* algorithm=ms_chain (003 §2, §4.1) through rs_run: the engine metrics and the bounds of a
 * hand-worked many-to-one and one-to-many chain read from files, agreement with the flit
 * engine (vc_depth = k + 1) on a random permutation, the problem classes and their
 * disciplines, rings, and the refused configurations. */
#include "rs_test.h"

#include <math.h>

#define MS "switching=cut_through_partial algorithm=ms_chain check=1 "

static const char *text(const struct rs_record *rec, const char *name)
{
    const struct rs_field *f = rs_record_get(rec, name);
    assert_non_null(f);
    assert_int_equal(f->type, RS_VAL_STRING);
    return f->s;
}

/* Chain of 4, k = 2, everybody to 3 (3 -> 3 is no packet): 2->3 done at 2, 1->3 at 4, 0->3
 * at 6 (test_hand_many_to_one of test_ms_line.c); m = 3, Theorem 2: (2-1)3 + 4 = 7. */
static void test_file_many_to_one(void **state)
{
    (void)state;
    char kv[512];
    struct rs_record r;
    rs_test_run(rs_test_with_data("topology=chain k=4 traffic=file "
                                  "traffic_file=@/ms_many_to_one4.txt file_kind=any length=2 " MS,
                                  kv, sizeof kv), &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 6);
    assert_int_equal(rs_test_int(&r, "messages"), 4);
    assert_int_equal(rs_test_int(&r, "delivered"), 4);
    assert_int_equal(rs_test_int(&r, "ms_m"), 3);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 2 * (3 + 2 + 1));
    assert_true(rs_test_double(&r, "latency_mean") == 3.0); /* (6 + 4 + 2 + 0) / 4 */
    assert_true(rs_test_double(&r, "latency_max") == 6.0);
    assert_string_equal(text(&r, "ms_discipline"), "fifo");
    assert_true(rs_test_double(&r, "bound_thm23") == 7.0);
    assert_true(fabs(rs_test_double(&r, "makespan_over_thm23") - 6.0 / 7.0) < 1e-12);
    assert_true(isnan(rs_test_double(&r, "bound_thm1"))); /* not a permutation */
    assert_true(isnan(rs_test_double(&r, "bound_lemma6")));
    rs_record_free(&r);
}

/* Chain of 4, k = 2, per_input = 2: 0 -> 3 and 0 -> 2, 1 -> 0 (the other five to their own
 * sources). Farthest first at 0: 0->3 in steps 1-2 (done at 4), then 0->2 in steps 3-4
 * (done at 5); 1->0 done at 2. One-to-many: m = 3, Theorem 3: 7. */
static void test_file_one_to_many(void **state)
{
    (void)state;
    char kv[512];
    struct rs_record r;
    rs_test_run(rs_test_with_data("topology=chain k=4 traffic=file per_input=2 "
                                  "traffic_file=@/ms_one_to_many4.txt file_kind=any length=2 " MS,
                                  kv, sizeof kv), &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 5);
    assert_int_equal(rs_test_int(&r, "messages"), 8);
    assert_int_equal(rs_test_int(&r, "ms_m"), 3);
    assert_string_equal(text(&r, "ms_discipline"), "farthest_first");
    assert_true(rs_test_double(&r, "latency_mean") == 11.0 / 8.0);
    assert_int_equal(rs_test_int(&r, "ms_max_queue"), 2);
    assert_true(rs_test_double(&r, "bound_thm23") == 7.0);
    rs_record_free(&r);
    /* forced to many_to_one the same file runs FIFO, and Theorem 2 does not apply */
    rs_test_run(rs_test_with_data("topology=chain k=4 traffic=file per_input=2 "
                                  "traffic_file=@/ms_one_to_many4.txt file_kind=any length=2 "
                                  "ms_problem=many_to_one " MS, kv, sizeof kv), &r);
    assert_string_equal(text(&r, "ms_discipline"), "fifo");
    assert_true(isnan(rs_test_double(&r, "bound_thm23"))); /* Theorem 2 needs one per source */
    rs_record_free(&r);
}

/* A random permutation of a chain of 64, k = 4: the flit engine with vc_depth = 5 gives the
 * same makespan and latencies; Theorem 1 holds. */
static void test_engine_agrees(void **state)
{
    (void)state;
    struct rs_record a, b;
    rs_test_run("topology=chain k=64 traffic=randperm length=4 seed=3 " MS, &a);
    rs_test_run("topology=chain k=64 traffic=randperm length=4 seed=3 vc_depth=5 check=1 "
                "switching=cut_through_partial", &b);
    assert_int_equal(rs_test_int(&a, "makespan"), rs_test_int(&b, "makespan"));
    assert_true(rs_test_double(&a, "latency_mean") == rs_test_double(&b, "latency_mean"));
    assert_true(rs_test_double(&a, "latency_p99") == rs_test_double(&b, "latency_p99"));
    assert_int_equal(rs_test_int(&a, "flit_hops"), rs_test_int(&b, "flit_hops"));
    assert_true(rs_test_double(&a, "bound_thm1") == 64 * 5 / 2.0 + 4);
    assert_true(rs_test_double(&a, "makespan_over_thm1") <= 1.0);
    assert_true(rs_test_double(&a, "bound_thm23") == 3.0 * (double)rs_test_int(&a, "ms_m") + 64);
    rs_record_free(&a);
    rs_record_free(&b);
}

/* Rings: many_to_one with spread=2 is Lemma 6's case; one_to_many is Lemma 7's, every
 * packet done at exactly (n/2)k. */
static void test_rings(void **state)
{
    (void)state;
    struct rs_record r;
    rs_test_run("topology=ring k=32 traffic=many_to_one spread=2 length=8 " MS, &r);
    assert_string_equal(text(&r, "ms_discipline"), "fifo");
    assert_true(rs_test_double(&r, "bound_lemma6") == 64.0);
    assert_true(isnan(rs_test_double(&r, "bound_lemma7")));
    assert_true(isnan(rs_test_double(&r, "bound_thm1")));
    rs_record_free(&r);
    rs_test_run("topology=ring k=32 traffic=many_to_one length=8 " MS, &r);
    assert_true(isnan(rs_test_double(&r, "bound_lemma6"))); /* adjacent sources */
    rs_record_free(&r);
    rs_test_run("topology=ring k=32 traffic=one_to_many packets=20 per_input=3 length=8 " MS, &r);
    assert_string_equal(text(&r, "ms_discipline"), "saf_delayed");
    assert_int_equal(rs_test_int(&r, "makespan"), 16 * 8);
    assert_true(rs_test_double(&r, "latency_mean") == 128.0);
    assert_true(rs_test_double(&r, "makespan_over_lemma7") == 1.0);
    rs_record_free(&r);
}

static void expect_error(const char *kv, const char *part)
{
    struct rs_record r;
    char msg[512];
    assert_int_not_equal(rs_test_try(kv, 1, &r, msg, sizeof msg), 0);
    if (!strstr(msg, part)) {
        print_error("'%s': message '%s' lacks '%s'\n", kv, msg, part);
        fail();
    }
    rs_record_free(&r);
}

static void test_refused(void **state)
{
    (void)state;
    expect_error("topology=mesh k=4 n=2 " MS, "topology=chain or ring");
    expect_error("topology=butterfly N=8 " MS, "ms_chain");
    expect_error("topology=chain k=8 vcs=2 " MS, "vcs=1");
    expect_error("topology=chain k=8 vc_depth=3 " MS, "vc_depth=0");
    expect_error("topology=chain k=8 switching=wormhole algorithm=ms_chain", "cut_through_partial");
    expect_error("topology=chain k=8 routing=valiant " MS, "routing=direct");
    expect_error("topology=chain k=8 traffic=uniform per_input=3 " MS, "set ms_problem");
    expect_error("topology=chain k=8 injection_process=bernoulli injection_rate=0.1 " MS,
                 "batch");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_file_many_to_one), cmocka_unit_test(test_file_one_to_many),
        cmocka_unit_test(test_engine_agrees),    cmocka_unit_test(test_rings),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
