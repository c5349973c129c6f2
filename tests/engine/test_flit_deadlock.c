/* Flit engine deadlocks: configurations that must deadlock are reported with the cycle of
 * waiting channels (never a hang), and dateline virtual-channel classes make the same
 * traffic deadlock-free. Tornado on a ring of 8 sends node x to x+3 (three hops +). */
#include "rs_test.h"

/* Wormhole, one VC class, ring k=8, tornado, L=4: at step 1 every header crosses its first
 * channel x -> x+1; at step 2 every header wants x+1 -> x+2, whose only VC is held by the
 * worm that started at x+1: all 8 headers blocked, nothing moves, the run stops at step 2
 * and names the 8 channels of the cycle. The same on an 8x8 torus: the rows are rings. */
static void test_ring_and_torus_deadlock(void **state)
{
    struct rs_record r;
    char msg[2048];
    assert_int_equal(rs_test_try("topology=ring k=8 traffic=tornado switching=wormhole check=1",
                                 1, &r, msg, sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_int_equal(rs_test_int(&r, "delivered"), 0);
    assert_int_equal(rs_test_int(&r, "steps"), 2);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 8);
    assert_non_null(strstr(msg, "deadlock at step 2: waiting cycle of 8 channels"));
    assert_non_null(strstr(msg, "message 6 waits for (7)->(0) vc 0 held by message 7"));
    assert_non_null(strstr(msg, "back to the first"));
    rs_record_free(&r);
    /* two VCs without classes do not help: two worms per channel close the cycle */
    assert_int_equal(rs_test_try("topology=torus k=8 n=2 traffic=tornado switching=wormhole "
                                 "vcs=2 check=1",
                                 1, &r, msg, sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_non_null(strstr(msg, "waiting cycle of"));
    rs_record_free(&r);
}

/* Two dateline classes (vcs=2, vc_classes=dateline): a worm uses VC 0 until it crosses
 * the wrap-around channel 7 -> 0 and VC 1 on and after it, so no cycle of waiting can
 * close: all delivered, on the ring and on the torus (with more traffic), and in every
 * switching mode. */
static void test_dateline_classes_prevent_it(void **state)
{
    const char *mode[] = {"wormhole", "virtual_cut_through", "cut_through_partial",
                          "store_forward_flits"};
    for (int m = 0; m < 4; m++) {
        char kv[256];
        struct rs_record r;
        snprintf(kv, sizeof kv,
                 "topology=ring k=8 traffic=tornado per_input=3 switching=%s vcs=2 "
                 "vc_classes=dateline check=1",
                 mode[m]);
        rs_test_run(kv, &r);
        assert_int_equal(rs_test_int(&r, "deadlock"), 0);
        assert_int_equal(rs_test_int(&r, "delivered"), 24);
        rs_record_free(&r);
        snprintf(kv, sizeof kv,
                 "topology=torus k=8 n=2 traffic=tornado per_input=3 switching=%s vcs=2 "
                 "vc_classes=dateline check=1",
                 mode[m]);
        rs_test_run(kv, &r);
        assert_int_equal(rs_test_int(&r, "deadlock"), 0);
        assert_int_equal(rs_test_int(&r, "delivered"), 192);
        rs_record_free(&r);
    }
}

/* Cut-through with partial cuts on the tornado ring, L = 4. With FIFOs of k = 4 flits:
 * step 1 every header enters the FIFO of its first channel; steps 2-4 the bodies follow
 * (each tail enters at step 4, releasing the channel); at step 5 every header wants the
 * next FIFO, free but full (4 flits at the start of the step): nothing moves, deadlock at
 * step 5. With k = 5 each header enters the next FIFO at step 5 behind that snake's 3
 * remaining flits, reaches its front after steps 6-8, is delivered at 9, its tail at 12. */
static void test_partial_cuts_fifo_deadlock(void **state)
{
    struct rs_record r;
    char msg[2048];
    assert_int_equal(rs_test_try("topology=ring k=8 traffic=tornado switching=cut_through_partial "
                                 "vc_depth=4 check=1",
                                 1, &r, msg, sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_int_equal(rs_test_int(&r, "steps"), 5);
    assert_non_null(strstr(msg, "deadlock at step 5: waiting cycle of 8 channels"));
    rs_record_free(&r);
    rs_test_run("topology=ring k=8 traffic=tornado switching=cut_through_partial vc_depth=5 "
                "check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    assert_int_equal(rs_test_int(&r, "makespan"), 12);
    assert_int_equal(rs_test_int(&r, "max_buffer"), 5);
    rs_record_free(&r);
}

/* Open loop on the tornado torus with one VC: rows lock up while packets keep flowing
 * elsewhere; the search for a deadlocked set of worms (every 64 steps) stops the run,
 * reports the cycle, and the run is saturated (measured packets remain). */
static void test_open_loop_deadlock(void **state)
{
    const char *mode[] = {"wormhole", "virtual_cut_through", "cut_through_partial",
                          "store_forward_flits"};
    for (int m = 0; m < 4; m++) {
        struct rs_record r;
        char kv[512], msg[2048];
        snprintf(kv, sizeof kv,
                 "topology=torus k=8 n=2 traffic=tornado switching=%s "
                 "injection_process=bernoulli injection_rate=0.3 warmup_steps=100 "
                 "measure_steps=1000 check=1",
                 mode[m]);
        assert_int_equal(rs_test_try(kv, 1, &r, msg, sizeof msg), 0);
        assert_int_equal(rs_test_int(&r, "deadlock"), 1);
        assert_int_equal(rs_test_int(&r, "saturated"), 1);
        assert_true(rs_test_int(&r, "steps") % 64 == 0); /* found by the periodic search */
        assert_non_null(strstr(msg, "waiting cycle of"));
        assert_non_null(strstr(msg, "packet of terminal"));
        rs_record_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ring_and_torus_deadlock),
        cmocka_unit_test(test_dateline_classes_prevent_it),
        cmocka_unit_test(test_partial_cuts_fifo_deadlock),
        cmocka_unit_test(test_open_loop_deadlock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
