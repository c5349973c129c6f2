/* Every topology's closed-form path_length (used by the engines instead of walking each
 * route) equals the length of the walked route, for every source, destination and
 * Valiant intermediate on small instances of every registered topology. */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/route.h"

static const char *const instances[] = {
    "topology=butterfly N=16",  "topology=butterfly N=8 wrap=1", "topology=benes N=8",
    "topology=mesh k=3 n=2",    "topology=mesh k=4 n=3",         "topology=torus k=4 n=2",
    "topology=torus k=5 n=2",   "topology=chain k=6",            "topology=ring k=6",
    "topology=ring k=7",        NULL};

static void check_instance(const char *kv)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    rs_test_params(&p, kv);
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    if (!net.ops->path_length) {
        rs_net_free(&net);
        rs_params_free(&p);
        return;
    }
    int valiant = !net.ops->valiant_ok || net.ops->valiant_ok(&net, &err) == 0;
    uint32_t N = net.n_terminals;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t d = 0; d < N; d++)
            for (uint32_t m = 0; m <= (valiant ? N : 0); m++) {
                struct rs_route_state st = {s, d, m == N ? RS_NONE : m, 0};
                if (!valiant)
                    st.mid = RS_NONE;
                int64_t walked = rs_route_expand(&net, &st, NULL, 0, 10000, NULL);
                uint32_t closed = net.ops->path_length(&net, &st);
                if (walked != (int64_t)closed) {
                    print_error("%s: %u -> %u via %d: walked %lld, path_length %u\n", kv, s, d,
                                (int)st.mid, (long long)walked, closed);
                    fail();
                }
            }
    rs_net_free(&net);
    rs_params_free(&p);
}

static void test_every_topology_has_an_instance(void **state)
{
    /* a topology added to the registry must be added to instances[] above */
    for (int i = 0; rs_topologies[i]; i++) {
        int found = 0;
        for (int j = 0; instances[j]; j++) {
            char want[64];
            snprintf(want, sizeof want, "topology=%s ", rs_topologies[i]->name);
            found |= strncmp(instances[j], want, strlen(want)) == 0;
        }
        if (!found) {
            print_error("no path_length instance for topology '%s'\n", rs_topologies[i]->name);
            fail();
        }
    }
}

static void test_closed_form_equals_walk(void **state)
{
    for (int j = 0; instances[j]; j++)
        check_instance(instances[j]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_topology_has_an_instance),
        cmocka_unit_test(test_closed_form_equals_walk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
