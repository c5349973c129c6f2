/* Store-and-forward engine: hand-checked small examples (working in the comments),
 * invariants across every queue placement / protocol / full-queue policy, deadlock
 * reporting, Valiant routing and determinism. */
#include "rs_test.h"

/* 8-input butterfly, bit-reversal, FIFO, input queues of capacity 1.
 * Rows are written b0 b1 b2 (b0 = least significant bit = c_0, fixed first).
 * Packet p_a from row a goes to d = reverse(a): 0->0, 1->4, 2->2, 3->6, 4->1, 5->5, 6->3,
 * 7->7. At level 1 it is at row (d0, a1, a2) = (a2, a1, a2) and at level 2 the same:
 *   p0, p1 -> <1,0>; p2, p3 -> <1,2>; p4, p5 -> <1,5>; p6, p7 -> <1,7>,
 * arriving over the straight edge (in-slot 0) for p0, p2, p5, p7 and the cross edge
 * (in-slot 1) for p1, p3, p4, p6. Both packets of each level-1 node then take its straight
 * edge (bit 1 already agrees), so:
 *   step 1: all 8 inject (distinct empty queues);
 *   step 2: at each level-1 node both arrived at step 1; FIFO tie -> lower in-slot wins:
 *           p0, p2, p5, p7 move to level 2; the other four wait;
 *   step 3: p0, p2, p5, p7 cross to level 3 and are delivered; p1, p3, p4, p6 stay: the
 *           level-2 queue they need was full at the start of the step;
 *   step 4: p1, p3, p4, p6 move to level 2;
 *   step 5: they are delivered.
 * makespan 5; latencies 3,3,3,3,5,5,5,5 (mean 4, p99 5, max 5); 24 hops; max queue 1;
 * congestion 2 (the straight edge out of <1,0> carries p0 and p1); dilation 3. */
static void test_bitrev8_fifo_queue1(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=8 traffic=bitrev queue_size=1 protocol=fifo check=1", &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 5);
    assert_int_equal(rs_test_int(&r, "delivered"), 8);
    assert_int_equal(rs_test_int(&r, "dropped"), 0);
    assert_int_equal(rs_test_int(&r, "max_queue"), 1);
    assert_int_equal(rs_test_int(&r, "hops"), 24);
    assert_true(rs_test_double(&r, "latency_mean") == 4.0);
    assert_true(rs_test_double(&r, "latency_p99") == 5.0);
    assert_true(rs_test_double(&r, "latency_max") == 5.0);
    assert_int_equal(rs_test_int(&r, "congestion"), 2);
    assert_int_equal(rs_test_int(&r, "dilation"), 3);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    rs_record_free(&r);
}

/* Same with unbounded queues: at step 3 p1 enters the level-2 queue that p0 leaves (no
 * capacity limit), so the losers arrive one step earlier: latencies 3 x4 and 4 x4. */
static void test_bitrev8_unbounded(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=8 traffic=bitrev check=1", &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 4);
    assert_true(rs_test_double(&r, "latency_mean") == 3.5);
    assert_int_equal(rs_test_int(&r, "max_queue"), 1);
    rs_record_free(&r);
}

/* Dropping: the step-2 losers wait (only the winner uses the channel), then at step 3
 * each finds its level-2 queue full and is dropped: 4 delivered, 4 dropped, last event at
 * step 3. */
static void test_bitrev8_drop(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=8 traffic=bitrev queue_size=1 on_full=drop check=1", &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 4);
    assert_int_equal(rs_test_int(&r, "dropped"), 4);
    assert_int_equal(rs_test_int(&r, "makespan"), 3);
    rs_record_free(&r);
}

/* One queue per switch, capacity 1: at step 1 two sources target each of the level-1
 * queues <1,0>, <1,2>, <1,5>, <1,7>; admissions go in increasing terminal order, so p0,
 * p2, p4, p6 enter and p1, p3, p5, p7 wait. Step 2 they move on; step 3 they are
 * delivered while the waiting sources inject (the level-1 queues were empty at the start
 * of step 3); step 4 level 2; step 5 delivered. */
static void test_bitrev8_switch_queue(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=8 traffic=bitrev queue_size=1 queue_at=switch check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 5);
    assert_true(rs_test_double(&r, "latency_mean") == 4.0);
    assert_int_equal(rs_test_int(&r, "max_queue"), 1);
    rs_record_free(&r);
}

/* Identity on a 16-input butterfly: every packet goes straight, nobody meets anybody:
 * makespan = dilation = log2 16 = 4 for every protocol and queue placement. */
static void test_identity_no_contention(void **state)
{
    const char *at[] = {"input", "output", "switch"};
    const char *proto[] = {"fifo", "random", "priority", "furthest_first", "rank"};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            char kv[256];
            struct rs_record r;
            snprintf(kv, sizeof kv,
                     "topology=butterfly N=16 traffic=identity queue_size=1 queue_at=%s "
                     "protocol=%s check=1",
                     at[i], proto[j]);
            rs_test_run(kv, &r);
            assert_int_equal(rs_test_int(&r, "makespan"), 4);
            assert_true(rs_test_double(&r, "latency_mean") == 4.0);
            rs_record_free(&r);
        }
}

/* The invariant checker runs after every step of every combination (protocol=rank and
 * routing=ranade included); blocking runs deliver
 * everything, dropping runs account for every message, and no queue ever exceeds its
 * capacity. Leveled networks cannot deadlock, nor can a mesh with dimension-order routing
 * and a queue per channel (its channel dependencies are acyclic); one bounded queue per
 * switch on a mesh can (two neighbours full of packets for each other), and then the run
 * must stop with the waiting cycle. */
static void test_invariants_all_combinations(void **state)
{
    const char *topo[] = {"topology=butterfly N=32 traffic=uniform per_input=4",
                          "topology=butterfly N=16 wrap=1 routing=valiant traffic=transpose",
                          "topology=benes N=16 routing=valiant traffic=bitrev per_input=2",
                          "topology=mesh k=4 n=2 traffic=randperm per_input=3",
                          "topology=benes N=16 routing=ranade traffic=uniform per_input=3"};
    const char *at[] = {"input", "output", "switch"};
    const char *proto[] = {"fifo", "random", "priority", "furthest_first", "rank"};
    const char *full[] = {"block", "drop"};
    const int caps[] = {0, 1, 2};
    for (int t = 0; t < 5; t++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 5; j++)
                for (int f = 0; f < 2; f++)
                    for (int c = 0; c < 3; c++) {
                        char kv[512], msg[1024];
                        struct rs_record r;
                        snprintf(kv, sizeof kv,
                                 "%s queue_at=%s protocol=%s on_full=%s queue_size=%d seed=%d "
                                 "check=1",
                                 topo[t], at[i], proto[j], full[f], caps[c], 3 + t);
                        int rc = rs_test_try(kv, 1, &r, msg, sizeof msg);
                        if (rc) {
                            print_error("%s: %s\n", kv, msg);
                            fail();
                        }
                        int64_t n = rs_test_int(&r, "messages");
                        if (rs_test_int(&r, "deadlock")) {
                            assert_true(t == 3 && i == 2 && f == 0 && caps[c] > 0);
                            assert_non_null(strstr(msg, "waiting cycle of"));
                            rs_record_free(&r);
                            continue;
                        }
                        assert_int_equal(rs_test_int(&r, "delivered") +
                                             rs_test_int(&r, "dropped"),
                                         n);
                        if (f == 0)
                            assert_int_equal(rs_test_int(&r, "dropped"), 0);
                        if (caps[c])
                            assert_true(rs_test_int(&r, "max_queue") <= caps[c]);
                        assert_true(rs_test_int(&r, "makespan") >=
                                    (f == 0 ? rs_test_int(&r, "dilation") : 0));
                        rs_record_free(&r);
                    }
}

/* Ring of 7 nodes, tornado (x -> x+3: three hops clockwise, the shorter way), input queues
 * of capacity 1: step 1 every source injects into the queue of the next node; at step 2
 * each of those packets (two hops left) needs the queue of the node after, which is full,
 * all the way round: nothing can move. The run must stop and report the cycle of 7 full
 * queues, not hang. With capacity 2 the same traffic moves at step 2 (each queue held one
 * packet at the start of the step) and is delivered at step 3. */
static void test_ring_deadlock_reported(void **state)
{
    struct rs_record r;
    char msg[1024];
    int rc = rs_test_try("topology=ring k=7 traffic=tornado queue_size=1 check=1", 1, &r, msg,
                         sizeof msg);
    assert_int_equal(rc, 0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_int_equal(rs_test_int(&r, "delivered"), 0);
    assert_non_null(strstr(msg, "waiting cycle of 7 full queues"));
    rs_record_free(&r);
    rs_test_run("topology=ring k=7 traffic=tornado queue_size=2 check=1", &r);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    assert_int_equal(rs_test_int(&r, "makespan"), 3);
    rs_record_free(&r);
}

/* Valiant on the wrapped butterfly: every packet goes round twice (2 log N hops). */
static void test_valiant_wrap_hops(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=16 wrap=1 routing=valiant traffic=bitrev queue_size=2 "
                "check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 16);
    assert_int_equal(rs_test_int(&r, "hops"), 2 * 4 * 16);
    assert_int_equal(rs_test_int(&r, "dilation"), 8);
    rs_record_free(&r);
}

/* Valiant needs the wrap-around on a plain butterfly: a clear constraint error. */
static void test_valiant_needs_wrap(void **state)
{
    struct rs_record r;
    char msg[1024];
    int rc = rs_test_try("topology=butterfly N=16 routing=valiant", 1, &r, msg, sizeof msg);
    assert_int_equal(rc, RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "wrap=1"));
    rs_record_free(&r);
}

/* Same seed, same bytes; another seed, another result (random destinations and random
 * protocol on 256 inputs make a coincidence of every metric practically impossible). */
static void test_determinism(void **state)
{
    struct rs_buf a, b, c;
    rs_test_csv("topology=butterfly N=256 traffic=uniform protocol=random queue_size=2 seed=11", &a);
    rs_test_csv("topology=butterfly N=256 traffic=uniform protocol=random queue_size=2 seed=11", &b);
    rs_test_csv("topology=butterfly N=256 traffic=uniform protocol=random queue_size=2 seed=12", &c);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    assert_true(a.len != c.len || memcmp(a.data, c.data, a.len) != 0);
    rs_buf_free(&a);
    rs_buf_free(&b);
    rs_buf_free(&c);
}

/* The acceptance example: N=1024, uniform, queue_size=2, FIFO, seed 7 delivers
 * everything with no queue above 2. */
static void test_acceptance_example(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=1024 traffic=uniform queue_size=2 protocol=fifo seed=7",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 1024);
    assert_true(rs_test_int(&r, "max_queue") <= 2);
    assert_true(rs_test_int(&r, "makespan") >= 10);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitrev8_fifo_queue1),
        cmocka_unit_test(test_bitrev8_unbounded),
        cmocka_unit_test(test_bitrev8_drop),
        cmocka_unit_test(test_bitrev8_switch_queue),
        cmocka_unit_test(test_identity_no_contention),
        cmocka_unit_test(test_invariants_all_combinations),
        cmocka_unit_test(test_ring_deadlock_reported),
        cmocka_unit_test(test_valiant_wrap_hops),
        cmocka_unit_test(test_valiant_needs_wrap),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_acceptance_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
