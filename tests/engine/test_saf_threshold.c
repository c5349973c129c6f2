/* Store-and-forward queue_threshold=q (004 §3): worked by hand on an 8-input butterfly with
 * one queue per switch, against the strict queue_size; the two keys exclude each other;
 * the bound q + (channels into the queue) on every queue is checked each step (check=1). */
#include "rs_test.h"

/* File threshold_funnel8: inputs 0..3 send to output 0, inputs 4..7 to themselves (rows 4..7
 * never meet rows 0..3: bit 2 is fixed last). Switch queues, FIFO. Paths: 0, 1 -> <1,0>;
 * 2, 3 -> <1,2>; both -> <2,0> (<1,2> by its cross edge) -> delivered at <3,0>. Queue
 * contents after each step (<1,0> | <1,2> | <2,0>), packets by input:
 *
 * queue_threshold=0 (a queue admits every arrival while it was empty at the start):
 *   1: [0 1] | [2 3] | []        both sources of each switch inject (empty at the start)
 *   2: [1] | [3] | [0 2]         0 and 2 enter <2,0> together (lower switch id first)
 *   3: [1] | [3] | [2]           0 delivered; 1 and 3 wait: <2,0> held 2 at the start
 *   4: [1] | [3] | []            2 delivered; <2,0> held 1 at the start: still closed
 *   5: [] | [] | [1 3]           <2,0> was empty: both enter
 *   6, 7: 1 then 3 delivered.  Makespan 7, largest queue 2 = q + 2; latencies 3 (x4, rows
 *   4..7 and input 0), 4, 6, 7: mean 32/8 = 4.
 * queue_threshold=1:
 *   1: [0 1] | [2 3] | []   2: [1] | [3] | [0 2]   3: [1] | [3] | [2] (held 2 > 1)
 *   4: [] | [] | [1 3] (held 1 <= 1: both enter while 2 leaves)   5, 6: 1, 3 delivered.
 *   Makespan 6, largest queue 2; latencies 3 (x5), 4, 5, 6: mean (3*5 + 4 + 5 + 6)/8 = 30/8.
 * queue_size=1 (strict: at most 1, room judged at the start plus this step's admissions):
 *   1: [0] | [2] | [] (1 and 3 wait in their sources)   2: [] | [2] | [0] (<1,0> first)
 *   3: [1] | [2] | []   4: [] | [2] | [1]   5: [] | [2] | []   6: [] | [] | [2]
 *   7: [] | [3] | []   8: [] | [] | [3]   9: 3 delivered. Makespan 9, largest queue 1;
 *   latencies 3 (x5: rows 4..7, input 0), 5, 7, 9: mean 36/8 = 4.5. */
static void test_funnel_by_hand(void **state)
{
    static const struct {
        const char *queue;
        int64_t makespan, max_queue;
        double mean;
    } cases[] = {{"queue_threshold=0", 7, 2, 4.0},
                 {"queue_threshold=1", 6, 2, 30.0 / 8},
                 {"queue_size=1", 9, 1, 4.5}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char kv[512], buf[768];
        struct rs_record r;
        snprintf(kv, sizeof kv,
                 "topology=butterfly N=8 traffic=file file_kind=any "
                 "traffic_file=@/threshold_funnel8.txt queue_at=switch check=1 %s",
                 cases[i].queue);
        rs_test_run(rs_test_with_data(kv, buf, sizeof buf), &r);
        assert_int_equal(rs_test_int(&r, "makespan"), cases[i].makespan);
        assert_int_equal(rs_test_int(&r, "max_queue"), cases[i].max_queue);
        assert_int_equal(rs_test_int(&r, "delivered"), 8);
        assert_true(rs_test_double(&r, "latency_mean") == cases[i].mean);
        rs_record_free(&r);
    }
}

/* A switch queue fed by both its channels may exceed q + 1 but never q + 2 (the checker,
 * check=1, fails the run if any queue exceeds q + 2): uniform traffic, 8 packets per
 * input, N = 64, seed 7, q = 0, 1, 3, every protocol. q = 0 and 1 reach q + 2 under every
 * protocol; q = 3 reaches 5 under priority and rank, 4 under the others (measured; the
 * cells below pin them, so a change of the model shows). */
static void test_fills_to_q_plus_2(void **state)
{
    static const char *const protocols[] = {"fifo", "random", "priority", "furthest_first",
                                            "rank"};
    static const int q[] = {0, 1, 3};
    static const int64_t most[5][3] = {{2, 3, 4}, {2, 3, 4}, {2, 3, 5}, {2, 3, 4}, {2, 3, 5}};
    for (size_t p = 0; p < sizeof protocols / sizeof *protocols; p++)
        for (size_t i = 0; i < 3; i++) {
            char kv[256];
            struct rs_record r;
            snprintf(kv, sizeof kv,
                     "topology=butterfly N=64 traffic=uniform per_input=8 queue_at=switch "
                     "queue_threshold=%d protocol=%s check=1 seed=7",
                     q[i], protocols[p]);
            rs_test_run(kv, &r);
            assert_int_equal(rs_test_int(&r, "delivered"), 512);
            assert_true(rs_test_int(&r, "max_queue") <= q[i] + 2);
            assert_int_equal(rs_test_int(&r, "max_queue"), most[p][i]);
            rs_record_free(&r);
        }
}

/* Input queues have one feeding channel: queue_threshold=q is queue_size=q+1 there, with
 * the same record (but the key). */
static void test_input_queues_equal_size(void **state)
{
    struct rs_record a, b;
    rs_test_run("topology=butterfly N=256 traffic=uniform per_input=4 queue_threshold=1 seed=3",
                &a);
    rs_test_run("topology=butterfly N=256 traffic=uniform per_input=4 queue_size=2 seed=3", &b);
    static const char *const m[] = {"makespan", "max_queue", "hops", "steps"};
    for (size_t i = 0; i < 4; i++)
        assert_int_equal(rs_test_int(&a, m[i]), rs_test_int(&b, m[i]));
    assert_true(rs_test_double(&a, "latency_mean") == rs_test_double(&b, "latency_mean"));
    rs_record_free(&a);
    rs_record_free(&b);
}

/* queue_threshold and a queue_size above 0 together are refused, naming both. */
static void test_exclusive(void **state)
{
    char msg[1024];
    struct rs_record r;
    int rc = rs_test_try("topology=butterfly N=8 queue_threshold=1 queue_size=2", 1, &r, msg,
                         sizeof msg);
    assert_int_equal(rc, RS_EINVAL);
    assert_non_null(strstr(msg, "queue_threshold and queue_size=2 exclude each other"));
    rs_record_free(&r);
    /* queue_size=0 (no capacity, the default a record repeats) goes with a threshold */
    rs_test_run("topology=butterfly N=8 queue_threshold=1 queue_size=0", &r);
    assert_int_equal(rs_test_int(&r, "queue_threshold"), 1);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_funnel_by_hand),
        cmocka_unit_test(test_fills_to_q_plus_2),
        cmocka_unit_test(test_input_queues_equal_size),
        cmocka_unit_test(test_exclusive),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
