/* The shortcuts topologies give the engines agree with the plain operations, for every
 * source, destination and Valiant intermediate on small instances of every registered
 * topology (networks with explicit paths: every message): path_length equals the walked
 * route's length, and next_hop equals route followed by neighbor at every hop. */
#include "rs_test.h"

#include "routesim/msg_paths.h"
#include "routesim/net.h"
#include "routesim/route.h"

static const char *const instances[] = {
    "topology=butterfly N=16",  "topology=butterfly N=8 wrap=1", "topology=benes N=8",
    "topology=mesh k=3 n=2",    "topology=mesh k=4 n=3",         "topology=torus k=4 n=2",
    "topology=torus k=5 n=2",   "topology=chain k=6",            "topology=ring k=6",
    "topology=ring k=7",        "topology=hypercube n=5",        "topology=lcan N=27 d=3 u=2",
    "topology=lcan N=16 d=4 u=2 pi=tree",
    "topology=lcan N=64 d=4,4,4 u=2,2,4", "topology=baseline N=16", "topology=swbanyan N=16 f=4 s=2",
    "topology=trac N=9", "topology=cm5 N=64",
    "topology=graph graph_file=@/graph_small.txt",
    "topology=graph graph_file=@/graph_small.txt paths_file=@/graph_small_paths.txt",
    "topology=cms_lower_bound B=2 C=6 D=12 L=13", "topology=pruned_butterfly N=64",
    "topology=fat_tree N=32 capacity=list caps=1,2,3,2,5",
    "topology=sorting_fat_tree N=128", "topology=sorting_fat_tree N=32 side=2",
    "topology=kary_nfly k=3 n=3", "topology=kary_nfly k=2 n=4 wrap=1",
    "topology=kary_ntree k=3 n=3", "topology=kary_ntree k=2 n=4",
    "topology=dragonfly p=1 a=4 h=2 g=5", "topology=hyperx S=3,4,2 T=2",
    "topology=flattened_butterfly k=3 n=3", "topology=slimfly q=4 p=2", NULL};

/* Networks carrying explicit paths: the closed form against the walk for every message. */
static void check_paths(const struct rs_net *net, const char *kv)
{
    for (uint64_t m = 0; m < net->paths->n_msgs; m++) {
        struct rs_route_state st = {net->paths->start[m], rs_msg_paths_end(net->paths, m),
                                    RS_NONE, 0, (uint32_t)m};
        int64_t walked = rs_route_expand(net, &st, NULL, 0, 10000, NULL);
        assert_int_equal(walked, (int64_t)rs_msg_paths_len(net->paths, m));
        if (walked != (int64_t)net->ops->path_length(net, &st)) {
            print_error("%s: message %llu: walked %lld, path_length %u\n", kv,
                        (unsigned long long)m, (long long)walked, net->ops->path_length(net, &st));
            fail();
        }
    }
}

static void check_instance(const char *kv)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    char buf[1024];
    rs_test_params(&p, rs_test_with_data(kv, buf, sizeof buf));
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    if (!net.ops->path_length || net.paths) {
        if (net.paths)
            check_paths(&net, kv);
        rs_net_free(&net);
        rs_params_free(&p);
        return;
    }
    int valiant = !net.ops->valiant_ok || net.ops->valiant_ok(&net, &err) == 0;
    uint32_t N = net.n_terminals;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t d = 0; d < N; d++)
            for (uint32_t m = 0; m <= (valiant ? N : 0); m++) {
                struct rs_route_state st = {s, d, m == N ? RS_NONE : m, 0, 0};
                if (!valiant)
                    st.mid = RS_NONE;
                int64_t walked = rs_route_expand(&net, &st, NULL, 0, 10000, NULL);
                int64_t closed = rs_route_length(&net, NULL, &st, 10000);
                if (walked != closed) {
                    print_error("%s: %u -> %u via %d: walked %lld, path_length %lld\n", kv, s,
                                d, (int)st.mid, (long long)walked, (long long)closed);
                    fail();
                }
            }
    rs_net_free(&net);
    rs_params_free(&p);
}

/* Walk every route with route + neighbor and compare next_hop at each node. */
static void check_next_hop(const char *kv)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    char buf[1024];
    rs_test_params(&p, rs_test_with_data(kv, buf, sizeof buf));
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    if (net.ops->next_hop) {
        int valiant = !net.ops->valiant_ok || net.ops->valiant_ok(&net, &err) == 0;
        uint32_t N = net.n_terminals;
        for (uint32_t s0 = 0; s0 < N; s0++)
            for (uint32_t d = 0; d < N; d++)
                for (uint32_t m = 0; m <= (valiant ? N : 0); m++) {
                    struct rs_route_state st = {s0, d, (m == N || !valiant) ? RS_NONE : m, 0, 0};
                    uint32_t node = net.ops->src_node(&net, s0);
                    for (int guard = 0; guard < 1000; guard++) {
                        uint32_t port = rs_route_port(&net, NULL, node, &st), slot = RS_NONE;
                        uint32_t head = port == RS_ROUTE_DONE
                                            ? RS_NONE
                                            : net.ops->neighbor(&net, node, port, &slot);
                        uint32_t p2 = 0, slot2 = RS_NONE;
                        uint32_t head2 = rs_route_next_hop(&net, NULL, node, &st, &p2, &slot2);
                        if (p2 != port || head2 != head || (head != RS_NONE && slot2 != slot)) {
                            print_error("%s: %u -> %u via %d at node %u hop %u: route %u head "
                                        "%u slot %u, next_hop %u head %u slot %u\n",
                                        kv, s0, d, (int)st.mid, node, st.hops, port, head, slot,
                                        p2, head2, slot2);
                            fail();
                        }
                        if (port == RS_ROUTE_DONE)
                            break;
                        node = head;
                        st.hops++;
                    }
                }
    }
    rs_net_free(&net);
    rs_params_free(&p);
}

static void test_next_hop_equals_route_and_neighbor(void **state)
{
    for (int j = 0; instances[j]; j++)
        check_next_hop(instances[j]);
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
        cmocka_unit_test(test_next_hop_equals_route_and_neighbor),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
