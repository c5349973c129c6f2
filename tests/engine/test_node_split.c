/* The split of a network's nodes into parts (src/engine/node_split.c): on every kind of
 * network the positions are a bijection and the parts consecutive ranges of them that cover
 * every node once; a dragonfly's parts hold whole groups (P <= g) or whole routers with
 * their terminals (P <= routers), balanced; leveled networks and k-ary n-trees split by rows;
 * a fat tree's leaves spread evenly. */
#include "rs_test.h"

#include "engine/node_split.h"
#include "routesim/dragonfly.h"

static const char *const nets[] = {
    "topology=mesh k=4",
    "topology=torus k=3 n=3",
    "topology=butterfly N=16",
    "topology=benes N=8",
    "topology=kary_nfly k=3 n=3",
    "topology=kary_ntree k=2 n=3",
    "topology=kary_ntree k=3 n=3",
    "topology=fat_tree N=16",
    "topology=dragonfly p=2 a=4 h=2",
    "topology=dragonfly p=1 a=6 h=1",
    "topology=dragonfly p=2 a=4 h=1 g=3",
    "topology=dragonfly p=3 a=2 h=1 g=2",
    "topology=hyperx S=3,4 T=2",
    "topology=slimfly q=5 p=2",
    NULL};

/* On every network and part count: positions a bijection, parts consecutive non-empty ranges
 * of positions in part order covering [0, n), and each node's part the range it is in. */
static void test_cover(void **state)
{
    (void)state;
    for (int i = 0; nets[i]; i++) {
        struct rs_net net;
        rs_test_net(&net, nets[i]);
        uint64_t n = net.n_nodes;
        uint8_t *seen = calloc(n, 1);
        assert_non_null(seen);
        for (uint32_t P = 1; P <= 9 && P <= n; P++) {
            struct rs__node_split s;
            rs__node_split_init(&s, &net, P);
            memset(seen, 0, n);
            for (uint64_t v = 0; v < n; v++) {
                uint64_t pos = rs__node_split_pos(&s, v);
                assert_true(pos < n);
                assert_int_equal(seen[pos], 0);
                seen[pos] = 1;
                assert_int_equal(rs__node_split_node(&s, pos), v);
            }
            uint64_t at = 0;
            for (uint32_t k = 0; k < P; k++) {
                uint64_t lo, hi;
                rs__node_split_range(&s, k, &lo, &hi);
                assert_int_equal(lo, at);
                assert_true(hi > lo);
                for (uint64_t pos = lo; pos < hi; pos++)
                    assert_int_equal(rs__node_split_part(&s, rs__node_split_node(&s, pos)), k);
                at = hi;
            }
            assert_int_equal(at, n);
        }
        free(seen);
        rs_net_free(&net);
    }
}

/* A dragonfly: with P <= g every group (its routers and their terminals) in one part and
 * each part ceil or floor g / P groups; with g < P <= a g every terminal with its router and
 * each part's routers one run of router ids. (The node-id split fails both: at P = 2 it puts
 * every terminal on part 0 and every router on part 1.) */
static void test_dragonfly(void **state)
{
    (void)state;
    for (int i = 0; nets[i]; i++) {
        struct rs_net net;
        rs_test_net(&net, nets[i]);
        const struct rs_dfly *d = rs_dfly_of(&net);
        if (!d) {
            rs_net_free(&net);
            continue;
        }
        for (uint32_t P = 2; P <= d->a * d->g && P <= 16; P++) {
            struct rs__node_split s;
            rs__node_split_init(&s, &net, P);
            uint32_t *groups = calloc(P, sizeof *groups), *routers = calloc(P, sizeof *routers);
            assert_non_null(groups);
            assert_non_null(routers);
            for (uint32_t r = 0; r < d->a * d->g; r++) {
                uint32_t v = d->N + r, k = rs__node_split_part(&s, v);
                for (uint32_t t = r * d->p; t < (r + 1) * d->p; t++)
                    assert_int_equal(rs__node_split_part(&s, t), k); /* with its router */
                if (r > 0) /* the parts of the routers never go down */
                    assert_true(rs__node_split_part(&s, v - 1) <= k);
                routers[k]++;
                if (P <= d->g && r % d->a == 0) {
                    groups[k]++;
                    for (uint32_t j = 1; j < d->a; j++) /* the whole group with it */
                        assert_int_equal(rs__node_split_part(&s, v + j), k);
                }
            }
            for (uint32_t k = 0; k < P; k++) { /* balanced in groups, else in routers */
                uint32_t have = P <= d->g ? groups[k] : routers[k];
                uint32_t of = P <= d->g ? d->g : d->a * d->g;
                assert_true(have >= of / P);
                assert_true(have <= (of + P - 1) / P);
            }
            free(groups);
            free(routers);
        }
        rs_net_free(&net);
    }
}

/* Rows: a butterfly and a k-ary n-tree (R rows of switches) put the nodes of row w of every
 * level on part floor(w P / R), so a part's terminals are a run of terminal ids; a fat tree's
 * leaves (in order) spread over the parts in runs of N / P. */
static void test_rows(void **state)
{
    (void)state;
    static const char *const kvs[] = {"topology=butterfly N=16", "topology=kary_ntree k=2 n=3",
                                      "topology=kary_ntree k=3 n=3", NULL};
    for (int i = 0; kvs[i]; i++) {
        struct rs_net net;
        rs_test_net(&net, kvs[i]);
        uint32_t R = net.n_levels ? net.N : net.n_nodes / net.dims;
        for (uint32_t P = 1; P <= R; P++) {
            struct rs__node_split s;
            rs__node_split_init(&s, &net, P);
            for (uint32_t v = 0; v < net.n_nodes; v++)
                assert_int_equal(rs__node_split_part(&s, v), (uint64_t)(v % R) * P / R);
        }
        rs_net_free(&net);
    }
    struct rs_net net;
    rs_test_net(&net, "topology=fat_tree N=16");
    for (uint32_t P = 1; P <= 8; P *= 2) {
        struct rs__node_split s;
        rs__node_split_init(&s, &net, P);
        for (uint32_t t = 0; t < 16; t++)
            assert_int_equal(rs__node_split_part(&s, net.ops->src_node(&net, t)), t * P / 16);
    }
    rs_net_free(&net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cover),
        cmocka_unit_test(test_dragonfly),
        cmocka_unit_test(test_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
