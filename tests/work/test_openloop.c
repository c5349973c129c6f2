/* Open-loop injection (src/work/openloop.c): option resolution, Bernoulli arrivals as a
 * pure function of (seed, terminal, step) with the stated rate, the implicit source FIFOs,
 * destinations by traffic, packet lengths, and the statistics collector's numbers and
 * saturation verdict. Statistical checks use fixed seeds and state their tolerance. */
#include <math.h>
#include <string.h>

#include "fixture.h"
#include "routesim/openloop.h"
#include "routesim/record.h"

/* Build the fixture of args and an open-loop process over it (length = engine length). */
static void ol_build(struct fx *f, struct rs_openloop *ol, const char *args, uint32_t length)
{
    struct rs_openloop_cfg cfg;
    assert_int_equal(fx_build(f, 7, args), 0);
    assert_int_equal(rs_openloop_config(&cfg, &f->p, length, &f->err), 0);
    assert_int_equal(rs_openloop_init(ol, &cfg, &f->net, &f->pb, &f->p, RS_ROUTING_DIRECT, 7,
                                      &f->err),
                     0);
}

static void fx_done(struct fx *f, struct rs_openloop *ol)
{
    rs_openloop_free(ol);
    rs_problem_free(&f->pb);
    rs_net_free(&f->net);
    rs_params_free(&f->p);
}

/* Defaults, and the packet rate: 0.4 flits per step with packets of 2..6 flits (mean 4)
 * is 0.1 packets per step; the threshold is round(p * 2^32) (0.25 -> exactly 2^30). */
static void test_config(void **state)
{
    struct fx f;
    struct rs_openloop_cfg cfg;
    assert_int_equal(fx_build(&f, 1, "topology=mesh k=4"), 0);
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 4, &f.err), 0);
    assert_int_equal(cfg.process, RS_INJECT_BATCH);
    assert_int_equal(cfg.warmup, 1000);
    assert_int_equal(cfg.measure, 10000);
    assert_int_equal(cfg.drain, 10000);
    assert_int_equal(cfg.len_min, 4);
    assert_int_equal(cfg.len_max, 4);
    assert_true(cfg.margin == 0.01);
    rs_params_free(&f.p);
    rs_params_init(&f.p);
    rs_params_set(&f.p, "injection_rate", "0.4", NULL, 0, &f.err);
    rs_params_set(&f.p, "injection_rate_uses_flits", "1", NULL, 0, &f.err);
    rs_params_set(&f.p, "length_max", "6", NULL, 0, &f.err);
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 2, &f.err), 0);
    assert_true(fabs(cfg.packet_rate - 0.1) < 1e-15);
    assert_int_equal(cfg.threshold, (uint64_t)llround(0.1 * 4294967296.0));
    rs_params_set(&f.p, "injection_rate", "0.25", NULL, 0, &f.err);
    rs_params_set(&f.p, "injection_rate_uses_flits", "0", NULL, 0, &f.err);
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 2, &f.err), 0);
    assert_int_equal(cfg.threshold, 1u << 30);
    rs_params_set(&f.p, "length_max", "1", NULL, 0, &f.err);
    assert_int_equal(rs_openloop_config(&cfg, &f.p, 2, &f.err), RS_ECONSTRAINT);
    assert_non_null(strstr(f.err.msg, "length_max=1 is below length=2"));
    rs_params_set(&f.p, "length_max", "0", NULL, 0, &f.err);
    rs_params_set(&f.p, "injection_rate", "1.5", NULL, 0, &f.err);
    assert_int_not_equal(rs_openloop_config(&cfg, &f.p, 2, &f.err), 0);
    assert_non_null(strstr(f.err.msg, "injection_rate"));
    rs_net_free(&f.net);
    rs_problem_free(&f.pb);
    rs_params_free(&f.p);
}

/* arrivals=per_step: rs_openloop_generate draws exactly rs_openloop_arrival at every (terminal, step): the
 * arrivals are a pure function, whatever order they are asked in. Over 16 terminals x
 * 50000 steps at p = 0.3 the count is Binomial(800000, 0.3): mean 240000, sd 410; the
 * test allows 5 sd (2050). Each terminal's FIFO then starts its packets in arrival order:
 * the front after each start is the next arrival step. */
static void test_arrivals(void **state)
{
    struct fx f;
    struct rs_openloop ol;
    uint32_t newly[16], steps = 50000;
    uint64_t count = 0;
    ol_build(&f, &ol, "topology=mesh k=4 injection_process=bernoulli injection_rate=0.3 "
                      "warmup_steps=0 measure_steps=50000 drain_steps=0 arrivals=per_step",
             1);
    for (uint32_t s = 1; s <= steps; s++) {
        uint32_t before[16];
        for (uint32_t t = 0; t < 16; t++)
            before[t] = ol.term[t].pending;
        uint32_t n = rs_openloop_generate(&ol, s, newly), k = 0;
        for (uint32_t t = 0; t < 16; t++) {
            int a = rs_openloop_arrival(&ol, t, s);
            assert_int_equal(ol.term[t].pending, before[t] + (uint32_t)a);
            count += (uint64_t)a;
            if (a && before[t] == 0) {
                assert_true(k < n);
                assert_int_equal(newly[k++], t);
            }
        }
        assert_int_equal(k, n);
    }
    assert_true(llabs((long long)count - 240000) <= 2050);
    assert_int_equal(ol.win_packets, count);
    /* terminal 3's FIFO: fronts in arrival order */
    uint32_t g = 0;
    while (ol.term[3].pending) {
        do
            g++;
        while (!rs_openloop_arrival(&ol, 3, g));
        assert_int_equal(ol.term[3].front, g);
        rs_openloop_start(&ol, 3);
    }
    assert_true(ol.term[3].started > 10000);
    fx_done(&f, &ol);
}

/* Run ol (16 terminals first) for steps steps and write terminal 3's arrival steps to arr
 * (at most cap); return their number. Checks that became_pending lists the terminals whose
 * FIFO was empty, increasing. */
static uint32_t per_packet_arrivals(struct rs_openloop *ol, uint32_t steps, uint32_t *arr,
                                    uint32_t cap, uint64_t *count)
{
    uint32_t newly[64], n3 = 0;
    *count = 0;
    for (uint32_t s = 1; s <= steps; s++) {
        uint32_t before[16];
        for (uint32_t t = 0; t < 16; t++)
            before[t] = ol->term[t].pending;
        uint32_t n = rs_openloop_generate(ol, s, newly), k = 0;
        for (uint32_t t = 0; t < 16; t++) {
            uint32_t a = ol->term[t].pending - before[t];
            assert_true(a <= 1);
            *count += a;
            if (a && before[t] == 0)
                assert_int_equal(newly[k++], t);
            if (a && t == 3 && n3 < cap)
                arr[n3++] = s;
        }
        while (k < n) /* terminals 16.. of a larger network */
            assert_true(newly[k++] >= 16);
    }
    return n3;
}

/* arrivals=per_packet (the default): one geometric gap per packet keyed by (seed, terminal,
 * packet index). Over 16 terminals x 50000 steps at p = 0.3 the count of arrivals has the
 * same Binomial(800000, 0.3) law as per_step (mean 240000, sd 410; 5 sd allowed), and the
 * fraction of gaps of exactly one step is p (terminal 3: about 15000 gaps, sd 0.0037; 5 sd
 * allowed). A terminal's arrivals do not depend on the other terminals or on the order of
 * evaluation: terminal 3 of an 8x8 mesh sees the same steps as terminal 3 of a 4x4 mesh.
 * The FIFO starts its packets at the generation steps, in order (the fronts are recomputed
 * from the gaps), and per_step gives a different stream. */
static void test_arrivals_per_packet(void **state)
{
    struct fx f, g;
    struct rs_openloop ol, ol8;
    static uint32_t a4[20000], a8[20000];
    uint64_t count, count8;
    const char *args = "injection_process=bernoulli injection_rate=0.3 warmup_steps=0 "
                       "measure_steps=50000 drain_steps=0";
    char buf[256];
    snprintf(buf, sizeof buf, "topology=mesh k=4 %s", args);
    ol_build(&f, &ol, buf, 1);
    assert_int_equal(ol.cfg.arrivals, RS_ARRIVALS_PER_PACKET);
    uint32_t n4 = per_packet_arrivals(&ol, 50000, a4, 20000, &count);
    assert_true(llabs((long long)count - 240000) <= 2050);
    assert_int_equal(ol.win_packets, count);
    uint32_t ones = a4[0] == 1;
    for (uint32_t i = 1; i < n4; i++)
        ones += a4[i] - a4[i - 1] == 1;
    assert_true(fabs((double)ones / n4 - 0.3) <= 5 * 0.0037);
    snprintf(buf, sizeof buf, "topology=mesh k=8 %s", args);
    ol_build(&g, &ol8, buf, 1);
    uint32_t n8 = per_packet_arrivals(&ol8, 50000, a8, 20000, &count8);
    assert_int_equal(n8, n4);
    assert_memory_equal(a4, a8, n4 * sizeof *a4);
    fx_done(&g, &ol8);
    for (uint32_t i = 0; ol.term[3].pending; i++) {
        assert_int_equal(ol.term[3].front, a4[i]);
        rs_openloop_start(&ol, 3);
    }
    assert_int_equal(ol.term[3].started, n4);
    fx_done(&f, &ol);
    snprintf(buf, sizeof buf, "topology=mesh k=4 %s arrivals=per_step", args);
    ol_build(&f, &ol, buf, 1);
    n8 = per_packet_arrivals(&ol, 50000, a8, 20000, &count8);
    assert_true(n8 != n4 || memcmp(a4, a8, n4 * sizeof *a4) != 0);
    fx_done(&f, &ol);
}

/* The calendar of next arrivals (a timing wheel, src/work/openloop.c) against the gaps
 * themselves: on a 16x16 mesh (256 terminals), every terminal's arrival steps as generated
 * step by step equal its FIFO's fronts as rs_openloop_start recomputes them from the gap
 * chain, and the terminals listed as newly pending are strictly increasing; at 0.001
 * packets per step (a wheel of 2048 slots, about 13% of gaps longer than a turn) and at
 * 0.5 (about 128 terminals due per step: the calendar's bit-set sort). */
static void check_calendar(const char *rate, uint32_t steps, uint32_t per_term)
{
    struct fx f;
    struct rs_openloop ol;
    static uint32_t arr[256][400], n_arr[256], newly[256];
    char buf[256];
    snprintf(buf, sizeof buf, "topology=mesh k=16 injection_process=bernoulli injection_rate=%s "
             "warmup_steps=0 measure_steps=%u drain_steps=0", rate, steps);
    ol_build(&f, &ol, buf, 1);
    assert_int_equal(ol.n_terminals, 256);
    memset(n_arr, 0, sizeof n_arr);
    uint64_t total = 0, laps = 0;
    for (uint32_t s = 1; s <= steps; s++) {
        uint32_t n = rs_openloop_generate(&ol, s, newly);
        for (uint32_t i = 1; i < n; i++)
            assert_true(newly[i] > newly[i - 1]);
        for (uint32_t t = 0; t < 256; t++) {
            while (n_arr[t] < ol.term[t].born) { /* born counts the packets generated */
                assert_true(n_arr[t] < per_term);
                uint32_t prev = n_arr[t] ? arr[t][n_arr[t] - 1] : 0;
                laps += s - prev > (ol.wheel_mask + 1);
                arr[t][n_arr[t]++] = s;
                total++;
            }
        }
    }
    assert_true(total > 0);
    for (uint32_t t = 0; t < 256; t++) {
        assert_int_equal(ol.term[t].pending, n_arr[t]);
        for (uint32_t i = 0; i < n_arr[t]; i++) {
            assert_int_equal(ol.term[t].front, arr[t][i]);
            rs_openloop_start(&ol, t);
        }
    }
    if (!strcmp(rate, "0.001")) {
        assert_int_equal(ol.wheel_mask + 1, 2048);
        assert_true(laps > 1000); /* about 13% of 51200 gaps span more than a turn */
    }
    fx_done(&f, &ol);
}

static void test_arrivals_calendar(void **state)
{
    (void)state;
    check_calendar("0.001", 200000, 400);
    check_calendar("0.5", 600, 400);
}

/* Destinations: traffic=uniform draws a fresh destination per packet (over 32000 packets
 * of 16 terminals the chi-square statistic with 15 degrees of freedom stays below 37.7,
 * its 0.1% critical value); a permutation traffic sends every packet of a terminal to the
 * same place as the static problem (bitrev on 16: 1 -> 8), and with per_input = 2 the j-th
 * packet takes template message j mod 2. Lengths are uniform in [length, length_max]. */
static void test_destinations_and_lengths(void **state)
{
    struct fx f;
    struct rs_openloop ol;
    struct rs_ol_packet pk;
    uint64_t hist[16] = {0}, lens[7] = {0}, n = 0;
    ol_build(&f, &ol, "topology=butterfly N=16 traffic=uniform injection_process=bernoulli "
                      "injection_rate=1 length_max=6",
             2);
    for (uint32_t t = 0; t < 16; t++)
        for (uint32_t s = 1; s <= 2000; s++) {
            ol.term[t].front = s; /* every step is an arrival at rate 1 */
            ol.term[t].pending = 1; /* rs_openloop_front requires a waiting packet */
            rs_openloop_front(&ol, t, &pk);
            assert_int_equal(pk.src, t);
            assert_int_equal(pk.gen, s);
            assert_int_equal(pk.mid, RS_NONE);
            assert_true(pk.length >= 2 && pk.length <= 6);
            hist[pk.dst]++;
            lens[pk.length]++;
            n++;
        }
    double chi = 0, e = (double)n / 16;
    for (int d = 0; d < 16; d++)
        chi += ((double)hist[d] - e) * ((double)hist[d] - e) / e;
    assert_true(chi < 37.7);
    for (int l = 2; l <= 6; l++) /* 6400 each: within 5 sd (sqrt(6400*0.8) = 72) */
        assert_true(llabs((long long)lens[l] - 6400) < 360);
    fx_done(&f, &ol);

    ol_build(&f, &ol, "topology=butterfly N=16 traffic=bitrev injection_process=bernoulli", 4);
    ol.term[1].front = 5;
    ol.term[1].pending = 1;
    rs_openloop_front(&ol, 1, &pk);
    assert_int_equal(pk.dst, 8);
    assert_int_equal(pk.msg, 1);
    assert_int_equal(pk.length, 4);
    fx_done(&f, &ol);

    ol_build(&f, &ol, "topology=mesh k=4 traffic=randperm per_input=2 "
                      "injection_process=bernoulli",
             1);
    ol.term[5].pending = 1;
    for (uint32_t j = 0; j < 4; j++) {
        ol.term[5].started = j;
        rs_openloop_front(&ol, 5, &pk);
        assert_int_equal(pk.msg, 5 * 2 + j % 2);
        assert_int_equal(pk.dst, f.pb.dst[5 * 2 + j % 2]);
    }
    fx_done(&f, &ol);
}

/* The collector on synthetic events: window = steps 11..20 (warmup 10, measure 10),
 * 16 terminals. Packets of 4 flits generated at 12 and 15 (in the window) and at 5 and 25
 * (outside); the first two delivered at 20 and 40, latencies 8 and 25; 24 flits accepted
 * during the window. offered = 8 flits / (16 x 10) = 0.05, accepted = 24 / 160 = 0.15.
 * Not saturated (every measured packet delivered, accepted >= offered): mean 16.5, p99 25,
 * max 25. With a measured packet still out, or with accepted below 99% of offered, it is
 * saturated and reports no latency; drops during the window count with the accepted flits
 * (a lossy network whose losses keep up with the load is not saturated). */
static void test_statistics(void **state)
{
    struct fx f;
    struct rs_openloop ol;
    struct rs_record r;
    ol_build(&f, &ol, "topology=mesh k=4 injection_process=bernoulli warmup_steps=10 "
                      "measure_steps=10 drain_steps=30",
             4);
    ol.win_packets = 2; /* generate() counted the two in-window packets */
    ol.win_flits = 8;
    rs_openloop_accept(&ol, 5, 100); /* before the window: ignored */
    rs_openloop_accept(&ol, 15, 24);
    rs_openloop_finish(&ol, 5, 4, 9, 1);
    rs_openloop_finish(&ol, 12, 4, 20, 1);
    assert_int_equal(rs_openloop_done(&ol, 20), 0);
    rs_openloop_finish(&ol, 15, 4, 40, 1);
    assert_int_equal(rs_openloop_done(&ol, 19), 0);
    assert_int_equal(rs_openloop_done(&ol, 40), 1);
    rs_record_init(&r);
    assert_int_equal(rs_openloop_record(&ol, &r), 0);
    assert_true(rs_record_get(&r, "offered")->d == 0.05);
    assert_true(rs_record_get(&r, "accepted")->d == 0.15);
    assert_int_equal(rs_record_get(&r, "measured_packets")->i, 2);
    assert_int_equal(rs_record_get(&r, "measured_delivered")->i, 2);
    assert_int_equal(rs_record_get(&r, "saturated")->i, 0);
    assert_true(rs_record_get(&r, "latency_mean")->d == 16.5);
    assert_true(rs_record_get(&r, "latency_p99")->d == 25);
    assert_true(rs_record_get(&r, "latency_max")->d == 25);
    assert_int_equal(rs_record_get(&r, "delivered")->i, 3);
    rs_record_free(&r);
    ol.win_packets = 3; /* one more measured packet, never delivered */
    assert_int_equal(rs_openloop_saturated(&ol), 1);
    assert_int_equal(rs_openloop_done(&ol, 49), 0);
    assert_int_equal(rs_openloop_done(&ol, 50), 1); /* 10 + 10 + 30 */
    rs_record_init(&r);
    assert_int_equal(rs_openloop_record(&ol, &r), 0);
    assert_true(isnan(rs_record_get(&r, "latency_mean")->d));
    rs_record_free(&r);
    ol.win_packets = 2;
    ol.win_flits = 100; /* 24 accepted < 99 */
    assert_int_equal(rs_openloop_saturated(&ol), 1);
    ol.win_accepted = 99;
    assert_int_equal(rs_openloop_saturated(&ol), 0);
    /* a lossy model: 60 flits delivered and 40 dropped in the window left the network as
     * fast as they came (not saturated); drops outside the window do not count, so 60 +
     * 36 < 99 is saturated */
    ol.win_accepted = 60;
    for (uint32_t i = 0; i < 10; i++)
        rs_openloop_finish(&ol, 5, 4, 15, 0); /* generated before the window, dropped in it */
    assert_int_equal(ol.win_dropped, 40);
    assert_int_equal(ol.meas_dropped, 0);
    assert_int_equal(rs_openloop_saturated(&ol), 0);
    ol.win_dropped = 36;
    rs_openloop_finish(&ol, 15, 4, 25, 0); /* measured, dropped after the window */
    assert_int_equal(ol.win_dropped, 36);
    assert_int_equal(ol.meas_dropped, 1);
    assert_int_equal(rs_openloop_saturated(&ol), 1);
    rs_openloop_stop(&ol); /* a deadlock stopped the run */
    assert_int_equal(rs_openloop_saturated(&ol), 1);
    fx_done(&f, &ol);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_arrivals),
        cmocka_unit_test(test_arrivals_per_packet),
        cmocka_unit_test(test_arrivals_calendar),
        cmocka_unit_test(test_destinations_and_lengths),
        cmocka_unit_test(test_statistics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
