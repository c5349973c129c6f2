/* algorithm=offline through the circuit engine (002 §4.1, Theorem 3): every permutation of
 * CB-LCAN(8,2,2) in one conflict-free cycle, random permutations of CB-LCAN(27,3,3),
 * CB-LCAN(64,4,2) (d > u: (d/u)^(l-1) = 4 cycles), d < u and u = 1, both groupings of the
 * embeddings and both turn levels; a hand-checked plan on CB-LCAN(16,4,2); the identity;
 * and every refusal (not a permutation, T-LCANs, per-level sizes, d > u not a multiple of
 * u, keys the plan overrides). The invariant checker runs on every engine run here. */
#include "rs_test.h"

#include "routesim/algo.h"
#include "routesim/engine.h"
#include "routesim/problem.h"
#include "routesim/rng.h"

/* Run the algorithm named in the fixture's parameters on its (possibly rewritten)
 * problem, checker on. */
static int fx_run(struct rs_test_fixture *f, const char *algo, struct rs_record *rec,
                  struct rs_err *err)
{
    struct rs_engine_input in = {.net = &f->net, .pb = &f->pb, .params = &f->p,
                                 .routing = RS_ROUTING_DIRECT, .seed = 1, .check = 1};
    rs_record_init(rec);
    rs_err_clear(err);
    return rs_algo_find(algo)->run(&in, rs_engine_find("circuit"), rec, NULL, 0, err);
}

/* Run and require: no conflict, everything delivered, cycles == want_cycles (0: at most
 * the bound), bound_cycles == bound. */
static void expect_clean(struct rs_test_fixture *f, uint32_t want_cycles, uint32_t bound,
                         const char *what)
{
    struct rs_record r;
    struct rs_err err;
    if (fx_run(f, "offline", &r, &err))
        fail_msg("%s: %s", what, err.msg);
    int64_t cycles = rs_test_int(&r, "cycles"), conflicts = rs_test_int(&r, "conflicts");
    if (conflicts != 0 || rs_test_int(&r, "delivered") != (int64_t)f->pb.n_msgs ||
        rs_test_int(&r, "bound_cycles") != bound ||
        (want_cycles ? cycles != want_cycles : cycles > bound))
        fail_msg("%s: cycles %lld conflicts %lld bound %lld", what, (long long)cycles,
                 (long long)conflicts, (long long)rs_test_int(&r, "bound_cycles"));
    rs_record_free(&r);
}

/* The acceptance case: all 8! = 40320 permutations of CB-LCAN(8,2,2) route in exactly one
 * cycle without a conflict, turning at the LCA level (default) and at the top. */
static void test_every_permutation_baseline8(void **state)
{
    for (int top = 0; top < 2; top++) {
        struct rs_test_fixture f;
        const char *kv = top ? "topology=baseline N=8 traffic=identity switching=circuit turn=top"
                             : "topology=baseline N=8 traffic=identity switching=circuit";
        rs_test_fx_open(&f, kv, 1);
        uint32_t *p = f.pb.dst, c[8] = {0}, count = 0;
        for (uint32_t i = 0;;) {
            expect_clean(&f, 1, 1, "baseline N=8");
            count++;
            while (i < 8 && c[i] >= i) {
                c[i] = 0;
                i++;
            }
            if (i == 8)
                break;
            uint32_t k = i % 2 ? c[i] : 0, t = p[k];
            p[k] = p[i];
            p[i] = t;
            c[i]++;
            i = 1;
        }
        assert_int_equal(count, 40320);
        rs_test_fx_close(&f);
    }
}

/* `reps` random permutations (RS_STREAM_TEST) of the fixture's network. */
static void random_permutations(const char *kv, uint32_t reps, uint32_t want_cycles,
                                uint32_t bound)
{
    struct rs_test_fixture f;
    rs_test_fx_open(&f, kv, 1);
    for (uint32_t r = 0; r < reps; r++) {
        rs_random_permutation(f.pb.dst, f.pb.n_terminals, 3, RS_STREAM_TEST, r);
        expect_clean(&f, want_cycles, bound, kv);
    }
    rs_test_fx_close(&f);
}

/* The larger networks, 2000 random permutations each (the 10^5 of the acceptance
 * run are in docs/lcan-realization.md): CB-LCAN(27,3,3) in 1 cycle; CB-LCAN(64,4,2), d > u,
 * in (4/2)^2 = 4 cycles (every embedding carries circuits: a cycle is empty only when all
 * its circuits were s = d, which 2000 random permutations of 64 never give), both
 * groupings, both turn levels. */
static void test_random_acceptance(void **state)
{
    random_permutations("topology=lcan N=27 d=3 u=3 traffic=identity switching=circuit", 2000,
                        1, 1);
    random_permutations("topology=lcan N=64 d=4 u=2 traffic=identity switching=circuit", 2000,
                        4, 4);
    random_permutations("topology=lcan N=64 d=4 u=2 traffic=identity switching=circuit "
                        "grouping=blocks turn=top",
                        500, 4, 4);
    random_permutations("topology=lcan N=64 d=4 u=2 traffic=identity switching=circuit "
                        "turn=top",
                        500, 4, 4);
}

/* Other shapes: d < u (CB-LCAN(16,2,4) embeds (16,2,2): 1 cycle), u = 1 (4^2 = 16 cycles
 * on CB-LCAN(64,4,1)), l = 1 (one switch), N = 3^4 and 4^4 with d = u, d/u = 3 with
 * l = 3 (CB-LCAN(729,9,3): 9 cycles), the CM-5 of 64 PEs (u = 2,2 below its top, so it is
 * CB-LCAN(64,4,2)), and the circuits = 2 capacity. */
static void test_shapes(void **state)
{
    random_permutations("topology=lcan N=16 d=2 u=4 traffic=identity switching=circuit", 200, 1,
                        1);
    random_permutations("topology=lcan N=64 d=4 u=1 traffic=identity switching=circuit", 50, 16,
                        16);
    random_permutations("topology=lcan N=4 d=4 u=4 traffic=identity switching=circuit", 20, 1, 1);
    random_permutations("topology=lcan N=81 d=3 u=3 traffic=identity switching=circuit", 100, 1,
                        1);
    random_permutations("topology=lcan N=256 d=4 u=4 traffic=identity switching=circuit", 50, 1,
                        1);
    random_permutations("topology=lcan N=729 d=9 u=3 traffic=identity switching=circuit", 10, 9,
                        9);
    random_permutations("topology=lcan N=729 d=9 u=3 traffic=identity switching=circuit "
                        "grouping=blocks",
                        10, 9, 9);
    random_permutations("topology=cm5 N=64 traffic=identity switching=circuit", 50, 4, 4);
    random_permutations("topology=lcan N=64 d=4 u=2 traffic=identity switching=circuit "
                        "circuits=2",
                        20, 4, 4);
}

/* CB-LCAN(16,4,2) (l = 2, d/u = 2), bitcomp: PE 4a+b -> 4(3-a)+(3-b), every pair of LCA
 * level 1. Level 0 of the LPV route is the graph a -> 3-a with 4 parallel edges each; the
 * colouring gives PE 4a+b a distinct k'_0 in 0..3 among b = 0..3, so each top switch k' of
 * CB-LCAN(16,4,4) carries one PE of every level-0 switch, and the embeddings are
 * k' div 2 (cycles 1 and 2) on the real top switches k' mod 2: 8 circuits per cycle, each
 * real top switch getting 4 that arrive on distinct downers and leave on distinct downers
 * (the destinations' level-0 switches 3-a are distinct). */
static void test_hand_checked_plan(void **state)
{
    struct rs_test_fixture f;
    struct rs_record r;
    struct rs_err err;
    rs_test_fx_open(&f, "topology=lcan N=16 d=4 u=2 traffic=bitcomp switching=circuit", 1);
    assert_int_equal(fx_run(&f, "offline", &r, &err), 0);
    assert_string_equal(rs_record_get(&r, "delivered_per_cycle")->s, "8;8");
    assert_int_equal(rs_test_int(&r, "conflicts"), 0);
    assert_int_equal(rs_test_int(&r, "bound_cycles"), 2);
    /* 16 circuits of 4 channels (PE link, up, down, PE link) */
    assert_int_equal(rs_test_int(&r, "locks"), 64);
    rs_record_free(&r);
    rs_test_fx_close(&f);
}

/* The identity needs no channel (002 §4.1: "the identity permutation requires exactly one
 * cycle in any LCAN"): one cycle also when the bound is 4; a permutation moving a single
 * pair of PEs (0 <-> 1, same level-0 switch) is one cycle too, and with turn=top its
 * circuits go up to the top and back (2 x 6 channels). */
static void test_identity_and_small(void **state)
{
    struct rs_test_fixture f;
    struct rs_record r;
    struct rs_err err;
    rs_test_fx_open(&f, "topology=lcan N=64 d=4 u=2 traffic=identity switching=circuit", 1);
    expect_clean(&f, 1, 4, "identity");
    f.pb.dst[0] = 1;
    f.pb.dst[1] = 0;
    assert_int_equal(fx_run(&f, "offline", &r, &err), 0);
    assert_int_equal(rs_test_int(&r, "locks"), 4); /* LCA level 0: PE link up and down */
    assert_int_equal(rs_test_int(&r, "conflicts"), 0);
    rs_record_free(&r);
    rs_test_fx_close(&f);
    rs_test_fx_open(&f, "topology=lcan N=64 d=4 u=2 traffic=identity switching=circuit turn=top", 1);
    f.pb.dst[0] = 1;
    f.pb.dst[1] = 0;
    assert_int_equal(fx_run(&f, "offline", &r, &err), 0);
    assert_int_equal(rs_test_int(&r, "locks"), 12);
    assert_int_equal(rs_test_int(&r, "conflicts"), 0);
    rs_record_free(&r);
    rs_test_fx_close(&f);
}

static void test_refusals(void **state)
{
    rs_test_expect_error("topology=lcan N=16 d=4 u=4 traffic=randperm per_input=2 switching=circuit "
                 "algorithm=offline",
                 RS_ECONSTRAINT,
                 "algorithm=offline routes a permutation: every PE sends one message and "
                 "receives one, got 32 messages for 16 PEs");
    /* uniform with seed 1 sends two messages to one PE */
    struct rs_record r;
    char got[1024];
    assert_int_equal(rs_test_try("topology=lcan N=16 d=4 u=4 traffic=uniform switching=circuit "
                                 "algorithm=offline",
                                 1, &r, got, sizeof got),
                     RS_ECONSTRAINT);
    assert_non_null(strstr(got, "receives two messages"));
    rs_record_free(&r);
    rs_test_expect_error("topology=lcan N=64 d=4 u=2 pi=tree traffic=randperm switching=circuit "
                 "algorithm=offline",
                 RS_EUNSUPPORTED,
                 "algorithm=offline needs a CB-LCAN (pi=cb): 002 §4 realizes permutations on "
                 "the Beneš-like unfolding of a complete bipartite interconnect");
    rs_test_expect_error("topology=cm5 N=256 traffic=randperm switching=circuit algorithm=offline",
                 RS_EUNSUPPORTED,
                 "algorithm=offline needs one d on every level and one u on every level below "
                 "the top (CB-LCAN(N,d,u) of 002 §4); topology=cm5 has d=4,4,4,4, u=2,2,4 below "
                 "the top");
    rs_test_expect_error("topology=trac N=27 traffic=randperm switching=circuit algorithm=offline",
                 RS_EUNSUPPORTED,
                 "algorithm=offline needs d <= u or d a multiple of u (Theorem 3 of 002 §4.1); "
                 "got d=3 u=2");
    rs_test_expect_error("topology=lcan N=16 d=4 u=4 traffic=randperm switching=circuit "
                 "algorithm=offline up=fixed",
                 RS_EUNSUPPORTED,
                 "command line: key 'up' has no effect with algorithm=offline: the plan fixes "
                 "every up choice");
    rs_test_expect_error("topology=lcan N=16 d=4 u=4 traffic=randperm switching=circuit "
                 "algorithm=offline grouping=blocks",
                 RS_EUNSUPPORTED,
                 "command line: key 'grouping' has no effect with algorithm=offline: with d <= "
                 "u there is one embedding (Theorem 3, cases 1-2)");
    /* algorithm=offline fixes its model: without switching= it runs on circuit, another
     * switching= is refused naming both */
    rs_test_expect_error("topology=lcan N=16 d=4 u=4 traffic=randperm switching=store_forward "
                 "algorithm=offline",
                 RS_EUNSUPPORTED, "algorithm=offline needs switching=circuit (got store_forward)");
    rs_test_expect_error("topology=butterfly N=16 traffic=randperm switching=circuit algorithm=offline",
                 RS_EUNSUPPORTED,
                 "algorithm=offline needs topology=lcan|baseline|swbanyan|trac|cm5|benes (got "
                 "butterfly)");
}

/* Through rs_run: the record names the algorithm and its options, and the same seed gives
 * the same record. */
static void test_run_record(void **state)
{
    struct rs_record a, b;
    const char *kv = "topology=lcan N=64 d=4 u=2 traffic=randperm switching=circuit "
                     "algorithm=offline seed=5";
    rs_test_run(kv, &a);
    rs_test_run(kv, &b);
    assert_int_equal(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        assert_string_equal(a.f[i].name, b.f[i].name);
        assert_int_equal(a.f[i].i, b.f[i].i);
    }
    assert_string_equal(rs_record_get(&a, "algorithm")->s, "offline");
    assert_string_equal(rs_record_get(&a, "turn")->s, "lca");
    assert_string_equal(rs_record_get(&a, "grouping")->s, "consecutive");
    assert_int_equal(rs_test_int(&a, "cycles"), 4);
    assert_int_equal(rs_test_int(&a, "conflicts"), 0);
    rs_record_free(&a);
    rs_record_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_permutation_baseline8),
        cmocka_unit_test(test_random_acceptance),
        cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_hand_checked_plan),
        cmocka_unit_test(test_identity_and_small),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_run_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
