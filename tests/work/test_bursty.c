/* arrivals=on_off (BookSim's on/off injection) and packet_sizes (size mixes) of open-loop
 * injection (src/work/openloop.c): BookSim's parameter rule, the offered load kept over a
 * long run, geometric bursts of the stated mean, the size proportions and the offered
 * flits, and every refused combination. */
#include <math.h>
#include <string.h>

#include "fixture.h"
#include "routesim/openloop.h"

/* The config of "topology=mesh k=4 n=2 ARGS" into cfg; returns its code (f freed). */
static int config(const char *args, uint32_t length, struct rs_openloop_cfg *cfg,
                  char *msg, size_t cap)
{
    struct fx f;
    char buf[512];
    snprintf(buf, sizeof buf, "topology=mesh k=4 n=2 injection_process=bernoulli %s", args);
    assert_int_equal(fx_build(&f, 1, buf), 0);
    int rc = rs_openloop_config(cfg, &f.p, length, &f.err);
    snprintf(msg, cap, "%s", f.err.msg);
    fx_free(&f);
    return rc;
}

/* BookSim's rule rate = r1 alpha / (alpha + beta): burst_length=10 at 0.2 packets per step
 * gives beta = 0.1, r1 = 1, alpha = 0.1 x 0.2 / 0.8 = 0.025; no burst key gives BookSim's
 * alpha = beta = 0.5 and r1 = 0.4; alpha and r1 give beta; and the refusals. */
static void test_burst_config(void **state)
{
    struct rs_openloop_cfg c;
    char msg[600];
    assert_int_equal(config("injection_rate=0.2 arrivals=on_off burst_length=10", 1, &c, msg,
                            sizeof msg), 0);
    assert_true(fabs(c.burst_beta - 0.1) < 1e-15 && c.burst_r1 == 1.0);
    assert_true(fabs(c.burst_alpha - 0.025) < 1e-15);
    assert_int_equal(config("injection_rate=0.2 arrivals=on_off", 1, &c, msg, sizeof msg), 0);
    assert_true(c.burst_alpha == 0.5 && c.burst_beta == 0.5 && fabs(c.burst_r1 - 0.4) < 1e-15);
    assert_int_equal(config("injection_rate=0.2 arrivals=on_off burst_alpha=0.1 burst_r1=0.6",
                            1, &c, msg, sizeof msg), 0);
    assert_true(fabs(c.burst_beta - 0.2) < 1e-15);
    static const char *const bad[] = {
        "injection_rate=0.6 arrivals=on_off",              /* r1 = 1.2 */
        "injection_rate=0.2 arrivals=on_off burst_alpha=0.1 burst_beta=0.1 burst_r1=0.5",
        "injection_rate=0.2 arrivals=on_off burst_length=4 burst_beta=0.25",
        "injection_rate=0.2 arrivals=on_off burst_r1=0.1 burst_beta=0.5", /* r1 < rate */
        "injection_rate=0.2 burst_length=4",               /* not on_off */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = config(bad[i], 1, &c, msg, sizeof msg);
        if (rc != RS_ECONSTRAINT || !strstr(msg, "burst"))
            fail_msg("%s: code %d '%s'", bad[i], rc, msg);
    }
}

/* 16 terminals x 200000 steps at 0.2 packets per step with bursts of mean 10 steps (r1 = 1:
 * a burst is a run of packets in consecutive steps). The offered rate stays 0.2 within 2.5%
 * (the count's sd is about 0.43%: sqrt(3.2e6 x 0.16 x (1 + 0.875) / (1 - 0.875)) / 640000);
 * the bursts (about 64000) have mean length 10 within 0.2 (5 sd of the mean, sd 9.5 /
 * sqrt(64000)) and a fraction beta = 0.1 of them are one packet long (5 sd: 0.006), as a
 * geometric law of mean 10 has. The same seed gives the same arrivals. */
static void test_burst_process(void **state)
{
    struct fx f;
    struct rs_openloop_cfg cfg;
    struct rs_openloop ol;
    static uint32_t newly[16];
    uint32_t last[16] = {0}, run[16] = {0}, steps = 200000;
    uint64_t bursts = 0, ones = 0, total = 0;
    assert_int_equal(fx_build(&f, 7, "topology=mesh k=4 n=2 injection_process=bernoulli "
                                     "injection_rate=0.2 arrivals=on_off burst_length=10 "
                                     "warmup_steps=0 measure_steps=200000 drain_steps=0"), 0);
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 1, &f.err), 0);
    assert_int_equal(rs_openloop_init(&ol, &cfg, &f.net, &f.pb, &f.p, RS_ROUTING_DIRECT, 7,
                                      &f.err), 0);
    for (uint32_t s = 1; s <= steps; s++) {
        uint32_t before[16];
        for (uint32_t t = 0; t < 16; t++)
            before[t] = ol.term[t].pending;
        rs_openloop_generate(&ol, s, newly);
        for (uint32_t t = 0; t < 16; t++) {
            if (ol.term[t].pending == before[t])
                continue;
            assert_int_equal(ol.term[t].pending, before[t] + 1);
            if (run[t] && last[t] + 1 != s) { /* a burst ended */
                bursts++;
                ones += run[t] == 1;
                total += run[t];
                run[t] = 0;
            }
            run[t]++;
            last[t] = s;
        }
    }
    double offered = (double)ol.win_packets / (16.0 * steps);
    assert_true(fabs(offered - 0.2) <= 0.025 * 0.2);
    assert_true(fabs((double)total / bursts - 10.0) <= 0.2);
    assert_true(fabs((double)ones / bursts - 0.1) <= 0.006);
    uint64_t first = ol.win_packets;
    rs_openloop_free(&ol);
    assert_int_equal(rs_openloop_init(&ol, &cfg, &f.net, &f.pb, &f.p, RS_ROUTING_DIRECT, 7,
                                      &f.err), 0);
    for (uint32_t s = 1; s <= steps; s++)
        rs_openloop_generate(&ol, s, newly);
    assert_int_equal(ol.win_packets, first);
    rs_openloop_free(&ol);
    fx_free(&f);
}

/* packet_sizes=1,8 packet_size_rates=3,1 with injection_rate=0.5 flits: mean length
 * (3 x 1 + 8) / 4 = 2.75 flits, 0.5 / 2.75 packets per step, lengths 1 to 8; over 32000
 * packets 3/4 are 1 flit long (5 sd); over 16 x 50000 steps the offered flits stay 0.5 per
 * step within 2% (sd about 0.4%). */
static void test_sizes(void **state)
{
    struct fx f;
    struct rs_openloop_cfg cfg;
    struct rs_openloop ol;
    struct rs_ol_packet pk;
    static uint32_t newly[16];
    uint64_t short_ = 0;
    assert_int_equal(fx_build(&f, 7, "topology=mesh k=4 n=2 injection_process=bernoulli "
                                     "injection_rate=0.5 injection_rate_uses_flits=1 "
                                     "packet_sizes=1,8 packet_size_rates=3,1 warmup_steps=0 "
                                     "measure_steps=50000 drain_steps=0"), 0);
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 4, &f.err), 0);
    assert_true(cfg.mean_len == 2.75 && cfg.len_min == 1 && cfg.len_max == 8);
    assert_true(fabs(cfg.packet_rate - 0.5 / 2.75) < 1e-15);
    assert_int_equal(rs_openloop_init(&ol, &cfg, &f.net, &f.pb, &f.p, RS_ROUTING_DIRECT, 7,
                                      &f.err), 0);
    for (uint32_t t = 0; t < 16; t++)
        for (uint32_t s = 1; s <= 2000; s++) {
            ol.term[t].front = s;
            ol.term[t].pending = 1;
            rs_openloop_front(&ol, t, &pk);
            assert_true(pk.length == 1 || pk.length == 8);
            short_ += pk.length == 1;
        }
    assert_true(fabs((double)short_ - 24000) <= 5 * sqrt(32000 * 0.75 * 0.25));
    memset(ol.term, 0, 16 * sizeof *ol.term);
    rs_openloop_free(&ol);
    assert_int_equal(rs_openloop_init(&ol, &cfg, &f.net, &f.pb, &f.p, RS_ROUTING_DIRECT, 7,
                                      &f.err), 0);
    for (uint32_t s = 1; s <= 50000; s++)
        rs_openloop_generate(&ol, s, newly);
    assert_true(fabs((double)ol.win_flits / (16.0 * 50000) - 0.5) <= 0.02 * 0.5);
    rs_openloop_free(&ol);
    fx_free(&f);

    struct rs_openloop_cfg c;
    char msg[600];
    static const char *const bad[] = {
        "packet_sizes=1,0", "packet_sizes=1,x", "packet_sizes=1,2 packet_size_rates=1",
        "packet_size_rates=1", "packet_sizes=2 length_max=4",
        "packet_sizes=1,2 packet_size_rates=1,0",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        int rc = config(bad[i], 1, &c, msg, sizeof msg);
        if (rc == 0 || !strstr(msg, "packet_size"))
            fail_msg("%s: code %d '%s'", bad[i], rc, msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_burst_config),
        cmocka_unit_test(test_burst_process),
        cmocka_unit_test(test_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
