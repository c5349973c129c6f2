/* algorithm=wave (004 §4, §6's greedy waves): runs worked by hand (N = 8, k = 2, q = 1: every
 * queue after every step; N = 4 for the three protocols), invariants on random runs up to
 * N = 2^12, fifo = store_forward, the checker and the no-progress detector firing, refusals. */
#include "rs_test.h"

#include "routesim/wave.h"

/* The state after a step: "L1: Q0/Q1 of rows 0..7 mN modes L2: ... inP positions dD". */
static void fmt(const struct rs_wave *w, char *buf, size_t len)
{
    size_t u = 0;
    uint32_t it[8];
    for (uint32_t l = 1; l < w->n; l++) {
        u += (size_t)snprintf(buf + u, len - u, "%sL%u:", l > 1 ? " " : "", l);
        for (uint32_t r = 0; r < w->N; r++)
            for (uint32_t b = 0; b < 2; b++) {
                uint32_t c = rs_wave_queue(w, l, r, b, it);
                u += (size_t)snprintf(buf + u, len - u, "%s", b ? "/" : " ");
                if (!c)
                    u += (size_t)snprintf(buf + u, len - u, "-");
                for (uint32_t i = 0; i < c; i++)
                    u += (size_t)((it[i] & RS_WAVE_TOKEN)
                                      ? snprintf(buf + u, len - u, "T%u", it[i] & ~RS_WAVE_TOKEN)
                                      : snprintf(buf + u, len - u, "p%u", it[i]));
            }
        u += (size_t)snprintf(buf + u, len - u, " m");
        for (uint32_t r = 0; r < w->N; r++)
            u += (size_t)snprintf(buf + u, len - u, "%u", w->mode[(l - 1) * w->N + r]);
    }
    u += (size_t)snprintf(buf + u, len - u, " in");
    for (uint32_t r = 0; r < w->N; r++)
        u += (size_t)snprintf(buf + u, len - u, "%u", w->pos[r]);
    snprintf(buf + u, len - u, " d%llu", (unsigned long long)w->delivered);
}

/* N = 8, k = 2, q = 1: input s sends packet 2s (wave 0) to output s, all straight, and
 * packet 2s+1 (wave 2) to output s^7, all cross. Worked by hand in docs/wave.md; the moves
 * of each step (packets and tokens over edges) in the first column. */
static const char *const hand[] = {
    "8 L1: p0/- -/p2 p4/- -/p6 p8/- -/p10 p12/- -/p14 m00000000 L2: -/- -/- -/- -/- -/- -/- "
    "-/- -/- m00000000 in11111111 d0",
    "4 L1: -/- -/p2 -/- -/p6 -/- -/p10 -/- -/p14 m00000000 L2: p0/- -/- -/p4 -/- p8/- -/- "
    "-/p12 -/- m00000000 in11111111 d0",
    "10 L1: T1/- T1/p2 T1/- T1/p6 T1/- T1/p10 T1/- T1/p14 m00000000 L2: -/- -/- -/p4 -/- -/- "
    "-/- -/p12 -/- m00000000 in21212121 d2",
    "4 L1: T1/- T1/- T1/- T1/- T1/- T1/- T1/- T1/- m11111111 L2: -/- p2/- -/p4 -/p6 -/- "
    "p10/- -/p12 -/p14 m00000000 in21212121 d2",
    "10 L1: T1/T1 T1/T1 T1/T1 T1/T1 T1/T1 T1/T1 T1/T1 T1/T1 m11111111 L2: -/- -/- -/p4 -/p6 "
    "-/- -/- -/p12 -/p14 m00000000 in22222222 d4",
    "8 L1: -/- -/- T1/T1 T1/T1 -/- -/- T1/T1 T1/T1 m00110011 L2: T1/- T1/- T1/p4 T1/p6 T1/- "
    "T1/- T1/p12 T1/p14 m00000000 in22222222 d4",
    "8 L1: -/p3 p1/- T1/T1 T1/T1 -/p11 p9/- T1/T1 T1/T1 m00110011 L2: T1/- T1/- T1/- T1/- "
    "T1/- T1/- T1/- T1/- m11111111 in33223322 d8",
    "8 L1: -/p3 p1/- -/- -/- -/p11 p9/- -/- -/- m00000000 L2: T1/T1 T1/T1 T1/T1 T1/T1 T1/T1 "
    "T1/T1 T1/T1 T1/T1 m11111111 in33223322 d8",
    "20 L1: -/p3 p1/- -/p7 p5/- -/p11 p9/- -/p15 p13/- m00000000 L2: -/- -/- -/- -/- -/- -/- "
    "-/- -/- m00000000 in33333333 d8",
    "4 L1: -/p3 -/- -/p7 -/- -/p11 -/- -/p15 -/- m00000000 L2: -/- -/p5 -/- p1/- -/- -/p13 "
    "-/- p9/- m00000000 in33333333 d8",
    "10 L1: T3/p3 T3/- T3/p7 T3/- T3/p11 T3/- T3/p15 T3/- m00000000 L2: -/- -/p5 -/- -/- -/- "
    "-/p13 -/- -/- m00000000 in43434343 d10",
    "4 L1: T3/- T3/- T3/- T3/- T3/- T3/- T3/- T3/- m11111111 L2: -/p7 -/p5 p3/- -/- -/p15 "
    "-/p13 p11/- -/- m00000000 in43434343 d10",
    "10 L1: T3/T3 T3/T3 T3/T3 T3/T3 T3/T3 T3/T3 T3/T3 T3/T3 m11111111 L2: -/p7 -/p5 -/- -/- "
    "-/p15 -/p13 -/- -/- m00000000 in44444444 d12",
    "8 L1: -/- -/- T3/T3 T3/T3 -/- -/- T3/T3 T3/T3 m00110011 L2: T3/p7 T3/p5 T3/- T3/- "
    "T3/p15 T3/p13 T3/- T3/- m00000000 in44444444 d12",
    "4 L1: -/- -/- T3/T3 T3/T3 -/- -/- T3/T3 T3/T3 m00110011 L2: T3/- T3/- T3/- T3/- T3/- "
    "T3/- T3/- T3/- m11111111 in44444444 d16",
    "8 L1: -/- -/- -/- -/- -/- -/- -/- -/- m00000000 L2: T3/T3 T3/T3 T3/T3 T3/T3 T3/T3 T3/T3 "
    "T3/T3 T3/T3 m11111111 in44444444 d16",
    "16 L1: -/- -/- -/- -/- -/- -/- -/- -/- m00000000 L2: -/- -/- -/- -/- -/- -/- -/- -/- "
    "m00000000 in44444444 d16",
};

static void test_hand_worked(void **state)
{
    (void)state;
    uint32_t dst[16];
    for (uint32_t s = 0; s < 8; s++) {
        dst[2 * s] = s;
        dst[2 * s + 1] = s ^ 7;
    }
    struct rs_wave w;
    struct rs_err err;
    char got[1200], want[1200];
    rs_err_clear(&err);
    assert_int_equal(rs_wave_init(&w, 3, 2, 1, RS_WAVE_MODES, dst, 1), 0);
    for (size_t i = 0; i < sizeof hand / sizeof *hand; i++) {
        assert_false(rs_wave_done(&w));
        uint64_t moved = rs_wave_step(&w, &err);
        assert_int_equal(w.violated, 0);
        int n = snprintf(got, sizeof got, "%llu ", (unsigned long long)moved);
        fmt(&w, got + n, sizeof got - (size_t)n);
        snprintf(want, sizeof want, "%s", hand[i]);
        if (strcmp(got, want)) {
            print_error("step %zu:\n got  %s\n want %s\n", i + 1, got, want);
            fail();
        }
    }
    assert_true(rs_wave_done(&w));
    assert_int_equal(rs_wave_check_end(&w, &err), 0);
    static const uint32_t finish[16] = {3, 11, 5, 13, 7, 15, 7, 15, 3, 11, 5, 13, 7, 15, 7, 15};
    for (int m = 0; m < 16; m++)
        assert_int_equal(w.finish[m], finish[m]);
    assert_int_equal(w.makespan, 15);
    assert_int_equal(w.step, 17);
    assert_int_equal(w.hops, 48);        /* 16 packets x 3 edges */
    assert_int_equal(w.tokens_sent, 96); /* 48 edges x 2 odd waves */
    assert_int_equal(w.max_q[0], 1);
    assert_int_equal(w.max_q[1], 1);
    rs_wave_free(&w);
}

/* N = 4, k = 1, q = 1, every packet straight (output = input), worked by hand: the odd
 * rows' packets sit in 1-queues. Modes: a level-1 switch in 0-mode waits for its 0-queue's
 * token (sent at step 3 by the even inputs, whose first try at step 2 found their queues
 * full at the start of the step) and delivers at step 4; the odd inputs' tokens wait for
 * that 1-queue until step 5, the token pairs leave at step 6. Greedy waves (§6): the odd
 * rows forward at once (all delivered at step 2), every input sends its token at step 3,
 * the pairs leave at step 4. FIFO: no tokens, done at step 2. */
static void test_greedy_hand_worked(void **state)
{
    (void)state;
    static const uint32_t dst[4] = {0, 1, 2, 3};
    static const struct { enum rs_wave_protocol p; uint32_t fin[4], makespan, steps; } want[] = {
        {RS_WAVE_MODES, {2, 4, 2, 4}, 4, 6},
        {RS_WAVE_GREEDY, {2, 2, 2, 2}, 2, 4},
        {RS_WAVE_FIFO, {2, 2, 2, 2}, 2, 2}};
    for (size_t i = 0; i < 3; i++) {
        struct rs_wave w;
        struct rs_err err;
        rs_err_clear(&err);
        assert_int_equal(rs_wave_init(&w, 2, 1, 1, want[i].p, dst, 1), 0);
        while (!rs_wave_done(&w))
            assert_true(rs_wave_step(&w, &err) > 0);
        assert_int_equal(w.violated, 0);
        assert_int_equal(rs_wave_check_end(&w, &err), 0);
        for (int m = 0; m < 4; m++)
            assert_int_equal(w.finish[m], want[i].fin[m]);
        assert_int_equal(w.makespan, want[i].makespan);
        assert_int_equal(w.step, want[i].steps);
        assert_int_equal(w.tokens_sent, want[i].p == RS_WAVE_FIFO ? 0 : 16);
        rs_wave_free(&w);
    }
}

/* The same instance through rs_run: the record. */
static void test_record(void **state)
{
    (void)state;
    struct rs_record r;
    rs_test_run("topology=butterfly N=8 traffic=uniform per_input=2 queue_size=1 "
                "algorithm=wave check=1 seed=4",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 16);
    assert_int_equal(rs_test_int(&r, "messages"), 16);
    assert_int_equal(rs_test_int(&r, "max_lag"), rs_test_int(&r, "makespan") - 3);
    assert_int_equal(rs_test_int(&r, "tokens_sent"), 96);
    assert_int_equal(rs_test_int(&r, "hops"), 48);
    assert_true(rs_test_double(&r, "latency_max") == (double)rs_test_int(&r, "makespan"));
    assert_true(rs_test_double(&r, "bound") == 5.0);
    rs_record_free(&r);
}

/* Random problems, both protocols, checked every step: every packet delivered, every edge
 * k tokens, packet-hops N k log N, occupancy within q. */
static void test_invariants_random(void **state)
{
    (void)state;
    static const struct { uint32_t n, k, q; } cases[] = {
        {1, 3, 1}, {2, 1, 1}, {3, 6, 2}, {4, 4, 1}, {5, 10, 3}, {6, 12, 4}, {8, 8, 1},
        {8, 16, 2}, {10, 5, 4}, {12, 12, 1}, {12, 24, 4}};
    static const char *const names[] = {"modes", "greedy", "fifo"};
    char kv[256];
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int proto = 0; proto < 3; proto++) {
            struct rs_record r;
            uint32_t n = cases[i].n, N = 1u << n, k = cases[i].k;
            snprintf(kv, sizeof kv,
                     "topology=butterfly N=%u traffic=uniform per_input=%u queue_size=%u "
                     "algorithm=wave wave_protocol=%s check=1 seed=%zu",
                     N, k, cases[i].q, names[proto], 11 + i);
            rs_test_run(kv, &r);
            assert_int_equal(rs_test_int(&r, "delivered"), (int64_t)N * k);
            assert_int_equal(rs_test_int(&r, "hops"), (int64_t)N * k * n);
            assert_int_equal(rs_test_int(&r, "tokens_sent"),
                             proto == 2 ? 0 : 2 * (int64_t)N * n * k);
            assert_true(rs_test_int(&r, "max_queue") <= cases[i].q);
            assert_true(rs_test_int(&r, "makespan") >= (int64_t)(k + n - 1));
            rs_record_free(&r);
        }
}

/* wave_protocol=fifo (no tokens) is greedy FIFO with input queues: the same makespan,
 * latencies, hops and largest queue as switching=store_forward on the same instances (two
 * simulators of one model agreeing). */
static void test_fifo_is_store_forward(void **state)
{
    (void)state;
    static const char *const cols[] = {"makespan", "latency_mean", "latency_p99", "hops",
                                       "max_queue", "delivered"};
    char kv[256], kw[300];
    for (uint32_t q = 1; q <= 3; q++)
        for (uint32_t n = 2; n <= 10; n += 4)
            for (int seed = 1; seed <= 3; seed++) {
                struct rs_record a, b;
                snprintf(kv, sizeof kv,
                         "topology=butterfly N=%u traffic=uniform per_input=%u queue_size=%u "
                         "seed=%d",
                         1u << n, n + 3, q, seed);
                snprintf(kw, sizeof kw, "%s algorithm=wave wave_protocol=fifo check=1", kv);
                rs_test_run(kv, &a);
                rs_test_run(kw, &b);
                for (size_t c = 0; c < sizeof cols / sizeof *cols; c++) {
                    const struct rs_field *x = rs_record_get(&a, cols[c]);
                    const struct rs_field *y = rs_record_get(&b, cols[c]);
                    assert_non_null(x);
                    assert_non_null(y);
                    if (x->type == RS_VAL_INT)
                        assert_int_equal(x->i, y->i);
                    else
                        assert_true(x->d == y->d);
                }
                rs_record_free(&a);
                rs_record_free(&b);
            }
}

/* The checker fires: a token that skips wave 1, a packet before the edge's token, a rank
 * that does not increase. */
static void test_checker_fires(void **state)
{
    (void)state;
    uint32_t dst[8] = {0};
    struct rs_wave w;
    struct rs_err err;
    rs_err_clear(&err);
    assert_int_equal(rs_wave_init(&w, 2, 2, 1, RS_WAVE_MODES, dst, 1), 0);
    w.cerr = &err;
    rs__wave_check_send(&w, 0, 0, 0, 0); /* packet 0: wave 0, row 0 */
    assert_int_equal(w.violated, 0);
    rs__wave_check_send(&w, 0, 0, 0, RS_WAVE_TOKEN | 3);
    assert_int_equal(w.violated, RS_EINVARIANT);
    assert_non_null(strstr(err.msg, "not the edge's next odd-wave token"));
    w.violated = 0;
    rs__wave_check_send(&w, 0, 1, 1, 3); /* packet 3: wave 2 (k = 2), no token 1 yet */
    assert_int_equal(w.violated, RS_EINVARIANT);
    assert_non_null(strstr(err.msg, "exactly one token"));
    w.violated = 0;
    rs__wave_check_send(&w, 1, 2, 0, 2); /* packet 2: row 1 wave 0 */
    rs__wave_check_send(&w, 1, 2, 1, 0); /* packet 0: row 0 wave 0: smaller rank */
    assert_int_equal(w.violated, RS_EINVARIANT);
    assert_non_null(strstr(err.msg, "rank did not increase out of the switch"));
    rs_wave_free(&w);
}

/* No progress is detected and described: a packet in the 1-queue of a 0-mode switch
 * whose 0-queue will never see a token (a state the algorithm cannot reach). */
static void test_no_progress_detected(void **state)
{
    (void)state;
    uint32_t dst[4] = {0, 1, 2, 3};
    struct rs_wave w;
    struct rs_err err;
    char buf[400];
    rs_err_clear(&err);
    assert_int_equal(rs_wave_init(&w, 2, 1, 1, RS_WAVE_MODES, dst, 0), 0);
    for (uint32_t r = 0; r < 4; r++)
        w.pos[r] = 2;
    w.item[1] = 0; /* queue id 1: the 1-queue of <1,0> */
    w.count[1] = 1;
    w.in_net = 1;
    assert_int_equal(rs_wave_step(&w, &err), 0);
    assert_false(rs_wave_done(&w));
    rs_wave_describe_stuck(&w, buf, sizeof buf);
    assert_string_equal(buf, "step 1, 1 items left; switch <1,0> in 0-mode, 0-queue [], "
                             "1-queue [p0]");
    rs_wave_free(&w);
}

static void refused(const char *kv, const char *want)
{
    struct rs_record r;
    char msg[512];
    int rc = rs_test_try(kv, 1, &r, msg, sizeof msg);
    rs_record_free(&r);
    if (rc != RS_EUNSUPPORTED || !strstr(msg, want)) {
        print_error("%s: rc %d, '%s' (want '%s')\n", kv, rc, msg, want);
        fail();
    }
}

static void test_refusals(void **state)
{
    (void)state;
    const char *b = "topology=butterfly N=8 per_input=2 algorithm=wave";
    char kv[256];
    snprintf(kv, sizeof kv, "%s queue_size=0", b);
    refused(kv, "queue_size in 1..65535");
    snprintf(kv, sizeof kv, "%s queue_size=1 protocol=random", b);
    refused(kv, "protocol fifo");
    snprintf(kv, sizeof kv, "%s queue_size=1 queue_at=output", b);
    refused(kv, "queue_at must be input");
    snprintf(kv, sizeof kv, "%s queue_size=1 wrap=1", b);
    refused(kv, "wrap must be 0");
    refused("topology=mesh k=4 n=2 algorithm=wave queue_size=1", "needs topology=butterfly");
    refused("topology=butterfly N=8 algorithm=wave queue_size=1 switching=wormhole",
            "needs switching=store_forward");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),      cmocka_unit_test(test_greedy_hand_worked),
        cmocka_unit_test(test_record),
        cmocka_unit_test(test_invariants_random), cmocka_unit_test(test_fifo_is_store_forward),
        cmocka_unit_test(test_checker_fires),
        cmocka_unit_test(test_no_progress_detected), cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
