/* Flit engine: hand-worked examples of every switching mode (the working is in the
 * comments), D+L-1 and D*L on unblocked paths, virtual channels against link bandwidth,
 * partial cuts and virtual cut-through collapsing, invariants across every combination,
 * Valiant routing and determinism. Channel cAB below is the chain channel from node A to
 * node B; "step s: X" lists what happens in flit step s. */
#include "flit_fixture.h"

#define CHAIN4 "topology=chain k=4"

/* A worm that is never blocked takes D+L-1 flit steps: on the 1024-input butterfly,
 * identity sends input i to output i straight down, D = 10 channels, all paths disjoint:
 * the header crosses level l -> l+1 at step l+1 and is delivered at step 10; the 8th flit
 * follows 7 steps behind: makespan 10 + 8 - 1 = 17 for every message. 8 flits x 10 hops x
 * 1024 = 81920 flit-hops. */
static void test_butterfly_identity_d_plus_l_minus_1(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=1024 traffic=identity switching=wormhole vcs=1 length=8",
                &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 17);
    assert_true(rs_test_double(&r, "latency_max") == 17.0);
    assert_int_equal(rs_test_int(&r, "delivered"), 1024);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 81920);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 0);
    assert_int_equal(rs_test_int(&r, "max_buffer"), 1);
    rs_record_free(&r);
}

/* One message 0 -> 3 on a chain (D = 3 channels), L = 4. Cut-through modes: header at c01,
 * c12, c23 (delivered) in steps 1, 2, 3; the tail 3 steps later: 3 + 4 - 1 = 6.
 * store_forward_flits forwards a message only once it is entirely stored: flits cross c01
 * in steps 1..4, c12 in 5..8, c23 in 9..12: D*L = 12 (001 §1: a message step is L flit
 * steps). With L = 1 every mode takes D = 3. */
static void test_unblocked_worm_every_mode(void **state)
{
    static const uint32_t one[][2] = {{0, 3}};
    const char *modes[] = {"wormhole", "virtual_cut_through", "cut_through_partial",
                           "store_forward_flits"};
    const int want[] = {6, 6, 6, 12};
    for (int i = 0; i < 4; i++)
        for (int shared = 0; shared < 2; shared++) {
            char kv[256];
            struct rs_record r;
            snprintf(kv, sizeof kv, "switching=%s length=4 vcs=2 link=%s", modes[i],
                     shared ? "shared" : "per_vc");
            flit_run(CHAIN4, kv, one, 1, NULL, &r);
            assert_int_equal(rs_test_int(&r, "makespan"), want[i]);
            assert_int_equal(rs_test_int(&r, "flit_hops"), 12);
            assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 0);
            rs_record_free(&r);
            snprintf(kv, sizeof kv, "switching=%s length=1", modes[i]);
            flit_run(CHAIN4, kv, one, 1, NULL, &r);
            assert_int_equal(rs_test_int(&r, "makespan"), 3);
            rs_record_free(&r);
        }
}

/* Two worms contending for one link: A = message 0 from 0 to 3 (c01 c12 c23), B = message 1
 * from 1 to 3 (c12 c23), L = 2, wormhole with 1-flit buffers.
 *
 * vcs=1 (link per_vc or shared: the same with one VC):
 *   step 1: A's header crosses c01, B's header c12 (both VCs free).
 *   step 2: A's header wants c12, held by B: blocked (1). B's header crosses c23 and is
 *           delivered; B's tail follows into c12 (its own flit left it this step).
 *   step 3: A is blocked again (2): B's tail still holds c12 at the start of the step. B's
 *           tail is delivered: B done at 3 = 2 + 2 - 1; c12 is free from step 4.
 *   step 4: A's header crosses c12; A's tail leaves the source into c01.
 *   step 5: header delivered over c23; tail crosses c12.  step 6: tail delivered.
 *   makespan 6, blocked header steps 2, latencies 6 and 3.
 * vcs=2, link per_vc: at step 2 A's header takes c12's second VC; both move as if alone:
 *   A done at 3 + 2 - 1 = 4, B at 3: makespan 4, no blocking.
 * vcs=2, link shared (one flit per channel per step, oldest message first):
 *   step 2: A (older) takes c12's link with its header; B's header crosses c23 (delivered);
 *           B's tail cannot cross c12 (link used).
 *   step 3: A's header crosses c23 on VC 1 (VC 0 still B's) and is delivered; A's tail takes
 *           c12; B's tail loses c12 again.
 *   step 4: A's tail delivered (A done at 4); B's tail crosses c12.  step 5: B done.
 *   makespan 5, no blocked header (only B's body waited). */
static void test_two_worms_one_link(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {1, 3}};
    struct {
        const char *kv;
        int makespan, blocked;
        double mean;
    } c[] = {{"switching=wormhole length=2 vcs=1", 6, 2, 4.5},
             {"switching=wormhole length=2 vcs=1 link=shared", 6, 2, 4.5},
             {"switching=wormhole length=2 vcs=2", 4, 0, 3.5},
             {"switching=wormhole length=2 vcs=2 link=shared", 5, 0, 4.5}};
    for (int i = 0; i < 4; i++) {
        struct rs_record r;
        flit_run(CHAIN4, c[i].kv, two, 2, NULL, &r);
        assert_int_equal(rs_test_int(&r, "makespan"), c[i].makespan);
        assert_int_equal(rs_test_int(&r, "blocked_header_steps"), c[i].blocked);
        assert_true(rs_test_double(&r, "latency_mean") == c[i].mean);
        assert_int_equal(rs_test_int(&r, "flit_hops"), 10);
        rs_record_free(&r);
    }
}

/* A snake compressing: B = message 0 from 0 to 3 (c01 c12 c23), A = message 1 from 1 to 3
 * (c12 c23), L = k = 3.
 *
 * cut_through_partial (a FIFO of 3 flits per channel; a channel is free for the next
 * message once the previous one's tail has entered its FIFO):
 *   step 1: B0 -> c01, A0 -> c12.
 *   step 2: B's header wants c12, locked by A: blocked (1). B1 -> c01 (FIFO c01 = B0 B1).
 *           A0 delivered, A1 -> c12.
 *   step 3: B blocked (2): A's tail enters c12 this step, so c12 is free only from step 4.
 *           B2 -> c01: the whole snake is in one FIFO of k flits (max_buffer 3).
 *           A1 delivered, A2 -> c12 (c12 released).
 *   step 4: B's header enters c12 behind A's tail (FIFO c12 = A2 B0: flits of two messages,
 *           in order); A2 delivered: A done at 4.
 *   step 5: B0 is at the front of c12 now and is delivered; B1 -> c12.
 *   steps 6, 7: B1, B2 delivered. makespan 7, 2 blocked steps, latencies 7 and 4.
 * virtual_cut_through (a VC buffer holds a whole message; a VC is held until the tail
 * leaves it): B collapses into c01 by step 3 as above, but c12 stays A's until A's tail
 * leaves it at step 4: B blocked at steps 2, 3, 4; B0 -> c12 at 5, delivered 6, 7, 8.
 * makespan 8, 3 blocked steps, max_buffer 3.
 * virtual_cut_through collapse=1 (003's cut-through snake: once blocked, the header waits
 * for the whole snake): blocked at step 2; at step 3 B2 is still arriving, so the header
 * does not ask (not blocked); blocked at 4; then as above: makespan 8, 2 blocked steps.
 * wormhole (1-flit buffers): B1 stays at the source while B0 is blocked; B blocked at 2, 3,
 * 4 (A's tail leaves c12 at 4); B0 -> c12 at 5, B done at 8: makespan 8, max_buffer 1.
 * store_forward_flits: A's flits enter c12 at steps 1..3 and leave over c23 at 4..6; B is
 * stored in c01 by step 3 and blocked at 4, 5, 6; it crosses c12 at 7..9 and c23 at 10..12:
 * makespan 12, latencies 12 and 6. */
static void test_partial_cuts_and_collapse(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {1, 3}};
    struct {
        const char *kv;
        int makespan, blocked, max_buffer;
        double mean;
    } c[] = {{"switching=cut_through_partial length=3", 7, 2, 3, 5.5},
             {"switching=virtual_cut_through length=3", 8, 3, 3, 6.0},
             {"switching=virtual_cut_through length=3 collapse=1", 8, 2, 3, 6.0},
             {"switching=wormhole length=3", 8, 3, 1, 6.0},
             {"switching=store_forward_flits length=3", 12, 3, 3, 9.0}};
    for (int i = 0; i < 5; i++) {
        struct rs_record r;
        flit_run(CHAIN4, c[i].kv, two, 2, NULL, &r);
        assert_int_equal(rs_test_int(&r, "makespan"), c[i].makespan);
        assert_int_equal(rs_test_int(&r, "blocked_header_steps"), c[i].blocked);
        assert_int_equal(rs_test_int(&r, "max_buffer"), c[i].max_buffer);
        assert_true(rs_test_double(&r, "latency_mean") == c[i].mean);
        assert_int_equal(rs_test_int(&r, "flit_hops"), 15);
        rs_record_free(&r);
    }
}

/* A partial-cut FIFO shorter than the snake: k = 2, L = 3, same two messages. B's header
 * is blocked at c01 (steps 2, 3) and the FIFO fills with B0 B1 (2 flits: max_buffer 2); B2
 * waits at the source. Step 4: B0 -> c12 behind A2, B2 -> c01. Step 5: B0 delivered, B1 ->
 * c12. Steps 6, 7: B1, B2 delivered: makespan 7 as with k = 3. */
static void test_partial_fifo_shorter_than_snake(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {1, 3}};
    struct rs_record r;
    flit_run(CHAIN4, "switching=cut_through_partial length=3 vc_depth=2", two, 2, NULL, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 7);
    assert_int_equal(rs_test_int(&r, "max_buffer"), 2);
    rs_record_free(&r);
}

/* Deeper wormhole buffers compress a blocked worm: with vc_depth=3 the example above
 * behaves like virtual cut-through (B0..B2 pile up in c01's VC): makespan 8, max_buffer 3. */
static void test_deep_wormhole_buffers(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {1, 3}};
    struct rs_record r;
    flit_run(CHAIN4, "switching=wormhole length=3 vc_depth=3", two, 2, NULL, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 8);
    assert_int_equal(rs_test_int(&r, "max_buffer"), 3);
    rs_record_free(&r);
}

/* Sources inject several messages in parallel, one per free VC of their first channel:
 * two messages 0 -> 3 from the same source, vcs=2, L=2: both headers cross c01 at step 1
 * (VCs 0 and 1) and both finish at 3 + 2 - 1 = 4. With vcs=1 the first's header crosses
 * c01 at 1, its tail enters c01 at 2 and leaves it at 3, releasing the VC at step 3, so
 * the second's header is blocked at steps 1, 2, 3, crosses c01 at 4, c12 at 5, c23 at 6
 * (delivered) and its tail is delivered at 7. */
static void test_parallel_injection(void **state)
{
    static const uint32_t two[][2] = {{0, 3}, {0, 3}};
    struct rs_record r;
    flit_run(CHAIN4, "switching=wormhole length=2 vcs=2", two, 2, NULL, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 4);
    assert_true(rs_test_double(&r, "latency_max") == 4.0);
    rs_record_free(&r);
    flit_run(CHAIN4, "switching=wormhole length=2 vcs=1", two, 2, NULL, &r);
    assert_int_equal(rs_test_int(&r, "makespan"), 7);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 3);
    rs_record_free(&r);
}

/* A message whose source is its destination has an empty path: delivered at its release
 * step (latency 0) without a move. */
static void test_empty_path(void **state)
{
    static const uint32_t self[][2] = {{2, 2}, {0, 1}};
    struct rs_record r;
    flit_run(CHAIN4, "switching=wormhole length=3", self, 2, NULL, &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 2);
    assert_int_equal(rs_test_int(&r, "makespan"), 3);
    assert_true(rs_test_double(&r, "latency_mean") == 1.5);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 3);
    rs_record_free(&r);
}

/* The invariant checker runs after every step (check=1) of every mode x link x VCs x
 * buffer depth on random traffic; everything is delivered (no deadlock on leveled
 * networks and meshes with dimension order), no buffer exceeds its capacity, the makespan
 * is at least the dilation plus L - 1 (D*L for store_forward_flits), and the flit-hops are
 * L times the total path length. */
static void test_invariants_all_combinations(void **state)
{
    const char *topo[] = {"topology=butterfly N=16 traffic=uniform per_input=3",
                          "topology=mesh k=4 n=2 traffic=randperm per_input=3",
                          "topology=benes N=8 routing=valiant traffic=uniform per_input=2",
                          "topology=torus k=4 n=2 traffic=uniform per_input=2"};
    const char *mode[] = {"wormhole", "virtual_cut_through", "cut_through_partial",
                          "store_forward_flits"};
    const char *link[] = {"per_vc", "shared"};
    for (int t = 0; t < 4; t++)
        for (int m = 0; m < 4; m++)
            for (int l = 0; l < 2; l++)
                for (int b = 1; b <= 4; b *= 2)
                    for (int len = 1; len <= 5; len += 4) {
                        char kv[512], an[512];
                        struct rs_record r, a;
                        if (t == 3 && b == 1)
                            continue; /* dateline needs two classes */
                        snprintf(kv, sizeof kv,
                                 "%s switching=%s link=%s vcs=%d length=%d seed=%d check=1%s%s",
                                 topo[t], mode[m], link[l], b, len, 5 + t,
                                 m == 0 ? " vc_depth=2" : "",
                                 t == 3 ? " vc_classes=dateline" : "");
                        rs_test_run(kv, &r);
                        snprintf(an, sizeof an, "%s seed=%d", topo[t], 5 + t);
                        assert_int_equal(rs_test_try(an, 0, &a, NULL, 0), 0);
                        int64_t n = rs_test_int(&r, "messages"), D = rs_test_int(&r, "dilation");
                        assert_int_equal(rs_test_int(&r, "deadlock"), 0);
                        assert_int_equal(rs_test_int(&r, "delivered"), n);
                        assert_int_equal(rs_test_int(&r, "flit_hops"),
                                         len * rs_test_int(&a, "total_hops"));
                        assert_true(rs_test_int(&r, "makespan") >=
                                    (m == 3 ? D * len : D + len - 1));
                        assert_true(rs_test_int(&r, "max_buffer") <=
                                    (m == 0 ? 2 : len));
                        rs_record_free(&r);
                        rs_record_free(&a);
                    }
}

/* Valiant: on the wrapped butterfly a worm goes round twice (2 log N hops) straight
 * through its intermediate; identity on N=8 wrap with one message from input 0: D = 6,
 * L = 3, alone: 6 + 3 - 1 = 8. On a 4x4 torus with dateline classes per phase (vcs=4),
 * random traffic is all delivered. */
static void test_valiant(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=16 wrap=1 routing=valiant traffic=bitrev switching=wormhole "
                "vcs=4 vc_classes=dateline length=3 check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 16);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 3 * 8 * 16);
    rs_record_free(&r);
    static const uint32_t one[][2] = {{0, 0}};
    struct rs_record s;
    char msg[512];
    assert_int_equal(flit_try("topology=butterfly N=8 wrap=1", "switching=wormhole length=3",
                              one, 1, RS_ROUTING_VALIANT, NULL, &s, msg, sizeof msg),
                     0);
    assert_int_equal(rs_test_int(&s, "makespan"), 8);
    assert_int_equal(rs_test_int(&s, "flit_hops"), 18);
    rs_record_free(&s);
    rs_test_run("topology=torus k=4 n=2 routing=valiant traffic=uniform per_input=6 "
                "switching=wormhole vcs=4 vc_classes=dateline check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 96);
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    rs_record_free(&r);
}

/* Bad combinations are input errors naming what is wrong. */
static void test_bad_combinations(void **state)
{
    struct rs_record r;
    char msg[1024];
    assert_int_equal(rs_test_try("topology=benes N=8 switching=wormhole vcs=2 vc_classes=dateline",
                                 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "vc_classes=dateline"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=torus k=4 switching=wormhole vcs=3 vc_classes=dateline",
                                 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    assert_non_null(strstr(msg, "multiple of 2"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=torus k=4 switching=wormhole vcs=2 routing=valiant "
                                 "vc_classes=dateline",
                                 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    assert_non_null(strstr(msg, "multiple of 4"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("switching=cut_through_partial on_delay=discard", 1, &r, msg,
                                 sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("switching=wormhole vc_depth=0", 1, &r, msg, sizeof msg),
                     RS_ECONSTRAINT);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("switching=virtual_cut_through vc_depth=2", 1, &r, msg, sizeof msg),
                     RS_EUNKNOWN);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("switching=wormhole queue_size=2", 1, &r, msg, sizeof msg),
                     RS_EUNKNOWN);
    rs_record_free(&r);
}

/* Same seed, same bytes; another seed, another result. */
static void test_determinism(void **state)
{
    const char *kv = "topology=mesh k=6 traffic=uniform per_input=4 switching=wormhole vcs=2 "
                     "link=shared seed=%d";
    char a_kv[256], c_kv[256];
    struct rs_buf a, b, c;
    snprintf(a_kv, sizeof a_kv, kv, 3);
    snprintf(c_kv, sizeof c_kv, kv, 4);
    rs_test_csv(a_kv, &a);
    rs_test_csv(a_kv, &b);
    rs_test_csv(c_kv, &c);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    assert_true(a.len != c.len || memcmp(a.data, c.data, a.len) != 0);
    rs_buf_free(&a);
    rs_buf_free(&b);
    rs_buf_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_butterfly_identity_d_plus_l_minus_1),
        cmocka_unit_test(test_unblocked_worm_every_mode),
        cmocka_unit_test(test_two_worms_one_link),
        cmocka_unit_test(test_partial_cuts_and_collapse),
        cmocka_unit_test(test_partial_fifo_shorter_than_snake),
        cmocka_unit_test(test_deep_wormhole_buffers),
        cmocka_unit_test(test_parallel_injection),
        cmocka_unit_test(test_empty_path),
        cmocka_unit_test(test_invariants_all_combinations),
        cmocka_unit_test(test_valiant),
        cmocka_unit_test(test_bad_combinations),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
