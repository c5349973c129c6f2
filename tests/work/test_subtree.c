/* traffic=subtree_cross: every permutation is one, every message stays in its subtree of
 * the given height and crosses to the other half (peak log N - height), and the load factor
 * it promises, lambda = eta = q 2^floor(height/2), is what the analysis measures on the
 * pruned butterfly (N = 64) and the area-universal fat_tree with odd log N (N = 32). */
#include "rs_test.h"

#include "routesim/load_factor.h"

static void check_one(const char *topo, uint32_t g, uint32_t q)
{
    char kv[160];
    struct rs_params p;
    struct rs_net net;
    struct rs_problem pb;
    struct rs_load_factor lf;
    struct rs_err err;
    snprintf(kv, sizeof kv, "%s traffic=subtree_cross height=%u per_input=%u", topo, g, q);
    rs_test_params(&p, kv);
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    assert_int_equal(rs_problem_build(&pb, &net, &p, 11, &err), 0);
    const struct rs__ftree *ft = rs__ftree_of(&net);
    uint32_t N = ft->N, n = ft->n, G = g ? g : n;
    uint8_t *hit = calloc(N, 1);
    assert_non_null(hit);
    for (uint32_t k = 0; k < q; k++) {
        memset(hit, 0, N);
        for (uint32_t s = 0; s < N; s++) {
            uint32_t t = pb.dst[(uint64_t)s * q + k];
            assert_int_equal(hit[t]++, 0);                /* a permutation */
            assert_int_equal(rs__ft_peak(ft, s, t), n - G); /* the other half of the subtree */
        }
    }
    assert_int_equal(rs_load_factor_compute(&lf, ft, &pb, &err), 0);
    double want = (double)q * (double)(1u << (G / 2));
    if (lf.load_factor != want || lf.reference_load_factor != want) {
        print_error("%s: lambda %g eta %g, want %g\n", kv, lf.load_factor,
                    lf.reference_load_factor, want);
        fail();
    }
    assert_int_equal(lf.degree, q);
    assert_int_equal(lf.peak_hist[n - G], (uint64_t)N * q);
    rs_load_factor_free(&lf);
    free(hit);
    rs_problem_free(&pb);
    rs_net_free(&net);
    rs_params_free(&p);
}

static void test_promised_load_factor(void **state)
{
    (void)state;
    for (uint32_t g = 0; g <= 6; g++)
        for (uint32_t q = 1; q <= 3; q += 2)
            check_one("topology=pruned_butterfly N=64", g, q);
    for (uint32_t g = 1; g <= 5; g++)
        check_one("topology=fat_tree N=32", g, 2);
}

/* Different seeds give different sets; the same seed the same set. */
static void test_seeded(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_net net;
    struct rs_problem a, b, c;
    struct rs_err err;
    rs_test_params(&p, "topology=pruned_butterfly N=256 traffic=subtree_cross height=6");
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    assert_int_equal(rs_problem_build(&a, &net, &p, 1, &err), 0);
    assert_int_equal(rs_problem_build(&b, &net, &p, 1, &err), 0);
    assert_int_equal(rs_problem_build(&c, &net, &p, 2, &err), 0);
    assert_memory_equal(a.dst, b.dst, 256 * sizeof *a.dst);
    assert_memory_not_equal(a.dst, c.dst, 256 * sizeof *a.dst);
    rs_problem_free(&a);
    rs_problem_free(&b);
    rs_problem_free(&c);
    rs_net_free(&net);
    rs_params_free(&p);
}

static void test_errors(void **state)
{
    (void)state;
    char msg[256];
    struct rs_record rec;
    assert_int_equal(rs_test_try("topology=fat_tree N=16 traffic=subtree_cross height=5", 0,
                                 &rec, msg, sizeof msg),
                     RS_ECONSTRAINT);
    rs_record_free(&rec);
    assert_string_equal(msg, "traffic=subtree_cross needs height <= log2 N = 4 (got height=5)");
    assert_int_equal(rs_test_try("topology=mesh k=3 n=2 traffic=subtree_cross", 0, &rec, msg,
                                 sizeof msg),
                     RS_ECONSTRAINT);
    rs_record_free(&rec);
    assert_string_equal(msg, "traffic=subtree_cross needs N a power of two (got N=9)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_promised_load_factor),
        cmocka_unit_test(test_seeded),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
