/* Load factors on fat-trees (000 §2, §5), worked by hand: lambda, eta, degree and peaks of
 * small message sets on the N = 16 pruned butterfly and fat_tree with other capacities;
 * and the channel loads against the routes the network itself takes. */
#include "rs_test.h"

#include "routesim/load_factor.h"
#include "routesim/route.h"

/* A message set from explicit (src, dst) pairs (per_input = the most sends of one src). */
static void make_set(struct rs_problem *pb, uint32_t N, const uint32_t *src,
                     const uint32_t *dst, uint32_t n)
{
    memset(pb, 0, sizeof *pb);
    pb->n_terminals = N;
    pb->per_input = 1;
    pb->n_msgs = n;
    pb->src = (uint32_t *)src;
    pb->dst = (uint32_t *)dst;
}

/* N = 16 pruned butterfly (caps 4, 4, 2, 2 for levels 1..4), messages 0->15, 1->14, 2->13,
 * 3->12, 4->11: all peak at the root. Loads: the root's channels (1,0) and (1,1) carry 5
 * each (5/4); (2,0) = leaves 0-3 carries 4 (4/4), (2,3) = leaves 12-15 carries 4, (2,1)
 * and (2,2) one each; the pair channels of level 3 at most 2 (2/2); a leaf channel 1 (1/2).
 * lambda = 5/4 at channel (1,0) (id 2); the caps are the reference weights, eta = 5/4. */
static void test_pruned_butterfly_by_hand(void **state)
{
    (void)state;
    static const uint32_t src[5] = {0, 1, 2, 3, 4}, dst[5] = {15, 14, 13, 12, 11};
    struct rs__pb pbf;
    struct rs_problem pb;
    struct rs_load_factor lf;
    struct rs_err err;
    rs__pb_init(&pbf, 4);
    make_set(&pb, 16, src, dst, 5);
    assert_int_equal(rs_load_factor_compute(&lf, &pbf.ft, &pb, &err), 0);
    assert_true(lf.load[rs__ft_node(1, 0)] == 5 && lf.load[rs__ft_node(1, 1)] == 5);
    assert_true(lf.load[rs__ft_node(2, 0)] == 4 && lf.load[rs__ft_node(2, 1)] == 1);
    assert_true(lf.load[rs__ft_node(2, 2)] == 1 && lf.load[rs__ft_node(2, 3)] == 4);
    assert_true(lf.load[rs__ft_node(3, 0)] == 2 && lf.load[rs__ft_node(3, 2)] == 1);
    assert_true(lf.load[rs__ft_node(3, 3)] == 0 && lf.load[rs__ft_node(4, 4)] == 1);
    assert_true(lf.load[rs__ft_node(4, 5)] == 0 && lf.load[rs__ft_node(4, 15)] == 1);
    assert_true(lf.load_factor == 1.25);
    assert_int_equal(lf.argmax, 2);
    assert_true(lf.reference_load_factor == 1.25);
    assert_true(lf.level_load_factor[1] == 1.25);
    assert_true(lf.level_load_factor[2] == 1.0);
    assert_true(lf.level_load_factor[3] == 1.0);
    assert_true(lf.level_load_factor[4] == 0.5);
    assert_int_equal(lf.degree, 1);
    assert_int_equal(lf.peak_hist[0], 5);
    for (int m = 0; m < 5; m++)
        assert_int_equal(lf.peak[m], 0);
    rs_load_factor_free(&lf);
    assert_null(lf.load);
}

/* fat_tree N = 16 with one wire per channel: 0->1 three times, 2->3, 5->5. The three
 * siblings' messages peak at level 3 and load the leaf channels (4,0) and (4,1) with 3:
 * lambda = 3; the reference weight of a leaf channel (height 1) is 2^ceil(1/2) = 2, so
 * eta = 3/2. 5->5 peaks at level 4 (its own leaf) and loads nothing. d = 3 (0 sends 3,
 * 1 receives 3). With 4 wires on the leaf channels instead, lambda = 3/4 (no message
 * leaves the pairs {0,1} and {2,3}, so no other channel is loaded) and eta stays 3/2. */
static void test_fat_tree_by_hand(void **state)
{
    (void)state;
    static const uint32_t src[5] = {0, 0, 0, 2, 5}, dst[5] = {1, 1, 1, 3, 5};
    struct rs_problem pb;
    struct rs_load_factor lf;
    struct rs_err err;
    struct rs__ftree ft;
    rs__ftree_init_area_universal(&ft, 4);
    for (uint32_t i = 1; i <= 4; i++)
        ft.cap[i] = 1;
    make_set(&pb, 16, src, dst, 5);
    assert_int_equal(rs_load_factor_compute(&lf, &ft, &pb, &err), 0);
    assert_true(lf.load_factor == 3.0);
    assert_int_equal(lf.argmax, rs__ft_node(4, 0));
    assert_true(lf.reference_load_factor == 1.5);
    assert_int_equal(lf.degree, 3);
    assert_int_equal(lf.peak_hist[3], 4);
    assert_int_equal(lf.peak_hist[4], 1);
    assert_int_equal(lf.peak[4], 4);
    assert_int_equal(lf.load[rs__ft_node(4, 5)], 0);
    assert_int_equal(lf.load[rs__ft_node(3, 0)], 0);
    rs_load_factor_free(&lf);
    ft.cap[4] = 4;
    assert_int_equal(rs_load_factor_compute(&lf, &ft, &pb, &err), 0);
    assert_true(lf.load_factor == 0.75);
    assert_true(lf.reference_load_factor == 1.5); /* eta ignores the capacities */
    rs_load_factor_free(&lf);
    make_set(&pb, 16, src, dst, 0); /* the empty set */
    assert_int_equal(rs_load_factor_compute(&lf, &ft, &pb, &err), 0);
    assert_true(lf.load_factor == 0 && lf.reference_load_factor == 0 && lf.degree == 0);
    rs_load_factor_free(&lf);
}

/* The loads are those of the routes the network takes: on the N = 64 pruned butterfly and
 * a fat_tree, every message of a random set (4 per terminal) routed with rs_route_expand,
 * each upward channel's fat-tree channel counted (rs__pb_channel_of; fat_tree: the head's
 * heap id), plus each downward one: the same l(M, c) for every channel. */
static void test_loads_match_routes(void **state)
{
    (void)state;
    static const char *const kv[] = {
        "topology=pruned_butterfly N=64 traffic=uniform per_input=4 seed=7",
        "topology=fat_tree N=32 capacity=list caps=1,2,1,3,2 traffic=uniform per_input=4 "
        "seed=9"};
    for (int x = 0; x < 2; x++) {
        struct rs_params p;
        struct rs_net net;
        struct rs_problem pb;
        struct rs_load_factor lf;
        struct rs_err err;
        rs_test_params(&p, kv[x]);
        assert_int_equal(rs_net_build(&net, &p, &err), 0);
        assert_int_equal(rs_problem_build(&pb, &net, &p, 7, &err), 0);
        const struct rs__ftree *ft = rs__ftree_of(&net);
        assert_int_equal(rs_load_factor_compute(&lf, ft, &pb, &err), 0);
        uint64_t *count = calloc(2 * ft->N, sizeof *count), chans[64];
        assert_non_null(count);
        for (uint64_t m = 0; m < pb.n_msgs; m++) {
            struct rs_route_state st = {rs_problem_src(&pb, m), pb.dst[m], RS_NONE, 0, 0};
            int64_t h = rs_route_expand(&net, &st, chans, 64, 64, NULL);
            assert_true(h >= 0);
            for (int64_t y = 0; y < h; y++) {
                uint32_t v = (uint32_t)(chans[y] / net.max_ports);
                uint32_t port = (uint32_t)(chans[y] % net.max_ports), chan, wire, head;
                int up;
                if (rs__pb_of(&net)) {
                    assert_int_equal(rs__pb_channel_of(rs__pb_of(&net), v, port, &chan, &wire,
                                                       &up), 0);
                } else { /* fat_tree node v is heap id v + 1; the channel is the lower end's */
                    head = net.ops->neighbor(&net, v, port, NULL) + 1;
                    chan = head > v + 1 ? head : v + 1;
                }
                count[chan]++;
            }
        }
        for (uint32_t c = 2; c < 2 * ft->N; c++)
            assert_int_equal(count[c], lf.load[c]);
        assert_int_equal(lf.degree >= 4, 1);
        free(count);
        rs_load_factor_free(&lf);
        rs_problem_free(&pb);
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pruned_butterfly_by_hand),
        cmocka_unit_test(test_fat_tree_by_hand),
        cmocka_unit_test(test_loads_match_routes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
