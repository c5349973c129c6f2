/* The plan hooks of the flit engine for the next algorithms (issue 6): per-message release
 * steps, the blocked-header metric (zero for a conflict-free schedule), discarding a
 * message whose header is delayed (001 §3.1 step 4), per-message Valiant intermediates and
 * lengths, and the per-message outcome handed back. Chain channels as in test_flit.c. */
#include "flit_fixture.h"

#define CHAIN4 "topology=chain k=4"

/* Two messages 0 -> 3 from one source, L = 2, one VC, released at 0 and 10: the first
 * takes 3 + 2 - 1 = 4 steps; the second is held in its source until step 10, its header
 * crosses c01 at 11 and it is delivered at 10 + 4 = 14. Latencies count from the release:
 * 4 and 4. A source starts its messages in release order: released {10, 0}, message 1
 * goes first. */
static void test_release_steps(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {0, 3}};
    uint32_t rel[2] = {0, 10}, fin[2];
    uint8_t fate[2];
    struct rs_engine_plan plan = {.release = rel, .finish = fin, .fate = fate};
    struct rs_record r;
    flit_run(CHAIN4, "switching=wormhole length=2", two, 2, &plan, &r);
    assert_int_equal(fin[0], 4);
    assert_int_equal(fin[1], 14);
    assert_int_equal(fate[0], RS_FATE_DELIVERED);
    assert_int_equal(fate[1], RS_FATE_DELIVERED);
    assert_int_equal(rs_test_int(&r, "makespan"), 14);
    assert_true(rs_test_double(&r, "latency_mean") == 4.0);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 0);
    rs_record_free(&r);
    rel[0] = 10;
    rel[1] = 0;
    flit_run(CHAIN4, "switching=wormhole length=2", two, 2, &plan, &r);
    assert_int_equal(fin[0], 14);
    assert_int_equal(fin[1], 4);
    rs_record_free(&r);
}

/* A message whose path is empty (source = destination) is delivered without a move when it
 * reaches the front of its source: at its release step, also when the network is empty then
 * (the engine jumps to that release, delivers it, and jumps on to the next; found by
 * algorithm=colour_refine, whose classes can hold such messages), or, behind an older
 * message of its source, in the step that message starts. Message 0 (0 -> 3, L = 2) is
 * delivered at 4; message 1 (1 -> 1) at its release 10; message 2 (2 -> 2) at 20; message 3
 * (0 -> 1) released at 30 crosses c01 at 31 and 32: delivered at 32, the makespan. */
static void test_empty_paths_released_into_an_empty_network(void **state)
{
    static const uint32_t four[][2] = {{0, 3}, {1, 1}, {2, 2}, {0, 1}};
    uint32_t rel[4] = {0, 10, 20, 30}, fin[4];
    uint8_t fate[4];
    struct rs_engine_plan plan = {.release = rel, .finish = fin, .fate = fate};
    struct rs_record r;
    flit_run(CHAIN4, "switching=wormhole length=2", four, 4, &plan, &r);
    assert_int_equal(fin[0], 4);
    assert_int_equal(fin[1], 10);
    assert_int_equal(fin[2], 20);
    assert_int_equal(fin[3], 32);
    for (int i = 0; i < 4; i++)
        assert_int_equal(fate[i], RS_FATE_DELIVERED);
    assert_int_equal(rs_test_int(&r, "makespan"), 32);
    rs_record_free(&r);
    /* the last message has an empty path: the run ends with it, at its release */
    uint32_t rel2[2] = {0, 10};
    plan.release = rel2;
    flit_run(CHAIN4, "switching=wormhole length=2", four, 2, &plan, &r);
    assert_int_equal(fin[1], 10);
    assert_int_equal(rs_test_int(&r, "makespan"), 10);
    assert_int_equal(rs_test_int(&r, "delivered"), 2);
    rs_record_free(&r);
    /* an empty path behind an older message of its source, both released at 0: it reaches
     * the front of the source when message 0 starts, at step 1, and is delivered then */
    static const uint32_t behind[][2] = {{0, 3}, {0, 0}};
    uint32_t rel3[2] = {0, 0};
    plan.release = rel3;
    flit_run(CHAIN4, "switching=wormhole length=2", behind, 2, &plan, &r);
    assert_int_equal(fin[0], 4);
    assert_int_equal(fin[1], 1);
    rs_record_free(&r);
}

/* A = message 0 (0 -> 3) and B = message 1 (1 -> 3), L = 2, one VC (test_flit.c: released
 * together, A is blocked twice). B released at 0 holds c12 until its tail leaves it at
 * step 3, so c12 is free from step 4. A released at 2: header over c01 at 3, c12 at 4,
 * c23 at 5, tail at 6, never blocked: a conflict-free schedule shows 0 blocked header
 * steps. A released at 1: it reaches c12's tail end at step 3, one step early: blocked
 * once, then the same (finish 6). */
static void test_blocked_header_metric(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {1, 3}};
    uint32_t rel[2] = {2, 0}, fin[2];
    struct rs_engine_plan plan = {.release = rel, .finish = fin};
    struct rs_record r;
    flit_run(CHAIN4, "switching=wormhole length=2", two, 2, &plan, &r);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 0);
    assert_int_equal(fin[0], 6);
    assert_int_equal(fin[1], 3);
    rs_record_free(&r);
    rel[0] = 1;
    flit_run(CHAIN4, "switching=wormhole length=2", two, 2, &plan, &r);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 1);
    assert_int_equal(fin[0], 6);
    rs_record_free(&r);
}

/* Discard on delay: released together, A's header is blocked at step 2 (c12 held by B):
 * A is discarded at step 2 (its header in c01 and its tail in the source removed), B is
 * delivered at 3. The plan flag and on_delay=discard do the same. With
 * store_forward_flits A is entirely stored in c01 at step 2 and blocked at 3 (B's tail
 * still in c12): discarded at 3; B delivered at 4. A delay at the source counts too: two
 * messages 0 -> 3 from one source with one VC: the second's header cannot start at step 1
 * and it is discarded then. */
static void test_discard_on_delay(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {1, 3}};
    static const uint32_t same[][2] = {{0, 3}, {0, 3}};
    uint32_t fin[2];
    uint8_t fate[2];
    struct rs_engine_plan plan = {.discard_on_delay = 1, .finish = fin, .fate = fate};
    struct rs_engine_plan out = {.finish = fin, .fate = fate};
    struct rs_record r;
    flit_run(CHAIN4, "switching=wormhole length=2", two, 2, &plan, &r);
    assert_int_equal(fate[0], RS_FATE_DROPPED);
    assert_int_equal(fin[0], 2);
    assert_int_equal(fate[1], RS_FATE_DELIVERED);
    assert_int_equal(fin[1], 3);
    assert_int_equal(rs_test_int(&r, "dropped"), 1);
    assert_int_equal(rs_test_int(&r, "delivered"), 1);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 1);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 1 + 4);
    rs_record_free(&r);
    flit_run(CHAIN4, "switching=wormhole length=2 on_delay=discard", two, 2, &out, &r);
    assert_int_equal(fate[0], RS_FATE_DROPPED);
    assert_int_equal(fin[0], 2);
    rs_record_free(&r);
    flit_run(CHAIN4, "switching=store_forward_flits length=2 on_delay=discard", two, 2, &out,
             &r);
    assert_int_equal(fate[0], RS_FATE_DROPPED);
    assert_int_equal(fin[0], 3);
    assert_int_equal(fin[1], 4);
    rs_record_free(&r);
    flit_run(CHAIN4, "switching=wormhole length=2 on_delay=discard", same, 2, &out, &r);
    assert_int_equal(fate[0], RS_FATE_DELIVERED);
    assert_int_equal(fin[0], 4);
    assert_int_equal(fate[1], RS_FATE_DROPPED);
    assert_int_equal(fin[1], 1);
    rs_record_free(&r);
}

/* Per-message Valiant intermediates: on a 4x4 mesh a message from (0,0) to itself with
 * intermediate 15 = (3,3) goes 6 hops out and 6 back through dimension order: L = 3,
 * alone: 12 + 3 - 1 = 14 steps, 36 flit-hops (direct, its path would be empty). On the
 * wrapped 8-input butterfly, 0 -> 0 via 5 goes round twice: 6 hops, L = 1: 6 steps. */
static void test_plan_intermediates(void **state)
{
    static const uint32_t self[][2] = {{0, 0}};
    uint32_t mid[1] = {15};
    struct rs_engine_plan plan = {.mid = mid};
    struct rs_record r;
    flit_run("topology=mesh k=4", "switching=wormhole length=3 vcs=4 vc_classes=dateline", self,
             1, &plan, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 14);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 36);
    rs_record_free(&r);
    flit_run("topology=mesh k=4", "switching=wormhole length=3", self, 1, NULL, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 0);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 0);
    rs_record_free(&r);
    mid[0] = 5;
    flit_run("topology=butterfly N=8 wrap=1", "switching=wormhole length=1", self, 1, &plan, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 6);
    rs_record_free(&r);
}

/* Per-message lengths: 0 -> 1 with 1 flit (1 step) and 2 -> 3 with 5 flits (1 + 5 - 1 =
 * 5 steps); virtual cut-through buffers hold the longest message (max_buffer <= 5). */
static void test_plan_lengths(void **state)
{
    static const uint32_t two[][2] = {{0, 1}, {2, 3}};
    uint32_t len[2] = {1, 5}, fin[2];
    struct rs_engine_plan plan = {.length = len, .finish = fin};
    struct rs_record r;
    flit_run(CHAIN4, "switching=virtual_cut_through", two, 2, &plan, &r);
    assert_int_equal(fin[0], 1);
    assert_int_equal(fin[1], 5);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 6);
    rs_record_free(&r);
}

/* Plans are for the static message set; a zero length is refused; after a deadlock the
 * outcome says pending and the finish step is RS_NONE. */
static void test_plan_errors_and_deadlock(void **state)
{
    static const uint32_t two[][2] = {{0, 1}, {2, 3}};
    uint32_t len[2] = {1, 0};
    struct rs_engine_plan plan = {.length = len};
    struct rs_engine_plan empty = {0};
    struct rs_record r;
    char msg[512];
    assert_int_equal(flit_try(CHAIN4, "switching=wormhole", two, 2, RS_ROUTING_DIRECT, &plan, &r,
                              msg, sizeof msg),
                     RS_EINVAL);
    assert_non_null(strstr(msg, "length 0"));
    rs_record_free(&r);
    assert_int_equal(flit_try(CHAIN4, "switching=wormhole injection_process=bernoulli", two, 2,
                              RS_ROUTING_DIRECT, &empty, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&r);
    static const uint32_t ring[][2] = {{0, 2}, {1, 3}, {2, 4}, {3, 0}, {4, 1}};
    uint32_t fin[5];
    uint8_t fate[5];
    struct rs_engine_plan out = {.finish = fin, .fate = fate};
    assert_int_equal(flit_try("topology=ring k=5", "switching=wormhole", ring, 5,
                              RS_ROUTING_DIRECT, &out, &r, msg, sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    for (int i = 0; i < 5; i++) {
        assert_int_equal(fate[i], RS_FATE_PENDING);
        assert_int_equal(fin[i], RS_NONE);
    }
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_release_steps),
        cmocka_unit_test(test_empty_paths_released_into_an_empty_network),
        cmocka_unit_test(test_blocked_header_metric),
        cmocka_unit_test(test_discard_on_delay),
        cmocka_unit_test(test_plan_intermediates),
        cmocka_unit_test(test_plan_lengths),
        cmocka_unit_test(test_plan_errors_and_deadlock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
