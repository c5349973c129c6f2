/* routing=updown (up* then down*, ranks by a breadth-first search from updown_root): the route
 * table of a 6-node graph worked by hand, the root key, refusals, every engine and the
 * analysis on it, and no deadlock under saturation with one VC (acyclic channel
 * dependencies) where dimension order needs two. */
#include "rs_test.h"

#include "routesim/route.h"

#define UPDOWN6 "topology=graph graph_file=@/updown6.txt"

/* Build kv (with @/ data paths) and prepare it for routing=updown (root from kv). */
static void prepared(struct rs_net *net, struct rs_params *p, const char *kv)
{
    char buf[1024];
    struct rs_err err;
    const char *full = rs_test_with_data(kv, buf, sizeof buf);
    rs_test_net(net, full);
    rs_test_params(p, full);
    assert_int_equal(rs_route_check(net, RS_ROUTING_UPDOWN, &err), 0);
    if (rs_route_prepare(net, RS_ROUTING_UPDOWN, p, 1, &err))
        fail_msg("%s: %s", kv, err.msg);
}

/* The nodes of the route s -> t, space separated, into buf. */
static const char *route_nodes(const struct rs_net *net, uint32_t s, uint32_t t, char *buf,
                               size_t n)
{
    uint64_t ch[16];
    struct rs_route_state st = {s, t, RS_NONE, 0, 0};
    int64_t len = rs_route_walk(net, RS_ROUTING_UPDOWN, &st, ch, 16, 16, NULL);
    assert_true(len >= 0 && len <= 16);
    int used = snprintf(buf, n, "%u", s);
    for (int64_t h = 0; h < len; h++) {
        uint32_t u = (uint32_t)(ch[h] / net->max_ports), p = (uint32_t)(ch[h] % net->max_ports);
        used += snprintf(buf + used, n - (size_t)used, " %u", net->ops->neighbor(net, u, p, NULL));
    }
    return buf;
}

/* updown6.txt: the ring 0-1-2-3-4-5-0 and the chord 1-5, both ways. Root 0: BFS levels 0
 * {0}, 1 {1, 5}, 2 {2, 4}, 3 {3}, so the ranks are 0 < 1 < 5 < 2 < 4 < 3 and the up channels
 * are 1->0, 5->0, 5->1, 2->1, 4->5, 3->2, 3->4 (their reverses go down). Worked by hand
 * (docs/routing.md): the shortest legal route of every pair, ties by turning down first, then
 * by the lowest port. 2 -> 4 cannot take 2 3 4 (down 2->3, then up 3->4): 2 1 5 4, one hop
 * longer than the graph's own shortest route; 0 -> 3 ties 0 1 2 3 with 0 5 4 3 and takes
 * port 0 at node 0; 3 -> 0 ties 3 2 1 0 with 3 4 5 0 and takes port 0 at node 3. */
static void test_table_by_hand(void **state)
{
    static const char *const want[6][6] = {
        /* to:  0          1          2            3            4            5 */
        {"0", "0 1", "0 1 2", "0 1 2 3", "0 5 4", "0 5"},
        {"1 0", "1", "1 2", "1 2 3", "1 5 4", "1 5"},
        {"2 1 0", "2 1", "2", "2 3", "2 1 5 4", "2 1 5"},
        {"3 2 1 0", "3 2 1", "3 2", "3", "3 4", "3 4 5"},
        {"4 5 0", "4 5 1", "4 5 1 2", "4 3", "4", "4 5"},
        {"5 0", "5 1", "5 1 2", "5 4 3", "5 4", "5"},
    };
    struct rs_net net;
    struct rs_params p;
    char buf[64];
    prepared(&net, &p, UPDOWN6);
    for (uint32_t s = 0; s < 6; s++)
        for (uint32_t t = 0; t < 6; t++)
            assert_string_equal(route_nodes(&net, s, t, buf, sizeof buf), want[s][t]);
    /* the topology's own route takes the illegal shortest route */
    uint64_t ch[8];
    struct rs_route_state st = {2, 4, RS_NONE, 0, 0};
    assert_int_equal(rs_route_walk(&net, NULL, &st, ch, 8, 16, NULL), 2);
    rs_net_free(&net);
    rs_params_free(&p);
    /* root 3: levels 0 {3}, 1 {2, 4}, 2 {1, 5}, 3 {0}; 2 -> 3 and 4 -> 3 now go up */
    prepared(&net, &p, UPDOWN6 " updown_root=3");
    assert_string_equal(route_nodes(&net, 2, 4, buf, sizeof buf), "2 3 4");
    assert_string_equal(route_nodes(&net, 4, 2, buf, sizeof buf), "4 3 2");
    assert_string_equal(route_nodes(&net, 1, 5, buf, sizeof buf), "1 5");
    assert_string_equal(route_nodes(&net, 0, 3, buf, sizeof buf), "0 1 2 3");
    rs_net_free(&net);
    rs_params_free(&p);
}

/* Refusals, one line each: a root that is not a node; a directed graph on which some pair
 * has no legal route; networks whose messages follow explicit paths; the key on another
 * routing. */
static void test_refused(void **state)
{
    char buf[512];
    (void)state;
    rs_test_expect_error(rs_test_with_data(UPDOWN6 " routing=updown updown_root=6", buf,
                                           sizeof buf),
                         RS_ECONSTRAINT, "updown_root=6 is not a node of topology=graph (0..5)");
    rs_test_expect_error(rs_test_with_data("topology=graph graph_file=@/graph_small.txt "
                                           "routing=updown",
                                           buf, sizeof buf),
                         RS_EUNSUPPORTED,
                         "routing=updown finds no up*/down* route from node 0 to node 5 on "
                         "topology=graph (root 0)");
    rs_test_expect_error("topology=cms_lower_bound B=1 C=2 D=5 L=6 routing=updown",
                         RS_EUNSUPPORTED,
                         "routing=updown needs a topology whose messages are not given by "
                         "explicit paths (got topology=cms_lower_bound)");
    rs_test_expect_error("topology=mesh k=4 n=2 updown_root=1", RS_EUNKNOWN,
                         "command line: unknown key 'updown_root' for routing=direct (it is a "
                         "key of routing=updown)");
}

/* Every engine and the analysis take the table's routes: a random permutation on the 6-node
 * graph is delivered whole, its dilation at most 3 (the longest legal route), and the root
 * is a column of the record. */
static void test_engines(void **state)
{
    static const char *const runs[] = {
        UPDOWN6 " routing=updown traffic=randperm switching=store_forward",
        UPDOWN6 " routing=updown traffic=randperm switching=wormhole vcs=1",
        UPDOWN6 " routing=updown traffic=randperm switching=circuit",
        UPDOWN6 " routing=updown traffic=randperm switching=wormhole vcs=2 router=iq",
        NULL};
    for (int i = 0; runs[i]; i++) {
        char buf[512];
        struct rs_record r;
        rs_test_run(rs_test_with_data(runs[i], buf, sizeof buf), &r);
        assert_int_equal(rs_test_int(&r, "delivered"), 6);
        assert_true(rs_test_int(&r, "dilation") <= 3);
        assert_int_equal(rs_test_int(&r, "updown_root"), 0);
        rs_record_free(&r);
    }
}

/* Saturated (0.9 flits per terminal and cycle offered), one VC: up channels lower the rank,
 * down channels raise it and no route turns up after down, so the channel dependencies are
 * acyclic; tested on the hand-worked graph and on a 4x4 torus (whose dimension-order routes
 * need the dateline pair), in both router models. */
static void test_no_deadlock_saturated(void **state)
{
    char a[256], b[256]; /* + the load rs_test_no_deadlock_saturated adds: fits its 512 */
    (void)state;
#define R " routing=updown switching=wormhole vcs=1 "
    const char *const runs[] = {rs_test_with_data(UPDOWN6 R "router=simple", a, sizeof a),
                                rs_test_with_data(UPDOWN6 R "router=iq", b, sizeof b),
                                "topology=torus k=4 n=2" R "router=simple",
                                "topology=torus k=4 n=2" R "router=iq",
                                "topology=mesh k=4 n=2 updown_root=5" R "router=simple",
                                NULL};
#undef R
    rs_test_no_deadlock_saturated(runs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_by_hand),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_engines),
        cmocka_unit_test(test_no_deadlock_saturated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
