/* topology=dragonfly: node, port and channel counts; the p=1 a=2 h=1 instance (3 groups)
 * worked by hand (its global links, a minimal and a Valiant route, the VC classes); every
 * arrangement joins every two groups by a*h/(g-1) links and its channels pair up both ways;
 * the refusals. */
#include "rs_test.h"

#include "routesim/dragonfly.h"
#include "routesim/problem.h"
#include "routesim/route.h"

/* Every channel's head in-slot is unique per head, and every router-router channel has its
 * reverse; returns the number of channels. Also checks each pair of groups is joined by
 * exactly par global channels. */
static uint64_t check_channels(const struct rs_net *net)
{
    const struct rs_dfly *d = rs_dfly_of(net);
    assert_non_null(d);
    uint64_t n = 0;
    uint8_t *slot_used = calloc((size_t)net->n_nodes * net->max_ports, 1);
    uint32_t *pairs = calloc((size_t)d->g * d->g, sizeof *pairs);
    assert_non_null(slot_used);
    assert_non_null(pairs);
    for (uint32_t v = 0; v < net->n_nodes; v++)
        for (uint32_t port = 0; port < net->max_ports; port++) {
            uint32_t slot, w = net->ops->neighbor(net, v, port, &slot);
            if (w == RS_NONE)
                continue;
            n++;
            assert_true(slot < net->max_ports);
            assert_int_equal(slot_used[(size_t)w * net->max_ports + slot], 0);
            slot_used[(size_t)w * net->max_ports + slot] = 1;
            /* the reverse channel leaves w at the port numbered like the in-slot */
            assert_int_equal(net->ops->neighbor(net, w, slot, NULL), v);
            if (v >= d->N && port >= rs_dfly_gport0(d)) {
                uint32_t G = rs_dfly_group(d, v), D = rs_dfly_group(d, w);
                assert_true(G != D);
                pairs[G * d->g + D]++;
            }
        }
    for (uint32_t G = 0; G < d->g; G++)
        for (uint32_t D = 0; D < d->g; D++)
            assert_int_equal(pairs[G * d->g + D], G == D ? 0 : d->par);
    free(slot_used);
    free(pairs);
    return n;
}

static void test_counts(void **state)
{
    static const char *const kvs[] = {
        "topology=dragonfly p=1 a=2 h=1",
        "topology=dragonfly",
        "topology=dragonfly p=2 arrangement=relative",
        "topology=dragonfly p=2 arrangement=circulant",
        "topology=dragonfly p=3 a=5 h=3 arrangement=circulant",
        "topology=dragonfly p=2 a=4 h=2 g=5",
        "topology=dragonfly p=2 a=4 h=2 g=3 arrangement=relative",
        NULL};
    for (int i = 0; kvs[i]; i++) {
        struct rs_net net;
        rs_test_net(&net, kvs[i]);
        const struct rs_dfly *d = rs_dfly_of(&net);
        uint32_t p = d->p, a = d->a, h = d->h, g = d->g;
        assert_int_equal(net.n_terminals, p * a * g);
        assert_int_equal(net.n_nodes, p * a * g + a * g);
        assert_int_equal(net.max_ports, p + a - 1 + h);
        assert_int_equal(d->par * (g - 1), a * h);
        assert_int_equal(net.n_channels, 2 * p * a * g + g * a * (a - 1) + g * a * h);
        assert_int_equal(check_channels(&net), net.n_channels);
        rs_net_free(&net);
    }
    /* the default is the balanced dragonfly a = 2p = 2h with g = a*h+1 */
    struct rs_net net;
    rs_test_net(&net, "topology=dragonfly p=3");
    const struct rs_dfly *d = rs_dfly_of(&net);
    assert_int_equal(d->a, 6);
    assert_int_equal(d->h, 3);
    assert_int_equal(d->g, 19);
    assert_int_equal(d->par, 1);
    rs_net_free(&net);
}

/* p=1 a=2 h=1: g = 3, terminals 0..5 (t = 2G + r), routers 6..11 (6 + 2G + r); ports of a
 * router: 0 its terminal, 1 the other router of its group, 2 its global link. Absolute
 * arrangement: group G's link k (router k) goes to the k-th other group, so r0.0-r1.0,
 * r0.1-r2.0, r1.1-r2.1. */
static void test_by_hand(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=dragonfly p=1 a=2 h=1");
    assert_int_equal(net.n_nodes, 12);
    assert_int_equal(net.n_channels, 24); /* 12 terminal, 6 local, 6 global */
    assert_int_equal(net.max_ports, 3);
    static const uint32_t global_peer[6] = {8, 10, 6, 11, 7, 9};
    for (uint32_t v = 6; v < 12; v++) {
        assert_int_equal(net.ops->neighbor(&net, v, 0, NULL), v - 6);
        assert_int_equal(net.ops->neighbor(&net, v, 1, NULL), v ^ 1);
        assert_int_equal(net.ops->neighbor(&net, v, 2, NULL), global_peer[v - 6]);
    }
    for (uint32_t t = 0; t < 6; t++) {
        assert_int_equal(net.ops->neighbor(&net, t, 0, NULL), t + 6);
        assert_int_equal(net.ops->neighbor(&net, t, 1, NULL), RS_NONE);
    }
    char label[32];
    net.ops->label(&net, 11, label, sizeof label);
    assert_string_equal(label, "r2.1");
    net.ops->label(&net, 3, label, sizeof label);
    assert_string_equal(label, "t1.1.0");

    /* minimal 0 -> 5: t0.0.0, r0.0, local to r0.1 (the link to group 2), r2.0, local to
     * r2.1, t2.1.0: five channels, classes 0 0 0 1 1 */
    uint64_t ch[8];
    struct rs_route_state st = {0, 5, RS_NONE, 0, 0};
    uint32_t end;
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 100, &end), 5);
    assert_int_equal(end, 5);
    static const uint64_t want_min[5] = {0 * 3 + 0, 6 * 3 + 1, 7 * 3 + 2, 10 * 3 + 1, 11 * 3 + 0};
    assert_memory_equal(ch, want_min, sizeof want_min);
    static const uint32_t cls_min[5] = {0, 0, 0, 1, 1};
    for (int i = 0; i < 5; i++) {
        st.hops = (uint32_t)i;
        assert_int_equal(net.ops->vc_class(&net, (uint32_t)(ch[i] / 3), (uint32_t)(ch[i] % 3), &st),
                         cls_min[i]);
    }
    /* Valiant 0 -> 5 through group 1 (mid = terminal 2): r0.0's own global link to group 1,
     * r1.0, local to r1.1, its global link to r2.1, t2.1.0; classes 0 0 1 1 2 */
    st = (struct rs_route_state){0, 5, 2, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 100, &end), 5);
    static const uint64_t want_val[5] = {0 * 3 + 0, 6 * 3 + 2, 8 * 3 + 1, 9 * 3 + 2, 11 * 3 + 0};
    assert_memory_equal(ch, want_val, sizeof want_val);
    static const uint32_t cls_val[5] = {0, 0, 1, 1, 2};
    for (int i = 0; i < 5; i++) {
        st.hops = (uint32_t)i;
        assert_int_equal(net.ops->vc_class(&net, (uint32_t)(ch[i] / 3), (uint32_t)(ch[i] % 3), &st),
                         cls_val[i]);
    }
    /* an intermediate in the source or destination group leaves the route minimal */
    st = (struct rs_route_state){0, 5, 4, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, ch, 8, 100, &end), 5);
    assert_memory_equal(ch, want_min, sizeof want_min);
    rs_net_free(&net);
}

/* Every route ends at its destination within 7 channels (5 minimal), on every arrangement. */
static void test_all_routes(void **state)
{
    static const char *const kvs[] = {"topology=dragonfly p=1 a=4 h=2 g=5",
                                      "topology=dragonfly p=1 a=4 h=2 arrangement=relative",
                                      "topology=dragonfly p=1 a=4 h=2 arrangement=circulant",
                                      NULL};
    for (int i = 0; kvs[i]; i++) {
        struct rs_net net;
        rs_test_net(&net, kvs[i]);
        for (uint32_t s = 0; s < net.n_terminals; s++)
            for (uint32_t t = 0; t < net.n_terminals; t++)
                for (uint32_t mid = 0; mid <= net.n_terminals; mid += 3) {
                    struct rs_route_state st = {s, t, mid == net.n_terminals ? RS_NONE : mid, 0,
                                                0};
                    uint32_t end;
                    int64_t len = rs_route_expand(&net, &st, NULL, 0, 100, &end);
                    assert_int_equal(end, t);
                    assert_true(len >= (s == t ? 0 : 2) && len <= (st.mid == RS_NONE ? 5 : 7));
                }
        rs_net_free(&net);
    }
}

/* traffic=group_shift: every message of a terminal of group i goes to group i+1 mod g, and
 * the destinations spread over that group's terminals. */
static void test_group_shift(void **state)
{
    struct rs_net net;
    struct rs_params p;
    struct rs_problem pb;
    struct rs_err err;
    rs_test_net(&net, "topology=dragonfly p=2");
    rs_test_params(&p, "topology=dragonfly p=2 traffic=group_shift per_input=40");
    assert_int_equal(rs_problem_build(&pb, &net, &p, 9, &err), 0);
    const struct rs_dfly *d = rs_dfly_of(&net);
    uint32_t hit[72] = {0};
    for (uint64_t m = 0; m < pb.n_msgs; m++) {
        uint32_t s = rs_problem_src(&pb, m), t = pb.dst[m];
        assert_int_equal(rs_dfly_term_group(d, t), (rs_dfly_term_group(d, s) + 1) % 9);
        hit[t]++;
    }
    for (uint32_t t = 0; t < 72; t++) /* 320 messages per group over its 8 terminals */
        assert_true(hit[t] > 10 && hit[t] < 80);
    rs_problem_free(&pb);
    rs_params_free(&p);
    rs_net_free(&net);
}

/* kv fails with code and a message containing msg. */
static void expect_error(const char *kv, int code, const char *msg)
{
    struct rs_record r;
    char got[1024];
    int rc = rs_test_try(kv, 1, &r, got, sizeof got);
    if (rc != code || !strstr(got, msg))
        fail_msg("%s: got %d '%s', want %d '%s'", kv, rc, got, code, msg);
    rs_record_free(&r);
}

static void test_refusals(void **state)
{
    expect_error("topology=dragonfly a=4 h=2 g=4", RS_ECONSTRAINT,
                         "topology=dragonfly needs 2 <= g <= a*h+1 with a*h a multiple of g-1");
    expect_error("topology=dragonfly a=4 h=2 g=10", RS_ECONSTRAINT,
                         "topology=dragonfly needs 2 <= g <= a*h+1");
    expect_error("topology=dragonfly a=4 h=2 g=5 arrangement=circulant", RS_ECONSTRAINT,
                         "arrangement=circulant needs g = a*h+1");
    expect_error("topology=mesh k=4 traffic=group_shift", RS_EUNSUPPORTED,
                         "traffic=group_shift needs topology=dragonfly (got mesh)");
    expect_error("topology=mesh k=4 switching=wormhole vcs=3 routing=ugal_l",
                         RS_EUNSUPPORTED, "routing=ugal_l needs topology=dragonfly");
    expect_error("topology=dragonfly switching=wormhole vcs=2 routing=ugal_g", RS_ECONSTRAINT,
                 "routing=ugal needs vcs >= 3 on topology=dragonfly");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_by_hand),
        cmocka_unit_test(test_all_routes),
        cmocka_unit_test(test_group_shift),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
