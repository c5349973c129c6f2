/* The colour-refinement planner (001 §2.1): the steps of Theorem 2.1.6's cases with the
 * lemma's r worked out, and on path sets of meshes, graphs and the lower-bound network:
 * every message coloured, no class puts more than B messages on a channel (checked here
 * independently: the property that lets B virtual channels run a whole class unblocked),
 * releases one period L+D-1 apart, the schedule length, a pure function of the seed; the
 * resampling cap and the input errors. */
#include "rs_test.h"

#include "algo/colour_refine_plan.h"
#include "routesim/analysis.h"
#include "routesim/bounds.h"
#include "routesim/path_set.h"
#include "routesim/problem.h"

/* ---- the steps ---------------------------------------------------------------------- */

static void expect_steps(uint32_t C, uint32_t D, uint32_t B, enum rs__cr_case want_case,
                         int n, const int *cond, const uint32_t *m_f, const uint64_t *r)
{
    struct rs__cr_step st[RS__CR_MAX_STEPS];
    struct rs_err err;
    enum rs__cr_case c;
    int got = -1;
    assert_int_equal(rs__cr_steps(C, D, B, st, &got, &c, &err), 0);
    if (c != want_case || got != n) {
        print_error("C=%u D=%u B=%u: case %d with %d steps, want case %d with %d\n", C, D, B,
                    (int)c, got, (int)want_case, n);
        fail();
    }
    for (int i = 0; i < n; i++) {
        if (st[i].condition != cond[i] || st[i].m_f != m_f[i] || st[i].r != r[i]) {
            print_error("C=%u D=%u B=%u step %d: condition %d m_f %u r %llu, want %d %u %llu\n",
                        C, D, B, i + 1, st[i].condition, st[i].m_f,
                        (unsigned long long)st[i].r, cond[i], m_f[i], (unsigned long long)r[i]);
            fail();
        }
    }
}

/* e = 2.71828..., log = log2, ln = natural; r is rounded up.
 *  C=3 D=16 B=1, case 1 (3 <= log 16 = 4): r = 3e (16*3)^1 * 3/1 = 1174.3 -> 1175.
 *  C=10 D=16 B=1, case 2a: condition 2, m_f = log 16 = 4, r = 32e*10/4 = 217.5 -> 218; then
 *    condition 1 from log D = 4: r = 3e (16*4) * 4 = 2087.6 -> 2088.
 *  C=10 D=16 B=2: the same 218, then r = 3e (64)^(1/2) * 4/2 = 130.5 -> 131.
 *  C=10 D=16 B=4: condition 2 reaches m_f = 4 = B: no second step.
 *  C=40 D=8 B=1, case 2 (C > D): condition 3 would aim at 15 ln^3 40 = 753 > 40 (r < 2):
 *    skipped; condition 2 from 40: m_f = 3, r = 32e*40/3 = 1159.8 -> 1160; condition 1
 *    from log 8 = 3: r = 3e (8*3) * 3 = 587.1 -> 588.
 *  C=100000 D=8 B=1: condition 3 once: m_f = 15 ln^3 1e5 = 22890.1, r = 1e5 / ((1 - 1/ln
 *    1e5) 22890.1) = 4.78 -> 5; from 22890 the next r would be 1.68 < 2; condition 2 from
 *    22890: r = 32e*22890/3 = 663695.x -> 663696; condition 1 as above, 588.
 *  C=5 D=1 B=1: D <= 1 is read as 2 (log D = 1): condition 2 only, m_f = max(B, 1) = 1,
 *    r = 32e*5 = 434.9 -> 435. C=2 D=16 B=2: C <= B, no step. */
static void test_steps_of_the_cases(void **state)
{
    expect_steps(3, 16, 1, RS__CR_CASE1, 1, (int[]){1}, (uint32_t[]){1}, (uint64_t[]){1175});
    expect_steps(10, 16, 1, RS__CR_CASE2A, 2, (int[]){2, 1}, (uint32_t[]){4, 1},
                 (uint64_t[]){218, 2088});
    expect_steps(10, 16, 2, RS__CR_CASE2A, 2, (int[]){2, 1}, (uint32_t[]){4, 2},
                 (uint64_t[]){218, 131});
    expect_steps(10, 16, 4, RS__CR_CASE2A, 1, (int[]){2}, (uint32_t[]){4}, (uint64_t[]){218});
    expect_steps(40, 8, 1, RS__CR_CASE2, 2, (int[]){2, 1}, (uint32_t[]){3, 1},
                 (uint64_t[]){1160, 588});
    expect_steps(100000, 8, 1, RS__CR_CASE2, 3, (int[]){3, 2, 1}, (uint32_t[]){22890, 3, 1},
                 (uint64_t[]){5, 663696, 588});
    expect_steps(5, 1, 1, RS__CR_CASE2, 1, (int[]){2}, (uint32_t[]){1}, (uint64_t[]){435});
    expect_steps(2, 16, 2, RS__CR_FEW, 0, NULL, NULL, NULL);
}

/* ---- plans on real path sets ------------------------------------------------------ */

struct inst {
    struct rs_net net;
    struct rs_problem pb;
    struct rs_path_set ps;
};

static void inst_build(struct inst *x, const char *kv)
{
    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, kv);
    if (rs_net_build(&x->net, &p, &err) || rs_problem_build(&x->pb, &x->net, &p, 7, &err) ||
        rs_path_set_build(&x->ps, &x->net, &x->pb, RS_ROUTING_DIRECT, 7, &err)) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
    rs_params_free(&p);
}

static void inst_free(struct inst *x)
{
    rs_path_set_free(&x->ps);
    rs_problem_free(&x->pb);
    rs_net_free(&x->net);
}

static int cmp_pair(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    return x[0] != y[0] ? (x[0] < y[0] ? -1 : 1) : (x[1] < y[1] ? -1 : x[1] > y[1]);
}

/* Everything the plan promises, checked from the paths alone. */
static void check_plan(const struct rs_path_set *ps, const struct rs__cr_plan *pl, uint32_t B,
                       uint32_t L, const char *what)
{
    uint64_t M = ps->n_msgs, H = ps->off[M];
    assert_int_equal(pl->n_msgs, M);
    /* C and D of the paths */
    uint32_t D = 0;
    for (uint64_t m = 0; m < M; m++)
        if (ps->off[m + 1] - ps->off[m] > D)
            D = (uint32_t)(ps->off[m + 1] - ps->off[m]);
    assert_int_equal(pl->dilation, D);
    /* every message has a class, every class a message, releases one period apart */
    uint8_t *used = calloc(pl->n_classes + 1, 1);
    assert_non_null(used);
    assert_int_equal(pl->period, (uint64_t)L + D - 1);
    assert_int_equal(pl->length, pl->n_classes * pl->period);
    for (uint64_t m = 0; m < M; m++) {
        assert_true(pl->colour[m] < pl->n_classes);
        used[pl->colour[m]] = 1;
        assert_int_equal(pl->release[m], (uint64_t)pl->colour[m] * pl->period);
    }
    for (uint64_t c = 0; c < pl->n_classes; c++)
        assert_true(used[c]);
    free(used);
    /* (channel, class) pairs sorted: no run longer than B, and the longest channel run is C */
    uint64_t *pair = malloc((size_t)(H ? H : 1) * 2 * sizeof *pair);
    assert_non_null(pair);
    for (uint64_t m = 0; m < M; m++)
        for (uint64_t h = ps->off[m]; h < ps->off[m + 1]; h++) {
            pair[2 * h] = ps->chan[h];
            pair[2 * h + 1] = pl->colour[m];
        }
    qsort(pair, (size_t)H, 2 * sizeof *pair, cmp_pair);
    uint32_t run = 0, chan_run = 0, C = 0, worst = 0;
    for (uint64_t i = 0; i < H; i++) {
        int same_chan = i > 0 && pair[2 * i] == pair[2 * i - 2];
        run = same_chan && pair[2 * i + 1] == pair[2 * i - 1] ? run + 1 : 1;
        chan_run = same_chan ? chan_run + 1 : 1;
        if (run > worst)
            worst = run;
        if (chan_run > C)
            C = chan_run;
    }
    free(pair);
    if (worst > B || C != pl->congestion) {
        print_error("%s: a class puts %u messages on a channel (B=%u); C %u vs %u\n", what,
                    worst, B, C, pl->congestion);
        fail();
    }
    /* the schedule's arithmetic: kappa = product of r, classes at most min(M, kappa) */
    double kappa = 1;
    for (int s = 0; s < pl->n_steps; s++)
        kappa *= (double)pl->steps[s].r;
    assert_true(kappa == pl->kappa);
    assert_true((double)pl->n_classes <= kappa && pl->n_classes <= M);
    if (pl->n_steps)
        assert_int_equal(pl->steps[pl->n_steps - 1].m_f, B);
}

static void plan_of(const struct rs_path_set *ps, uint32_t B, uint32_t L, uint64_t seed,
                    struct rs__cr_plan *pl, const char *what)
{
    struct rs__cr_input in = {ps, B, L, seed, 0, RS__CR_PROOF};
    struct rs_err err;
    if (rs__cr_plan_build(pl, &in, &err)) {
        print_error("%s B=%u: %s\n", what, B, err.msg);
        fail();
    }
    check_plan(ps, pl, B, L, what);
}

/* Random message sets: uniform destinations on meshes (various loads), random paths on the
 * graph of tests/data, the lower-bound network; B = 1..3. Together they reach every case of
 * Theorem 2.1.6 (asserted). */
static void test_plans_keep_every_class_within_b(void **state)
{
    static const char *const kvs[] = {
        "topology=mesh k=8 n=2 traffic=uniform per_input=1",
        "topology=mesh k=8 n=2 traffic=uniform per_input=4",
        "topology=mesh k=4 n=2 traffic=uniform per_input=8",
        "topology=chain k=24 traffic=tornado per_input=1",
        "topology=torus k=6 n=2 traffic=randperm per_input=2",
        "topology=cms_lower_bound B=1 C=4 D=9 L=12 traffic=paths",
        "topology=ring k=8 traffic=neighbor per_input=1",
        "topology=cms_lower_bound B=1 C=2 D=9 L=12 traffic=paths",
        NULL};
    int seen[4] = {0};
    for (int i = 0; kvs[i]; i++) {
        struct inst x;
        inst_build(&x, kvs[i]);
        for (uint32_t B = 1; B <= 3; B++) {
            struct rs__cr_plan pl;
            plan_of(&x.ps, B, 10, 5, &pl, kvs[i]);
            seen[pl.thm_case]++;
            if (getenv("RS_TEST_VERBOSE")) { /* the table of docs/colour-refine.md */
                uint64_t res = 0;
                for (int s = 0; s < pl.n_steps; s++)
                    res += pl.steps[s].resamples;
                double bound = rs_bound_colour_refine(10, pl.congestion, pl.dilation, B);
                print_message("| %s | %u | %llu | %u | %u | %d | %d | %.4g | %llu | %llu | %llu | "
                              "%.4g | %.3f |\n",
                              kvs[i], B, (unsigned long long)pl.n_msgs, pl.congestion,
                              pl.dilation, (int)pl.thm_case, pl.n_steps, pl.kappa,
                              (unsigned long long)res, (unsigned long long)pl.n_classes,
                              (unsigned long long)pl.length, bound, (double)pl.length / bound);
            }
            rs__cr_plan_free(&pl);
        }
        inst_free(&x);
    }
    for (int c = 0; c < 4; c++)
        if (!seen[c]) {
            print_error("no instance reached case %d\n", c);
            fail();
        }
}

/* The same paths, B, L and seed give the same plan; another seed another colouring. */
static void test_pure_function_of_the_seed(void **state)
{
    struct inst x;
    struct rs__cr_plan a, b, c;
    inst_build(&x, "topology=mesh k=8 n=2 traffic=uniform per_input=4");
    plan_of(&x.ps, 2, 8, 11, &a, "a");
    plan_of(&x.ps, 2, 8, 11, &b, "b");
    plan_of(&x.ps, 2, 8, 12, &c, "c");
    assert_int_equal(a.n_classes, b.n_classes);
    assert_memory_equal(a.colour, b.colour, a.n_msgs * sizeof *a.colour);
    assert_memory_equal(a.release, b.release, a.n_msgs * sizeof *a.release);
    for (int s = 0; s < a.n_steps; s++)
        assert_int_equal(a.steps[s].resamples, b.steps[s].resamples);
    assert_true(memcmp(a.colour, c.colour, a.n_msgs * sizeof *a.colour) != 0);
    rs__cr_plan_free(&a);
    rs__cr_plan_free(&b);
    rs__cr_plan_free(&c);
    inst_free(&x);
}

/* On the lower-bound network every B+1 messages share an edge, so a class holds at most B
 * messages: at least ceil(M/B) classes, and the schedule is at least the proof's bound
 * (L-D)M/B. With B=1 every message is alone in its class. */
static void test_lower_bound_network(void **state)
{
    for (uint32_t B = 1; B <= 2; B++) {
        char kv[128];
        struct inst x;
        struct rs__cr_plan pl;
        uint32_t C = 2 * (B + 1), D = 8, L = 16;
        snprintf(kv, sizeof kv, "topology=cms_lower_bound B=%u C=%u D=%u L=%u traffic=paths",
                 B, C, D, L);
        inst_build(&x, kv);
        plan_of(&x.ps, B, L, 3, &pl, kv);
        uint64_t M = x.pb.n_msgs;
        assert_true(pl.n_classes >= (M + B - 1) / B);
        if (B == 1)
            assert_int_equal(pl.n_classes, M);
        assert_true((double)pl.length >= rs_bound_cms_lower_explicit(L, D, (double)M, B));
        rs__cr_plan_free(&pl);
        inst_free(&x);
    }
}

/* A hand-made path set: n messages all on channels first, first+1, ... (len channels). */
static void same_path(struct rs_path_set *ps, uint64_t n, uint32_t len, uint64_t first)
{
    ps->n_msgs = n;
    ps->off = malloc((n + 1) * sizeof *ps->off);
    ps->chan = malloc((n * len + 1) * sizeof *ps->chan);
    assert_non_null(ps->off);
    assert_non_null(ps->chan);
    for (uint64_t m = 0; m <= n; m++)
        ps->off[m] = m * len;
    for (uint64_t h = 0; h < n * len; h++)
        ps->chan[h] = first + h % len;
}

/* C = 30000 messages on one 2-hop path (D = 2, B = 1): case 2 with one step of condition 3
 * (15 ln^3 30000 = 16433.7, r = 30000 / ((1 - 1/ln 30000) 16433.7) = 2.02 -> 3), then
 * condition 2 to m_f = 1. Every class then holds one message: 30000 classes, and the
 * schedule is 30000 * (L + 1) flit steps. */
static void test_condition_3(void **state)
{
    struct rs_path_set ps;
    struct rs__cr_plan pl;
    same_path(&ps, 30000, 2, 40);
    plan_of(&ps, 1, 5, 1, &pl, "30000 on one path");
    assert_int_equal(pl.thm_case, RS__CR_CASE2);
    assert_int_equal(pl.n_steps, 2);
    assert_int_equal(pl.steps[0].condition, 3);
    assert_int_equal(pl.steps[0].m_f, 16433);
    assert_int_equal(pl.steps[0].r, 3);
    assert_int_equal(pl.steps[0].classes, 3);
    assert_int_equal(pl.steps[1].condition, 2);
    assert_int_equal(pl.steps[1].r, 1429425); /* 32e * 16433 / log 2 */
    assert_int_equal(pl.n_classes, 30000);
    assert_int_equal(pl.length, 30000 * 6);
    if (getenv("RS_TEST_VERBOSE"))
        print_message("30000 messages on one 2-hop path: resamplings %llu + %llu\n",
                      (unsigned long long)pl.steps[0].resamples,
                      (unsigned long long)pl.steps[1].resamples);
    rs__cr_plan_free(&pl);
    rs_path_set_free(&ps);
}

/* 2000 messages on one channel, B = 1: condition 2 with r = 32e * 2000 = 173971 colours and
 * m_f = 1; about 2000^2 / (2 * 173971) = 11.5 pairs collide, so resampling is needed. With
 * max_resamples = 1 the step fails with a clear error; with the default it finishes. */
static void test_resampling_cap(void **state)
{
    struct rs_path_set ps;
    struct rs__cr_plan pl;
    struct rs_err err;
    same_path(&ps, 2000, 1, 9);
    struct rs__cr_input in = {&ps, 1, 4, 1, 1, RS__CR_PROOF};
    assert_int_equal(rs__cr_plan_build(&pl, &in, &err), RS_ECONSTRAINT);
    assert_string_equal(err.msg, "colour refinement: step 1 (Lemma 2.1.5 condition 2, m_f=1, "
                                 "r=173971) still has a bad event after 1 resamplings "
                                 "(max_resamples)");
    assert_null(pl.colour);
    in.max_resamples = 0;
    assert_int_equal(rs__cr_plan_build(&pl, &in, &err), 0);
    check_plan(&ps, &pl, 1, 4, "2000 on one channel");
    assert_true(pl.steps[0].resamples >= 2);
    if (getenv("RS_TEST_VERBOSE"))
        print_message("2000 messages on one channel: %llu resamplings\n",
                      (unsigned long long)pl.steps[0].resamples);
    assert_int_equal(pl.n_classes, 2000);
    rs__cr_plan_free(&pl);
    rs_path_set_free(&ps);
}

/* C <= B: one class released at 0, L+D-1 flit steps; no messages: no classes. */
static void test_few_and_none(void **state)
{
    struct rs_path_set ps;
    struct rs__cr_plan pl;
    same_path(&ps, 3, 4, 0);
    plan_of(&ps, 3, 5, 1, &pl, "3 on one path");
    assert_int_equal(pl.thm_case, RS__CR_FEW);
    assert_int_equal(pl.n_steps, 0);
    assert_int_equal(pl.n_classes, 1);
    assert_int_equal(pl.length, 5 + 4 - 1);
    rs__cr_plan_free(&pl);
    rs_path_set_free(&ps);
    same_path(&ps, 0, 1, 0);
    plan_of(&ps, 1, 5, 1, &pl, "nothing");
    assert_int_equal(pl.n_classes, 0);
    assert_int_equal(pl.length, 0);
    rs__cr_plan_free(&pl);
    rs_path_set_free(&ps);
}

static void test_input_errors(void **state)
{
    struct rs_path_set ps;
    struct rs__cr_plan pl;
    struct rs_err err;
    same_path(&ps, 2, 3, 5);
    ps.chan[5] = 5; /* message 1: channels 5 6 5 */
    struct rs__cr_input in = {&ps, 1, 4, 1, 0, RS__CR_PROOF};
    assert_int_equal(rs__cr_plan_build(&pl, &in, &err), RS_EINVAL);
    assert_string_equal(err.msg, "message 1 takes channel 5 twice: the colour-refinement "
                                 "schedule needs edge-simple paths (001 §1.4)");
    in.B = 0;
    assert_int_equal(rs__cr_plan_build(&pl, &in, &err), RS_EINVAL);
    assert_string_equal(err.msg, "colour refinement needs B >= 1 and L >= 1 (got B=0 L=4)");
    assert_null(pl.release);
    rs_path_set_free(&ps);
}

/* colour_constants=tight on hand-made and real path sets: every step's r is at most the
 * lemma's, the plan keeps every promise of check_plan, and it is a pure function of the
 * seed.
 * Two messages on one 16-hop path, B = 1: C = 2 <= log 16, case 1, the lemma's r = 3e (16 *
 * 2)^1 * 2 = 521.9 -> 522. Two colours are the least (both messages share every edge), and
 * Moser-Tardos with r = 2 only has to draw two different colours. The search: r = 522
 * converges; the bracket (1, 522] narrows by geometric means to floor(sqrt(522)) = 22,
 * floor(sqrt(22)) = 4, then halves: 2 converges, and (1, 2] is closed: r = 2, 3 trials,
 * 2 classes. */
static void test_tight_constants(void **state)
{
    struct rs_path_set ps;
    struct rs__cr_plan pl;
    struct rs_err err;
    same_path(&ps, 2, 16, 3);
    struct rs__cr_input in = {&ps, 1, 4, 9, 0, RS__CR_TIGHT};
    assert_int_equal(rs__cr_plan_build(&pl, &in, &err), 0);
    check_plan(&ps, &pl, 1, 4, "two on one path");
    assert_int_equal(pl.n_steps, 1);
    assert_int_equal(pl.steps[0].r_proof, 522);
    assert_int_equal(pl.steps[0].r, 2);
    assert_int_equal(pl.steps[0].trials, 3);
    assert_int_equal(pl.n_classes, 2);
    assert_true(pl.kappa == 2);
    rs__cr_plan_free(&pl);
    rs_path_set_free(&ps);

    static const char *const kvs[] = {
        "topology=mesh k=8 n=2 traffic=uniform per_input=4",
        "topology=torus k=6 n=2 traffic=randperm per_input=2",
        "topology=cms_lower_bound B=1 C=4 D=9 L=12 traffic=paths",
        NULL};
    for (int i = 0; kvs[i]; i++) {
        struct inst x;
        inst_build(&x, kvs[i]);
        for (uint32_t B = 1; B <= 3; B++) {
            struct rs__cr_plan proof, tight, again;
            struct rs__cr_input ti = {&x.ps, B, 10, 5, 0, RS__CR_TIGHT};
            plan_of(&x.ps, B, 10, 5, &proof, kvs[i]);
            assert_int_equal(rs__cr_plan_build(&tight, &ti, &err), 0);
            assert_int_equal(rs__cr_plan_build(&again, &ti, &err), 0);
            check_plan(&x.ps, &tight, B, 10, kvs[i]);
            assert_int_equal(tight.n_steps, proof.n_steps);
            for (int s = 0; s < tight.n_steps; s++) {
                const struct rs__cr_step *st = &tight.steps[s];
                assert_int_equal(st->r_proof, proof.steps[s].r);
                assert_true(st->r >= 1 && st->r <= st->r_proof);
            }
            assert_memory_equal(tight.colour, again.colour, tight.n_msgs * sizeof *tight.colour);
            if (strstr(kvs[i], "cms_lower_bound") && B == 1) /* every pair shares an edge */
                assert_int_equal(tight.n_classes, tight.n_msgs);
            if (getenv("RS_TEST_VERBOSE")) {
                print_message("| %s | %u | %u | %u | %llu |", kvs[i], B, tight.congestion,
                              tight.dilation, (unsigned long long)proof.n_classes);
                for (int s = 0; s < tight.n_steps; s++)
                    print_message(" %llu->%llu (%u trials)",
                                  (unsigned long long)tight.steps[s].r_proof,
                                  (unsigned long long)tight.steps[s].r, tight.steps[s].trials);
                print_message(" | %llu |\n", (unsigned long long)tight.n_classes);
            }
            rs__cr_plan_free(&proof);
            rs__cr_plan_free(&tight);
            rs__cr_plan_free(&again);
        }
        inst_free(&x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps_of_the_cases),
        cmocka_unit_test(test_plans_keep_every_class_within_b),
        cmocka_unit_test(test_pure_function_of_the_seed),
        cmocka_unit_test(test_lower_bound_network),
        cmocka_unit_test(test_condition_3),
        cmocka_unit_test(test_resampling_cap),
        cmocka_unit_test(test_few_and_none),
        cmocka_unit_test(test_input_errors),
        cmocka_unit_test(test_tight_constants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
