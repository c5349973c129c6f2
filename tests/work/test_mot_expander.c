/* traffic=mot_expander (000 §5): the mesh of trees of N = 16 worked by hand (grid 4 x 4,
 * shuffle-major labels), the expander on Z_2 x Z_2 by hand, the vertex and edge counts of
 * MOT(n) for larger grids, and Lemma 13 measured: eta(M) = Theta(eta) (between eta and 3 eta
 * for N = 2^8 .. 2^16, every eta), constant for the MOT alone. */
#include "rs_test.h"

#include "routesim/load_factor.h"

static void build(const char *kv, struct rs_net *net, struct rs_problem *pb)
{
    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, kv);
    assert_int_equal(rs_net_build(net, &p, &err), 0);
    if (rs_problem_build(pb, net, &p, 1, &err))
        fail_msg("%s: %s", kv, err.msg);
    rs_params_free(&p);
}

/* N = 16, eta = 1: m = 2, the 4 x 4 grid, k = 1: leaves (0,0) (0,2) (2,0) (2,2) with
 * labels 0, 4, 8, 12 (r1 c1 r0 c0); row roots (0,1) = 1 and (2,1) = 9, column roots
 * (1,0) = 2 and (1,2) = 6. Edges child -> parent in row-major order of the child, row edge
 * first: 0->1 0->2, 4->1 4->6, 8->9 8->2, 12->9 12->6. n = 3 4^k - 2^(k+1) = 8 vertices. */
static void test_mot_16_by_hand(void **state)
{
    (void)state;
    static const uint32_t src[8] = {0, 0, 4, 4, 8, 8, 12, 12}, dst[8] = {1, 2, 1, 6, 9, 2, 9, 6};
    struct rs_net net;
    struct rs_problem pb;
    build("topology=pruned_butterfly N=16 traffic=mot_expander", &net, &pb);
    assert_int_equal(pb.n_msgs, 8);
    assert_int_equal(pb.per_input, 2);
    for (int m = 0; m < 8; m++) {
        assert_int_equal(rs_problem_src(&pb, m), src[m]);
        assert_int_equal(pb.dst[m], dst[m]);
    }
    rs_problem_free(&pb);
    rs_net_free(&net);
}

/* N = 16, eta = 2: m = 1, one MOT vertex (grid point 0) crossed with Z_2 x Z_2, x = 2a + b
 * joined to (a, a+b), (a, a+b+1), (a+b, b), (a+b+1, b) without self-loops or repeats:
 * 0 -> 1, 2; 1 -> 0, 3; 2 -> 3, 0; 3 -> 2, 1. */
static void test_expander_by_hand(void **state)
{
    (void)state;
    static const uint32_t src[8] = {0, 0, 1, 1, 2, 2, 3, 3}, dst[8] = {1, 2, 0, 3, 3, 0, 2, 1};
    struct rs_net net;
    struct rs_problem pb;
    build("topology=fat_tree N=16 traffic=mot_expander eta=2", &net, &pb);
    assert_int_equal(pb.n_msgs, 8);
    for (int m = 0; m < 8; m++) {
        assert_int_equal(rs_problem_src(&pb, m), src[m]);
        assert_int_equal(pb.dst[m], dst[m]);
    }
    rs_problem_free(&pb);
    rs_net_free(&net);
}

/* MOT(n) alone (eta = 1) on N = 4^m: 3 4^k - 2^(k+1) vertices (k = m - 1) touched, 2 2^k
 * trees of 2^(k+1) - 2 edges each; and its reference load factor is the constant 3 from
 * N = 2^10 on (Lemma 13's first step). */
static void test_mot_counts(void **state)
{
    (void)state;
    for (uint32_t m = 2; m <= 8; m++) {
        char kv[96];
        struct rs_net net;
        struct rs_problem pb;
        struct rs_load_factor lf;
        struct rs_err err;
        snprintf(kv, sizeof kv, "topology=pruned_butterfly N=%u traffic=mot_expander",
                 1u << (2 * m));
        build(kv, &net, &pb);
        uint32_t k = m - 1, N = 1u << (2 * m), touched = 0;
        assert_int_equal(pb.n_msgs, 2ull * (1u << k) * ((1u << (k + 1)) - 2));
        uint8_t *seen = calloc(N, 1);
        assert_non_null(seen);
        for (uint64_t x = 0; x < pb.n_msgs; x++)
            seen[rs_problem_src(&pb, x)] = seen[pb.dst[x]] = 1;
        for (uint32_t t = 0; t < N; t++)
            touched += seen[t];
        assert_int_equal(touched, 3 * (1u << (2 * k)) - (1u << (k + 1)));
        assert_int_equal(rs_load_factor_compute(&lf, rs__ftree_of(&net), &pb, &err), 0);
        if (m >= 5)
            assert_true(lf.reference_load_factor == 3.0);
        rs_load_factor_free(&lf);
        free(seen);
        rs_problem_free(&pb);
        rs_net_free(&net);
    }
}

/* Lemma 13: eta(M) = Theta(eta). Measured here: eta <= eta(M) <= 3 eta for every power of
 * two eta with N / eta^2 >= 4, N = 2^8 .. 2^16; lambda = eta(M) on the pruned butterfly. */
static void test_lemma13(void **state)
{
    (void)state;
    for (uint32_t n = 8; n <= 16; n += 2)
        for (uint32_t eta = 1; 4u * eta * eta <= (1u << n); eta *= 2) {
            char kv[128];
            struct rs_net net;
            struct rs_problem pb;
            struct rs_load_factor lf;
            struct rs_err err;
            snprintf(kv, sizeof kv, "topology=pruned_butterfly N=%u traffic=mot_expander eta=%u",
                     1u << n, eta);
            build(kv, &net, &pb);
            assert_int_equal(rs_load_factor_compute(&lf, rs__ftree_of(&net), &pb, &err), 0);
            if (lf.reference_load_factor < eta || lf.reference_load_factor > 3.0 * eta ||
                lf.load_factor != lf.reference_load_factor)
                fail_msg("%s: eta(M) = %g, lambda = %g", kv, lf.reference_load_factor,
                         lf.load_factor);
            assert_true(lf.degree <= 6);
            rs_load_factor_free(&lf);
            rs_problem_free(&pb);
            rs_net_free(&net);
        }
}

static void test_errors(void **state)
{
    (void)state;
    char msg[256];
    struct rs_record rec;
    assert_int_equal(rs_test_try("topology=fat_tree N=32 traffic=mot_expander", 0, &rec, msg,
                                 sizeof msg),
                     RS_ECONSTRAINT);
    rs_record_free(&rec);
    assert_string_equal(msg, "traffic=mot_expander needs eta a power of two with N / eta^2 a "
                             "power of 4 of at least 4 (got N=32 eta=1)");
    assert_int_equal(rs_test_try("topology=fat_tree N=64 traffic=mot_expander eta=8", 0, &rec,
                                 msg, sizeof msg),
                     RS_ECONSTRAINT);
    rs_record_free(&rec);
    assert_int_equal(rs_test_try("topology=fat_tree N=64 traffic=mot_expander eta=3", 0, &rec,
                                 msg, sizeof msg),
                     RS_ECONSTRAINT);
    rs_record_free(&rec);
    assert_int_equal(rs_test_try("topology=fat_tree N=64 traffic=mot_expander per_input=2", 0,
                                 &rec, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mot_16_by_hand), cmocka_unit_test(test_expander_by_hand),
        cmocka_unit_test(test_mot_counts),     cmocka_unit_test(test_lemma13),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
