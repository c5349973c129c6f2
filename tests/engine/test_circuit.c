/* Circuit-switching engine: hand-worked network cycles on tiny LCANs (working in the
 * comments), the up concentrator, T-LCAN bundles, injection contention, order independence
 * (requests shuffled and visited backwards give the same record), determinism, the
 * one-pass butterfly against exact values (exhaustive over destinations for N = 4, the
 * exact level recurrence for larger N), Ranade's first stage, plans, option errors, the
 * invariant checker and the path check of runs over MPI ranks. */
#include "rs_test.h"

#include <math.h>

#include "engine/circuit.h"
#include "routesim/engine.h"
#include "routesim/problem.h"
#include "routesim/rng.h"
#include "routesim/route.h"

/* ---- helpers ----------------------------------------------------------------------- */

/* A run through the library's internals: net, problem and params from kv
 * (rs_test_fx_open), then the circuit engine with plan and shuffle. */
static int fx_run(struct rs_test_fixture *f, uint64_t seed, const struct rs_engine_plan *plan,
                  uint64_t shuffle, int check, struct rs_record *rec, struct rs_err *err)
{
    struct rs_engine_input in = {.net = &f->net, .pb = &f->pb, .params = &f->p,
                                 .routing = RS_ROUTING_DIRECT, .seed = seed, .check = check};
    rs_record_init(rec);
    rs_err_clear(err);
    return rs__circuit_run(&in, plan, shuffle, rec, err);
}

static const char *text(const struct rs_record *r, const char *name)
{
    const struct rs_field *f = rs_record_get(r, name);
    assert_non_null(f);
    assert_int_equal(f->type, RS_VAL_STRING);
    return f->s;
}

static char data_path[256];

static const char *data(const char *file)
{
    const char *dir = getenv("RS_TEST_DATA");
    assert_non_null(dir);
    int w = snprintf(data_path, sizeof data_path, "%.200s/%s", dir, file);
    assert_true(w > 0 && (size_t)w < sizeof data_path);
    return data_path;
}

/* ---- hand-worked cycles ------------------------------------------------------------ */

/* Baseline network N = 8 (CB-LCAN(8,2,2), levels 0..2), up=fixed, the permutation of
 * tests/data/circuit_baseline8.txt: 0->2, 1->1, 2->0, 3->4, 4->3, 5->5, 6->6, 7->7.
 * PE p = p2 p1 p0; level-0 switch "p2 p1"; with up=fixed and d = u = 2 a message takes the
 * upper equal to the downer it arrived on (one request per downer, preferred upper
 * j mod 2 = j), so from PE p it reaches level-1 switch (p2, k0 = p0) and level-2 switch
 * (k0 = p0, k1 = p1); going down, the level-i switch takes downer t_i of the destination.
 *   1, 5, 6, 7 go to themselves: no channel, delivered in cycle 1.
 *   A = 0 (000) -> 2 (010), LCA level 1: up L0:00 -> L1:(0,0), down its downer 1 -> L0:01
 *       -> PE 2. 4 channels.
 *   B = 4 (100) -> 3 (011), LCA level 2: up L0:10 -> L1:(1,0) -> L2:(0,0), down downer 0 ->
 *       L1:(0,0), down downer 1 -> L0:01 -> PE 3. 6 channels.
 *   C = 2 (010) -> 0 (000), LCA 1: up L0:01 upper 0 -> L1:(0,0), down downer 0 -> L0:00.
 *   D = 3 (011) -> 4 (100), LCA 2: up L0:01 upper 1 -> L1:(0,1) -> L2:(1,1), down downer 1
 *       -> L1:(1,1), downer 0 -> L0:10 -> PE 4. 6 channels.
 * A and B both need downer 1 of L1:(0,0) in the down phase of level 1; nothing else meets.
 *   lower_lca_first: A (LCA 1) wins; B fails after locking 4 channels (PE link, two uppers,
 *     the top's downer). Cycle 1 routes 1,5,6,7,A,C,D = 7 and locks 4+4+6+4 = 18; cycle 2
 *     routes B (6 locks): cycles 2, "7;1", locks 24, conflicts 1.
 *   higher_lca_first: B wins, A fails after 2 locks: cycle 1 locks 6+4+6+2 = 18, cycle 2
 *     routes A (4): locks 22.
 *   random: one of the two, by the draw. */
static void test_hand_worked_baseline8(void **state)
{
    char kv[1024];
    struct rs_record r;
    const char *policy[] = {"lower_lca_first", "higher_lca_first"};
    const int locks[] = {24, 22};
    for (int i = 0; i < 2; i++) {
        snprintf(kv, sizeof kv,
                 "topology=baseline N=8 traffic=file traffic_file=%s switching=circuit up=fixed "
                 "down=%s check=1",
                 data("circuit_baseline8.txt"), policy[i]);
        rs_test_run(kv, &r);
        assert_int_equal(rs_test_int(&r, "cycles"), 2);
        assert_string_equal(text(&r, "delivered_per_cycle"), "7;1");
        assert_int_equal(rs_test_int(&r, "delivered_first_cycle"), 7);
        assert_int_equal(rs_test_int(&r, "locks"), locks[i]);
        assert_int_equal(rs_test_int(&r, "conflicts"), 1);
        assert_int_equal(rs_test_int(&r, "max_circuits"), 1);
        assert_int_equal(rs_test_int(&r, "delivered"), 8);
        /* latency = the routing cycle minus the release (0): seven 1s and one 2 */
        assert_int_equal(rs_test_int(&r, "makespan"), 2);
        assert_true(rs_test_double(&r, "latency_mean") == 9.0 / 8);
        assert_true(rs_test_double(&r, "latency_p99") == 2.0);
        assert_true(rs_test_double(&r, "latency_max") == 2.0);
        rs_record_free(&r);
    }
    /* passes=1 drops the loser */
    snprintf(kv, sizeof kv,
             "topology=baseline N=8 traffic=file traffic_file=%s switching=circuit up=fixed "
             "down=lower_lca_first passes=1 check=1",
             data("circuit_baseline8.txt"));
    rs_test_run(kv, &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 7);
    assert_int_equal(rs_test_int(&r, "dropped"), 1);
    assert_true(rs_test_double(&r, "delivered_fraction") == 7.0 / 8.0);
    assert_int_equal(rs_test_int(&r, "cycles"), 1);
    assert_int_equal(rs_test_int(&r, "makespan"), 1); /* the drop, after cycle 1 */
    assert_true(rs_test_double(&r, "latency_mean") == 1.0); /* of the 7 delivered */
    assert_true(rs_test_double(&r, "latency_max") == 1.0);
    rs_record_free(&r);
    /* down=random: both outcomes occur over seeds 1..40 */
    int seen[2] = {0, 0};
    for (int seed = 1; seed <= 40; seed++) {
        snprintf(kv, sizeof kv,
                 "topology=baseline N=8 traffic=file traffic_file=%s switching=circuit up=fixed "
                 "check=1 seed=%d",
                 data("circuit_baseline8.txt"), seed);
        rs_test_run(kv, &r);
        int64_t l = rs_test_int(&r, "locks");
        assert_true(l == 24 || l == 22);
        seen[l == 22]++;
        rs_record_free(&r);
    }
    assert_true(seen[0] > 5 && seen[1] > 5);
}

/* The up concentrator with d > u: CB-LCAN(16,4,2) (levels 0, 1; 4 level-0 switches of 4
 * PEs, 2 top switches), bitcomp s -> 15 - s: PE 4a+b goes to 4(3-a)+(3-b), LCA level 1 for
 * every pair. up=fixed serves a switch's requests in downer order, preferred upper
 * j mod 2: cycle 1, downer 0 -> upper 0, downer 1 -> upper 1, downers 2 and 3 find both
 * uppers full and fail at level 0 (after locking their PE link). Top switch k receives
 * PE 4a+k from every a, at downer a; they go down by digit 3-a, all different, then to
 * distinct PEs: 8 routed. Cycle 2: downers 2, 3 are alone and take uppers 0, 1: 8 more.
 * cycles 2, "8;8", 8 conflicts, locks 8*4 + 8*1 + 8*4 = 72. */
static void test_up_concentrator(void **state)
{
    struct rs_record r;
    rs_test_run("topology=lcan N=16 d=4 u=2 traffic=bitcomp switching=circuit up=fixed check=1",
                &r);
    assert_int_equal(rs_test_int(&r, "cycles"), 2);
    assert_string_equal(text(&r, "delivered_per_cycle"), "8;8");
    assert_int_equal(rs_test_int(&r, "conflicts"), 8);
    assert_int_equal(rs_test_int(&r, "locks"), 72);
    rs_record_free(&r);
    /* whatever the up policy, a level-0 switch sends at most u = 2 up per cycle: the top
     * level passes at most 8 per cycle, so every root permutation takes 2 cycles or more */
    const char *up[] = {"random_per_cycle", "random_per_permutation", "fixed"};
    for (int i = 0; i < 3; i++)
        for (int seed = 1; seed <= 5; seed++) {
            char kv[256];
            snprintf(kv, sizeof kv,
                     "topology=lcan N=16 d=4 u=2 traffic=root switching=circuit up=%s seed=%d "
                     "check=1",
                     up[i], seed);
            rs_test_run(kv, &r);
            assert_true(rs_test_int(&r, "cycles") >= 2);
            assert_true(rs_test_int(&r, "delivered_first_cycle") <= 8);
            rs_record_free(&r);
        }
}

/* T-LCAN(16,4,2): a 2-ary tree of 3 levels; the root has 4 downers, 2 wires to each of
 * its 2 children. A root permutation sends 8 messages each way. Per cycle each level-1
 * switch passes 2 up (its 2 uppers: 4 requests from its 2 children, 2 each, fail 2); the
 * root sends the 2 from one child down the 2-wire bundle to the other; there they need at
 * most 2 wires of a bundle, then distinct PEs. Exactly 4 per cycle: "4;4;4;4" for any root
 * permutation and up policy. */
static void test_tlcan_bundles(void **state)
{
    const char *up[] = {"random_per_cycle", "random_per_permutation", "fixed"};
    for (int i = 0; i < 3; i++)
        for (int seed = 1; seed <= 4; seed++) {
            char kv[256];
            struct rs_record r;
            snprintf(kv, sizeof kv,
                     "topology=lcan N=16 d=4 u=2 pi=tree traffic=root switching=circuit up=%s "
                     "seed=%d check=1",
                     up[i], seed);
            rs_test_run(kv, &r);
            assert_string_equal(text(&r, "delivered_per_cycle"), "4;4;4;4");
            rs_record_free(&r);
        }
}

/* Injection: one switch with 2 PEs (baseline N=2), per_input=2, PE0 -> 1 twice and
 * PE1 -> 0 twice (tests/data/circuit_two.txt). circuits=1: each PE link carries one
 * circuit per cycle, so 2 per cycle: "2;2". circuits=2: all 4 in one cycle, 2 per link. */
static void test_injection(void **state)
{
    char kv[512];
    struct rs_record r;
    snprintf(kv, sizeof kv,
             "topology=baseline N=2 traffic=file traffic_file=%s file_kind=any per_input=2 "
             "switching=circuit check=1",
             data("circuit_two.txt"));
    rs_test_run(kv, &r);
    assert_string_equal(text(&r, "delivered_per_cycle"), "2;2");
    assert_int_equal(rs_test_int(&r, "conflicts"), 2);
    rs_record_free(&r);
    strcat(kv, " circuits=2");
    rs_test_run(kv, &r);
    assert_string_equal(text(&r, "delivered_per_cycle"), "4");
    assert_int_equal(rs_test_int(&r, "max_circuits"), 2);
    rs_record_free(&r);
}

/* ---- order independence and determinism --------------------------------------------- */

static void same_records(const struct rs_record *a, const struct rs_record *b, const char *kv)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        assert_string_equal(a->f[i].name, b->f[i].name);
        int same = a->f[i].type == b->f[i].type && a->f[i].i == b->f[i].i &&
                   (a->f[i].type != RS_VAL_DOUBLE || a->f[i].d == b->f[i].d) &&
                   (a->f[i].type != RS_VAL_STRING || !strcmp(a->f[i].s, b->f[i].s));
        if (!same) {
            print_error("%s: field %s differs\n", kv, a->f[i].name);
            fail();
        }
    }
}

/* Every request list shuffled (a different shuffle per stage and cycle) and every
 * resource visited in reverse order: the records are identical, field by field. */
static void test_order_independence(void **state)
{
    const char *cases[] = {
        "topology=lcan N=64 d=4 u=4 traffic=randperm switching=circuit",
        "topology=lcan N=64 d=4 u=2 traffic=root switching=circuit down=lower_lca_first",
        "topology=lcan N=64 d=4 u=2 traffic=uniform per_input=3 circuits=2 switching=circuit "
        "down=higher_lca_first up=random_per_permutation",
        "topology=cm5 N=256 traffic=bpc switching=circuit down=rank",
        "topology=lcan N=32 d=4 u=2 pi=tree traffic=uniform per_input=2 switching=circuit",
        "topology=butterfly N=64 traffic=uniform switching=circuit passes=1 circuits=2",
        "topology=benes N=32 traffic=bitrev switching=circuit routing=ranade down=rank",
        "topology=mesh k=5 n=2 traffic=uniform per_input=2 switching=circuit",
        "topology=torus k=4 n=2 traffic=randperm switching=circuit down=rank",
        NULL};
    for (int i = 0; cases[i]; i++) {
        struct rs_test_fixture f;
        struct rs_record a, b;
        struct rs_err err;
        rs_test_fx_open(&f, cases[i], 1);
        assert_int_equal(fx_run(&f, 11, NULL, 0, 1, &a, &err), 0);
        for (uint64_t sh = 1; sh <= 3; sh++) {
            if (fx_run(&f, 11, NULL, sh, 1, &b, &err)) {
                print_error("%s: %s\n", cases[i], err.msg);
                fail();
            }
            same_records(&a, &b, cases[i]);
            rs_record_free(&b);
        }
        rs_record_free(&a);
        rs_test_fx_close(&f);
    }
}

/* Same seed, same record; another seed, another one (random policies). */
static void test_determinism(void **state)
{
    struct rs_record a, b, c;
    rs_test_run("topology=lcan N=256 d=4 u=4 traffic=randperm switching=circuit seed=3", &a);
    rs_test_run("topology=lcan N=256 d=4 u=4 traffic=randperm switching=circuit seed=3", &b);
    rs_test_run("topology=lcan N=256 d=4 u=4 traffic=randperm switching=circuit seed=4", &c);
    same_records(&a, &b, "seed 3");
    assert_true(strcmp(text(&a, "delivered_per_cycle"), text(&c, "delivered_per_cycle")) ||
                rs_test_int(&a, "locks") != rs_test_int(&c, "locks"));
    rs_record_free(&a);
    rs_record_free(&b);
    rs_record_free(&c);
}

/* ---- the one-pass butterfly (BBN Butterfly, 004 §5) ------------------------------------ */

/* N = 4, one packet per input, every one of the 4^4 = 256 destination vectors, passes=1,
 * circuits=1. Level 0 has no contention (one packet per node, two out-edges); at level 1
 * node <1,r> receives the packets of rows r and r^1 and sends each on the edge fixing bit 1
 * toward its destination: a channel carries one circuit, so the delivered count is the
 * number of distinct (level-1 node, bit 1 of the destination) pairs, whoever wins. The sum
 * over all vectors must be 256 * 4 * 7/8 = 896 (the exact recurrence below: 7/8). */
static void test_butterfly_exhaustive_n4(void **state)
{
    struct rs_test_fixture f;
    struct rs_record r;
    struct rs_err err;
    rs_test_fx_open(&f, "topology=butterfly N=4 traffic=uniform switching=circuit passes=1", 1);
    uint64_t total = 0;
    for (uint32_t v = 0; v < 256; v++) {
        uint32_t used = 0, want = 0;
        for (uint32_t s = 0; s < 4; s++) {
            uint32_t t = (v >> (2 * s)) & 3;
            f.pb.dst[s] = t;
            /* level 1 row: bit 0 already fixed toward t, bit 1 still s's */
            uint32_t row = (t & 1) | (s & 2), key = row * 2 + ((t >> 1) & 1);
            if (!(used >> key & 1))
                want++;
            used |= 1u << key;
        }
        assert_int_equal(fx_run(&f, 1 + v, NULL, 0, 1, &r, &err), 0);
        assert_int_equal(rs_test_int(&r, "delivered"), want);
        total += want;
        rs_record_free(&r);
    }
    assert_int_equal(total, 896);
    rs_test_fx_close(&f);
}

/* Exact expected delivered fraction of one pass with random destinations and any rule that
 * ignores destinations (004 §5, Koch): X_i, the circuits on an edge out of level i, has
 * X_0 ~ Bernoulli(1/2) (one packet per input, either edge) and X_{i+1} = min(q, B_a + B_b),
 * B ~ Binomial(X, 1/2) for the two independent in-edges (their input cones are disjoint,
 * every circuit's next bit is uniform and independent of its survival). Every circuit into
 * an output is delivered: fraction = 2 E[X_{n-1}]. */
static double exact_fraction(uint32_t n, uint32_t q)
{
    double px[65] = {0}, nx[65];
    px[0] = 0.5;
    px[1] = 0.5;
    for (uint32_t lv = 1; lv < n; lv++) {
        double b[65] = {0}; /* law of Binomial(X, 1/2) */
        for (uint32_t x = 0; x <= q; x++)
            for (uint32_t k = 0; k <= x; k++) {
                double c = 1;
                for (uint32_t j = 0; j < k; j++)
                    c = c * (x - j) / (j + 1);
                b[k] += px[x] * c * pow(0.5, x);
            }
        memset(nx, 0, sizeof nx);
        for (uint32_t i = 0; i <= q; i++)
            for (uint32_t j = 0; j <= q; j++)
                nx[i + j > q ? q : i + j] += b[i] * b[j];
        memcpy(px, nx, sizeof px);
    }
    double mean = 0;
    for (uint32_t x = 0; x <= q; x++)
        mean += x * px[x];
    return 2 * mean;
}

/* traffic=uniform, passes=1, R = 2000 runs (seeds 1..R) per case: the mean delivered
 * fraction is within 4 standard errors (sample sd / sqrt(R)) of the exact value, for the
 * random and the rank rules (Koch: the rule does not matter when it ignores destinations). */
static void test_butterfly_one_pass_fraction(void **state)
{
    const uint32_t Ns[] = {8, 64, 256};
    /* by hand: N = 2 delivers all; N = 4: 1 - (3/4)^2 = 7/16 per edge, 7/8 delivered;
     * N = 8: 1 - (1 - 7/32)^2 = 399/1024 per edge, 399/512 delivered */
    assert_true(fabs(exact_fraction(1, 1) - 1.0) < 1e-12);
    assert_true(fabs(exact_fraction(2, 1) - 7.0 / 8.0) < 1e-12);
    assert_true(fabs(exact_fraction(3, 1) - 399.0 / 512.0) < 1e-12);
    assert_true(fabs(exact_fraction(2, 2) - 1.0) < 1e-12); /* 2 circuits: nothing lost */
    for (int i = 0; i < 3; i++)
        for (uint32_t q = 1; q <= 2; q++)
            for (int rule = 0; rule < 2; rule++) {
                char kv[256];
                struct rs_test_fixture f;
                uint32_t n = 0, R = Ns[i] >= 256 ? 400 : 2000;
                while ((1u << n) < Ns[i])
                    n++;
                snprintf(kv, sizeof kv,
                         "topology=butterfly N=%u traffic=uniform switching=circuit passes=1 "
                         "circuits=%u%s",
                         Ns[i], q, rule ? " down=rank" : "");
                rs_test_fx_open(&f, kv, 1);
                double sum = 0, sum2 = 0;
                for (uint32_t rep = 0; rep < R; rep++) {
                    struct rs_record r;
                    struct rs_err err;
                    for (uint32_t s = 0; s < Ns[i]; s++) /* fresh destinations per run */
                        f.pb.dst[s] = rs_rand_below(1000 + rep, RS_STREAM_TEST, s, 0, Ns[i]);
                    assert_int_equal(fx_run(&f, 1 + rep, NULL, 0, 0, &r, &err), 0);
                    double x = rs_test_double(&r, "delivered_fraction");
                    sum += x;
                    sum2 += x * x;
                    rs_record_free(&r);
                }
                double mean = sum / R, sd = sqrt((sum2 - R * mean * mean) / (R - 1));
                double want = exact_fraction(n, q), tol = 4 * sd / sqrt(R);
                if (fabs(mean - want) > tol) {
                    print_error("%s: mean %.5f, exact %.5f, tolerance %.5f\n", kv, mean, want,
                                tol);
                    fail();
                }
                rs_test_fx_close(&f);
            }
}

/* ---- Ranade's first stage ------------------------------------------------------------ */

/* With routing=ranade (004 §5's first stage, rs_route_mid_for: one coin per 2x2 block) the
 * intermediate rows form a permutation and the first halves of the paths (levels 0..n of
 * the Beneš network) share no channel, so with one pass nothing is refused there: every
 * message locks its 6 first-half channels (locks >= 64 * 6), and losses happen only in
 * the second butterfly. With two messages per input, each first-half channel carries
 * exactly the two of one source, which circuits=2 admits: again nothing is lost there. */
static void test_ranade_first_stage(void **state)
{
    for (int seed = 1; seed <= 10; seed++) {
        char kv[256];
        struct rs_record r;
        snprintf(kv, sizeof kv,
                 "topology=benes N=64 traffic=randperm switching=circuit passes=1 "
                 "routing=ranade down=rank seed=%d check=1",
                 seed);
        rs_test_run(kv, &r);
        assert_true(rs_test_int(&r, "locks") >= 64 * 6);
        assert_true(rs_test_int(&r, "delivered") < 64);
        rs_record_free(&r);
        snprintf(kv, sizeof kv,
                 "topology=benes N=64 traffic=uniform per_input=2 circuits=2 "
                 "switching=circuit passes=1 routing=ranade down=rank seed=%d check=1",
                 seed);
        rs_test_run(kv, &r);
        assert_true(rs_test_int(&r, "locks") >= 128 * 6);
        rs_record_free(&r);
    }
}

/* ---- plans --------------------------------------------------------------------------- */

/* CB-LCAN(16,4,2), bitcomp (PE 4a+b -> 4(3-a)+(3-b), all LCA level 1), a hand-made plan of
 * 002 §4.1's kind: message 4a+b goes through top switch b mod 2 (node 16 + 4 + b mod 2:
 * 16 PEs, 4 level-0 switches) and tries first in cycle b / 2 (0-based). Cycle 1: b = 0, 1
 * leave level-0 switch a on uppers 0, 1; top switch k holds PE 4a+k for every a and sends
 * them down by digit 3-a, all different: 8 routed, nothing refused. Cycle 2: the same for
 * b = 2, 3. The bad plan sends everybody through top switch 0 in cycle 1: at each level-0
 * switch 4 requests for upper 0, 3 refused; the run still finishes, counting conflicts. */
static void test_plan(void **state)
{
    struct rs_test_fixture f;
    struct rs_record r;
    struct rs_err err;
    uint32_t via[16], rel[16];
    rs_test_fx_open(&f, "topology=lcan N=16 d=4 u=2 traffic=bitcomp switching=circuit", 1);
    for (uint32_t s = 0; s < 16; s++) {
        via[s] = 16 + 4 + (s % 4) % 2;
        rel[s] = (s % 4) / 2;
    }
    struct rs_engine_plan plan = {.release = rel, .via = via};
    assert_int_equal(fx_run(&f, 5, &plan, 0, 1, &r, &err), 0);
    assert_int_equal(rs_test_int(&r, "conflicts"), 0);
    assert_string_equal(text(&r, "delivered_per_cycle"), "8;8");
    /* every message routed in the first cycle it may try: latency 1 (cycle 2 minus release
     * 1 for the second half); the last routed in cycle 2 */
    assert_int_equal(rs_test_int(&r, "makespan"), 2);
    assert_true(rs_test_double(&r, "latency_mean") == 1.0);
    assert_true(rs_test_double(&r, "latency_max") == 1.0);
    rs_record_free(&r);
    struct rs_engine_input in = {.net = &f.net, .pb = &f.pb, .params = &f.p,
                                 .routing = RS_ROUTING_DIRECT, .seed = 5, .check = 1,
                                 .plan = &plan};
    rs_record_init(&r);
    assert_int_equal(rs_engine_run(rs_engine_find("circuit"), &in, &r, NULL, 0, &err), 0);
    assert_int_equal(rs_test_int(&r, "conflicts"), 0);
    rs_record_free(&r);
    /* bad plan: one top switch for all, all at once; 4 per cycle get through (each of the
     * 4 level-0 switches passes 1 on upper 0; top switch 0 sends them down distinct
     * downers) */
    for (uint32_t s = 0; s < 16; s++) {
        via[s] = 20;
        rel[s] = 0;
    }
    assert_int_equal(fx_run(&f, 5, &plan, 0, 1, &r, &err), 0);
    assert_string_equal(text(&r, "delivered_per_cycle"), "4;4;4;4");
    assert_int_equal(rs_test_int(&r, "conflicts"), 12 + 8 + 4);
    rs_record_free(&r);
    /* releases only: nobody tries before cycle 3 */
    struct rs_engine_plan late = {.release = rel};
    for (uint32_t s = 0; s < 16; s++)
        rel[s] = 2;
    assert_int_equal(fx_run(&f, 5, &late, 0, 1, &r, &err), 0);
    assert_true(!strncmp(text(&r, "delivered_per_cycle"), "0;0;", 4));
    assert_int_equal(rs_test_int(&r, "delivered"), 16);
    /* 8 routed in cycle 3 (latency 3 - 2 = 1), 8 in cycle 4 (latency 2) */
    assert_string_equal(text(&r, "delivered_per_cycle"), "0;0;8;8");
    assert_int_equal(rs_test_int(&r, "makespan"), 4);
    assert_true(rs_test_double(&r, "latency_mean") == 1.5);
    assert_true(rs_test_double(&r, "latency_p99") == 2.0);
    assert_true(rs_test_double(&r, "latency_max") == 2.0);
    rs_record_free(&r);
    /* a via switch that is not above the source: refused, naming the message */
    for (uint32_t s = 0; s < 16; s++)
        via[s] = 20;
    via[3] = 16; /* level-0 switch of PEs 0..3: not above 3's destination 12 */
    assert_int_equal(fx_run(&f, 5, &plan, 0, 1, &r, &err), RS_EINVAL);
    assert_string_equal(err.msg, "circuit plan: message 3 (3 -> 12) cannot go through node 16: "
                                 "not a switch above both terminals");
    rs_record_free(&r);
    rs_test_fx_close(&f);
    /* a via switch above the LCA level: PEs 0 <-> 1 share their level-0 switch but go
     * through top switch 21, up to level 1 and back down (4 channels each, the path checked
     * to pass 21). Both need upper 1 of that switch (21's base-u digit): one goes in cycle
     * 1, the other fails after its PE link and goes in cycle 2; the 14 others stay home:
     * "15;1", locks 4 + 1 + 4 = 9. */
    rs_test_fx_open(&f, "topology=lcan N=16 d=4 u=2 traffic=identity switching=circuit", 1);
    f.pb.dst[0] = 1;
    f.pb.dst[1] = 0;
    for (uint32_t s = 0; s < 16; s++) {
        via[s] = 21;
        rel[s] = 0;
    }
    assert_int_equal(fx_run(&f, 5, &plan, 0, 1, &r, &err), 0);
    assert_int_equal(rs_test_int(&r, "locks"), 9);
    assert_string_equal(text(&r, "delivered_per_cycle"), "15;1");
    rs_record_free(&r);
    rs_test_fx_close(&f);
    /* via switches off an LCAN */
    rs_test_fx_open(&f, "topology=butterfly N=16 traffic=bitrev switching=circuit", 1);
    assert_int_equal(fx_run(&f, 5, &plan, 0, 1, &r, &err), RS_EUNSUPPORTED);
    rs_record_free(&r);
    rs_test_fx_close(&f);
}

/* ---- errors ---------------------------------------------------------------------------- */

static void expect_error(const char *kv, int code, const char *msg)
{
    struct rs_record r;
    char got[1024];
    int rc = rs_test_try(kv, 1, &r, got, sizeof got);
    if (rc != code || strcmp(got, msg)) {
        print_error("%s: got %d '%s', want %d '%s'\n", kv, rc, got, code, msg);
        fail();
    }
    rs_record_free(&r);
}

static void test_option_errors(void **state)
{
    expect_error("topology=butterfly switching=circuit up=fixed", RS_EUNSUPPORTED,
                 "up=fixed chooses uppers on an LCAN; topology=butterfly has no up choices");
    expect_error("topology=mesh switching=circuit down=lower_lca_first", RS_EUNSUPPORTED,
                 "down=lower_lca_first needs LCA levels, which topology=mesh does not have (use "
                 "random or rank)");
    expect_error("topology=lcan switching=circuit ranks=3", RS_EUNSUPPORTED,
                 "ranks= is used by down=rank only (got down=random)");
    expect_error("topology=butterfly switching=circuit routing=ranade", RS_EUNSUPPORTED,
                 "routing=ranade is not available on topology=butterfly (Ranade's first stage "
                 "needs back-to-back butterflies: topology=benes, 004 §5)");
    expect_error("topology=lcan switching=circuit routing=valiant", RS_EUNSUPPORTED,
                 "switching=circuit on an LCAN routes through LCA switches with its own up "
                 "choices; routing=valiant is not supported there");
    /* Valiant on the wrapped butterfly goes round twice and can need a channel twice */
    struct rs_record r;
    char got[512];
    assert_int_equal(rs_test_try("topology=butterfly N=4 wrap=1 switching=circuit "
                                 "routing=valiant seed=2",
                                 1, &r, got, sizeof got),
                     RS_EUNSUPPORTED);
    assert_non_null(strstr(got, "more than circuits=1 times"));
    rs_record_free(&r);
}

/* rank: the default number of ranks is ceil(log2(N)^(1/q)) (004 §5). */
static void test_rank_default(void **state)
{
    struct rs_record r;
    rs_test_run("topology=butterfly N=1024 switching=circuit passes=1 down=rank", &r);
    assert_int_equal(rs_test_int(&r, "ranks_used"), 10);
    rs_record_free(&r);
    rs_test_run("topology=butterfly N=1024 switching=circuit passes=1 down=rank circuits=2", &r);
    assert_int_equal(rs_test_int(&r, "ranks_used"), 4); /* sqrt(10) = 3.16 */
    rs_record_free(&r);
    rs_test_run("topology=butterfly N=1024 switching=circuit passes=1 down=rank ranks=7", &r);
    assert_int_equal(rs_test_int(&r, "ranks_used"), 7);
    rs_record_free(&r);
}

/* ---- the checker catches what it should -------------------------------------------------- */

static void test_checker_detects(void **state)
{
    struct rs_test_fixture f;
    struct circ c;
    struct rs_err err;
    rs_test_fx_open(&f, "topology=baseline N=4 traffic=bitcomp", 1);
    memset(&c, 0, sizeof c);
    uint32_t act[2] = {0, 1}, cpath[8] = {0}, per_cycle[1] = {1}, pend[1] = {0};
    uint8_t fail[2] = {0, 1}, cplen[2], st4[4] = {CIRC_ROUTED, CIRC_PENDING, CIRC_PENDING,
                                                    CIRC_PENDING};
    uint16_t chk[64] = {0};
    c.net = &f.net;
    c.pb = &f.pb;
    c.lc = rs__lcan_of(&f.net);
    c.mode = CIRC_MODE_LCAN;
    c.cap = 1;
    c.P = f.net.max_ports;
    c.n = 4;
    c.act = act;
    c.n_act = 2;
    c.fail = fail;
    c.cpath = cpath;
    c.cplen = cplen;
    c.cp_max = 4;
    c.chk = chk;
    c.state = st4;
    c.per_cycle = per_cycle;
    c.cycle = 1;
    c.delivered = 1;
    c.pend = pend;
    c.n_pend = 4;
    /* message 0: 0 -> 3 over its real LCA path, found with the route op */
    struct rs_route_state st = {0, 3, RS_NONE, 0, 0};
    uint64_t ch[8];
    assert_int_equal(rs_route_expand(&f.net, &st, ch, 8, 8, NULL), 4);
    for (int k = 0; k < 4; k++)
        cpath[k] = (uint32_t)ch[k];
    cplen[0] = 4;
    cplen[1] = 0;
    assert_int_equal(rs__circ_check(&c, 1, &err), 0);
    /* message 1 (failed) locked message 0's first up channel too: over capacity */
    cpath[4] = cpath[1];
    cplen[1] = 1;
    assert_int_equal(rs__circ_check(&c, 1, &err), RS_EINVARIANT);
    assert_non_null(strstr(err.msg, "more than circuits=1"));
    /* a routed circuit with a hole */
    cplen[1] = 0;
    cpath[1] = 1 * c.P; /* the PE link of PE 1 */
    assert_int_equal(rs__circ_check(&c, 1, &err), RS_EINVARIANT);
    assert_non_null(strstr(err.msg, "not a connected path"));
    cpath[1] = (uint32_t)ch[1];
    /* counts that do not add up */
    c.delivered = 2;
    assert_int_equal(rs__circ_check(&c, 1, &err), RS_EINVARIANT);
    assert_non_null(strstr(err.msg, "counts disagree"));
    rs_test_fx_close(&f);
}

/* A wrapped butterfly under routing=valiant: paths go round twice, so the engine decides
 * every hop at once and every cycle routes a message. Decided hop by hop, seeds 1, 5, 6, ...
 * of this configuration stopped with "cycle C routed none of M messages" (two messages each
 * holding, from their first round, the channel the other needs in its second). */
static void test_wrapped_valiant_progress(void **state)
{
    for (int seed = 1; seed <= 40; seed++) {
        char kv[256];
        struct rs_record r;
        snprintf(kv, sizeof kv,
                 "topology=butterfly N=8 wrap=1 routing=valiant switching=circuit circuits=2 "
                 "per_input=3 check=1 seed=%d",
                 seed);
        rs_test_run(kv, &r);
        assert_int_equal(rs_test_int(&r, "delivered"), 24);
        rs_record_free(&r);
    }
}

/* rs__circ_over_cap (the path check of runs over MPI ranks) against the serial pass's
 * counting, on paths of 1 to 200 hops (both of its forms: counted in place up to 64 hops,
 * sorted above) drawn from few channels so that repeats are common, for cap 1 to 3. */
static void test_over_cap(void **state)
{
    (void)state;
    uint64_t tmp[200], key[200];
    uint32_t count[16];
    struct circ c = {0};
    uint32_t found[2] = {0, 0}; /* paths refused in each form: the test reaches both */
    for (uint32_t trial = 0; trial < 3000; trial++) {
        uint32_t len = 1 + rs_rand_below(7, 1, trial, 0, 200);
        uint32_t spread = 2 + rs_rand_below(7, 2, trial, 0, len < 14 ? len : 14);
        c.cap = 1 + trial % 3;
        for (uint32_t h = 0; h < len; h++) /* a walk that revisits channels */
            tmp[h] = len <= 64 && trial % 2 ? 1000 + h : 7 + rs_rand_below(7, 3, trial, h, spread);
        uint32_t want = len;
        memset(count, 0, sizeof count);
        for (uint32_t h = 0; h < len && want == len; h++)
            if (tmp[h] < 1000 && ++count[tmp[h] - 7] > c.cap)
                want = h;
        uint32_t got = rs__circ_over_cap(&c, tmp, len, key);
        assert_int_equal(got, want);
        if (got < len)
            found[len > 64]++;
    }
    assert_true(found[0] > 100 && found[1] > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked_baseline8),
        cmocka_unit_test(test_up_concentrator),
        cmocka_unit_test(test_tlcan_bundles),
        cmocka_unit_test(test_injection),
        cmocka_unit_test(test_order_independence),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_butterfly_exhaustive_n4),
        cmocka_unit_test(test_butterfly_one_pass_fraction),
        cmocka_unit_test(test_ranade_first_stage),
        cmocka_unit_test(test_plan),
        cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_rank_default),
        cmocka_unit_test(test_checker_detects),
        cmocka_unit_test(test_wrapped_valiant_progress),
        cmocka_unit_test(test_over_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
