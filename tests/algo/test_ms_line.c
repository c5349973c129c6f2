/* The line simulator of 003 §2 and §4.1 (include/routesim/ms_line.h): two chains of 4 with
 * k = 2 worked by hand flit by flit, every permutation of chains n <= 8 with k = 1..4 under
 * Theorem 1, random many-to-one and one-to-many chains under Theorems 2 and 3, rings under
 * Lemmas 6 and 7, the invariant checker on throughout, and the refused problems. */
#include "rs_test.h"

#include "routesim/ms_line.h"
#include "routesim/rng.h"

/* ---- hand-worked chains ---------------------------------------------------------------- */

struct trace {
    uint32_t m, k;
    const uint32_t *expect; /* [step][packet][flit]: processor, as m*k per step */
    uint32_t steps;         /* rows in expect (steps 0..steps-1) */
    const struct rs_ms_packet *pkt;
    uint32_t seen;
};

static void on_step(void *ctx, uint64_t step, const uint32_t *hops)
{
    struct trace *t = ctx;
    assert_true(step < t->steps);
    for (uint32_t p = 0; p < t->m; p++)
        for (uint32_t j = 0; j < t->k; j++) {
            const struct rs_ms_packet *pk = &t->pkt[p];
            uint32_t h = hops[p * t->k + j];
            uint32_t pos = pk->dst >= pk->src ? pk->src + h : pk->src - h;
            uint32_t want = t->expect[step * t->m * t->k + p * t->k + j];
            if (pos != want) {
                print_error("step %u: packet %u flit %u at %u, expected %u\n", (unsigned)step,
                            p, j, pos, want);
                fail();
            }
        }
    t->seen++;
}

/* Chain 0..3, k = 2, the permutation 0->3, 1->2, 2->0, 3->1 under Route_on_a_Chain.
 * Steps are the paper's steps + 1 (ms_line.h). Right-going: a = 0->3, b = 1->2.
 *  step 1: FIFO(0) sends a1 to 1; FIFO(1) sends b1 to 2 (delivered).
 *  step 2: FIFO(1) = [b2 a1] sends b2 (b done at 2); FIFO(0) sends a2 to 1.
 *  step 3: FIFO(1) = [a1 a2] sends a1 to 2.  step 4: FIFO(2) sends a1 to 3 (head
 *  delivered); FIFO(1) sends a2 to 2.  step 5: FIFO(2) sends a2: a done at 5.
 * Left-going: c = 2->0, d = 3->1.
 *  step 1: c1 to 1, d1 to 2.  step 2: FIFO(1) sends c1 to 0 (delivered); FIFO(2) = [c2 d1]
 *  sends c2 to 1; FIFO(3) sends d2 to 2.  step 3: c2 to 0 (c done at 3); FIFO(2) = [d1 d2]
 *  sends d1 to 1 (delivered).  step 4: d2 to 1: d done at 4. Makespan 5 <= 4*3/2 + 2 = 8. */
static void test_hand_permutation(void **state)
{
    (void)state;
    static const struct rs_ms_packet pkt[] = {{0, 0, 3, 0}, {0, 1, 2, 0}, {0, 2, 0, 0},
                                              {0, 3, 1, 0}};
    /* per step: a1 a2  b1 b2  c1 c2  d1 d2 */
    static const uint32_t expect[] = {
        0, 0, 1, 1, 2, 2, 3, 3, /* 0 */
        1, 0, 2, 1, 1, 2, 2, 3, /* 1 */
        1, 1, 2, 2, 0, 1, 2, 2, /* 2 */
        2, 1, 2, 2, 0, 0, 1, 2, /* 3 */
        3, 2, 2, 2, 0, 0, 1, 1, /* 4 */
        3, 3, 2, 2, 0, 0, 1, 1, /* 5 */
    };
    struct trace t = {.m = 4, .k = 2, .expect = expect, .steps = 6, .pkt = pkt};
    struct rs_ms_line_problem pb = {.lines = 1, .n = 4, .shape = RS_MS_CHAIN, .disc = RS_MS_FIFO,
                                    .k = 2, .m = 4, .pkt = pkt, .check = 1,
                                    .on_step = on_step, .ctx = &t};
    struct rs_ms_line_result res;
    uint64_t fin[4];
    struct rs_err err = {0};
    assert_int_equal(rs__ms_line_route(&pb, &res, fin, NULL, &err), 0);
    assert_int_equal(t.seen, 6);
    assert_int_equal(res.steps, 5);
    assert_int_equal(fin[0], 5);
    assert_int_equal(fin[1], 2);
    assert_int_equal(fin[2], 3);
    assert_int_equal(fin[3], 4);
    assert_int_equal(res.flit_hops, 2 * (3 + 1 + 2 + 2));
    /* step 2: FIFO(1)+ holds b's tail and a's head, FIFO(2)- c's tail and d's head */
    assert_int_equal(res.max_queue, 2);
    assert_int_equal(res.max_port_flits, 2);
    assert_true(res.steps <= rs__ms_bound_thm1(4, 2));
}

/* Chain 0..3, k = 2, many-to-one 0->3, 1->3, 2->3 (a, b, c). FIFO(2) = [c2 b1] at step 2,
 * [b1 b2] at 3, [b2 a1] at 4, [a1 a2] at 5: c done at 2, b at 4, a at 6 = (k-1)m + n - 1. */
static void test_hand_many_to_one(void **state)
{
    (void)state;
    static const struct rs_ms_packet pkt[] = {{0, 0, 3, 0}, {0, 1, 3, 0}, {0, 2, 3, 0}};
    static const uint32_t expect[] = {
        0, 0, 1, 1, 2, 2, /* 0 */
        1, 0, 2, 1, 3, 2, /* 1 */
        1, 1, 2, 2, 3, 3, /* 2 */
        2, 1, 3, 2, 3, 3, /* 3 */
        2, 2, 3, 3, 3, 3, /* 4 */
        3, 2, 3, 3, 3, 3, /* 5 */
        3, 3, 3, 3, 3, 3, /* 6 */
    };
    struct trace t = {.m = 3, .k = 2, .expect = expect, .steps = 7, .pkt = pkt};
    struct rs_ms_line_problem pb = {.lines = 1, .n = 4, .shape = RS_MS_CHAIN, .disc = RS_MS_FIFO,
                                    .k = 2, .m = 3, .pkt = pkt, .check = 1,
                                    .on_step = on_step, .ctx = &t};
    struct rs_ms_line_result res;
    uint64_t fin[3];
    struct rs_err err = {0};
    assert_int_equal(rs__ms_line_route(&pb, &res, fin, NULL, &err), 0);
    assert_int_equal(t.seen, 7);
    assert_int_equal(fin[0], 6);
    assert_int_equal(fin[1], 4);
    assert_int_equal(fin[2], 2);
    assert_int_equal(res.steps, 6);
    assert_int_equal(res.max_port_flits, 2);
    assert_true(res.steps <= rs__ms_bound_thm23(4, 2, 3));
}

/* One-to-many, farthest first: processor 0 holds 0->1, 0->3, 0->2 (in that input order),
 * k = 3. Farthest first sends 0->3 (steps 1-3), then 0->2 (4-6), then 0->1 (7-9): finish
 * 0->3 at 3 + 2 = 5, 0->2 at 6 + 1 = 7, 0->1 at 9. FIFO would send 0->1 first. */
static void test_hand_farthest_first(void **state)
{
    (void)state;
    static const struct rs_ms_packet pkt[] = {{0, 0, 1, 0}, {0, 0, 3, 0}, {0, 0, 2, 0}};
    struct rs_ms_line_problem pb = {.lines = 1, .n = 4, .shape = RS_MS_CHAIN,
                                    .disc = RS_MS_FARTHEST, .k = 3, .m = 3, .pkt = pkt,
                                    .check = 1};
    struct rs_ms_line_result res;
    uint64_t fin[3];
    struct rs_err err = {0};
    assert_int_equal(rs__ms_line_route(&pb, &res, fin, NULL, &err), 0);
    assert_int_equal(fin[1], 5);
    assert_int_equal(fin[2], 7);
    assert_int_equal(fin[0], 9);
    assert_int_equal(res.max_queue, 3);
    assert_true(res.steps <= rs__ms_bound_thm23(4, 3, 3));
    pb.disc = RS_MS_FIFO;
    assert_int_equal(rs__ms_line_route(&pb, &res, fin, NULL, &err), 0);
    assert_int_equal(fin[0], 3); /* 0->1 first: steps 1-3 */
}

/* ---- every permutation of small chains ------------------------------------------------- */

/* Theorem 1 on all n! permutations, n = 1..8, k = 1..4 (the checker on for n <= 6): no
 * violation. Also the whole set of permutations as one problem of n! lines agrees with the
 * line-by-line runs (the lines are independent). */
static void test_every_permutation(void **state)
{
    (void)state;
    struct rs_err err = {0};
    struct rs_ms_packet pkt[8];
    double worst = 0;
    for (uint32_t n = 1; n <= 8; n++)
        for (uint32_t k = 1; k <= 4; k++) {
            uint32_t a[8];
            for (uint32_t i = 0; i < n; i++)
                a[i] = i;
            uint64_t count = 0, most = 0;
            do {
                for (uint32_t i = 0; i < n; i++)
                    pkt[i] = (struct rs_ms_packet){0, i, a[i], 0};
                struct rs_ms_line_problem pb = {.lines = 1, .n = n, .shape = RS_MS_CHAIN,
                                                .disc = RS_MS_FIFO, .k = k, .m = n, .pkt = pkt,
                                                .check = n <= 6};
                struct rs_ms_line_result res;
                if (rs__ms_line_route(&pb, &res, NULL, NULL, &err)) {
                    print_error("%s\n", err.msg);
                    fail();
                }
                if (res.steps > rs__ms_bound_thm1(n, k)) {
                    print_error("Theorem 1 violated: n=%u k=%u steps %llu\n", n, k,
                                (unsigned long long)res.steps);
                    fail();
                }
                if (res.steps > most)
                    most = res.steps;
                count++;
            } while (rs_test_next_perm(a, n));
            uint64_t fact = 1;
            for (uint32_t i = 2; i <= n; i++)
                fact *= i;
            assert_int_equal(count, fact);
            double r = (double)most / rs__ms_bound_thm1(n, k);
            if (r > worst)
                worst = r;
            /* the reversal is among them and needs at least n - 1 + k - 1 steps */
            if (n > 1)
                assert_true(most >= n + k - 2);
        }
    assert_true(worst <= 1.0);
}

/* ---- random many-to-one, one-to-many, rings -------------------------------------------- */

#define SEED 20261125u

/* Random many-to-one chains: each processor sends with probability 1/2 (at least one), to a
 * uniform destination; several lines at once, each against (k-1)m + n with its own m. */
static void test_random_many_to_one(void **state)
{
    (void)state;
    struct rs_err err = {0};
    static struct rs_ms_packet pkt[4 * 40];
    uint64_t fin[4 * 40], ls[4];
    for (uint32_t trial = 0; trial < 200; trial++) {
        uint32_t n = 2 + rs_rand_below(SEED, 7, trial, 0, 39);
        uint32_t k = 1 + rs_rand_below(SEED, 7, trial, 1, 8);
        uint32_t m = 0, per[4] = {0};
        for (uint32_t l = 0; l < 4; l++)
            for (uint32_t s = 0; s < n; s++)
                if (rs_rand_below(SEED, 8, trial * 1000 + l * 100 + s, 0, 2)) {
                    pkt[m++] = (struct rs_ms_packet){
                        l, s, rs_rand_below(SEED, 8, trial * 1000 + l * 100 + s, 1, n), 0};
                    per[l]++;
                }
        struct rs_ms_line_problem pb = {.lines = 4, .n = n, .shape = RS_MS_CHAIN,
                                        .disc = RS_MS_FIFO, .k = k, .m = m, .pkt = pkt,
                                        .check = 1};
        struct rs_ms_line_result res;
        assert_int_equal(rs__ms_line_route(&pb, &res, fin, ls, &err), 0);
        uint64_t top = 0;
        for (uint32_t l = 0; l < 4; l++) {
            assert_true(ls[l] <= rs__ms_bound_thm23(n, k, per[l]));
            if (ls[l] > top)
                top = ls[l];
        }
        assert_int_equal(res.steps, top);
        assert_true(res.max_port_flits <= k);
        for (uint32_t i = 0; i < m; i++) {
            uint32_t d = rs__ms_line_distance(&pb, &pkt[i]);
            /* never faster than the distance plus the snake */
            assert_true(d == 0 ? fin[i] == 0 : fin[i] >= d + k - 1);
        }
    }
}

/* Random one-to-many chains: m distinct destinations, each from a uniform source, farthest
 * first, against (k-1)m + n. */
static void test_random_one_to_many(void **state)
{
    (void)state;
    struct rs_err err = {0};
    struct rs_ms_packet pkt[64];
    uint32_t perm[64];
    for (uint32_t trial = 0; trial < 300; trial++) {
        uint32_t n = 2 + rs_rand_below(SEED, 9, trial, 0, 63);
        uint32_t k = 1 + rs_rand_below(SEED, 9, trial, 1, 8);
        uint32_t m = 1 + rs_rand_below(SEED, 9, trial, 2, n);
        rs_random_permutation(perm, n, SEED, 10, trial);
        for (uint32_t i = 0; i < m; i++)
            pkt[i] = (struct rs_ms_packet){0, rs_rand_below(SEED, 11, trial * 64 + i, 0, n),
                                           perm[i], 0};
        struct rs_ms_line_problem pb = {.lines = 1, .n = n, .shape = RS_MS_CHAIN,
                                        .disc = RS_MS_FARTHEST, .k = k, .m = m, .pkt = pkt,
                                        .check = 1};
        struct rs_ms_line_result res;
        assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), 0);
        if (res.steps > rs__ms_bound_thm23(n, k, m)) {
            print_error("Theorem 3 violated: trial %u n=%u k=%u m=%u steps %llu\n", trial, n,
                        k, m, (unsigned long long)res.steps);
            fail();
        }
    }
}

/* Lemma 6: rings with sources on non-adjacent processors (even positions, each with
 * probability 1/2), uniform destinations, FIFO on the shortest way; Lemma 7: one-to-many
 * rings (distinct destinations, uniform sources), store-and-forward with the delayed start:
 * never a competition, every packet done at exactly floor(n/2) k. */
static void test_random_rings(void **state)
{
    (void)state;
    struct rs_err err = {0};
    struct rs_ms_packet pkt[64];
    uint32_t perm[64];
    uint64_t fin[64];
    for (uint32_t trial = 0; trial < 300; trial++) {
        uint32_t n = 2 * (2 + rs_rand_below(SEED, 12, trial, 0, 31)); /* even, 4..64 */
        uint32_t k = 1 + rs_rand_below(SEED, 12, trial, 1, 8);
        uint32_t m = 0;
        for (uint32_t s = 0; s < n; s += 2)
            if (rs_rand_below(SEED, 13, trial * 64 + s, 0, 2))
                pkt[m++] = (struct rs_ms_packet){0, s, rs_rand_below(SEED, 13, trial * 64 + s,
                                                                      1, n), 0};
        struct rs_ms_line_problem pb = {.lines = 1, .n = n, .shape = RS_MS_RING,
                                        .disc = RS_MS_FIFO, .k = k, .m = m, .pkt = pkt,
                                        .check = 1};
        struct rs_ms_line_result res;
        assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), 0);
        /* Lemma 6's kn/4 leaves out the trip itself (a packet n/2 away needs n/2 + k - 1
         * steps alone; test_lemma6_counterexample): every packet is delayed at most once by
         * each other packet sharing a channel with it (FIFO, no over passing), and at most
         * ceil(n/4) sources lie within n/2 before any channel, so k ceil(n/4) + n/2 - 1. */
        if (res.steps > (uint64_t)k * ((n + 3) / 4) + n / 2 - 1) {
            print_error("ring bound violated: trial %u n=%u k=%u m=%u steps %llu\n", trial, n,
                        k, m, (unsigned long long)res.steps);
            fail();
        }
        for (uint32_t i = 0; i < m; i++)
            assert_true(rs__ms_line_distance(&pb, &pkt[i]) <= n / 2);

        m = 1 + rs_rand_below(SEED, 14, trial, 0, n);
        rs_random_permutation(perm, n, SEED, 15, trial);
        for (uint32_t i = 0; i < m; i++)
            pkt[i] = (struct rs_ms_packet){0, rs_rand_below(SEED, 16, trial * 64 + i, 0, n),
                                           perm[i], 0};
        pb.m = m, pb.disc = RS_MS_SAF_DELAYED;
        assert_int_equal(rs__ms_line_route(&pb, &res, fin, NULL, &err), 0);
        assert_int_equal(res.blocked_starts, 0);
        for (uint32_t i = 0; i < m; i++)
            assert_int_equal(fin[i], pkt[i].src == pkt[i].dst ? 0 : (uint64_t)(n / 2) * k);
        assert_true(res.steps <= rs__ms_bound_lemma7(n, k));
    }
}

/* Lemma 6 as stated (kn/4) fails when the trip is longer than the flits: a ring of 8,
 * k = 1, one packet 0 -> 4 needs 4 steps > 8/4 = 2; k = 8, n = 4, one packet 0 -> 2 needs
 * 2 + 7 = 9 > 8; n = 6 (n/4 not whole), k = 8, sources 0 and 2 both to 3 via one channel:
 * 2k flits cross 2->3, the last at step 8 + 8 = 16 > 12. */
static void test_lemma6_counterexample(void **state)
{
    (void)state;
    struct rs_ms_packet pkt[] = {{0, 0, 4, 0}, {0, 2, 3, 0}};
    struct rs_ms_line_problem pb = {.lines = 1, .n = 8, .shape = RS_MS_RING, .disc = RS_MS_FIFO,
                                    .k = 1, .m = 1, .pkt = pkt, .check = 1};
    struct rs_ms_line_result res;
    struct rs_err err = {0};
    assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), 0);
    assert_int_equal(res.steps, 4);
    assert_true(res.steps > rs__ms_bound_lemma6(8, 1));
    pkt[0].dst = 2, pb.n = 4, pb.k = 8;
    assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), 0);
    assert_int_equal(res.steps, 9);
    assert_true(res.steps > rs__ms_bound_lemma6(4, 8));
    pkt[0].dst = 3, pb.n = 6, pb.m = 2;
    assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), 0);
    /* 2->3 goes first (local at 2, steps 1-8); 0->3's head reaches 2 at step 2 and waits:
     * its flits cross 2->3 in steps 9-16 */
    assert_int_equal(res.steps, 16);
    assert_true(res.steps > rs__ms_bound_lemma6(6, 8));
}

/* Forced directions on a ring (the four-snake torus): every packet goes +, the long way
 * round too; the checker accepts it. */
static void test_forced_direction(void **state)
{
    (void)state;
    static const struct rs_ms_packet pkt[] = {{0, 1, 0, 1}, {0, 0, 3, 1}, {0, 3, 2, -1}};
    struct rs_ms_line_problem pb = {.lines = 1, .n = 4, .shape = RS_MS_RING, .disc = RS_MS_FIFO,
                                    .k = 2, .m = 3, .pkt = pkt, .check = 1};
    struct rs_ms_line_result res;
    uint64_t fin[3];
    struct rs_err err = {0};
    assert_int_equal(rs__ms_line_distance(&pb, &pkt[0]), 3);
    assert_int_equal(rs__ms_line_route(&pb, &res, fin, NULL, &err), 0);
    assert_int_equal(res.flit_hops, 2 * (3 + 3 + 1));
    /* A = 1->0 (+: 2, 3, 0), B = 0->3 (+: 1, 2, 3), C = 3->2. Step 1: A1 1->2, B1 0->1, C1
     * delivered. Step 2: A2 1->2, A1 2->3, B2 0->1, C2 (C done at 2); B waits at 1 behind
     * A. Step 3: B1 1->2, A2 2->3, A1 3->0. Step 4: B2 1->2, B1 2->3, A2 3->0 (A done at
     * 4). Step 5: B2 2->3 (B done at 5). */
    assert_int_equal(fin[0], 4);
    assert_int_equal(fin[1], 5);
    assert_int_equal(fin[2], 2);
}

static void test_refused(void **state)
{
    (void)state;
    struct rs_ms_packet pkt[] = {{0, 0, 3, -1}};
    struct rs_ms_line_problem pb = {.lines = 1, .n = 4, .shape = RS_MS_CHAIN, .disc = RS_MS_FIFO,
                                    .k = 2, .m = 1, .pkt = pkt};
    struct rs_ms_line_result res;
    struct rs_err err = {0};
    assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "cannot go in direction -1"));
    pkt[0] = (struct rs_ms_packet){1, 0, 3, 0};
    assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), RS_EINVAL);
    assert_non_null(strstr(err.msg, "packet 0"));
    pkt[0] = (struct rs_ms_packet){0, 0, 3, 0};
    pb.k = 0;
    assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), RS_EINVAL);
    pb.k = 2, pb.m = 0;
    assert_int_equal(rs__ms_line_route(&pb, &res, NULL, NULL, &err), 0);
    assert_int_equal(res.steps, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_permutation),   cmocka_unit_test(test_hand_many_to_one),
        cmocka_unit_test(test_hand_farthest_first), cmocka_unit_test(test_every_permutation),
        cmocka_unit_test(test_random_many_to_one), cmocka_unit_test(test_random_one_to_many),
        cmocka_unit_test(test_random_rings),       cmocka_unit_test(test_lemma6_counterexample),
        cmocka_unit_test(test_forced_direction),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
