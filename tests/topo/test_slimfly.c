/* topology=slimfly: counts of the MMS graphs for q = 3, 4, 5, 7, 8, 9 (every delta and prime
 * powers); the q = 5 generator sets and a few routers' neighbours worked by hand; every
 * channel's in-slot leads back, no loops or parallel channels, degree k' and diameter 2 by
 * breadth-first search; every pair's route minimal, through the lowest-port middle router,
 * with VC classes that rise along the route (minimal and Valiant); the refusals; UGAL-L's
 * choice by hand and its non-minimal paths under adversarial traffic; store-and-forward, and
 * no deadlock under saturation for minimal and Valiant in both router models and UGAL-L. */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/route.h"
#include "routesim/slimfly.h"

static void test_counts(void **state)
{
    (void)state;
    static const struct {
        const char *kv;
        uint32_t q, kprime, p;
        int delta;
    } cases[] = {
        {"topology=slimfly", 5, 7, 4, 1}, /* the default: q = 5, the Hoffman-Singleton graph */
        {"topology=slimfly q=3", 3, 5, 3, -1},
        {"topology=slimfly q=4", 4, 6, 3, 0},
        {"topology=slimfly q=7 p=2", 7, 11, 2, -1},
        {"topology=slimfly q=8", 8, 12, 6, 0},
        {"topology=slimfly q=9 p=1", 9, 13, 1, 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct rs_net net;
        rs_test_net(&net, cases[i].kv);
        const struct rs_sfly *s = rs_sfly_of(&net);
        uint32_t q = cases[i].q;
        assert_non_null(s);
        assert_int_equal(s->q, q);
        assert_int_equal(s->delta, cases[i].delta);
        assert_int_equal(s->kprime, cases[i].kprime); /* (3q - delta)/2 */
        assert_int_equal(net.n_nodes, 2 * q * q);
        assert_int_equal(net.max_ports, cases[i].kprime);
        assert_int_equal(net.n_channels, 2ull * q * q * cases[i].kprime);
        assert_int_equal(net.n_terminals, 2 * q * q * cases[i].p);
        for (uint32_t t = 0; t < net.n_terminals; t += 7)
            assert_int_equal(net.ops->src_node(&net, t), t / cases[i].p);
        rs_net_free(&net);
    }
}

/* q = 5 (delta = 1): xi = 2, X = {1, xi^2} = {1, 4}, X' = {xi, xi^3} = {2, 3}. Router
 * (0,1,2) = node 1*5 + 2 = 7: ports 0, 1 to (0,1,2+1) = 8 and (0,1,2+4) = (0,1,1) = 6;
 * port 2 + m to (1, m, 2 - m*1): m = 0..4 gives c = 2, 1, 0, 4, 3, nodes 25 + 5m + c = 27,
 * 31, 35, 44, 48. Router (1,2,3) = node 25 + 10 + 3 = 38: ports 0, 1 to (1,2,3+2) = (1,2,0)
 * = 35 and (1,2,3+3) = (1,2,1) = 36; port 2 + x to (0, x, 2x + 3): x = 0..4 gives y = 3,
 * 0, 2, 4, 1, nodes 5x + y = 3, 5, 12, 19, 21. */
static void test_q5_by_hand(void **state)
{
    (void)state;
    struct rs_net net;
    char buf[32];
    rs_test_net(&net, "topology=slimfly q=5");
    const struct rs_sfly *s = rs_sfly_of(&net);
    assert_int_equal(s->xi, 2);
    assert_int_equal(s->half, 2);
    assert_int_equal(s->X[0], 1);
    assert_int_equal(s->X[1], 4);
    assert_int_equal(s->Xp[0], 2);
    assert_int_equal(s->Xp[1], 3);
    static const uint32_t n7[] = {8, 6, 27, 31, 35, 44, 48};
    static const uint32_t n38[] = {35, 36, 3, 5, 12, 19, 21};
    for (uint32_t port = 0; port < 7; port++) {
        uint32_t slot;
        assert_int_equal(net.ops->neighbor(&net, 7, port, &slot), n7[port]);
        assert_int_equal(net.ops->neighbor(&net, n7[port], slot, NULL), 7);
        assert_int_equal(net.ops->neighbor(&net, 38, port, &slot), n38[port]);
        assert_int_equal(net.ops->neighbor(&net, n38[port], slot, NULL), 38);
    }
    /* (0,1,2) -> (1,2,0) = 35: adjacent (2 = 2*1 + 0), port 2 + 2 */
    assert_int_equal(net.ops->neighbor(&net, 7, 4, NULL), 35);
    assert_int_equal(net.ops->neighbor(&net, 7, 7, NULL), RS_NONE);
    net.ops->label(&net, 38, buf, sizeof buf);
    assert_string_equal(buf, "(1,2,3)");
    net.ops->label(&net, 7, buf, sizeof buf);
    assert_string_equal(buf, "(0,1,2)");
    /* A route by hand, p = 4: terminal 28 at router 7 = (0,1,2) to terminal 152 at router 38
     * = (1,2,3). Not adjacent (2*1 + 3 = 0 != 2). Middle routers: (0,1,2*1+3) = (0,1,0), from
     * 2 by a difference of 3, not in X; (1,2,2-2*1) = (1,2,0) = 35, which reaches (1,2,3) by
     * 3 in X'. So port 4 to 35, then port 1 (X'[1] = 3) to 38: channels 7*7+4, 35*7+1. */
    uint64_t ch[4];
    uint32_t end;
    struct rs_route_state st = {28, 152, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 4, 8, &end), 2);
    assert_int_equal(ch[0], 7 * 7 + 4);
    assert_int_equal(ch[1], 35 * 7 + 1);
    assert_int_equal(end, 38);
    rs_net_free(&net);
}

/* Distances from every router by breadth-first search, d[u*n + v]. */
static uint32_t *bfs(const struct rs_net *net)
{
    uint32_t n = net->n_nodes, *d = malloc((size_t)n * n * sizeof *d), *qu = malloc(n * 4);
    assert_non_null(d);
    assert_non_null(qu);
    for (uint32_t s = 0; s < n; s++) {
        uint32_t *ds = d + (size_t)s * n, head = 0, tail = 0;
        for (uint32_t v = 0; v < n; v++)
            ds[v] = RS_NONE;
        ds[s] = 0;
        qu[tail++] = s;
        while (head < tail) {
            uint32_t u = qu[head++];
            for (uint32_t p = 0; p < net->max_ports; p++) {
                uint32_t v = net->ops->neighbor(net, u, p, NULL);
                if (ds[v] == RS_NONE) {
                    ds[v] = ds[u] + 1;
                    qu[tail++] = v;
                }
            }
        }
    }
    free(qu);
    return d;
}

/* The MMS graph: every channel exists, leads back through its in-slot, no loop, no two
 * channels of a router to one head; the graph has diameter 2 and distance() agrees; every
 * route is minimal and its first port is the lowest port whose router is v or adjacent to
 * v; VC classes 0, 1 along a route and 0..3 rising along a Valiant route. */
static void test_graph_and_routes(void **state)
{
    (void)state;
    static const char *const nets[] = {"topology=slimfly q=3 p=1", "topology=slimfly q=4 p=1",
                                       "topology=slimfly q=5 p=1", "topology=slimfly q=7 p=1",
                                       "topology=slimfly q=8 p=1", "topology=slimfly q=9 p=1",
                                       "topology=slimfly q=11 p=1", NULL};
    for (int i = 0; nets[i]; i++) {
        struct rs_net net;
        rs_test_net(&net, nets[i]);
        uint32_t n = net.n_nodes, P = net.max_ports, *d = bfs(&net), diam = 0;
        for (uint32_t v = 0; v < n; v++)
            for (uint32_t p = 0; p < P; p++) {
                uint32_t slot, w = net.ops->neighbor(&net, v, p, &slot);
                assert_true(w < n && w != v && slot < P);
                assert_int_equal(net.ops->neighbor(&net, w, slot, NULL), v);
                for (uint32_t p2 = 0; p2 < p; p2++)
                    assert_int_not_equal(net.ops->neighbor(&net, v, p2, NULL), w);
            }
        for (uint32_t u = 0; u < n; u++)
            for (uint32_t v = 0; v < n; v++) {
                uint32_t duv = d[(size_t)u * n + v];
                assert_true(duv != RS_NONE);
                diam = duv > diam ? duv : diam;
                assert_int_equal(net.ops->distance(&net, u, v), duv);
                struct rs_route_state st = {u, v, RS_NONE, 0, 0}; /* p = 1: terminal = router */
                uint32_t end;
                assert_int_equal(rs_route_expand(&net, &st, NULL, 0, 8, &end), duv);
                assert_int_equal(end, v);
                assert_int_equal(net.ops->path_length(&net, &st), duv);
                if (duv == 0)
                    continue;
                uint32_t want = RS_NONE;
                for (uint32_t p = 0; p < P && want == RS_NONE; p++) {
                    uint32_t w = net.ops->neighbor(&net, u, p, NULL);
                    if (d[(size_t)w * n + v] + 1 == duv)
                        want = p;
                }
                assert_int_equal(net.ops->route(&net, u, &st), want);
                /* classes: 0 on the first hop, 1 on the second */
                uint32_t node = u;
                for (st.hops = 0; node != v; st.hops++) {
                    uint32_t port = rs_route_port(&net, NULL, node, &st);
                    assert_int_equal(rs_route_vc_class(&net, NULL, node, port, &st), st.hops);
                    node = net.ops->neighbor(&net, node, port, NULL);
                }
            }
        assert_int_equal(diam, 2);
        /* Valiant: the walk to mid and on, classes rising from 0 to at most 3 */
        for (uint32_t u = 0; u < n; u += 3)
            for (uint32_t v = 0; v < n; v += 5)
                for (uint32_t m = 0; m < n; m += 7) {
                    struct rs_route_state st = {u, v, m, 0, 0};
                    int64_t len = rs_route_length(&net, RS_ROUTING_VALIANT, &st, 16);
                    assert_int_equal(len, d[(size_t)u * n + m] + d[(size_t)m * n + v]);
                    uint32_t node = u, cls = 0, first = 1;
                    for (st.hops = 0;; st.hops++) {
                        uint32_t port = rs_route_port(&net, RS_ROUTING_VALIANT, node, &st);
                        if (port == RS_ROUTE_DONE)
                            break;
                        uint32_t c = rs_route_vc_class(&net, RS_ROUTING_VALIANT, node, port, &st);
                        assert_true(c < 4 && (first || c > cls));
                        cls = c, first = 0;
                        node = net.ops->neighbor(&net, node, port, NULL);
                    }
                    assert_int_equal(node, v);
                    assert_int_equal(st.hops, len);
                }
        free(d);
        rs_net_free(&net);
    }
}

static void test_refusals(void **state)
{
    (void)state;
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    rs_test_params(&p, "topology=slimfly q=6");
    assert_int_equal(rs_net_build(&net, &p, &err), RS_ECONSTRAINT);
    assert_string_equal(err.msg, "topology=slimfly needs q a prime power (3, 4, 5, 7, 8, 9, 11, "
                                 "13, 16, ...: the MMS graph is built over the field GF(q); got "
                                 "q=6)");
    rs_params_free(&p);
    rs_test_params(&p, "topology=slimfly q=256 p=1024");
    assert_int_equal(rs_net_build(&net, &p, &err), RS_ECONSTRAINT);
    assert_string_equal(err.msg, "topology=slimfly needs at most 2^26 terminals (got 131072 "
                                 "routers x p=1024)");
    rs_params_free(&p);
    rs_test_params(&p, "topology=slimfly q=2");
    assert_int_equal(rs_net_build(&net, &p, &err), RS_ECONSTRAINT);
    assert_string_equal(err.msg, "command line: key 'q': expected an integer in [3, 256], got '2'");
    rs_params_free(&p);
}

/* Store-and-forward on fixed paths (one terminal per router: the engine injects one terminal
 * per node): everything delivered, dilation 2 (minimal) and 4 (Valiant); circuit with p = 4. */
static void test_store_forward(void **state)
{
    (void)state;
    struct rs_record r;
    rs_test_run("topology=slimfly q=5 p=1 switching=store_forward traffic=uniform per_input=2 "
                "seed=3",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 100);
    assert_int_equal(rs_test_int(&r, "dilation"), 2);
    rs_record_free(&r);
    rs_test_run("topology=slimfly q=5 p=1 switching=store_forward routing=valiant "
                "traffic=uniform per_input=2 seed=3",
                &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 100);
    assert_int_equal(rs_test_int(&r, "dilation"), 4);
    rs_record_free(&r);
    /* the circuit engine takes several terminals per router */
    rs_test_run("topology=slimfly q=5 switching=circuit traffic=randperm seed=1", &r);
    assert_int_equal(rs_test_int(&r, "delivered"), 200);
    assert_int_equal(rs_test_int(&r, "dilation"), 2);
    rs_record_free(&r);
}

/* tests/data/slimfly_q5_swap.txt (q = 5, p = 4): every router's 4 terminals send to one
 * router, so minimal routing carries 4 terminals' flits on one first channel and accepts at
 * most 1/4 flit per terminal per step; offered 0.4, UGAL-L leaves the minimal path (more
 * router hops per packet than minimal's 1.8: 40 pairs 2 apart, 10 adjacent) and accepts
 * more. Measured: 0.25 and 0.334, 1.80 and 2.82 hops per packet. */
static void test_ugal_goes_non_minimal(void **state)
{
    (void)state;
    const char *base = "topology=slimfly q=5 switching=wormhole link=shared vcs=8 vc_depth=8 "
                       "length=1 traffic=file traffic_file=@/slimfly_q5_swap.txt "
                       "injection_process=bernoulli warmup_steps=300 measure_steps=600 "
                       "drain_steps=600 seed=5 injection_rate=0.4";
    char kv[512], buf[1024];
    struct rs_record r;
    snprintf(kv, sizeof kv, "%s routing=direct vc_classes=dateline", base);
    rs_test_run(rs_test_with_data(kv, buf, sizeof buf), &r);
    double min_acc = rs_test_double(&r, "accepted");
    double min_hops = (double)rs_test_int(&r, "flit_hops") / (double)rs_test_int(&r, "delivered");
    if (!(min_acc <= 0.2501 && min_acc > 0.24 && min_hops < 1.81))
        fail_msg("minimal: accepted %g, %g hops per packet", min_acc, min_hops);
    rs_record_free(&r);
    snprintf(kv, sizeof kv, "%s routing=ugal_l_sf", base);
    rs_test_run(rs_test_with_data(kv, buf, sizeof buf), &r);
    double acc = rs_test_double(&r, "accepted");
    double hops = (double)rs_test_int(&r, "flit_hops") / (double)rs_test_int(&r, "delivered");
    if (!(acc > 0.3 && hops > 2.2))
        fail_msg("ugal_l_sf: accepted %g, %g hops per packet", acc, hops);
    rs_record_free(&r);
}

static void test_no_deadlock_saturated(void **state)
{
    (void)state;
    const char *const runs[] = {
        "topology=slimfly q=3 switching=wormhole vc_classes=dateline vcs=2 router=simple",
        "topology=slimfly q=3 switching=wormhole vc_classes=dateline vcs=2 router=iq",
        "topology=slimfly q=3 routing=valiant switching=wormhole vc_classes=dateline vcs=4 "
        "router=simple",
        "topology=slimfly q=3 routing=valiant switching=wormhole vc_classes=dateline vcs=4 "
        "router=iq",
        "topology=slimfly q=4 switching=virtual_cut_through vc_classes=dateline vcs=2 "
        "router=iq",
        "topology=slimfly q=3 routing=ugal_l_sf switching=wormhole vcs=4 vc_depth=1",
        "topology=slimfly q=4 routing=ugal_l_sf switching=virtual_cut_through vcs=4",
        NULL};
    rs_test_no_deadlock_saturated(runs);
}

/* A view in which the channels listed in full[] (node * 7 + port) have no free slot. */
struct fake {
    uint32_t full[4], n;
};

static uint32_t fake_free(const void *ctx, uint32_t node, uint32_t port, uint32_t vc)
{
    const struct fake *f = ctx;
    (void)vc;
    for (uint32_t i = 0; i < f->n; i++)
        if (f->full[i] == node * 7 + port)
            return 0;
    return 4;
}

/* The choice of routing=ugal_l_sf for 7 -> 38 via mid 1 (q = 5, p = 1) at node after hops. */
static struct rs_route_choice ugal(const struct rs_net *net, uint32_t node, uint32_t hops,
                                   const struct fake *f)
{
    const struct rs_routing_ops *r = rs_routing_find("ugal_l_sf");
    struct rs_route_view view = {f, 4, 4, f ? fake_free : NULL};
    struct rs_route_choice out[RS_ROUTE_MAX_CHOICES];
    struct rs_route_state st = {7, 38, 1, hops, 0};
    assert_non_null(r);
    assert_int_equal(r->choose(net, node, &st, &view, out), 1);
    return out[0];
}

/* By hand, q = 5, p = 1: from router 7 = (0,1,2) to 38 = (1,2,3) minimal takes port 4 to
 * (1,2,0) = 35 (test_q5_by_hand), H = 2. Via router 1 = (0,0,1): columns 1 and 0 of side 0
 * meet at (1, m, .) with m = (2-1)/(1-0) = 1, port 2 + 1 = 3 to (1,1,1) = 31, then port 2 + 0
 * to (0,0,1); from there to (1,2,3) (not adjacent: 2*0 + 3 != 1; (0,0,3) is 2 away from y = 1,
 * 2 not in X) port 2 + 2 to (1,2,1) = 36, then X'[0] = 2 to 38: H = 4. q counts the 4 VCs of 4
 * flits of the first channel: 16 flits x 2 hops > 0 x 4 + T goes non-minimal. */
static void test_ugal_by_hand(void **state)
{
    (void)state;
    struct rs_net net;
    rs_test_net(&net, "topology=slimfly q=5 p=1");
    struct fake empty = {{0}, 0}, min_full = {{7 * 7 + 4}, 1},
                both_full = {{7 * 7 + 4, 7 * 7 + 3}, 2};
    struct rs_route_choice c = ugal(&net, 7, 0, &empty); /* ties stay minimal, class 0 */
    assert_int_equal(c.port, 4);
    assert_int_equal(c.vc_lo, 0);
    assert_int_equal(c.vc_hi, 1);
    assert_int_equal(ugal(&net, 7, 0, &min_full).port, 3);
    assert_int_equal(ugal(&net, 7, 0, &both_full).port, 4); /* 32 > 64 fails */
    assert_int_equal(ugal(&net, 7, 0, NULL).port, 4);       /* without state: minimal */
    /* the minimal path's second hop, class 1 */
    c = ugal(&net, 35, 1, &min_full);
    assert_int_equal(c.port, 1);
    assert_int_equal(c.vc_lo, 1);
    /* the non-minimal path: 31 -> 1 -> 36 -> 38 in classes 1, 2, 3 */
    static const uint32_t at[] = {31, 1, 36}, port[] = {2, 4, 0};
    for (uint32_t h = 1; h <= 3; h++) {
        c = ugal(&net, at[h - 1], h, &empty);
        assert_int_equal(c.port, port[h - 1]);
        assert_int_equal(c.vc_lo, h);
        assert_int_equal(c.vc_hi, h + 1);
        uint32_t next = net.ops->neighbor(&net, at[h - 1], c.port, NULL);
        assert_int_equal(next, h < 3 ? at[h] : 38);
    }
    assert_int_equal(net.ops->neighbor(&net, 7, 3, NULL), 31);
    rs_net_free(&net);
    /* the threshold T = 100 flits keeps the packet minimal */
    rs_test_net(&net, "topology=slimfly q=5 p=1 ugal_threshold=100");
    assert_int_equal(ugal(&net, 7, 0, &min_full).port, 4);
    rs_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_q5_by_hand),
        cmocka_unit_test(test_graph_and_routes),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_ugal_by_hand),
        cmocka_unit_test(test_ugal_goes_non_minimal),
        cmocka_unit_test(test_store_forward),
        cmocka_unit_test(test_no_deadlock_saturated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
