/* The circuit engine under open-loop injection (injection_process=bernoulli, one network
 * cycle per step): exact latency and throughput where no circuits meet or the bottleneck is
 * known (retrying and dropping), the zero-load latency of the butterfly within a stated
 * bound, accepted = offered below saturation, saturation, one pass at full load against
 * Koch's recurrence, order independence (requests shuffled), the invariant checker over
 * every mode, determinism and refused combinations. */
#include <math.h>

#include "engine/circuit.h"
#include "rs_test.h"

#define OL "switching=circuit injection_process=bernoulli "

static char data_path[256];

static const char *data(const char *file)
{
    const char *dir = getenv("RS_TEST_DATA");
    assert_non_null(dir);
    int w = snprintf(data_path, sizeof data_path, "%.200s/%s", dir, file);
    assert_true(w > 0 && (size_t)w < sizeof data_path);
    return data_path;
}

/* Identity on a 64-input butterfly at 1 packet per terminal per cycle: every circuit is its
 * row's straight path, alone on every channel. A packet generated in cycle g tries in cycle
 * g + 1 and locks its 6 channels: latency exactly 1 cycle, offered = accepted = 1 message
 * per terminal per cycle, no conflict; the last measured packet (generated at 210) is
 * routed in cycle 211. Packets generated at 1..210 are routed by then: 6 locks each. */
static void test_unblocked(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=64 traffic=identity " OL "injection_rate=1 "
                "warmup_steps=10 measure_steps=200 drain_steps=100 check=1",
                &r);
    assert_true(rs_test_double(&r, "offered") == 1.0);
    assert_true(rs_test_double(&r, "accepted") == 1.0);
    assert_int_equal(rs_test_int(&r, "measured_delivered"), 64 * 200);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(rs_test_double(&r, "latency_mean") == 1.0);
    assert_true(rs_test_double(&r, "latency_max") == 1.0);
    assert_int_equal(rs_test_int(&r, "cycles"), 211);
    assert_int_equal(rs_test_int(&r, "conflicts"), 0);
    assert_int_equal(rs_test_int(&r, "locks"), 64 * 210 * 6);
    assert_int_equal(rs_test_int(&r, "max_circuits"), 1);
    rs_record_free(&r);
}

/* One shared channel, worked by hand: a chain 0 - 1 - 2 where every terminal sends to 2
 * (tests/data/chain3_to2.txt) at 1 packet per cycle, circuits=1. Packets of 2 need no
 * channel: routed in the cycle after their generation. Those of 0 (path 0->1->2) and 1
 * (path 1->2) all need channel 1->2, which carries one circuit per cycle. Windows: node 0
 * and node 2 have one out-channel (W = 1), node 1 two (W = 2).
 * passes=1: from cycle 2 on, the packets generated in the previous cycle at 0 and 1 meet on
 * 1->2; one is routed (latency 1), the other dropped. Window (cycles 11..310): 900 packets
 * generated, 600 delivered and 300 dropped in it: accepted = 2/3 exactly, and as many left
 * the network as entered, so the run is not saturated; every latency is 1. The run ends in
 * cycle 311; 310 cycles x (2 routed, 1 dropped); 0's packet locks 0->1 even when it loses
 * (what a losing circuit won stays locked), so 2 locks per cycle.
 * passes=0: the losers retry; 1->2 still carries one circuit per cycle, accepted = 2/3
 * exactly, but the backlog grows: saturated, no latency; 359 cycles with 2 routed. */
static void test_shared_channel(void **state)
{
    char kv[512];
    struct rs_record r;
    snprintf(kv, sizeof kv,
             "topology=chain k=3 traffic=file traffic_file=%s file_kind=any " OL
             "injection_rate=1 warmup_steps=10 measure_steps=300 drain_steps=50 check=1 "
             "passes=1",
             data("chain3_to2.txt"));
    rs_test_run(kv, &r);
    assert_true(fabs(rs_test_double(&r, "accepted") - 2.0 / 3.0) < 1e-12);
    assert_int_equal(rs_test_int(&r, "measured_packets"), 900);
    assert_int_equal(rs_test_int(&r, "measured_delivered"), 600);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(rs_test_double(&r, "latency_mean") == 1.0);
    assert_true(rs_test_double(&r, "latency_max") == 1.0);
    assert_int_equal(rs_test_int(&r, "cycles"), 311);
    assert_int_equal(rs_test_int(&r, "delivered"), 620);
    assert_int_equal(rs_test_int(&r, "dropped"), 310);
    assert_int_equal(rs_test_int(&r, "locks"), 620);
    rs_record_free(&r);
    kv[strlen(kv) - strlen("passes=1")] = '\0';
    rs_test_run(kv, &r);
    assert_true(fabs(rs_test_double(&r, "accepted") - 2.0 / 3.0) < 1e-12);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_true(isnan(rs_test_double(&r, "latency_mean")));
    assert_int_equal(rs_test_int(&r, "cycles"), 360);
    assert_int_equal(rs_test_int(&r, "delivered"), 718);
    assert_int_equal(rs_test_int(&r, "dropped"), 0);
    rs_record_free(&r);
}

/* Zero load on a 64-input butterfly (n = 6) at 0.01 messages per terminal per cycle: a
 * circuit takes 1 cycle unless another circuit of the same cycle wants one of its
 * channels. Its level-l channel (l = 1..5; at level 0 only its own terminal's packets)
 * lies on the paths of 2^l sources, each sending there with probability 2^-(l+1) per
 * message, so the expected number of other circuits on it is (2^l - 1) rho / 2^(l+1), and
 * by the union bound a try fails with probability at most sum_l (rho/2)(1 - 2^-l) =
 * 2.02 rho = 0.0202 (half of that if the two were equally likely to win). Retries are
 * geometric, so the mean latency is at most 1 + 0.0202 / (1 - 0.0202) = 1.0206; it is above
 * 1 (conflicts happen: ~6300 packets, ~40 fail), and p99 is 1. */
static void test_zero_load(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=64 traffic=uniform " OL "injection_rate=0.01 "
                "warmup_steps=200 measure_steps=10000 seed=3",
                &r);
    double lat = rs_test_double(&r, "latency_mean");
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(lat > 1.0 && lat < 1.0206);
    assert_true(rs_test_double(&r, "latency_p99") == 1.0);
    rs_record_free(&r);
}

/* Below saturation the network keeps up (accepted = offered within the 1% margin, every
 * measured packet routed), on an LCAN(64,4,4) and a 64-input butterfly at 0.3 messages per
 * terminal per cycle (the butterfly accepts about 0.66 at 0.9); offered is 0.3 within 5 sd
 * of its binomial spread (sd sqrt(0.3 x 0.7 / (64 x 2000)) = 0.00128). Past saturation (0.9,
 * passes=0) the butterfly's backlog grows: saturated, no latency, the run lasts its three
 * phases. With passes=2 a packet is routed within 2 cycles or dropped: latency_max <= 2,
 * and the losses keep up with the load (not saturated). */
static void test_saturation(void **state)
{
    const char *topo[] = {"topology=lcan N=64 d=4 u=4", "topology=butterfly N=64"};
    for (int i = 0; i < 2; i++) {
        char kv[512];
        struct rs_record r;
        snprintf(kv, sizeof kv,
                 "%s traffic=uniform " OL "injection_rate=0.3 warmup_steps=200 "
                 "measure_steps=2000 drain_steps=500 seed=4",
                 topo[i]);
        rs_test_run(kv, &r);
        double off = rs_test_double(&r, "offered"), acc = rs_test_double(&r, "accepted");
        assert_int_equal(rs_test_int(&r, "saturated"), 0);
        assert_true(fabs(off - 0.3) < 5 * 0.00128);
        assert_true(fabs(acc - off) < 0.01 * off);
        assert_int_equal(rs_test_int(&r, "measured_delivered"),
                         rs_test_int(&r, "measured_packets"));
        rs_record_free(&r);
    }
    struct rs_record r;
    rs_test_run("topology=butterfly N=64 traffic=uniform " OL "injection_rate=0.9 "
                "warmup_steps=200 measure_steps=2000 drain_steps=500 seed=4",
                &r);
    assert_int_equal(rs_test_int(&r, "saturated"), 1);
    assert_true(rs_test_double(&r, "accepted") < 0.8);
    assert_true(isnan(rs_test_double(&r, "latency_mean")));
    assert_int_equal(rs_test_int(&r, "cycles"), 200 + 2000 + 500);
    rs_record_free(&r);
    rs_test_run("topology=butterfly N=64 traffic=uniform " OL "injection_rate=0.9 passes=2 "
                "warmup_steps=200 measure_steps=2000 drain_steps=500 seed=4",
                &r);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(rs_test_int(&r, "dropped") > 0);
    assert_true(rs_test_double(&r, "latency_max") <= 2.0);
    assert_true(rs_test_double(&r, "latency_mean") > 1.0);
    rs_record_free(&r);
}

/* At 1 message per terminal per cycle with passes=1 every cycle is a fresh one-pass problem
 * with uniform destinations (each terminal has exactly one new packet, tries it once, and
 * its window is empty again): Koch's problem of 004 §5, whose expected delivered fraction
 * follows the level recurrence of test_circuit.c (q_0 = 1/2 per level-0 edge, q <- 1 -
 * (1 - q/2)^2 per level, fraction 2 q_{n-1}): 0.590094 for N = 64. The cycles are
 * independent; one cycle's fraction has sd 0.0472 (400 batch runs), so the mean of 2000 has
 * sd 0.00106 and the test allows 4 sd. Every delivered circuit has latency 1. */
static void test_one_pass_is_koch(void **state)
{
    struct rs_record r;
    double q = 0.5;
    for (int l = 1; l < 6; l++)
        q = 1 - (1 - q / 2) * (1 - q / 2);
    rs_test_run("topology=butterfly N=64 traffic=uniform " OL "passes=1 injection_rate=1 "
                "warmup_steps=10 measure_steps=2000 drain_steps=10 seed=7",
                &r);
    assert_true(fabs(2 * q - 0.590094) < 1e-6);
    assert_true(fabs(rs_test_double(&r, "accepted") - 2 * q) < 4 * 0.00106);
    assert_int_equal(rs_test_int(&r, "saturated"), 0);
    assert_true(rs_test_double(&r, "latency_max") == 1.0);
    rs_record_free(&r);
}

/* A run through the internal entry point, with a request shuffle. */
static void run_open(const char *kv, const struct rs_routing_ops *routing, uint64_t shuffle,
                     struct rs_record *rec)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_problem pb;
    struct rs_err err;
    struct rs_openloop_cfg cfg;
    rs_test_params(&p, kv);
    rs_test_net(&net, kv);
    assert_int_equal(rs_problem_build(&pb, &net, &p, 1, &err), 0);
    assert_int_equal(rs_openloop_config(&cfg, &p, 1, &err), 0);
    struct rs_engine_input in = {.net = &net, .pb = &pb, .params = &p, .routing = routing,
                                 .seed = 5, .check = 1};
    rs_record_init(rec);
    if (cfg.process != RS_INJECT_BERNOULLI || rs__circuit_run(&in, NULL, shuffle, rec, &err)) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
    rs_problem_free(&pb);
    rs_net_free(&net);
    rs_params_free(&p);
}

/* Every stage's requests shuffled (a different shuffle per stage and cycle): identical
 * records, field by field (NaN equal to NaN), in every mode and policy, with the checker
 * on; runs at and past saturation so that windows are full and retries meet. */
static void test_order_independence(void **state)
{
    const char *cases[] = {
        "topology=lcan N=64 d=4 u=2 down=lower_lca_first",
        "topology=lcan N=32 d=4 u=2 pi=tree circuits=2 up=random_per_permutation",
        "topology=cm5 N=64 down=rank passes=3",
        "topology=butterfly N=32 circuits=2",
        "topology=mesh k=4 down=rank",
        "topology=torus k=4 passes=2",
        NULL};
    for (int i = 0; cases[i]; i++) {
        char kv[512];
        struct rs_record a, b;
        snprintf(kv, sizeof kv,
                 "%s traffic=uniform injection_process=bernoulli injection_rate=0.6 "
                 "warmup_steps=20 measure_steps=200 drain_steps=50",
                 cases[i]);
        run_open(kv, RS_ROUTING_DIRECT, 0, &a);
        for (uint64_t sh = 1; sh <= 2; sh++) {
            run_open(kv, RS_ROUTING_DIRECT, sh, &b);
            assert_int_equal(a.n, b.n);
            for (size_t k = 0; k < a.n; k++) {
                const struct rs_field *x = &a.f[k], *y = &b.f[k];
                int same = x->type == y->type && x->i == y->i &&
                           (x->type != RS_VAL_DOUBLE || x->d == y->d ||
                            (isnan(x->d) && isnan(y->d)));
                if (!same) {
                    print_error("%s: field %s differs\n", kv, x->name);
                    fail();
                }
            }
            rs_record_free(&b);
        }
        rs_record_free(&a);
    }
}

/* The invariant checker after every cycle (capacities, connected circuits, windows in
 * order and within their passes, the module's counts) in every mode: LCANs with each up and
 * down policy, T-LCANs, the staged butterfly and Beneš (Valiant), the wrapped butterfly
 * (Valiant), meshes, tori and rings, with retries and with drops. */
static void test_invariants(void **state)
{
    const char *cases[] = {
        "topology=lcan N=64 d=4 u=4 up=fixed down=higher_lca_first",
        "topology=lcan N=64 d=4 u=2 up=random_per_cycle down=rank ranks=3",
        "topology=lcan N=32 d=4 u=2 pi=tree",
        "topology=baseline N=16 circuits=2",
        "topology=butterfly N=32",
        "topology=benes N=16 routing=valiant down=rank",
        "topology=butterfly N=16 wrap=1 routing=valiant circuits=2",
        "topology=mesh k=4 routing=valiant",
        "topology=torus k=3 n=3",
        "topology=ring k=7",
        NULL};
    for (int i = 0; cases[i]; i++)
        for (int passes = 0; passes <= 2; passes += 2) {
            char kv[512], msg[1024];
            struct rs_record r;
            snprintf(kv, sizeof kv,
                     "%s traffic=uniform " OL "passes=%d injection_rate=0.4 warmup_steps=20 "
                     "measure_steps=200 drain_steps=100 check=1",
                     cases[i], passes);
            if (rs_test_try(kv, 1, &r, msg, sizeof msg)) {
                print_error("%s: %s\n", kv, msg);
                fail();
            }
            assert_true(rs_test_int(&r, "measured_packets") > 0);
            assert_true(passes || rs_test_int(&r, "dropped") == 0);
            rs_record_free(&r);
        }
}

/* Same seed, same bytes; another seed, another result; no static metrics. */
static void test_determinism(void **state)
{
    const char *kv = "topology=lcan N=64 d=4 u=4 " OL "injection_rate=0.3 warmup_steps=50 "
                     "measure_steps=500 seed=%d";
    char a_kv[512], c_kv[512];
    struct rs_buf a, b, c;
    struct rs_err err;
    struct rs_record r;
    snprintf(a_kv, sizeof a_kv, kv, 8);
    snprintf(c_kv, sizeof c_kv, kv, 9);
    struct rs_buf *bufs[3] = {&a, &b, &c};
    const char *kvs[3] = {a_kv, a_kv, c_kv};
    for (int i = 0; i < 3; i++) {
        rs_test_run(kvs[i], &r);
        rs_buf_init(bufs[i]);
        assert_int_equal(rs_records_write(bufs[i], RS_FMT_CSV, &r, 1, &err), 0);
        rs_record_free(&r);
    }
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    assert_true(a.len != c.len || memcmp(a.data, c.data, a.len) != 0);
    rs_buf_free(&a);
    rs_buf_free(&b);
    rs_buf_free(&c);
    rs_test_run(a_kv, &r);
    assert_null(rs_record_get(&r, "messages"));
    assert_null(rs_record_get(&r, "delivered_per_cycle"));
    assert_null(rs_record_get(&r, "congestion"));
    rs_record_free(&r);
}

/* Combinations without meaning: one line naming what is wrong. */
static void test_refused(void **state)
{
    struct rs_record r;
    char msg[1024];
    assert_int_equal(rs_test_try("topology=butterfly N=8 " OL "length_max=3", 1, &r, msg,
                                 sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "length_max=3: a circuit carries one message per cycle"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=benes N=8 routing=ranade " OL, 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "routing=ranade"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=lcan N=16 routing=valiant " OL, 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=butterfly N=8 switching=circuit passes=2 "
                                 "drain_steps=5",
                                 1, &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(msg, "drain_steps= is a key of open-loop injection"));
    rs_record_free(&r);
    /* a plan is for a static message set */
    struct rs_params p;
    struct rs_net net;
    struct rs_problem pb;
    struct rs_err err;
    struct rs_engine_plan plan = {0};
    rs_test_params(&p, "topology=lcan N=16 injection_process=bernoulli");
    rs_test_net(&net, "topology=lcan N=16");
    assert_int_equal(rs_problem_build(&pb, &net, &p, 1, &err), 0);
    struct rs_engine_input in = {.net = &net, .pb = &pb, .params = &p,
                                 .routing = RS_ROUTING_DIRECT, .seed = 1, .check = 0};
    rs_record_init(&r);
    assert_int_equal(rs__circuit_run(&in, &plan, 0, &r, &err), RS_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "needs injection_process=batch"));
    rs_record_free(&r);
    rs_problem_free(&pb);
    rs_net_free(&net);
    rs_params_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unblocked),
        cmocka_unit_test(test_shared_channel),
        cmocka_unit_test(test_zero_load),
        cmocka_unit_test(test_saturation),
        cmocka_unit_test(test_one_pass_is_koch),
        cmocka_unit_test(test_order_independence),
        cmocka_unit_test(test_invariants),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
