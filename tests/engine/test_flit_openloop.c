/* The flit engine under open-loop injection (injection_process=bernoulli): exact latency and
 * throughput where no packet can be blocked or the bottleneck is known, the zero-load
 * latency of uniform traffic on a mesh within a stated tolerance, the saturation verdict,
 * flit-rate injection, variable lengths, invariants over time and determinism. */
#include <math.h>

#include "rs_test.h"

#define OL "injection_process=bernoulli "

/* Identity on a 64-input butterfly at 1 packet per terminal per step, L = 4, 8 VCs: a
 * packet holds each VC from its header's crossing until its tail leaves the buffer, L + 1
 * = 5 steps, so 5 VCs per channel suffice and no packet is ever blocked: every latency is
 * exactly D + L - 1 = 6 + 3 = 9, offered = accepted = 4 flits per terminal per step. With
 * 4 VCs the first channel carries at most 4 packets per 5 steps: accepted = 4 x 4 / 5 =
 * 3.2 flits per step exactly (the 200-step window is a whole number of periods), offered 4:
 * saturated, and no latency is reported. */
static void test_unblocked_and_bottleneck(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=64 traffic=identity switching=wormhole vcs=8 length=4 " OL
                "injection_rate=1 warmup_steps=10 measure_steps=200 drain_steps=100 check=1",
                &r);
    assert_true(rs_test_double(&r, "offered") == 4.0);
    assert_true(rs_test_double(&r, "accepted") == 4.0);
    assert_int_equal(rs_test_int(&r, "measured_packets"), 64 * 200);
    assert_int_equal(rs_test_int(&r, "measured_delivered"), 64 * 200);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(rs_test_double(&r, "latency_mean") == 9.0);
    assert_true(rs_test_double(&r, "latency_p99") == 9.0);
    assert_true(rs_test_double(&r, "latency_max") == 9.0);
    assert_int_equal(rs_test_int(&r, "blocked_header_steps"), 0);
    assert_int_equal(rs_test_int(&r, "steps"), 10 + 200 + 9);
    rs_record_free(&r);
    rs_test_run("topology=butterfly N=64 traffic=identity switching=wormhole vcs=4 length=4 " OL
                "injection_rate=1 warmup_steps=10 measure_steps=200 drain_steps=100",
                &r);
    assert_true(rs_test_double(&r, "accepted") == 3.2);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_true(isnan(rs_test_double(&r, "latency_mean")));
    rs_record_free(&r);
}

/* Uniform traffic on an 8x8 mesh at 0.02 flits per terminal per step (L = 4): almost no
 * contention, so the mean latency is close to the zero-load latency: the mean
 * dimension-order distance over all (source, destination) pairs is 2 (k^2 - 1) / (3k) =
 * 5.25, and the 63/64 packets not addressed to their source add L - 1 = 3: 8.203. The
 * standard deviation of one packet's distance is 2.7, so the mean of ~6300 measured
 * packets has sd 0.035; the test allows -0.2 .. +0.25 (contention only adds). Accepted
 * equals offered within the 1% margin, and offered is 0.02 within 5 sd of its binomial
 * spread (sd 0.0004 here: 6400 packets expected). */
static void test_zero_load_latency(void **state)
{
    struct rs_record r;
    rs_test_run("topology=mesh k=8 traffic=uniform switching=wormhole vcs=2 vc_depth=4 length=4 "
                OL "injection_rate=0.02 injection_rate_uses_flits=1 warmup_steps=500 "
                "measure_steps=20000 seed=3",
                &r);
    double lat = rs_test_double(&r, "latency_mean"), off = rs_test_double(&r, "offered");
    double acc = rs_test_double(&r, "accepted");
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(lat > 8.203 - 0.2 && lat < 8.203 + 0.25);
    assert_true(fabs(off - 0.02) < 5 * 0.0004);
    assert_true(fabs(acc - off) < 0.01 * off);
    rs_record_free(&r);
}

/* Past saturation: 0.9 flits per terminal per step on the 8x8 mesh with a shared link per
 * channel is far above the bisection limit (0.5 flits, k/4 per channel of the middle cut):
 * saturated, accepted well below offered, no latency. */
static void test_saturated(void **state)
{
    struct rs_record r;
    rs_test_run("topology=mesh k=8 traffic=uniform switching=wormhole vcs=2 vc_depth=4 length=4 "
                "link=shared " OL "injection_rate=0.9 injection_rate_uses_flits=1 "
                "warmup_steps=200 measure_steps=2000 drain_steps=500",
                &r);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_true(rs_test_double(&r, "accepted") < 0.5);
    assert_true(isnan(rs_test_double(&r, "latency_mean")));
    assert_true(isnan(rs_test_double(&r, "latency_p99")));
    assert_int_equal(rs_test_int(&r, "steps"), 200 + 2000 + 500);
    rs_record_free(&r);
}

/* Variable lengths 2..6 flits (mean 4, variance 2) at 0.2 flits per step: 0.05 packets per
 * step, about 4000 in the window; the relative sd of the flit count is
 * sqrt(0.95/4000 + 2/(4000 x 16)) = 1.65%, and offered must be within 5 sd of 0.2; virtual cut-through
 * buffers hold the longest packet (max_buffer <= 6). Every mode and link keeps its
 * invariants over a short run (check=1). */
static void test_lengths_and_invariants(void **state)
{
    struct rs_record r;
    rs_test_run("topology=torus k=4 traffic=uniform switching=virtual_cut_through vcs=2 "
                "vc_classes=dateline length=2 length_max=6 " OL
                "injection_rate=0.2 injection_rate_uses_flits=1 warmup_steps=100 "
                "measure_steps=5000 check=1",
                &r);
    assert_true(fabs(rs_test_double(&r, "offered") - 0.2) < 5 * 0.0165 * 0.2);
    assert_true(rs_test_int(&r, "max_buffer") <= 6);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    rs_record_free(&r);
    const char *mode[] = {"wormhole", "virtual_cut_through", "cut_through_partial",
                          "store_forward_flits"};
    for (int m = 0; m < 4; m++)
        for (int l = 0; l < 2; l++) {
            char kv[512];
            snprintf(kv, sizeof kv,
                     "topology=mesh k=4 traffic=transpose switching=%s vcs=2 length=3 link=%s "
                     OL "injection_rate=0.3 injection_rate_uses_flits=1 length_max=5 "
                     "warmup_steps=50 measure_steps=400 drain_steps=200 check=1",
                     mode[m], l ? "shared" : "per_vc");
            rs_test_run(kv, &r);
            assert_int_equal(rs_test_int(&r, "deadlock"), 0);
            assert_true(rs_test_int(&r, "measured_packets") > 0);
            rs_record_free(&r);
        }
}

/* Same seed, same bytes; another seed, another result; open-loop runs carry no static
 * congestion or dilation. */
static void test_determinism(void **state)
{
    const char *kv = "topology=mesh k=4 switching=wormhole " OL "injection_rate=0.1 "
                     "warmup_steps=100 measure_steps=2000 routing=valiant vc_classes=dateline "
                     "vcs=4 seed=%d";
    char a_kv[512], c_kv[512];
    struct rs_buf a, b, c;
    struct rs_record r;
    snprintf(a_kv, sizeof a_kv, kv, 8);
    snprintf(c_kv, sizeof c_kv, kv, 9);
    rs_test_csv(a_kv, &a);
    rs_test_csv(a_kv, &b);
    rs_test_csv(c_kv, &c);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    assert_true(a.len != c.len || memcmp(a.data, c.data, a.len) != 0);
    rs_buf_free(&a);
    rs_buf_free(&b);
    rs_buf_free(&c);
    rs_test_run(a_kv, &r);
    assert_null(rs_record_get(&r, "congestion"));
    assert_null(rs_record_get(&r, "makespan"));
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unblocked_and_bottleneck),
        cmocka_unit_test(test_zero_load_latency),
        cmocka_unit_test(test_saturated),
        cmocka_unit_test(test_lengths_and_invariants),
        cmocka_unit_test(test_determinism),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
