/* Path sets: every message's channels, as the routes give them (direct, Valiant, explicit
 * paths), agreeing with the static path statistics. */
#include "rs_test.h"

#include "routesim/analysis.h"
#include "routesim/path_set.h"
#include "routesim/problem.h"

static void build(const char *kv, struct rs_net *net, struct rs_problem *pb,
                  struct rs_path_set *ps, const struct rs_routing_ops *routing)
{
    struct rs_params p;
    struct rs_err err;
    rs_test_params(&p, kv);
    if (rs_net_build(net, &p, &err) || rs_problem_build(pb, net, &p, 3, &err) ||
        rs_path_set_build(ps, net, pb, routing, 3, &err)) {
        print_error("%s: %s\n", kv, err.msg);
        fail();
    }
    rs_params_free(&p);
}

/* Butterfly N=8, bit reversal: message s goes 5 -> 5 (101 reversed): bits 0..2 of 5 xor 5
 * are 0, straight three times: channels 2*5, 2*(8+5), 2*(16+5) = 10, 26, 42. */
static void test_butterfly_by_hand(void **state)
{
    struct rs_net net;
    struct rs_problem pb;
    struct rs_path_set ps;
    build("topology=butterfly N=8 traffic=bitrev", &net, &pb, &ps, RS_ROUTING_DIRECT);
    assert_int_equal(ps.n_msgs, 8);
    assert_int_equal(ps.off[8], 24);
    static const uint64_t want[3] = {10, 26, 42};
    assert_memory_equal(ps.chan + ps.off[5], want, sizeof want);
    rs_path_set_free(&ps);
    rs_problem_free(&pb);
    rs_net_free(&net);
}

/* The set's lengths and loads equal rs_path_stats on meshes (direct and Valiant) and on a
 * network with explicit paths. */
static void test_agrees_with_path_stats(void **state)
{
    static const char *const kvs[] = {"topology=mesh k=5 n=2 traffic=uniform per_input=3",
                                      "topology=torus k=4 n=2 traffic=randperm",
                                      "topology=cms_lower_bound B=2 C=6 D=9 L=10 traffic=paths",
                                      NULL};
    for (int i = 0; kvs[i]; i++)
        for (int r = 0; r < 2; r++) {
            struct rs_net net;
            struct rs_problem pb;
            struct rs_path_set ps;
            struct rs_path_stats st;
            struct rs_err err;
            if (r == 1 && i == 2)
                continue; /* no Valiant with explicit paths */
            const struct rs_routing_ops *routing = r ? RS_ROUTING_VALIANT : RS_ROUTING_DIRECT;
            build(kvs[i], &net, &pb, &ps, routing);
            assert_int_equal(rs_path_stats_compute(&st, &net, &pb, routing, 3, &err), 0);
            uint64_t n_ch = (uint64_t)net.n_nodes * net.max_ports;
            uint32_t *load = calloc(n_ch, sizeof *load), C = 0, D = 0;
            assert_non_null(load);
            for (uint64_t m = 0; m < ps.n_msgs; m++) {
                uint32_t len = (uint32_t)(ps.off[m + 1] - ps.off[m]);
                D = len > D ? len : D;
                for (uint64_t h = ps.off[m]; h < ps.off[m + 1]; h++)
                    if (++load[ps.chan[h]] > C)
                        C = load[ps.chan[h]];
            }
            assert_int_equal(C, st.congestion);
            assert_int_equal(D, st.dilation);
            assert_int_equal(ps.off[ps.n_msgs], st.total_hops);
            free(load);
            rs_path_stats_free(&st);
            rs_path_set_free(&ps);
            rs_problem_free(&pb);
            rs_net_free(&net);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_butterfly_by_hand),
        cmocka_unit_test(test_agrees_with_path_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
