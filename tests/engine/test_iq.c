/* router=iq (BookSim 2's input-queued router on the flit engine): one packet through two
 * and three routers cycle by cycle, a credit round trip that limits one link with one-flit
 * buffers, the allocators' round-robin fairness on hand cases, deadlock detection, and that
 * router=simple refuses the router's keys. All worked by hand below (docs/model-iq.md). */
#include "flit_fixture.h"

#include "engine/iq_alloc.h"

#define IQ_NET "topology=mesh k=4 n=2"

static int64_t one_packet(const char *kv, uint32_t src, uint32_t dst)
{
    struct rs_record r;
    const uint32_t pairs[1][2] = {{src, dst}};
    flit_run(IQ_NET, kv, pairs, 1, NULL, &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 1);
    int64_t t = rs_test_int(&r, "makespan");
    rs_record_free(&r);
    return t;
}

/* Defaults (routing_delay = vc_alloc_delay = sw_alloc_delay = st_final_delay = 1,
 * channel_latency 1), L = 4 flits, 2 VCs of 4 flits, released at cycle 0, 0 -> 1 on a mesh
 * (routers 0 and 1). The head:
 *   cycle 0  the source writes it into its injection channel (flits 1..3 at 1, 2, 3);
 *   cycle 2  router 0 reads it (a write is read 1 + latency cycles later) and routes it;
 *   cycle 3  VC allocation;  cycle 4  switch allocation (it leaves the input buffer);
 *   cycle 5  switch traversal: into the output queue and onto the channel 0 -> 1;
 *   cycle 7  router 1 reads and routes it; 8 VC allocation; 9 switch allocation;
 *   cycle 10 traversal onto the ejection channel; cycle 12 the terminal reads it.
 * The body flits follow one cycle apart: the tail arrives at 15 = latency (BookSim 2 gives
 * the same trace with watch_packets). Through three routers (0 -> 2) the head takes one
 * more router (3 cycles) and channel (2 cycles): 17, the tail 20. */
static void test_pipeline_two_and_three_routers(void **state)
{
    const char *kv = "switching=wormhole router=iq vcs=2 vc_depth=4 length=4";
    assert_int_equal(one_packet(kv, 0, 1), 15);
    assert_int_equal(one_packet(kv, 0, 2), 20);
    /* routing_delay=2, channel_latency=3: a router takes 2 (route) + 1 + 1 + 1 - 1 = 4
     * cycles from read to write, a channel 3 + 1 = 4. Head: 2 (injection) + 3 routers x 4
     * + 2 channels x 4 + 2 (ejection) = 24; tail 27. */
    assert_int_equal(one_packet("switching=wormhole router=iq vcs=2 vc_depth=4 length=4 "
                                "routing_delay=2 channel_latency=3",
                                0, 2),
                     27);
    /* speculative=1: switch allocation in the same cycle as VC allocation, a router takes
     * 1 + 1 + 1 - 1 = 2 cycles: head 2 + 3 x 2 + 2 x 2 + 2 = 14, tail 17. */
    assert_int_equal(one_packet("switching=wormhole router=iq vcs=2 vc_depth=4 length=4 "
                                "speculative=1",
                                0, 2),
                     17);
    /* virtual cut-through: buffers of a whole packet; unloaded, the same timing */
    assert_int_equal(one_packet("switching=virtual_cut_through router=iq vcs=2 length=4", 0, 2),
                     20);
}

/* Credits: one VC of one flit on every buffer, L = 8, 0 -> 1. The head arrives at 12 as
 * above. A flit that leaves router 0's output at switch allocation cycle u crosses at u+1,
 * is read by router 1 at u+3 and leaves its buffer there (switch allocation in the cycle it
 * is read, its VC being active); the credit is written at u+3 and read by router 0 at
 * u+5, which only then sees a free slot: one flit per 5 cycles on the link (and likewise
 * on the ejection link). Flit 1: router 0 gets the head's credit at 11 (router 1 read the
 * head at 7, allocated a VC at 8 and the switch at 9), so flit 1 crosses at 12 and arrives
 * at 17 = 12 + 5; the tail 12 + 7 x 5 = 47. With 4-flit buffers, flits 0..3 leave router 0
 * at 4..7 but router 1 routes and allocates the head before it leaves (at 9), so the first
 * credit is back at 11: flits 4..7 leave router 0 at 11..14, router 1 at 14..17 (its
 * ejection credits are back by then) and reach the terminal at 17..20: latency 20. */
static void test_credit_round_trip(void **state)
{
    assert_int_equal(one_packet("switching=wormhole router=iq vcs=1 vc_depth=1 length=8", 0, 1),
                     47);
    assert_int_equal(one_packet("switching=wormhole router=iq vcs=1 vc_depth=4 length=8", 0, 1),
                     20);
    /* credit_delay=2: every credit counts 2 cycles later: the loop is 7 cycles; the head's
     * own timing is unchanged (12), the tail at 12 + 7 x 7 = 61 */
    assert_int_equal(one_packet("switching=wormhole router=iq vcs=1 vc_depth=1 length=8 "
                                "credit_delay=2",
                                0, 1),
                     61);
}

/* The allocators on a hand case: inputs 0, 1, 2 all request output 0, input 2 also output
 * 1. Separable input-first, pointers at 0: input 2's arbiter picks output 0 (first at or
 * after its pointer), so output 0 sees 0, 1, 2 and grants 0; output 1 sees none. Both
 * arbiters that granted move past the winner. Repeating the same requests, output 0's
 * pointer is at 1: it grants 1, then 2, then 0 — round robin, each input once in three
 * cycles. Output-first: output 0 grants 0, output 1 grants 2, input 2 accepts output 1:
 * two matches; then 1 and 2; in the third cycle output 0's pointer is at 2, both outputs
 * grant input 2, whose pointer (past output 1) is back at 0: it takes output 0, output 1
 * idles. iSLIP (one iteration) makes the same grants and accepts here. */
static void test_allocators_round_robin(void **state)
{
    const struct iq_req q[4] = {{0, 0, 0, 0, 0}, {1, 0, 1, 0, 0}, {2, 0, 2, 0, 0},
                                {2, 1, 2, 0, 0}};
    for (int kind = 0; kind < 3; kind++) {
        uint32_t in_ptr[3] = {0}, out_ptr[2] = {0};
        int32_t inm[3], outm[2], inb[3], outb[2];
        for (int i = 0; i < 3; i++)
            inm[i] = inb[i] = -1;
        for (int i = 0; i < 2; i++)
            outm[i] = outb[i] = -1;
        struct iq_allocator a = {(enum iq_alloc_kind)kind, 3, 2, 1, in_ptr, out_ptr,
                                 inm, outm, inb, outb};
        int32_t wins[3] = {0};
        for (int cycle = 0; cycle < 3; cycle++) {
            rs__iq_allocate(&a, q, 4);
            if (kind == IQ_ALLOC_SEP_IN) {
                assert_int_equal(outm[0], cycle); /* 0, then 1, then 2 */
                assert_int_equal(outm[1], -1);
            } else {
                assert_int_equal(outm[0], cycle);
                assert_int_equal(outm[1], cycle < 2 ? 2 : -1);
            }
            for (int i = 0; i < 3; i++)
                if (inm[i] >= 0)
                    wins[i]++;
            rs__iq_alloc_clear(&a, q, 4);
            for (int i = 0; i < 3; i++)
                assert_int_equal(inm[i], -1);
        }
        if (kind == IQ_ALLOC_SEP_IN)
            for (int i = 0; i < 3; i++)
                assert_int_equal(wins[i], 1);
    }
    /* priorities first, then the round-robin order from the pointer */
    assert_true(rs__iq_supersedes(2, 1, 0, 0, 0, 4));
    assert_true(rs__iq_supersedes(3, 0, 0, 0, 3, 4));
    assert_false(rs__iq_supersedes(2, 0, 3, 0, 3, 4));
}

/* Deadlock: tornado on a ring of 8 with one VC and 1-flit buffers: every packet's head
 * waits for the VC its neighbour holds; nothing moves, the run stops with deadlock=1 and
 * names the waiting cycle. Dateline classes (vcs=2) deliver the same traffic. */
static void test_deadlock(void **state)
{
    struct rs_record r;
    char msg[2048];
    assert_int_equal(rs_test_try("topology=ring k=8 traffic=tornado switching=wormhole "
                                 "router=iq length=4 check=1",
                                 1, &r, msg, sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    assert_int_equal(rs_test_int(&r, "delivered"), 0);
    assert_non_null(strstr(msg, "waiting cycle of input virtual channels"));
    assert_non_null(strstr(msg, "held by message"));
    rs_record_free(&r);
    rs_test_run("topology=ring k=8 traffic=tornado switching=wormhole router=iq length=4 "
                "vcs=2 vc_classes=dateline check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    assert_int_equal(rs_test_int(&r, "delivered"), 8);
    rs_record_free(&r);
    /* BookSim's classes (vc_classes=partition): x -> x+3 wraps for x >= 5 only; those three
     * packets use VC 1 on all their hops, the other five VC 0, which the wrapping ones
     * never wait for: no cycle closes either */
    rs_test_run("topology=ring k=8 traffic=tornado switching=wormhole router=iq length=4 "
                "vcs=2 vc_classes=partition check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    assert_int_equal(rs_test_int(&r, "delivered"), 8);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=tornado switching=wormhole "
                                 "vcs=2 vc_classes=partition",
                                 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "vc_classes=partition needs a torus or ring"));
    rs_record_free(&r);
}

/* Valiant without vc_classes: router=iq gives each leg its own half of the VCs (BookSim's
 * valiant routing functions), so the 8x8 mesh with 2 VCs runs saturated without deadlock
 * (before the split, phase B's packets waited on phase A's VCs and this run deadlocked
 * after 46 deliveries); the same on a 3x3 HyperX, and with 3 VCs (1 + 2). One VC cannot be
 * split: refused. */
static void test_valiant_phase_classes(void **state)
{
    (void)state;
    const char *const runs[] = {
        "topology=mesh k=8 n=2 routing=valiant switching=wormhole router=iq vcs=2 vc_depth=4",
        "topology=mesh k=4 n=2 routing=valiant switching=wormhole router=iq vcs=3 vc_depth=1 "
        "speculative=1",
        "topology=hyperx S=3,3 T=2 routing=valiant switching=virtual_cut_through router=iq "
        "vcs=2",
        NULL};
    rs_test_no_deadlock_saturated(runs);
    struct rs_record r;
    char msg[512];
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=uniform routing=valiant "
                                 "switching=wormhole router=iq vcs=1",
                                 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    assert_non_null(strstr(msg, "router=iq: Valiant routes need vcs >= 2"));
    rs_record_free(&r);
}

/* Adaptive routing under router=iq: every adaptive routing runs saturated (offered 0.9
 * flits/terminal/cycle, rs_test_no_deadlock_saturated) without deadlock, with the credit
 * checker on: min_adaptive on the mesh (escape VC 0) and the torus (escape pair 0-1),
 * nca_adaptive on the k-ary n-tree (one VC: no escape class needed), UGAL-L and UGAL-G on the
 * dragonfly, with speculation and separable allocators (uniform traffic). */
static void test_adaptive_no_deadlock(void **state)
{
    (void)state;
    const char *const runs[] = {
        "topology=mesh k=8 n=2 routing=min_adaptive switching=wormhole router=iq vcs=2 "
        "vc_depth=4",
        "topology=mesh k=4 n=3 routing=min_adaptive switching=wormhole router=iq vcs=2 "
        "vc_depth=1 speculative=1",
        "topology=mesh k=8 n=2 routing=min_adaptive switching=virtual_cut_through router=iq "
        "vcs=3 vc_allocator=separable_input_first sw_allocator=separable_output_first",
        "topology=torus k=4 n=2 routing=min_adaptive switching=wormhole router=iq vcs=3 "
        "vc_depth=2 channel_latency=2",
        "topology=kary_ntree k=4 n=3 routing=nca_adaptive switching=wormhole router=iq vcs=1 "
        "vc_depth=2",
        "topology=dragonfly routing=ugal_l switching=wormhole router=iq vcs=3 vc_depth=2",
        "topology=dragonfly routing=ugal_g switching=wormhole router=iq vcs=3 vc_depth=2 "
        "speculative=1",
        NULL};
    rs_test_no_deadlock_saturated(runs);
}

/* min_adaptive under router=iq leaves the dimension-order port when it has no credits. On
 * the 4x4 mesh (node x + 4y; port 0 = +x, 2 = +y), 2 VCs of 1 flit, 1-flit packets,
 * credit_delay=4, separable input-first allocators (they honour the routing's order as the
 * priority; iSLIP ignores priorities, as BookSim's does). Terminal 0 sends B1 and B2 to
 * terminal 1, then A to terminal 5 (dimension order: +x, then +y).
 *   B1: injected at 0 (injection VC 0), read by router 0 at 2, routed; VC allocation at 3:
 *       +x VC 1 (adaptive, priority above the escape VC 0); leaves at 4 (switch
 *       allocation): +x VC 1 now holds 1 flit of 1 (full), released (its tail left).
 *   B2: injected at 1 (VC 1), read at 3; at 4 +x VC 1 is still B1's, so it takes the escape
 *       VC 0, leaves at 5: both +x VCs full. Router 1 reads B1 at 7 and moves it on at 9; the
 *       credit is read by router 0 at 11 and counts at 15 (B2's at 16).
 *   A:  the source's VCs wait for router 0's credits (B1's, written at 4, read at 6): A is
 *       injected at 6 and read by router 0 at 8, where min_adaptive orders the productive
 *       ports by free slots: +y 1, +x 0 + 0. At VC allocation (9) both +x VCs are free
 *       (their tails left) but hold a flit without its credit: the adaptive +x VC 1 is not
 *       offered (an adaptive VC is allocated empty), the escape VC 0 is, at the lowest
 *       priority; +y VC 1 wins. No credit wait on its way (0 -> 4 -> 5):
 *       switch 10, traversal 11, router 4 reads 13 (routed 13, VC 14, switch 15, traversal
 *       16), router 5 reads 18 (.. 21), the terminal reads it at 23: makespan 23.
 * Dimension order (routing=direct, both VCs on every hop; B1 takes VC 0, B2 VC 1) sends A
 * to +x: VC allocation at 9 gives it VC 1 (the input arbiter's pointer is past VC 0, which
 * B1 took), whose credit (B2's) counts at 16; switch allocation waits until then, and A
 * reaches its terminal 13 cycles later as above: 29. adaptive_set=booksim (BookSim's route
 * set: the adaptive VCs of the dimension-order port and its escape) also keeps A on +x:
 * B1 took VC 1 and B2 VC 0 as in the first case; A is offered VC 1 (priority 1, allocated
 * although not empty, as BookSim does) and VC 0 and wins VC 1, whose credit (B1's) counts
 * at 15: 28. */
static void test_adaptive_by_credits(void **state)
{
    (void)state;
    const uint32_t pairs[3][2] = {{0, 1}, {0, 1}, {0, 5}};
    const char *kv = "switching=wormhole router=iq vcs=2 vc_depth=1 length=1 credit_delay=4 "
                     "vc_allocator=separable_input_first sw_allocator=separable_input_first";
    const char *kv_bs = "switching=wormhole router=iq vcs=2 vc_depth=1 length=1 credit_delay=4 "
                        "vc_allocator=separable_input_first sw_allocator=separable_input_first "
                        "adaptive_set=booksim";
    const struct rs_routing_ops *routing[3] = {RS_ROUTING_MIN_ADAPTIVE, RS_ROUTING_DIRECT,
                                               RS_ROUTING_MIN_ADAPTIVE};
    const int64_t makespan[3] = {23, 29, 28};
    for (int i = 0; i < 3; i++) {
        struct rs_record r;
        char msg[2048];
        assert_int_equal(flit_try(IQ_NET, i < 2 ? kv : kv_bs, pairs, 3, routing[i], NULL, &r,
                                  msg, sizeof msg),
                         0);
        assert_int_equal(rs_test_int(&r, "delivered"), 3);
        assert_int_equal(rs_test_int(&r, "makespan"), makespan[i]);
        rs_record_free(&r);
    }
}

/* A batch run that deadlocked with the escape rule alone: 8x8 mesh, 2 VCs of 4 flits,
 * 400 uniform 4-flit packets per terminal. When adaptive VCs were reallocated as soon as the
 * previous packet's tail had left (BookSim's wait_for_tail_credit=0), ten packets ended
 * holding adaptive VCs around a cycle (20 -> 21 -> 29 -> 28 -> 20 and one more), each
 * waiting for the buffer the next one filled, and 25,590 of 25,600 were delivered. Adaptive
 * VCs next to an escape VC are now allocated only when empty: every packet is delivered. */
static void test_adaptive_batch_drains(void **state)
{
    (void)state;
    struct rs_record r;
    rs_test_run("topology=mesh k=8 n=2 traffic=uniform per_input=400 routing=min_adaptive "
                "switching=wormhole router=iq vcs=2 vc_depth=4 length=4 seed=1",
                &r);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    assert_int_equal(rs_test_int(&r, "delivered"), 25600);
    rs_record_free(&r);
}

/* Same seed, same record; router=simple refuses the router's keys; the default router's
 * record has none of them. */
static void test_keys_and_determinism(void **state)
{
    struct rs_record a, b;
    char msg[512];
    const char *kv = "topology=mesh k=4 n=2 traffic=uniform switching=wormhole router=iq "
                     "vcs=2 vc_depth=2 injection_process=bernoulli injection_rate=0.3 "
                     "warmup_steps=100 measure_steps=500 sw_allocator=separable_input_first";
    rs_test_run(kv, &a);
    rs_test_run(kv, &b);
    assert_int_equal(rs_test_int(&a, "delivered"), rs_test_int(&b, "delivered"));
    assert_int_equal(rs_test_int(&a, "flit_hops"), rs_test_int(&b, "flit_hops"));
    assert_true(rs_test_int(&a, "delivered") > 0);
    rs_record_free(&a);
    rs_record_free(&b);
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=bitrev switching=wormhole "
                                 "routing_delay=2",
                                 1, &a, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "routing_delay= is a key of router=iq"));
    rs_record_free(&a);
    assert_int_equal(rs_test_try("topology=mesh k=4 n=2 traffic=bitrev switching=wormhole "
                                 "router=iq adaptive_set=booksim",
                                 1, &a, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "adaptive_set= has no effect with routing=direct"));
    rs_record_free(&a);
    rs_test_run("topology=mesh k=4 n=2 traffic=bitrev switching=wormhole", &a);
    assert_null(rs_record_get(&a, "router"));
    rs_record_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_two_and_three_routers),
        cmocka_unit_test(test_credit_round_trip),
        cmocka_unit_test(test_allocators_round_robin),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_valiant_phase_classes),
        cmocka_unit_test(test_adaptive_no_deadlock),
        cmocka_unit_test(test_adaptive_by_credits),
        cmocka_unit_test(test_adaptive_batch_drains),
        cmocka_unit_test(test_keys_and_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
