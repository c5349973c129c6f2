/* Graphviz export: the exact text for a 2-input butterfly (ranks, straight/cross labels)
 * and a 3-node chain (no ranks, unlabelled edges). */
#include "rs_test.h"

#include "routesim/buf.h"
#include "routesim/net.h"

static void expect_dot(const char *kv, const char *want)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    struct rs_buf out;
    rs_test_params(&p, kv);
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    rs_buf_init(&out);
    assert_int_equal(rs_net_write_dot(&net, &out), 0);
    assert_non_null(out.data);
    assert_string_equal(out.data, want);
    assert_int_equal(out.len, strlen(want));
    rs_buf_free(&out);
    rs_net_free(&net);
    rs_params_free(&p);
}

/* N = 2, n = 1: inputs <0,0> = n0, <0,1> = n1, outputs <1,0> = n2, <1,1> = n3; the cross
 * edge out of level 0 flips bit c_0. */
static void test_butterfly_2(void **state)
{
    expect_dot("topology=butterfly N=2",
               "digraph \"butterfly\" {\n"
               "  rankdir=LR;\n"
               "  node [shape=box];\n"
               "  n0 [label=\"<0,0>\"];\n"
               "  n1 [label=\"<0,1>\"];\n"
               "  n2 [label=\"<1,0>\"];\n"
               "  n3 [label=\"<1,1>\"];\n"
               "  n0 -> n2 [label=\"s\"];\n"
               "  n0 -> n3 [label=\"c\"];\n"
               "  n1 -> n3 [label=\"s\"];\n"
               "  n1 -> n2 [label=\"c\"];\n"
               "  { rank=same; n0; n1; }\n"
               "  { rank=same; n2; n3; }\n"
               "}\n");
}

/* Channels in order of (node, port): port 0 = +, port 1 = -. */
static void test_chain_3(void **state)
{
    expect_dot("topology=chain k=3",
               "digraph \"chain\" {\n"
               "  rankdir=LR;\n"
               "  node [shape=box];\n"
               "  n0 [label=\"(0)\"];\n"
               "  n1 [label=\"(1)\"];\n"
               "  n2 [label=\"(2)\"];\n"
               "  n0 -> n1;\n"
               "  n1 -> n2;\n"
               "  n1 -> n0;\n"
               "  n2 -> n1;\n"
               "}\n");
}

/* Line counts of a larger instance: 3 header lines, one per node, one per channel, one
 * per level, one closing brace. */
static void test_line_counts(void **state)
{
    struct rs_params p;
    struct rs_net net;
    struct rs_err err;
    struct rs_buf out;
    rs_test_params(&p, "topology=benes N=8");
    assert_int_equal(rs_net_build(&net, &p, &err), 0);
    rs_buf_init(&out);
    assert_int_equal(rs_net_write_dot(&net, &out), 0);
    size_t lines = 0, arrows = 0, ranks = 0;
    for (const char *c = out.data; *c; c++) {
        lines += *c == '\n';
        arrows += !strncmp(c, " -> ", 4);
        ranks += !strncmp(c, "rank=same", 9);
    }
    assert_int_equal(arrows, 96);
    assert_int_equal(ranks, 7);
    assert_int_equal(lines, 3 + 56 + 96 + 7 + 1);
    rs_buf_free(&out);
    rs_net_free(&net);
    rs_params_free(&p);
}

/* rs_net_dot_bytes, the estimate `topo --dot` checks against dot_limit: never below the
 * exact size of the text, and within 2x of it, on every kind of network. */
static void test_dot_bytes_estimate(void **state)
{
    (void)state;
    static const char *const nets[] = {
        "topology=butterfly N=2",  "topology=butterfly N=2^10", "topology=benes N=2^8",
        "topology=mesh k=16 n=2",  "topology=torus k=7 n=3",    "topology=chain k=3",
        "topology=ring k=100",     "topology=lcan d=4,4 u=2,2", "topology=butterfly N=2^6 wrap=1",
        "graph_file=@/graph_small.txt topology=graph", "topology=pruned_butterfly N=4",
        "topology=pruned_butterfly N=2^10", "topology=fat_tree N=2",
        "topology=fat_tree N=2^10 capacity=full", "topology=sorting_fat_tree N=16",
        "topology=sorting_fat_tree N=2^10", "topology=sorting_fat_tree N=64 side=2",
        "topology=dragonfly p=1 a=2 h=1", "topology=dragonfly p=4 g=17 arrangement=relative",
        "topology=slimfly q=3", "topology=slimfly q=13"};
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) {
        struct rs_params p;
        struct rs_net net;
        struct rs_err err;
        struct rs_buf out;
        char kv[1024];
        rs_test_params(&p, rs_test_with_data(nets[i], kv, sizeof kv));
        if (rs_net_build(&net, &p, &err))
            fail_msg("%s: %s", nets[i], err.msg);
        rs_buf_init(&out);
        assert_int_equal(rs_net_write_dot(&net, &out), 0);
        uint64_t est = rs_net_dot_bytes(&net);
        if (est < out.len || est > 2 * out.len)
            fail_msg("%s: estimate %llu for %zu bytes", nets[i], (unsigned long long)est,
                     out.len);
        rs_buf_free(&out);
        rs_net_free(&net);
        rs_params_free(&p);
    }
}

/* The fat-tree view: N = 4 pruned butterfly, vertices <0,0,0..1> (n0 n1), <1,j,0..1>
 * (n2..n5), leaves <2,l,0> (n6..n9), one cluster per fat-tree node and one undirected
 * line per wire (each wire of E_ij once, from its upper vertex); an N = 4 fat_tree with
 * capacity labels. */
static void test_fat_tree_views(void **state)
{
    (void)state;
    expect_dot("topology=pruned_butterfly N=4",
               "graph \"pruned_butterfly\" {\n"
               "  node [shape=box];\n"
               "  subgraph cluster_0_0 { label=\"(0,0)\"; n0 [label=\"<0,0,0>\"]; "
               "n1 [label=\"<0,0,1>\"]; }\n"
               "  subgraph cluster_1_0 { label=\"(1,0)\"; n2 [label=\"<1,0,0>\"]; "
               "n3 [label=\"<1,0,1>\"]; }\n"
               "  subgraph cluster_1_1 { label=\"(1,1)\"; n4 [label=\"<1,1,0>\"]; "
               "n5 [label=\"<1,1,1>\"]; }\n"
               "  subgraph cluster_2_0 { label=\"(2,0)\"; n6 [label=\"<2,0,0>\"]; }\n"
               "  subgraph cluster_2_1 { label=\"(2,1)\"; n7 [label=\"<2,1,0>\"]; }\n"
               "  subgraph cluster_2_2 { label=\"(2,2)\"; n8 [label=\"<2,2,0>\"]; }\n"
               "  subgraph cluster_2_3 { label=\"(2,3)\"; n9 [label=\"<2,3,0>\"]; }\n"
               "  n0 -- n2;\n  n0 -- n4;\n  n1 -- n3;\n  n1 -- n5;\n"
               "  n2 -- n6;\n  n2 -- n7;\n  n3 -- n6;\n  n3 -- n7;\n"
               "  n4 -- n8;\n  n4 -- n9;\n  n5 -- n8;\n  n5 -- n9;\n"
               "}\n");
    expect_dot("topology=fat_tree N=4 capacity=list caps=3,5",
               "graph \"fat_tree\" {\n"
               "  node [shape=box];\n"
               "  n0 [label=\"(0,0)\"];\n  n1 [label=\"(1,0)\"];\n  n2 [label=\"(1,1)\"];\n"
               "  n3 [label=\"(2,0)\"];\n  n4 [label=\"(2,1)\"];\n  n5 [label=\"(2,2)\"];\n"
               "  n6 [label=\"(2,3)\"];\n"
               "  n0 -- n1 [label=\"5\"];\n  n0 -- n2 [label=\"5\"];\n"
               "  n1 -- n3 [label=\"3\"];\n  n1 -- n4 [label=\"3\"];\n"
               "  n2 -- n5 [label=\"3\"];\n  n2 -- n6 [label=\"3\"];\n"
               "}\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_butterfly_2),
        cmocka_unit_test(test_chain_3),
        cmocka_unit_test(test_line_counts),
        cmocka_unit_test(test_dot_bytes_estimate),
        cmocka_unit_test(test_fat_tree_views),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
