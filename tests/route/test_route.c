/* Routing on top of the topologies: the routing names, Valiant intermediates (determinism,
 * range, the stream they come from), and rs_route_expand: path lengths per topology from
 * independent formulas, the max/max_hops guards, and routes that name a missing channel. */
#include "rs_test.h"

#include "routesim/net.h"
#include "routesim/rng.h"
#include "routesim/route.h"


/* The registry: names in order, each ops named as its entry, found by name. */
static void test_names(void **state)
{
    static const char *const want[] = {"direct", "yx", "valiant", "ranade", "min_adaptive",
                                       "nca_adaptive", "ugal_l", "ugal_g", "par", "romm",
                                       "updown", "ugal_l_sf", NULL};
    for (int i = 0; want[i]; i++) {
        assert_non_null(rs_routings[i]);
        assert_string_equal(rs_routing_names[i], want[i]);
        assert_string_equal(rs_routings[i]->name, want[i]);
        assert_ptr_equal(rs_routing_find(want[i]), rs_routings[i]);
    }
    assert_null(rs_routings[12]);
    assert_null(rs_routing_names[12]);
    assert_null(rs_routing_find("dor"));
    assert_ptr_equal(rs_routing_find("direct"), RS_ROUTING_DIRECT);
    assert_true(rs_route_is_direct(RS_ROUTING_DIRECT));
    assert_false(rs_route_is_direct(RS_ROUTING_VALIANT));
    assert_false(rs_route_is_direct(RS_ROUTING_YX));
    assert_false(rs_route_is_direct(RS_ROUTING_MIN_ADAPTIVE));
    assert_true(rs_route_is_adaptive(RS_ROUTING_MIN_ADAPTIVE));
    assert_true(rs_route_is_adaptive(RS_ROUTING_NCA_ADAPTIVE));
    assert_false(rs_route_is_adaptive(RS_ROUTING_RANADE));
    assert_false(rs_route_is_direct(RS_ROUTING_ROMM));
    assert_false(rs_route_is_adaptive(RS_ROUTING_ROMM));
    assert_false(rs_route_is_direct(RS_ROUTING_UPDOWN));
    assert_false(rs_route_is_adaptive(RS_ROUTING_UPDOWN));
}

static void test_mid(void **state)
{
    uint32_t hist[16] = {0};
    for (uint64_t id = 0; id < 1600; id++) {
        uint32_t m = rs_route_uniform_mid(7, id, 16);
        assert_true(m < 16);
        /* a pure function of (seed, msg_id, N), from the Valiant stream at step 0 */
        assert_int_equal(rs_route_uniform_mid(7, id, 16), m);
        assert_int_equal(m, rs_rand_below(7, RS_STREAM_VALIANT, id, 0, 16));
        hist[m]++;
    }
    /* 1600 draws over 16 values hit every value (deterministic for this seed) */
    for (int i = 0; i < 16; i++)
        assert_true(hist[i] > 0);
    /* another seed gives another sequence; N = 1 always gives 0 */
    int differ = 0;
    for (uint64_t id = 0; id < 64; id++) {
        differ += rs_route_uniform_mid(7, id, 1024) !=
                  rs_route_uniform_mid(8, id, 1024);
        assert_int_equal(rs_route_uniform_mid(8, id, 1), 0);
    }
    assert_true(differ > 32);
}

/* rs_route_mid_for: direct and valiant as rs_route_mid (message id, not source); ranade
 * from the topology's op (source, not message id), and refused where there is none. */
static void test_mid_for(void **state)
{
    struct rs_net bf, bn;
    struct rs_err err;
    rs_test_net(&bf, "topology=butterfly N=16 wrap=1");
    rs_test_net(&bn, "topology=benes N=16");
    for (uint64_t id = 0; id < 64; id++) {
        uint32_t src = (uint32_t)(id / 4), dst = (src + 3) % 16; /* dst: ignored by these */
        assert_int_equal(rs_route_mid_for(&bf, RS_ROUTING_DIRECT, 7, id, src, dst), RS_NONE);
        assert_int_equal(rs_route_mid_for(&bf, RS_ROUTING_VALIANT, 7, id, src, dst),
                         rs_route_uniform_mid(7, id, 16));
        assert_int_equal(rs_route_mid_for(&bn, RS_ROUTING_RANADE, 7, id, src, dst),
                         bn.ops->ranade_mid(&bn, 7, src));
    }
    assert_int_equal(rs_route_check(&bn, RS_ROUTING_RANADE, &err), 0);
    assert_int_equal(rs_route_check(&bf, RS_ROUTING_VALIANT, &err), 0);
    assert_int_equal(rs_route_check(&bf, RS_ROUTING_RANADE, &err), RS_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "topology=butterfly"));
    rs_net_free(&bf);
    rs_net_free(&bn);
    rs_test_net(&bf, "topology=butterfly N=16");
    assert_int_equal(rs_route_check(&bf, RS_ROUTING_VALIANT, &err), RS_EUNSUPPORTED);
    assert_non_null(strstr(err.msg, "wrap=1"));
    assert_int_equal(rs_route_check(&bf, RS_ROUTING_DIRECT, &err), 0);
    rs_net_free(&bf);
}

/* Per-dimension distance by formula: |a-b| on a mesh, min(|a-b|, k-|a-b|) on a torus. */
static uint32_t grid_distance(uint32_t u, uint32_t v, uint32_t k, uint32_t n, int wrap)
{
    uint32_t d = 0;
    for (uint32_t i = 0; i < n; i++, u /= k, v /= k) {
        uint32_t a = u % k, b = v % k, diff = a > b ? a - b : b - a;
        d += wrap && k - diff < diff ? k - diff : diff;
    }
    return d;
}

static void test_expand_lengths(void **state)
{
    static const struct {
        const char *kv;
        int kind; /* 0 butterfly, 1 benes, 2 grid */
        uint32_t k, n;
        int wrap;
    } cases[] = {{"topology=butterfly N=32", 0, 0, 5, 0},
                 {"topology=butterfly N=16 wrap=1", 0, 0, 4, 1},
                 {"topology=benes N=16", 1, 0, 4, 0},
                 {"topology=mesh k=5 n=2", 2, 5, 2, 0},
                 {"topology=mesh k=3 n=3", 2, 3, 3, 0},
                 {"topology=torus k=6 n=2", 2, 6, 2, 1},
                 {"topology=torus k=5 n=2", 2, 5, 2, 1},
                 {"topology=chain k=9", 2, 9, 1, 0},
                 {"topology=ring k=8", 2, 8, 1, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct rs_net net;
        rs_test_net(&net, cases[c].kv);
        uint32_t N = net.n_terminals, n = cases[c].n;
        for (uint32_t s = 0; s < N; s++)
            for (uint32_t d = 0; d < N; d++) {
                struct rs_route_state st = {s, d, RS_NONE, 0, 0};
                uint32_t want = cases[c].kind == 0   ? n
                                : cases[c].kind == 1 ? 2 * n
                                                     : grid_distance(s, d, cases[c].k, n,
                                                                     cases[c].wrap);
                int64_t got = rs_route_expand(&net, &st, NULL, 0, 1000, NULL);
                if (got != (int64_t)want) {
                    print_error("%s: %u -> %u: %lld hops, want %u\n", cases[c].kv, s, d,
                                (long long)got, want);
                    fail();
                }
                if (cases[c].kind == 2) { /* Valiant via mid = sum of the two legs */
                    uint32_t m = (s * 7 + d * 3) % N;
                    st.mid = m;
                    want = grid_distance(s, m, cases[c].k, n, cases[c].wrap) +
                           grid_distance(m, d, cases[c].k, n, cases[c].wrap);
                    assert_int_equal(rs_route_expand(&net, &st, NULL, 0, 1000, NULL), want);
                }
            }
        rs_net_free(&net);
    }
}

/* max bounds the ids written, not the walk; max_hops bounds the walk. Butterfly N = 8,
 * 5 -> 3: channels 10, 27, 47 (tests/topo/test_butterfly.c). */
static void test_expand_guards(void **state)
{
    struct rs_net net;
    rs_test_net(&net, "topology=butterfly N=8");
    uint64_t chans[3] = {99, 99, 99};
    uint32_t end = 0;
    struct rs_route_state st = {5, 3, RS_NONE, 0, 0};
    assert_int_equal(rs_route_expand(&net, &st, chans, 1, 3, &end), 3);
    assert_int_equal(chans[0], 10);
    assert_int_equal(chans[1], 99);
    assert_int_equal(end, 27);
    assert_int_equal(rs_route_expand(&net, &st, chans, 3, 2, NULL), -1);
    assert_int_equal(rs_route_expand(&net, &st, chans, 3, 3, NULL), 3);
    assert_int_equal(chans[2], 47);
    rs_net_free(&net);
}

/* A route that always says port 0 (+) never arrives on a ring and walks off a chain. */
static uint32_t always_plus(const struct rs_net *net, uint32_t node,
                            const struct rs_route_state *st)
{
    return 0;
}

static uint32_t out_of_range_port(const struct rs_net *net, uint32_t node,
                                  const struct rs_route_state *st)
{
    return net->max_ports;
}

static void test_expand_bad_routes(void **state)
{
    struct rs_net net;
    struct rs_topo_ops fake;
    uint32_t end = 12345;
    struct rs_route_state st = {1, 0, RS_NONE, 0, 0};

    rs_test_net(&net, "topology=ring k=4");
    fake = *net.ops;
    fake.route = always_plus;
    net.ops = &fake;
    assert_int_equal(rs_route_expand(&net, &st, NULL, 0, 100, &end), -1); /* loops */
    assert_int_equal(end, 12345);
    rs_net_free(&net);

    rs_test_net(&net, "topology=chain k=4");
    fake = *net.ops;
    fake.route = always_plus;
    net.ops = &fake;
    assert_int_equal(rs_route_expand(&net, &st, NULL, 0, 100, NULL), -1); /* off the end */
    fake.route = out_of_range_port;
    assert_int_equal(rs_route_expand(&net, &st, NULL, 0, 100, NULL), -1);
    rs_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_mid),
        cmocka_unit_test(test_mid_for),
        cmocka_unit_test(test_expand_lengths),
        cmocka_unit_test(test_expand_guards),
        cmocka_unit_test(test_expand_bad_routes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
