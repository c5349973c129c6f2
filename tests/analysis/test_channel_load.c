/* Channel-load analysis (src/analysis/channel_load.c): exact loads on small chains, meshes
 * and tori worked by hand, Valiant's doubling, the minimal-routing bound and refusals. */
#include <math.h>

#include "routesim/channel_load.h"
#include "rs_test.h"

/* |got - want| <= tol, in double precision (cmocka's float assertion rounds to float). */
#define assert_double_equal(got, want, tol) near((got), (want), (tol), #got, __LINE__)
static void near(double got, double want, double tol, const char *what, int line)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("line %d: %s = %.17g, want %.17g", line, what, got, want);
}

/* Analyse kv (network, traffic, routing) into cl; load (may be NULL) gets every channel's. */
static void analyse(const char *kv, struct rs_channel_load *cl, double *load, int expect_rc)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_problem pb;
    struct rs_err err;
    int routing, traffic;
    rs_test_params(&p, kv);
    rs_test_net(&net, kv);
    assert_int_equal(rs_problem_build(&pb, &net, &p, 1, &err), 0);
    assert_int_equal(rs_opt_choice(&p, rs_run_options, "routing", &routing, &err), 0);
    assert_int_equal(rs_opt_choice(&p, rs_problem_options, "traffic", &traffic, &err), 0);
    int rc = rs_channel_load(cl, &net, &pb, rs_traffics[traffic] == rs_traffic_find("uniform"),
                             rs_routings[routing], load, &err);
    if (rc != expect_rc)
        fail_msg("%s: got %d (%s), want %d", kv, rc, rc ? err.msg : "", expect_rc);
    rs_problem_free(&pb);
    rs_net_free(&net);
    rs_params_free(&p);
}

/* Chain of 8, uniform, direct: the + channel with tail j carries the (j+1)(7-j) pairs
 * s <= j < d, each 1/8 of a source's rate: 7/8, 12/8, 15/8, 16/8, 15/8, 12/8, 7/8. The
 * middle one (tail 3) has gamma = 2, so Theta = 1/2 (the bisection bound 4/k). Mean hops:
 * sum |s-d| / 64 = (k^2-1)/(3k) = 2.625; 1/8 of the packets are to their own terminal. */
static void test_chain_uniform(void **state)
{
    struct rs_channel_load cl;
    double load[16]; /* 8 nodes x 2 ports; port 0 = +1, port 1 = -1 */
    analyse("topology=chain k=8 traffic=uniform", &cl, load, 0);
    for (int j = 0; j < 7; j++) {
        assert_double_equal(load[2 * j], (j + 1) * (7 - j) / 8.0, 1e-12);
        assert_double_equal(load[2 * (j + 1) + 1], (j + 1) * (7 - j) / 8.0, 1e-12);
    }
    assert_double_equal(cl.gamma_max, 2.0, 1e-12);
    assert_int_equal(cl.gamma_chan, 2 * 3); /* node 3, port +1 */
    assert_double_equal(cl.gamma_terminal, 1.0, 1e-12);
    assert_double_equal(cl.theta, 0.5, 1e-12);
    assert_double_equal(cl.hops_mean, 2.625, 1e-12);
    assert_double_equal(cl.local_fraction, 0.125, 1e-12);
    assert_int_equal(cl.exact, 1);
    assert_int_equal(cl.senders, 8);
}

/* 4x4 mesh, transpose (x,y) -> (y,x), dimension order (x first): source (x,y) runs along
 * row y from x to y, then along column y from y to x. In row 3 the + channel from x = 2
 * carries the sources x = 0, 1, 2 (gamma = 3, Theta = 1/3); in column 0 the + channel from
 * row 0 carries (1,0), (2,0), (3,0) after their turn at (0,0): 3 as well. Hops 40 / 16 =
 * 2.5 (test_paths.c), the 4 diagonal nodes send to themselves. */
static void test_mesh_transpose(void **state)
{
    struct rs_channel_load cl;
    double load[64]; /* 16 nodes x 4 ports */
    analyse("topology=mesh k=4 traffic=transpose", &cl, load, 0);
    assert_double_equal(cl.gamma_max, 3.0, 1e-12);
    assert_double_equal(load[(2 + 3 * 4) * 4 + 0], 3.0, 1e-12); /* (2,3) -> (3,3) */
    assert_double_equal(load[(0 + 0 * 4) * 4 + 2], 3.0, 1e-12); /* (0,0) -> (0,1) */
    assert_double_equal(load[(1 + 3 * 4) * 4 + 0], 2.0, 1e-12); /* (1,3) -> (2,3): x = 0, 1 */
    assert_double_equal(load[(3 + 3 * 4) * 4 + 1], 0.0, 1e-12); /* nothing goes - in row 3 */
    assert_double_equal(cl.theta, 1.0 / 3, 1e-12);
    assert_double_equal(cl.hops_mean, 2.5, 1e-12);
    assert_double_equal(cl.local_fraction, 0.25, 1e-12);
}

/* 4x4 torus, uniform, dimension order, ties (distance 2) going +: in every row the +
 * channel from x carries offset 1 from x and offset 2 from x and x-1, each to 4 of the 16
 * destinations: 12/16; the - channel offset 3 from x: 4/16. Columns the same. gamma = 3/4
 * is below the terminal channels' 1: Theta = 1. Tornado (x,y) -> (x+1,y+1): every +
 * channel carries exactly one source: gamma = 1. */
static void test_torus(void **state)
{
    struct rs_channel_load cl;
    double load[64];
    analyse("topology=torus k=4 traffic=uniform", &cl, load, 0);
    for (int node = 0; node < 16; node++)
        for (int port = 0; port < 4; port++)
            assert_double_equal(load[node * 4 + port], port % 2 ? 0.25 : 0.75, 1e-12);
    assert_double_equal(cl.gamma_max, 0.75, 1e-12);
    assert_double_equal(cl.theta, 1.0, 1e-12);
    assert_double_equal(cl.hops_mean, 2.0, 1e-12); /* (0+1+2+1)/4 per dimension */
    analyse("topology=torus k=4 traffic=tornado", &cl, load, 0);
    for (int node = 0; node < 16; node++)
        for (int port = 0; port < 4; port++)
            assert_double_equal(load[node * 4 + port], port % 2 ? 0.0 : 1.0, 1e-12);
    assert_double_equal(cl.theta, 1.0, 1e-12);
    assert_double_equal(cl.hops_mean, 2.0, 1e-12);
}

/* Valiant: both legs of a packet are uniform traffic (the intermediate is uniform, and for a
 * permutation so is the pair (intermediate, destination)), so every load is twice uniform
 * traffic's: the 8-chain's middle channel 4 (Theta 1/4), 5.25 hops; transpose on the 4x4
 * mesh has exactly the loads of uniform traffic. */
static void test_valiant(void **state)
{
    struct rs_channel_load cl, cu;
    double load[64], uload[64];
    analyse("topology=chain k=8 traffic=uniform routing=valiant", &cl, load, 0);
    for (int j = 0; j < 7; j++)
        assert_double_equal(load[2 * j], 2 * (j + 1) * (7 - j) / 8.0, 1e-12);
    assert_double_equal(cl.gamma_max, 4.0, 1e-12);
    assert_double_equal(cl.theta, 0.25, 1e-12);
    assert_double_equal(cl.hops_mean, 5.25, 1e-12);
    assert_double_equal(cl.local_fraction, 1.0 / 64, 1e-12); /* mid = src = dst */
    analyse("topology=mesh k=4 traffic=transpose routing=valiant", &cl, load, 0);
    analyse("topology=mesh k=4 traffic=uniform routing=valiant", &cu, uload, 0);
    for (int c = 0; c < 64; c++)
        assert_double_equal(load[c], uload[c], 1e-12);
    assert_double_equal(cl.theta, cu.theta, 1e-12);
    analyse("topology=mesh k=4 traffic=uniform", &cu, uload, 0);
    for (int c = 0; c < 64; c++)
        assert_double_equal(load[c], 2 * uload[c], 1e-12);
}

/* min_adaptive: the minimal bound. 4x4 mesh transpose: the + cut between x = 1 and 2
 * must be crossed by the sources x <= 1 < y (4 of them) over 4 rows: 1; the mean over the
 * 48 channels is 40/48. gamma = 1, Theta = 1 (dimension order: 1/3). 8x8: the middle cut
 * has (3+1)(7-3) = 16 sources over 8 rows: 2, Theta 1/2 against dimension order's 1/7.
 * 4x4 torus uniform: ties (distance 2) are left out of the cuts (1 of 16 each), so the
 * mean over the 64 channels, 32/64, is the bound. */
static void test_minimal_bound(void **state)
{
    struct rs_channel_load cl, dor;
    analyse("topology=mesh k=4 traffic=transpose routing=min_adaptive", &cl, NULL, 0);
    assert_int_equal(cl.exact, 0);
    assert_double_equal(cl.gamma_max, 1.0, 1e-12);
    assert_double_equal(cl.theta, 1.0, 1e-12);
    assert_double_equal(cl.hops_mean, 2.5, 1e-12);
    assert_true(cl.gamma_chan == UINT64_MAX);
    analyse("topology=mesh k=8 traffic=transpose routing=min_adaptive", &cl, NULL, 0);
    analyse("topology=mesh k=8 traffic=transpose", &dor, NULL, 0);
    assert_double_equal(cl.theta, 0.5, 1e-12);
    assert_double_equal(dor.gamma_max, 7.0, 1e-12);
    assert_double_equal(dor.theta, 1.0 / 7, 1e-12);
    assert_double_equal(cl.hops_mean, dor.hops_mean, 1e-12); /* both minimal */
    analyse("topology=torus k=4 traffic=uniform routing=min_adaptive", &cl, NULL, 0);
    assert_double_equal(cl.gamma_max, 0.5, 1e-12);
    assert_double_equal(cl.hops_mean, 2.0, 1e-12);
    /* a minimal routing's bound is never below dimension order's (which is minimal) */
    static const char *const cases[] = {"uniform", "transpose", "bitrev", "tornado"};
    for (int i = 0; i < 4; i++)
        for (int wrap = 0; wrap < 2; wrap++) {
            char kv[128];
            snprintf(kv, sizeof kv, "topology=%s k=8 traffic=%s", wrap ? "torus" : "mesh",
                     cases[i]);
            analyse(kv, &dor, NULL, 0);
            snprintf(kv + strlen(kv), sizeof kv - strlen(kv), " routing=min_adaptive");
            analyse(kv, &cl, NULL, 0);
            assert_true(cl.gamma_max <= dor.gamma_max + 1e-12);
        }
}

/* Refusals, and the metrics in a record (analyze and run with predict=channel_load). */
static void test_refusals_and_records(void **state)
{
    struct rs_channel_load cl;
    struct rs_record r;
    char msg[512];
    analyse("topology=benes N=16 traffic=uniform routing=ranade", &cl, NULL, RS_EUNSUPPORTED);
    assert_int_equal(rs_test_try("topology=mesh k=4 traffic=transpose predict=channel_load", 0,
                                 &r, msg, sizeof msg),
                     0);
    assert_double_equal(rs_test_double(&r, "channel_load"), 3.0, 1e-12);
    assert_double_equal(rs_test_double(&r, "throughput_bound"), 1.0 / 3, 1e-12);
    assert_double_equal(rs_test_double(&r, "hops_mean"), 2.5, 1e-12);
    assert_double_equal(rs_test_double(&r, "local_fraction"), 0.25, 1e-12);
    assert_int_equal(rs_test_int(&r, "congestion"), 3);
    rs_record_free(&r);
    /* an adaptive routing: the bound, no path statistics */
    assert_int_equal(rs_test_try("topology=mesh k=4 traffic=transpose routing=min_adaptive "
                                 "predict=channel_load",
                                 0, &r, msg, sizeof msg),
                     0);
    assert_double_equal(rs_test_double(&r, "throughput_bound"), 1.0, 1e-12);
    assert_null(rs_record_get(&r, "congestion"));
    rs_record_free(&r);
    assert_int_equal(rs_test_try("topology=mesh k=4 traffic=transpose routing=min_adaptive", 0,
                                 &r, msg, sizeof msg),
                     RS_EUNSUPPORTED);
    rs_record_free(&r);
    /* an open-loop run: after the engine's metrics */
    rs_test_run("topology=mesh k=4 traffic=uniform switching=wormhole vcs=2 "
                "injection_process=bernoulli injection_rate=0.05 warmup_steps=50 "
                "measure_steps=200 drain_steps=200 predict=channel_load",
                &r);
    assert_double_equal(rs_test_double(&r, "throughput_bound"), 1.0, 1e-12); /* 4/k = 1 */
    assert_double_equal(rs_test_double(&r, "hops_mean"), 2.5, 1e-12); /* 2 (k^2-1)/(3k) */
    rs_record_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_uniform),    cmocka_unit_test(test_mesh_transpose),
        cmocka_unit_test(test_torus),            cmocka_unit_test(test_valiant),
        cmocka_unit_test(test_minimal_bound),    cmocka_unit_test(test_refusals_and_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
