/* algorithm=cms_butterfly (001 §3.1): the constants (Delta, the paper's round count, the
 * padding of small q), a run worked by hand on the wrapped 8-input butterfly (colours,
 * intermediates, priorities, the copies delayed at an input and in the network), a discarded
 * copy never blocking a later one, every message delivered on random problems and
 * q-relations with the engine's invariant checker on, determinism, the round cap, the
 * uniformity of the draws and the refused configurations. */
#include "rs_test.h"

#include <math.h>

#include "algo/cms_butterfly.h"
#include "engine/flit_fixture.h"
#include "routesim/algo.h"
#include "routesim/bounds.h"

#define CMS "topology=butterfly wrap=1 switching=wormhole algorithm=cms_butterfly "

/* Text field of rec; fails the test when absent. */
static const char *text(const struct rs_record *rec, const char *name)
{
    const struct rs_field *f = rs_record_get(rec, name);
    if (!f || f->type != RS_VAL_STRING) {
        print_error("record has no text field '%s'\n", name);
        fail();
    }
    return f->s;
}

/* ---- constants ------------------------------------------------------------------------- */

/* Delta = ceil(beta q log^(1/B) N / B): q = 12, log N = 12, beta = 1: B=1: 144; B=2:
 * 12 sqrt(12) / 2 = 20.78 -> 21; B=3: 12 * 12^(1/3) / 3 = 9.16 -> 10; B=4: 12 * 12^(1/4) / 4
 * = 5.58 -> 6. beta = 0.25, q = 1, log N = 3, B = 4: 0.25 * 1.316 / 4 = 0.08 -> at least 1.
 * An exact integer stays itself: beta 1, q 3, log N 3, B 1: 9. Over 2^24: 0.
 * Rounds, 2 log log(nq) + 1 with the 2 log log rounded up: nq = 2: 1; 4: 2*1 + 1 = 3;
 * 8: 2 log2 3 = 3.17 -> 4, 5 rounds; 16: 2*2 + 1 = 5; 65536: 2*4 + 1 = 9; 49152 = 4096*12:
 * 2 log2 15.58 = 7.92 -> 8, 9 rounds; 65537: 8.000004 -> 9, 10 rounds. */
static void test_constants(void **state)
{
    assert_int_equal(rs__cms_delta(1, 12, 12, 1), 144);
    assert_int_equal(rs__cms_delta(1, 12, 12, 2), 21);
    assert_int_equal(rs__cms_delta(1, 12, 12, 3), 10);
    assert_int_equal(rs__cms_delta(1, 12, 12, 4), 6);
    assert_int_equal(rs__cms_delta(0.25, 1, 3, 4), 1);
    assert_int_equal(rs__cms_delta(1, 3, 3, 1), 9);
    assert_int_equal(rs__cms_delta(1e6, 1u << 20, 20, 1), 0);
    assert_int_equal(rs__cms_rounds_paper(2), 1);
    assert_int_equal(rs__cms_rounds_paper(4), 3);
    assert_int_equal(rs__cms_rounds_paper(8), 5);
    assert_int_equal(rs__cms_rounds_paper(16), 5);
    assert_int_equal(rs__cms_rounds_paper(65536), 9);
    assert_int_equal(rs__cms_rounds_paper(49152), 9);
    assert_int_equal(rs__cms_rounds_paper(65537), 10);
}

/* q < log N with pad=1 (001 §3.1, last paragraph): ceil(log N / q) copies of every message
 * from round 0 and q_eff = q * that. N = 64 (log 6): q = 1: 6 copies, q_eff 6, Delta = 6 * 6
 * = 36, rounds_paper 2 log2 log2 384 = 6.2 -> 7, + 1 = 8; q = 4: 2 copies, q_eff 8, Delta 48;
 * q = 6: no padding; pad=0: q as given, Delta 6. With q = 1 and pad, the first round sends
 * 6 * 64 copies. */
static void test_padding(void **state)
{
    struct rs_record r;
    rs_test_run(CMS "N=64 traffic=qrelation per_input=1 seed=2", &r);
    assert_int_equal(rs_test_int(&r, "q_eff"), 6);
    assert_int_equal(rs_test_int(&r, "colours"), 36);
    assert_int_equal(rs_test_int(&r, "rounds_paper"), 8);
    assert_true(rs_test_int(&r, "copies_sent") >= 6 * 64);
    rs_record_free(&r);
    rs_test_run(CMS "N=64 traffic=qrelation per_input=4 seed=2", &r);
    assert_int_equal(rs_test_int(&r, "q_eff"), 8);
    assert_int_equal(rs_test_int(&r, "colours"), 48);
    rs_record_free(&r);
    rs_test_run(CMS "N=64 traffic=qrelation per_input=6 seed=2", &r);
    assert_int_equal(rs_test_int(&r, "q_eff"), 6);
    rs_record_free(&r);
    rs_test_run(CMS "N=64 traffic=qrelation per_input=1 pad=0 seed=2", &r);
    assert_int_equal(rs_test_int(&r, "q_eff"), 1);
    assert_int_equal(rs_test_int(&r, "colours"), 6);
    rs_record_free(&r);
}

/* ---- a run worked by hand --------------------------------------------------------------- */

/* N = 8 (n = 3) with wrap=1, bit-reversal (dst: 0 1 2 3 4 5 6 7 -> 0 4 2 6 1 5 3 7), q = 1,
 * pad=0, B = 1, L = 2, beta = 1: Delta = ceil(1 * 3 / 1) = 3, rounds_paper = 2 log2 log2 8
 * = 3.17 -> 4, + 1 = 5. Node <level, row> has id 8 level + row (levels 0..2: level 3 is
 * level 0), channel id = 2 node + port (0 straight, 1 cross); hop h fixes bit h mod 3 toward
 * mid (h < 3), then toward dst. Every copy moves one hop per step or is discarded, so a
 * delivered copy arrives at step 2n + L - 1 = 7 of its subround, and copies can only meet
 * header to header (L <= n). The draws of seed 33 (rs__cms_draw; colour 0..2, priority
 * compared as 32-bit numbers, the smaller goes first):
 *
 * Round 0 (one copy each): colour 0: msg 1 (mid 5, prio 303886861), msg 2 (mid 0,
 * 1269069405), msg 0 (mid 4, 3802673031), msg 6 (mid 4, 4024655794); colour 1: msg 3 (mid 2);
 * colour 2: msg 7 (mid 0, 90567183), msg 5 (mid 7, 454401229), msg 4 (mid 7, 1143916116).
 *   Colour 0, channels per hop: msg 1 (1 -> 5 -> 4): 2 18 35 11 24 40; msg 2 (2 -> 0 -> 2):
 *   4 21 32 0 17 36; msg 0 (0 -> 4 -> 0): 0 16 33 8 24 41; msg 6 (6 -> 4 -> 3): 12 29 40 9 27
 *   47. Distinct sources: all enter. Hop 4: msgs 1 and 0 both want channel 24 at step 5;
 *   msg 1 is first: msg 0 is delayed and discarded at step 5. (Channel 40 is msg 6's at
 *   hop 2 and msg 1's at hop 5: msg 6's tail leaves it at step 5, msg 1 takes it at step 6.)
 *   Msgs 1, 2, 6 arrive at step 7: subround of 7 steps.
 *   Colour 1: msg 3 alone, arrives at 7 (global 14).
 *   Colour 2: msg 7 (7 -> 0 -> 7): 15 29 41 1 19 39; msg 5 (5 -> 7 -> 5): 10 27 46 14 31 42;
 *   msg 4 (4 -> 7 -> 1): 9 27 ...: msgs 5 and 4 want channel 27 at hop 1: msg 4 is discarded
 *   at step 2. Msgs 7, 5 arrive at 7 (global 21). Round 0: 21 steps, 6 messages delivered.
 * Round 1: msgs 0 and 4, two copies each (copy index 0..3 = (0,0) (0,1) (4,0) (4,1)); all
 * four drew colour 2, so colours 0 and 1 are empty subrounds of no time. Priority order:
 * (0,0) mid 7 766872752, (4,1) mid 7 1087421160, (0,1) mid 1 1966834933, (4,0) mid 2
 * 2902278234. At input 0, (0,0) and (0,1) both start over the cross channel (bit 0 of 0 xor
 * 7 and of 0 xor 1 is 1): one VC, so (0,1) is delayed at the input switch and discarded. At
 * input 4, (4,1) goes cross (4 xor 7), (4,0) straight (4 xor 2): both enter. Channels:
 * (0,0): 1 19 39 15 29 41; (4,1): 9 27 46 14 31 43; (4,0): 8 25 45 5 23 34: no two meet, all
 * three arrive at step 7 (global 28). Message 4 arrives twice: one duplicate.
 *
 * Totals: makespan 21 + 7 = 28 in 4 non-empty subrounds; copies 8 + 4 = 12 sent, 9
 * delivered, 3 discarded (1 at an input); arrivals 7 7 7 14 21 21 28 28: mean 133/8 =
 * 16.625, p99 (nearest rank 8 of 8) = max = 28. Flit hops: a delivered copy 6 hops x 2
 * flits = 12, nine of them 108; msg 0 in round 0 moved its header over hops 0-3 and its tail
 * over hops 0-2 (7), msg 4 its header over hop 0 (1): 116. Copies per input (and output)
 * after copying: at most 2. Bound L (q + log N) log N log log(qN) / B = 2 * 4 * 3 * log2 3
 * = 38.04. */
static void test_hand_worked(void **state)
{
    static const struct {
        uint32_t round, msg, copy, colour, mid, prio;
    } want[] = {
        {0, 1, 0, 0, 5, 303886861u},  {0, 2, 0, 0, 0, 1269069405u}, {0, 0, 0, 0, 4, 3802673031u},
        {0, 6, 0, 0, 4, 4024655794u}, {0, 3, 0, 1, 2, 4285951072u}, {0, 7, 0, 2, 0, 90567183u},
        {0, 5, 0, 2, 7, 454401229u},  {0, 4, 0, 2, 7, 1143916116u}, {1, 0, 0, 2, 7, 766872752u},
        {1, 0, 1, 2, 1, 1966834933u}, {1, 4, 0, 2, 2, 2902278234u}, {1, 4, 1, 2, 7, 1087421160u},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct rs__cms_draws d;
        rs__cms_draw(33, want[i].round, want[i].msg, want[i].copy, 3, 8, &d);
        assert_int_equal(d.colour, want[i].colour);
        assert_int_equal(d.mid, want[i].mid);
        assert_int_equal(d.priority, want[i].prio);
    }
    struct rs_record r;
    rs_test_run(CMS "N=8 traffic=bitrev length=2 pad=0 seed=33 check=1", &r);
    assert_int_equal(rs_test_int(&r, "colours"), 3);
    assert_int_equal(rs_test_int(&r, "rounds_paper"), 5);
    assert_int_equal(rs_test_int(&r, "makespan"), 28);
    assert_int_equal(rs_test_int(&r, "messages"), 8);
    assert_int_equal(rs_test_int(&r, "delivered"), 8);
    assert_int_equal(rs_test_int(&r, "rounds"), 2);
    assert_int_equal(rs_test_int(&r, "subrounds"), 4);
    assert_int_equal(rs_test_int(&r, "copies_sent"), 12);
    assert_int_equal(rs_test_int(&r, "copies_delivered"), 9);
    assert_int_equal(rs_test_int(&r, "copies_discarded"), 3);
    assert_int_equal(rs_test_int(&r, "copies_discarded_at_input"), 1);
    assert_int_equal(rs_test_int(&r, "duplicates"), 1);
    assert_int_equal(rs_test_int(&r, "max_input_copies"), 2);
    assert_int_equal(rs_test_int(&r, "max_output_copies"), 2);
    assert_int_equal(rs_test_int(&r, "flit_hops"), 116);
    assert_int_equal(rs_test_int(&r, "max_buffer"), 1);
    assert_true(rs_test_double(&r, "latency_mean") == 16.625);
    assert_true(rs_test_double(&r, "latency_p99") == 28.0);
    assert_true(rs_test_double(&r, "latency_max") == 28.0);
    assert_string_equal(text(&r, "delivered_per_round"), "6;2");
    assert_string_equal(text(&r, "steps_per_round"), "21;7");
    double bound = 2.0 * 4 * 3 * log2(3.0);
    assert_true(fabs(rs_test_double(&r, "bound") - bound) < 1e-9);
    assert_true(fabs(rs_test_double(&r, "measured_over_bound") - 28 / bound) < 1e-9);
    rs_record_free(&r);
}

/* ---- a discarded copy never blocks a later one ------------------------------------------ */

/* One subround on the wrapped 8-input butterfly, L = 2, B = 1, three copies in priority
 * order C, A, B: C = 1 -> mid 4 -> 4 (channels 3 16 33 8 24 40), A = 0 -> mid 0 -> 0 (0 16
 * ...), B = 2 -> mid 0 -> 2 (4 21 32 0 17 36). A and C both want channel 16 at hop 1 (step
 * 2): A is discarded at step 2 and its flits (header in channel 0's buffer, tail at its
 * input) are removed. B crosses channel 0, A's first channel, at hop 3 (step 4) and arrives
 * at step 7 like C. Run by the flit engine without discarding, A waits in channel 0 for
 * channel 16 and B is delayed at channel 0; when C has left, A wants channel 32 (its hop 2),
 * which B holds: A and B deadlock, and neither ever arrives. */
static void test_discarded_never_blocks(void **state)
{
    static const uint32_t pairs[][2] = {{1, 4}, {0, 0}, {2, 2}}; /* C, A, B */
    uint32_t mid[3] = {4, 0, 0}, msg[3] = {0, 1, 2}, idx[3] = {0, 1, 2}, fin[3];
    struct rs_net net;
    struct rs_params p;
    struct rs_problem pb;
    struct rs_err err;
    struct rs__cms_sub sub;
    struct rs__cms_sub_result res;
    rs_test_net(&net, "topology=butterfly N=8 wrap=1");
    rs_test_params(&p, "length=2");
    memset(&pb, 0, sizeof pb);
    memset(&sub, 0, sizeof sub);
    pb.n_terminals = 8;
    pb.n_msgs = 3;
    pb.per_input = 1;
    uint32_t src[3] = {1, 0, 2}, dst[3] = {4, 0, 2};
    pb.src = src;
    pb.dst = dst;
    const struct rs_engine_ops *eng = rs_engine_find("wormhole");
    struct rs_engine_input in = {.net = &net, .pb = &pb, .params = &p,
                                 .routing = RS_ROUTING_DIRECT, .seed = 1, .check = 1};
    struct rs__cms_cfg cfg = {.N = 8, .log_n = 3, .q = 1, .pad = 1, .q_eff = 1, .B = 1, .L = 2,
                              .beta = 1, .delta = 1, .rounds_paper = 5, .max_rounds = 32,
                              .start_cap = 1};
    assert_int_equal(rs__cms_sub_reserve(&sub, &net, 3, &err), 0);
    assert_int_equal(rs__cms_subround(&in, eng, &cfg, &sub, idx, 3, msg, mid, fin, &res, NULL, 0,
                                      &err),
                     0);
    assert_int_equal(fin[0], 7);
    assert_int_equal(fin[1], RS_NONE);
    assert_int_equal(fin[2], 7);
    assert_int_equal(res.steps, 7);
    assert_int_equal(res.delivered, 2);
    assert_int_equal(res.discarded, 1);
    assert_int_equal(res.discarded_at_input, 0);
    rs__cms_sub_free(&sub);
    rs_params_free(&p);
    rs_net_free(&net);

    uint32_t f2[3];
    uint8_t fate[3];
    struct rs_engine_plan wait = {.mid = mid, .finish = f2, .fate = fate};
    struct rs_record r;
    flit_run("topology=butterfly N=8 wrap=1", "switching=wormhole length=2", pairs, 3, &wait, &r);
    assert_int_equal(f2[0], 7);
    assert_int_equal(f2[0], 7);
    assert_int_equal(f2[1], RS_NONE);
    assert_int_equal(f2[2], RS_NONE);
    assert_int_equal(rs_test_int(&r, "deadlock"), 1);
    rs_record_free(&r);
}

/* A copy whose two passes cross one channel n hops apart, with L >= n, meets its own tail
 * there: N = 4 (n = 2), 0 -> mid 0 -> 0 takes channels 0 8 0 8. With L = 2 its tail leaves
 * channel 0's buffer at step 3, when the header wants it again; the virtual channel is free
 * only from step 4 (a released VC is usable the step after), so the header is delayed and
 * the copy discarded at step 3. L = 1: the flit left channel 0 at step 2, arrival at step 4.
 * (docs/cms-butterfly.md: about n 2^-(n+1) of the copies when L >= n.) */
static void test_own_tail(void **state)
{
    static const uint32_t one[][2] = {{0, 0}};
    uint32_t mid[1] = {0}, fin[1];
    uint8_t fate[1];
    struct rs_engine_plan plan = {.mid = mid, .discard_on_delay = 1, .finish = fin, .fate = fate};
    struct rs_record r;
    flit_run("topology=butterfly N=4 wrap=1", "switching=wormhole length=2", one, 1, &plan, &r);
    assert_int_equal(fate[0], RS_FATE_DROPPED);
    assert_int_equal(fin[0], 3);
    rs_record_free(&r);
    flit_run("topology=butterfly N=4 wrap=1", "switching=wormhole length=1", one, 1, &plan, &r);
    assert_int_equal(fate[0], RS_FATE_DELIVERED);
    assert_int_equal(fin[0], 4);
    rs_record_free(&r);
}

/* ---- every message delivered ------------------------------------------------------------ */

/* Random problems (traffic=uniform, q messages per input to independent random outputs) and
 * random q-relations, for several N, q, B, L and both link models, fixed seeds; the flit
 * engine's invariant checker runs after every step of every subround (check=1: buffers
 * within capacity and holding only flits of live copies, so a discarded copy has left
 * nothing behind). Every message is delivered, the copies add up (sent = delivered +
 * discarded, duplicates = delivered copies - messages), no subround lasts longer than an
 * unblocked copy (2 log N + L - 1 flit steps) with link=per_vc, and the rounds stay within
 * the paper's 2 log log(Nq) + 1 for link=per_vc (measured; link=shared may need more:
 * docs/cms-butterfly.md). */
static void test_every_message_delivered(void **state)
{
    static const char *const cases[] = {
        "N=16 traffic=uniform per_input=1 vcs=1 length=4",
        "N=16 traffic=qrelation per_input=4 vcs=2 length=3",
        "N=32 traffic=qrelation per_input=5 vcs=1 length=8",
        "N=64 traffic=uniform per_input=6 vcs=3 length=2",
        "N=64 traffic=qrelation per_input=2 vcs=4 length=6 pad=0",
        "N=128 traffic=qrelation per_input=7 vcs=2 length=7",
        "N=32 traffic=qrelation per_input=5 vcs=2 length=4 link=shared",
        "N=64 traffic=uniform per_input=3 vcs=4 length=5 link=shared",
        "N=16 traffic=qrelation per_input=4 vcs=1 length=20",
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        for (int seed = 1; seed <= 2; seed++) {
            char kv[512];
            struct rs_record r;
            snprintf(kv, sizeof kv, CMS "%s seed=%d check=1", cases[c], seed);
            rs_test_run(kv, &r);
            int64_t msgs = rs_test_int(&r, "messages");
            int64_t N = rs_test_int(&r, "N"), L = rs_test_int(&r, "length");
            int64_t logn = (int64_t)log2((double)N);
            assert_int_equal(rs_test_int(&r, "delivered"), msgs);
            assert_int_equal(rs_test_int(&r, "copies_sent"),
                             rs_test_int(&r, "copies_delivered") +
                                 rs_test_int(&r, "copies_discarded"));
            assert_int_equal(rs_test_int(&r, "duplicates"),
                             rs_test_int(&r, "copies_delivered") - msgs);
            assert_true(rs_test_double(&r, "latency_max") <= (double)rs_test_int(&r, "makespan"));
            if (!strstr(kv, "shared")) {
                if (rs_test_int(&r, "makespan") >
                        rs_test_int(&r, "subrounds") * (2 * logn + L - 1) ||
                    rs_test_int(&r, "rounds") > rs_test_int(&r, "rounds_paper")) {
                    print_error("%s: makespan %lld in %lld subrounds, %lld rounds (paper %lld)\n",
                                kv, (long long)rs_test_int(&r, "makespan"),
                                (long long)rs_test_int(&r, "subrounds"),
                                (long long)rs_test_int(&r, "rounds"),
                                (long long)rs_test_int(&r, "rounds_paper"));
                    fail();
                }
            }
            rs_record_free(&r);
        }
    }
}

/* ---- determinism and the cap ------------------------------------------------------------ */

static void test_determinism(void **state)
{
    const char *kv = CMS "N=128 traffic=qrelation per_input=7 vcs=2 length=7 seed=5";
    struct rs_record a, b, c;
    rs_test_run(kv, &a);
    rs_test_run(kv, &b);
    assert_int_equal(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        assert_string_equal(a.f[i].name, b.f[i].name);
        assert_int_equal(a.f[i].type, b.f[i].type);
        if (a.f[i].type == RS_VAL_INT)
            assert_int_equal(a.f[i].i, b.f[i].i);
        else if (a.f[i].type == RS_VAL_DOUBLE)
            assert_true(a.f[i].d == b.f[i].d);
        else
            assert_string_equal(a.f[i].s, b.f[i].s);
    }
    rs_test_run(CMS "N=128 traffic=qrelation per_input=7 vcs=2 length=7 seed=6", &c);
    assert_true(rs_test_int(&a, "copies_discarded") != rs_test_int(&c, "copies_discarded") ||
                rs_test_double(&a, "latency_mean") != rs_test_double(&c, "latency_mean"));
    rs_record_free(&a);
    rs_record_free(&b);
    rs_record_free(&c);
}

/* The hand-worked run needs 2 rounds: max_rounds=2 finishes, max_rounds=1 is an error naming
 * the messages left (0 and 4), never a partial record. */
static void test_round_cap(void **state)
{
    struct rs_record r;
    char msg[1024];
    rs_test_run(CMS "N=8 traffic=bitrev length=2 pad=0 seed=33 max_rounds=2", &r);
    assert_int_equal(rs_test_int(&r, "rounds"), 2);
    rs_record_free(&r);
    int rc = rs_test_try(CMS "N=8 traffic=bitrev length=2 pad=0 seed=33 max_rounds=1", 1, &r,
                         msg, sizeof msg);
    rs_record_free(&r);
    assert_int_equal(rc, RS_EUNFINISHED);
    assert_non_null(strstr(msg, "2 of 8 messages undelivered after max_rounds=1 rounds"));
    assert_non_null(strstr(msg, ": 0, 4"));
}

/* ---- the draws --------------------------------------------------------------------------- */

/* 70000 copies (10000 messages x 7 copies, round 3) of seed 9: colours over Delta = 7 and
 * intermediates over N = 16 are uniform: chi-square below the 0.1% points 22.46 (6 degrees
 * of freedom) and 37.70 (15). */
static void test_draws_uniform(void **state)
{
    uint64_t col[7] = {0}, mid[16] = {0};
    uint32_t n = 0;
    for (uint32_t m = 0; m < 10000; m++)
        for (uint32_t c = 0; c < 7; c++, n++) {
            struct rs__cms_draws d;
            rs__cms_draw(9, 3, m, c, 7, 16, &d);
            col[d.colour]++;
            mid[d.mid]++;
        }
    double chi_c = 0, chi_m = 0, ec = n / 7.0, em = n / 16.0;
    for (int i = 0; i < 7; i++)
        chi_c += (col[i] - ec) * (col[i] - ec) / ec;
    for (int i = 0; i < 16; i++)
        chi_m += (mid[i] - em) * (mid[i] - em) / em;
    assert_true(chi_c < 22.46);
    assert_true(chi_m < 37.70);
}

/* ---- refused configurations -------------------------------------------------------------- */

static void expect_error(const char *kv, int code, const char *part)
{
    struct rs_record r;
    char msg[1024];
    int rc = rs_test_try(kv, 1, &r, msg, sizeof msg);
    rs_record_free(&r);
    if (rc != code || !strstr(msg, part)) {
        print_error("%s: code %d '%s', want %d with '%s'\n", kv, rc, msg, code, part);
        fail();
    }
}

/* Messages 2^16 apart have streams of their own (the Philox entity has 48 bits; the
 * earlier layout msg << 32 | copy dropped the bits of msg above 15, so messages m and
 * m + 2^16 drew the same colour, intermediate and priority in every round). */
static void test_draws_distinct_above_2_16(void **state)
{
    (void)state;
    unsigned same = 0;
    for (uint32_t m = 0; m < 64; m++) {
        struct rs__cms_draws a, b;
        rs__cms_draw(5, 1, m, 0, 1, 1u << 20, &a);
        rs__cms_draw(5, 1, m + (1u << 16), 0, 1, 1u << 20, &b);
        same += a.priority == b.priority && a.mid == b.mid;
    }
    assert_int_equal(same, 0);
}

static void test_refused(void **state)
{
    expect_error("topology=butterfly N=8 switching=wormhole algorithm=cms_butterfly",
                 RS_EUNSUPPORTED, "algorithm=cms_butterfly needs wrap=1");
    expect_error(CMS "N=8 routing=valiant", RS_EUNSUPPORTED, "routing must be direct");
    expect_error(CMS "N=8 on_delay=wait", RS_EUNSUPPORTED, "on_delay=wait is not possible");
    expect_error(CMS "N=8 vcs=4 vc_classes=dateline", RS_EUNSUPPORTED,
                 "vc_classes must be none");
    expect_error("topology=butterfly wrap=1 N=8 switching=store_forward algorithm=cms_butterfly",
                 RS_EUNSUPPORTED, "algorithm=cms_butterfly needs switching=wormhole");
    expect_error("topology=mesh k=4 switching=wormhole algorithm=cms_butterfly", RS_EUNSUPPORTED,
                 "algorithm=cms_butterfly needs topology=butterfly");
    expect_error(CMS "N=1024 per_input=1000 beta=100000", RS_ECONSTRAINT,
                 "gives more than 2^24 colours");
    expect_error(CMS "N=8 beta=0", RS_ECONSTRAINT, "key 'beta'");
    expect_error(CMS "N=8 injection_process=bernoulli", RS_EUNSUPPORTED,
                 "needs injection_process=batch");
    /* on_delay=discard is what the algorithm does anyway: accepted */
    struct rs_record r;
    rs_test_run(CMS "N=8 on_delay=discard", &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 8);
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constants),
        cmocka_unit_test(test_padding),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_discarded_never_blocks),
        cmocka_unit_test(test_own_tail),
        cmocka_unit_test(test_every_message_delivered),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_round_cap),
        cmocka_unit_test(test_draws_uniform),
        cmocka_unit_test(test_draws_distinct_above_2_16),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
