/* The store-and-forward engine under open-loop injection (injection_process=bernoulli):
 * exact latency and throughput where nothing is blocked or the bottleneck is known, the
 * zero-load latency of the butterfly and the mesh within stated tolerances, accepted =
 * offered below saturation, the saturation verdict (blocking and dropping), the order of a
 * terminal's store, invariants of the slot pool over every configuration, determinism and
 * refused combinations. */
#include <math.h>

#include "engine/saf.h"
#include "rs_test.h"

#define OL "injection_process=bernoulli "

static char data_path[256];

static const char *data(const char *file)
{
    const char *dir = getenv("RS_TEST_DATA");
    assert_non_null(dir);
    int w = snprintf(data_path, sizeof data_path, "%.200s/%s", dir, file);
    assert_true(w > 0 && (size_t)w < sizeof data_path);
    return data_path;
}

/* Identity on a 64-input butterfly at 1 packet per terminal per step: every packet stays
 * on its row, alone on every channel. A packet generated at step g enters its store at the
 * end of g, crosses its first channel at g + 1 and its sixth (the last) at g + 6: latency
 * exactly 6 = log2 N. With queues of 2 the queue ahead always has room (it holds the one
 * packet that arrived in the previous step and leaves in this one), so offered = accepted =
 * 1 exactly; the run ends at the step the last measured packet (generated at 10 + 200)
 * arrives: 216. With queues of 1 that queue is full at the start of every other step (room
 * is judged at the start of the step): each channel carries a packet every second step, so
 * accepted = 0.5 exactly (a 200-step window is 100 periods) and the run is saturated, with
 * no latency. The same holds for every queue placement. */
static void test_unblocked_and_bottleneck(void **state)
{
    const char *at[] = {"input", "output", "switch"};
    for (int i = 0; i < 3; i++) {
        char kv[512];
        struct rs_record r;
        snprintf(kv, sizeof kv,
                 "topology=butterfly N=64 traffic=identity queue_at=%s queue_size=2 " OL
                 "injection_rate=1 warmup_steps=10 measure_steps=200 drain_steps=100 check=1",
                 at[i]);
        rs_test_run(kv, &r);
        assert_true(rs_test_double(&r, "offered") == 1.0);
        assert_true(rs_test_double(&r, "accepted") == 1.0);
        assert_int_equal(rs_test_int(&r, "measured_packets"), 64 * 200);
        assert_int_equal(rs_test_int(&r, "measured_delivered"), 64 * 200);
        assert_int_equal(rs_test_int(&r, "saturated"), 0);
        assert_true(rs_test_double(&r, "latency_mean") == 6.0);
        assert_true(rs_test_double(&r, "latency_p99") == 6.0);
        assert_true(rs_test_double(&r, "latency_max") == 6.0);
        assert_int_equal(rs_test_int(&r, "steps"), 216);
        assert_int_equal(rs_test_int(&r, "max_queue"), 1);
        /* packets generated at 1..210 are delivered (6 hops each); those generated at
         * 211..215 have crossed 5, 4, 3, 2, 1 channels */
        assert_int_equal(rs_test_int(&r, "hops"), 64 * (210 * 6 + 15));
        rs_record_free(&r);
        snprintf(kv, sizeof kv,
                 "topology=butterfly N=64 traffic=identity queue_at=%s queue_size=1 " OL
                 "injection_rate=1 warmup_steps=10 measure_steps=200 drain_steps=100 check=1",
                 at[i]);
        rs_test_run(kv, &r);
        assert_true(rs_test_double(&r, "accepted") == 0.5);
        assert_int_equal(rs_test_int(&r, "saturated"), 1);
        assert_true(isnan(rs_test_double(&r, "latency_mean")));
        assert_int_equal(rs_test_int(&r, "steps"), 310);
        rs_record_free(&r);
    }
}

/* In-network packets before new ones, worked by hand: a chain 0 - 1 - 2 where every
 * terminal sends to terminal 2 (tests/data/chain3_to2.txt) at 1 packet per step, unbounded
 * input queues. Packets of 2 need no channel: delivered when generated (latency 0). At step
 * 2 terminal 0 injects its first packet A1 over 0->1 and terminal 1 its first B1 over 1->2
 * (delivered: latency 1). From step 3 on, channel 1->2 carries A(g-2) every step g
 * (delivered, latency 2) and terminal 1's source, which injects only onto a channel the
 * switch left idle, never gets it again. In the window (steps 11..310) 0 and 2 deliver
 * one packet per step and 1 none: accepted = 2/3 exactly, offered 1, saturated (the
 * packets of 1 never arrive). Up to step 360: 360 + 358 + 1 deliveries, 358 x 2 + 1 + 1 hops. */
static void test_in_network_first(void **state)
{
    char kv[512];
    struct rs_record r;
    snprintf(kv, sizeof kv,
             "topology=chain k=3 traffic=file traffic_file=%s file_kind=any " OL
             "injection_rate=1 warmup_steps=10 measure_steps=300 drain_steps=50 check=1",
             data("chain3_to2.txt"));
    rs_test_run(kv, &r);
    assert_true(fabs(rs_test_double(&r, "accepted") - 2.0 / 3.0) < 1e-12);
    assert_true(rs_test_double(&r, "offered") == 1.0);
    assert_int_equal(rs_test_int(&r, "measured_packets"), 900);
    assert_int_equal(rs_test_int(&r, "measured_delivered"), 600);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_int_equal(rs_test_int(&r, "steps"), 360);
    assert_int_equal(rs_test_int(&r, "delivered"), 719);
    assert_int_equal(rs_test_int(&r, "hops"), 718);
    rs_record_free(&r);
}

/* Zero-load latency on a 256-input butterfly (n = 8) with uniform traffic at 0.01 packets
 * per terminal per step, unbounded queues: every path has exactly 8 hops, so no latency is
 * below 8, and a packet waits only when another wants its channel in the same step. At a
 * level-l switch (l = 1..7; level 0 has no in-network traffic) the other in-channel
 * carries a packet with probability rho/2 (each of the 2N channels of a level carries
 * rho/2 per step), it wants the same out-channel with probability 1/2 and wins the tie with
 * probability 1/2 (FIFO: same arrival step, lower in-slot): about rho/8 = 0.00125 steps of
 * waiting per level, 7 rho/8 = 0.00875 in all (measured: 0.012 at N = 1024, 9 levels,
 * where the estimate is 0.01125). The test allows 8 < mean < 8 + 2 x 7 rho/8 (the sd of the
 * mean of ~25600 packets is below 0.001); p99 is at most 9. */
static void test_zero_load_butterfly(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=256 traffic=uniform " OL "injection_rate=0.01 "
                "warmup_steps=200 measure_steps=10000 drain_steps=1000 seed=5",
                &r);
    double lat = rs_test_double(&r, "latency_mean");
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(lat > 8.0 && lat < 8.0 + 2 * 7 * 0.01 / 8);
    assert_true(rs_test_double(&r, "latency_p99") <= 9.0);
    rs_record_free(&r);
}

/* Zero-load latency on an 8x8 mesh (dimension order, input queues of 4) at 0.01 packets
 * per step: the mean dimension-order distance over all (source, destination) pairs is
 * 2 (k^2 - 1) / (3k) = 5.25 (a packet to its own terminal has latency 0), with a standard
 * deviation of 2.69 per packet, so the mean of ~6400 packets has sd 0.034; the test allows
 * -0.15 .. +0.2 (contention only adds). With routing=valiant the path goes through a uniform
 * intermediate: 2 x 5.25 = 10.5, sd 3.8 per packet, 0.048 for the mean: -0.2 .. +0.25. The
 * offered load is 0.01 within 5 sd of its binomial spread (sd 0.000125). */
static void test_zero_load_mesh(void **state)
{
    const char *routing[] = {"direct", "valiant"};
    const double want[] = {5.25, 10.5}, lo[] = {0.15, 0.2}, hi[] = {0.2, 0.25};
    for (int i = 0; i < 2; i++) {
        char kv[512];
        struct rs_record r;
        snprintf(kv, sizeof kv,
                 "topology=mesh k=8 traffic=uniform queue_size=4 routing=%s " OL
                 "injection_rate=0.01 warmup_steps=200 measure_steps=10000 seed=3",
                 routing[i]);
        rs_test_run(kv, &r);
        double lat = rs_test_double(&r, "latency_mean");
        assert_int_equal(rs_test_int(&r, "saturated"), 0);
        assert_true(lat > want[i] - lo[i] && lat < want[i] + hi[i]);
        assert_true(fabs(rs_test_double(&r, "offered") - 0.01) < 5 * 0.000125);
        rs_record_free(&r);
    }
}

/* Below saturation the network keeps up: an 8x8 mesh with input queues of 4 at 0.3 packets
 * per terminal per step (it saturates near 0.39, docs/openloop.md). offered is 0.3 within
 * 5 sd of its binomial spread (sd sqrt(0.3 x 0.7 / (64 x 5000)) = 0.00081) and accepted
 * equals offered within the 1% margin; the measured packets all arrive. */
static void test_accepted_equals_offered(void **state)
{
    struct rs_record r;
    rs_test_run("topology=mesh k=8 traffic=uniform queue_size=4 " OL "injection_rate=0.3 "
                "warmup_steps=500 measure_steps=5000 seed=2",
                &r);
    double off = rs_test_double(&r, "offered"), acc = rs_test_double(&r, "accepted");
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(fabs(off - 0.3) < 5 * 0.00081);
    assert_true(fabs(acc - off) < 0.01 * off);
    assert_int_equal(rs_test_int(&r, "measured_delivered"), rs_test_int(&r, "measured_packets"));
    assert_int_equal(rs_test_int(&r, "deadlock"), 0);
    rs_record_free(&r);
}

/* Past saturation: uniform traffic at 0.9 packets per step on a 64-input butterfly with
 * input queues of 1 (the queue rule caps a channel at one packet per two steps; with
 * contention the network accepts about 0.41): saturated, no latency, the run goes to the
 * end of the drain. With on_full=drop the packets that meet a full queue are lost; at 0.3
 * packets per step the losses keep up with the load (accepted + dropped = offered), so the
 * run is not saturated and reports the latency of the delivered ones, while at 0.9 the
 * sources, which never drop, fall behind: saturated. */
static void test_saturated(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=64 traffic=uniform queue_size=1 " OL "injection_rate=0.9 "
                "warmup_steps=200 measure_steps=2000 drain_steps=500",
                &r);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_true(rs_test_double(&r, "accepted") < 0.5);
    assert_true(isnan(rs_test_double(&r, "latency_mean")));
    assert_true(isnan(rs_test_double(&r, "latency_p99")));
    assert_int_equal(rs_test_int(&r, "steps"), 200 + 2000 + 500);
    rs_record_free(&r);
    rs_test_run("topology=butterfly N=64 traffic=uniform queue_size=1 on_full=drop " OL
                "injection_rate=0.3 warmup_steps=200 measure_steps=2000 drain_steps=500",
                &r);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(rs_test_int(&r, "dropped") > 0);
    assert_true(rs_test_int(&r, "measured_delivered") < rs_test_int(&r, "measured_packets"));
    assert_true(rs_test_double(&r, "latency_mean") >= 6.0);
    rs_record_free(&r);
    rs_test_run("topology=butterfly N=64 traffic=uniform queue_size=1 on_full=drop " OL
                "injection_rate=0.9 warmup_steps=200 measure_steps=2000 drain_steps=500",
                &r);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    rs_record_free(&r);
}

/* A terminal's store (rs__saf_store_insert): with FIFO its packets stay in order of entry
 * (a generated packet entered at its generation step, a Valiant packet at its arrival), so
 * a generated packet taken from the module after older ones arrived goes in front of
 * younger ones and behind equal ones; with the other protocols it goes to the tail (they
 * choose by other keys). Entries 5, 3, 5, 4, 9 give the order 3 4 5 5 9 (slots 1 3 0 2 4),
 * and in arrival order with protocol=random. */
static void test_store_order(void **state)
{
    struct saf s;
    struct saf_pkt pkt[5];
    struct saf_queue q = {0, 0, 0};
    const uint32_t entered[5] = {5, 3, 5, 4, 9}, fifo[5] = {1, 3, 0, 2, 4};
    for (int proto = 0; proto < 2; proto++) {
        memset(&s, 0, sizeof s);
        memset(pkt, 0, sizeof pkt);
        q.count = 0;
        s.pkt = pkt;
        s.src = &q;
        s.proto = proto ? SAF_RANDOM : SAF_FIFO;
        for (uint32_t m = 0; m < 5; m++) {
            pkt[m].entered = entered[m];
            rs__saf_store_insert(&s, 0, m);
        }
        assert_int_equal(q.count, 5);
        uint32_t m = q.head;
        for (uint32_t i = 0; i < 5; i++, m = pkt[m].next)
            assert_int_equal(m, proto ? i : fifo[i]);
        assert_int_equal(m, RS_NONE);
        assert_int_equal(q.tail, proto ? 4 : 4);
    }
}

/* The invariant checker (slot pool, stores, queues) after every step of every queue
 * placement x protocol x full-queue policy, direct and Valiant, on a wrapped butterfly and
 * a mesh; runs with switch queues on the mesh may deadlock (a cycle of full switch queues),
 * which is reported, stops the run and makes it saturated. */
static void test_invariants(void **state)
{
    const char *topo[] = {"topology=butterfly N=16 wrap=1", "topology=mesh k=4"};
    const char *at[] = {"input", "output", "switch"};
    const char *proto[] = {"fifo", "random", "priority", "furthest_first", "rank"};
    const char *full[] = {"block", "drop"};
    const char *routing[] = {"direct", "valiant"};
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 3; b++)
            for (int c = 0; c < 5; c++)
                for (int d = 0; d < 2; d++)
                    for (int e = 0; e < 2; e++) {
                        char kv[512], msg[1024];
                        struct rs_record r;
                        snprintf(kv, sizeof kv,
                                 "%s queue_at=%s protocol=%s on_full=%s routing=%s "
                                 "queue_size=2 " OL "injection_rate=0.4 warmup_steps=20 "
                                 "measure_steps=150 drain_steps=100 check=1 seed=%d",
                                 topo[a], at[b], proto[c], full[d], routing[e], c + 1);
                        int rc = rs_test_try(kv, 1, &r, msg, sizeof msg);
                        if (rc) {
                            print_error("%s: %s\n", kv, msg);
                            fail();
                        }
                        int dl = (int)rs_test_int(&r, "deadlock");
                        assert_true(dl == 0 || (a == 1 && b == 2 && d == 0));
                        if (dl)
                            assert_int_equal(rs_test_int(&r, "saturated"), 1);
                        assert_true(rs_test_int(&r, "hops") > 0);
                        rs_record_free(&r);
                    }
}

/* Same seed, same bytes (for every protocol: their ties use the packets' identities, not
 * their slots); another seed, another result; open-loop records carry no static message
 * metrics (messages, makespan, congestion). */
static void test_determinism(void **state)
{
    const char *proto[] = {"fifo", "random", "furthest_first", "rank"};
    for (int i = 0; i < 4; i++) {
        char a_kv[512], c_kv[512];
        struct rs_buf a, b, c;
        const char *kv = "topology=mesh k=4 queue_size=2 protocol=%s routing=valiant " OL
                         "injection_rate=0.2 warmup_steps=100 measure_steps=1000 seed=%d";
        snprintf(a_kv, sizeof a_kv, kv, proto[i], 8);
        snprintf(c_kv, sizeof c_kv, kv, proto[i], 9);
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
    struct rs_record r;
    rs_test_run("topology=mesh k=4 " OL "measure_steps=100", &r);
    assert_null(rs_record_get(&r, "congestion"));
    assert_null(rs_record_get(&r, "makespan"));
    assert_null(rs_record_get(&r, "messages"));
    assert_non_null(rs_record_get(&r, "injection_rate"));
    rs_record_free(&r);
    rs_test_run("topology=mesh k=4", &r); /* a batch run has no open-loop columns */
    assert_null(rs_record_get(&r, "injection_process"));
    assert_null(rs_record_get(&r, "injection_rate"));
    rs_record_free(&r);
}

/* Combinations that have no meaning are refused with one line naming the key. */
static void test_refused(void **state)
{
    struct rs_record r;
    char msg[1024];
    assert_int_equal(rs_test_try("topology=mesh k=4 " OL "length_max=2", 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "length_max=2: a store-and-forward packet has no length"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=benes N=8 routing=ranade " OL, 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "routing=ranade"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4 warmup_steps=10", 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "warmup_steps= is a key of open-loop injection: it needs "
                                "injection_process=bernoulli"));
    rs_record_free(&r);
    /* a packet is one unit: counting the rate in flits changes nothing */
    struct rs_record a, b;
    rs_test_run("topology=mesh k=4 " OL "injection_rate=0.2 measure_steps=500", &a);
    rs_test_run("topology=mesh k=4 " OL "injection_rate=0.2 injection_rate_uses_flits=1 "
                "measure_steps=500 length_max=1",
                &b);
    assert_true(rs_test_double(&a, "offered") == rs_test_double(&b, "offered"));
    assert_true(rs_test_double(&a, "latency_mean") == rs_test_double(&b, "latency_mean"));
    rs_record_free(&a);
    rs_record_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unblocked_and_bottleneck),
        cmocka_unit_test(test_in_network_first),
        cmocka_unit_test(test_zero_load_butterfly),
        cmocka_unit_test(test_zero_load_mesh),
        cmocka_unit_test(test_accepted_equals_offered),
        cmocka_unit_test(test_saturated),
        cmocka_unit_test(test_store_order),
        cmocka_unit_test(test_invariants),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
