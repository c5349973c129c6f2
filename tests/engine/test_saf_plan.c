/* The plan fields store-and-forward honours (release steps and intermediates, released by
 * the driver), worked by hand on a 4-node chain (one packet crosses a channel per step),
 * and the one it refuses (discard_on_delay, with the reason). Runs through the shared
 * fixture of the flit tests (flit_fixture.h runs any engine), invariant checker on. */
#include "flit_fixture.h"

#define CHAIN4 "topology=chain k=4"

/* Two packets 0 -> 3 from one source, FIFO. Without a plan: step 1 packet 0 crosses c01,
 * step 2 it crosses c12 while packet 1 crosses c01, step 3 packet 0 crosses c23 and is
 * delivered, step 4 packet 1: makespan 4, latencies 3 and 4.
 * Released at {0, 10}: packet 0 as before (delivered at 3); packet 1 enters its store at
 * the end of step 10 and crosses at 11, 12, 13: makespan 13, latencies 3 and 3 (from the
 * release), 13 steps, 6 hops. Released at {10, 0}: the roles swap (the makespan is the
 * same). Released at {0, 1}: packet 1 joins the store at the end of step 1, when packet 0
 * has left, and follows it one step behind as without a plan: makespan 4, but latencies 3
 * and 3. Output queues give the same figures (a source injects into its switch's queue at
 * the end of the release step; the packet crosses c01 one step later). */
static void test_release_changes_makespan(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {0, 3}};
    static const char *const at[] = {"switching=store_forward queue_at=input",
                                     "switching=store_forward queue_at=output"};
    uint32_t rel[2];
    struct rs_engine_plan plan = {.release = rel};
    struct rs_record r;
    (void)state;
    for (int i = 0; i < 2; i++) {
        flit_run(CHAIN4, at[i], two, 2, NULL, &r);
        assert_int_equal(rs_test_int(&r, "makespan"), 4);
        assert_true(rs_test_double(&r, "latency_mean") == 3.5);
        rs_record_free(&r);
        rel[0] = 0, rel[1] = 10;
        flit_run(CHAIN4, at[i], two, 2, &plan, &r);
        assert_int_equal(rs_test_int(&r, "makespan"), 13);
        assert_int_equal(rs_test_int(&r, "steps"), 13);
        assert_int_equal(rs_test_int(&r, "hops"), 6);
        assert_int_equal(rs_test_int(&r, "delivered"), 2);
        assert_true(rs_test_double(&r, "latency_mean") == 3.0);
        assert_true(rs_test_double(&r, "latency_max") == 3.0);
        assert_int_equal(rs_test_int(&r, "deadlock"), 0);
        rs_record_free(&r);
        rel[0] = 10, rel[1] = 0;
        flit_run(CHAIN4, at[i], two, 2, &plan, &r);
        assert_int_equal(rs_test_int(&r, "makespan"), 13);
        assert_true(rs_test_double(&r, "latency_mean") == 3.0);
        rs_record_free(&r);
        rel[0] = 0, rel[1] = 1;
        flit_run(CHAIN4, at[i], two, 2, &plan, &r);
        assert_int_equal(rs_test_int(&r, "makespan"), 4);
        assert_true(rs_test_double(&r, "latency_mean") == 3.0);
        rs_record_free(&r);
    }
}

/* Released into an empty network: message 0 (1 -> 1, an empty route) released at 5 is
 * delivered at 5 with latency 0; message 1 (2 -> 3) released at 20 crosses c23 at 21. The
 * engine jumps over the idle steps: makespan 21, 21 steps, latencies 0 and 1. */
static void test_release_into_empty_network(void **state)
{
    static const uint32_t two[][2] = {{1, 1}, {2, 3}};
    uint32_t rel[2] = {5, 20};
    struct rs_engine_plan plan = {.release = rel};
    struct rs_record r;
    (void)state;
    flit_run(CHAIN4, "switching=store_forward", two, 2, &plan, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 21);
    assert_int_equal(rs_test_int(&r, "steps"), 21);
    assert_int_equal(rs_test_int(&r, "delivered"), 2);
    assert_true(rs_test_double(&r, "latency_mean") == 0.5);
    assert_true(rs_test_double(&r, "latency_max") == 1.0);
    rs_record_free(&r);
}

/* Intermediates from the plan: on the 4x4 mesh, 0 -> 0 (an empty route) via terminal 15
 * goes 6 hops out and 6 back: 12 hops, delivered at step 12; without the plan it is
 * delivered at once (makespan 0, no hop). */
static void test_plan_intermediates(void **state)
{
    static const uint32_t self[][2] = {{0, 0}};
    uint32_t mid[1] = {15};
    struct rs_engine_plan plan = {.mid = mid};
    struct rs_record r;
    (void)state;
    flit_run("topology=mesh k=4", "switching=store_forward", self, 1, &plan, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 12);
    assert_int_equal(rs_test_int(&r, "hops"), 12);
    rs_record_free(&r);
    flit_run("topology=mesh k=4", "switching=store_forward", self, 1, NULL, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 0);
    assert_int_equal(rs_test_int(&r, "hops"), 0);
    rs_record_free(&r);
}

/* discard_on_delay is refused with the reason; so are the outputs it does not write, and
 * an intermediate that is not a terminal. */
static void test_refused_fields(void **state)
{
    static const uint32_t one[][2] = {{0, 3}};
    uint32_t fin[1];
    struct rs_engine_plan discard = {.discard_on_delay = 1}, out = {.finish = fin};
    struct rs_record r;
    char msg[512];
    (void)state;
    assert_int_equal(flit_try(CHAIN4, "switching=store_forward", one, 1, RS_ROUTING_DIRECT,
                              &discard, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "`discard_on_delay`: a store-and-forward packet waits in a "
                                "queue by design"));
    rs_record_free(&r);
    assert_int_equal(flit_try(CHAIN4, "switching=store_forward", one, 1, RS_ROUTING_DIRECT,
                              &out, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_string_equal(msg, "switching=store_forward does not honour the plan field `finish`");
    rs_record_free(&r);
    /* the driver checks what it resolves: an intermediate must be a terminal */
    uint32_t mid[1] = {4};
    struct rs_engine_plan bad = {.mid = mid};
    assert_int_equal(flit_try(CHAIN4, "switching=store_forward", one, 1, RS_ROUTING_DIRECT,
                              &bad, &r, msg, sizeof msg),
                     RS_EINVAL);
    assert_string_equal(msg, "plan: message 0 has intermediate 4, not a terminal (0..3)");
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_release_changes_makespan),
        cmocka_unit_test(test_release_into_empty_network),
        cmocka_unit_test(test_plan_intermediates),
        cmocka_unit_test(test_refused_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
