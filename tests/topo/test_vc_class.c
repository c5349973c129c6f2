/* The topology op vc_class (dateline classes for deadlock-free flit routing): for every
 * route of small rings, tori, meshes and wrapped butterflies, direct and through every
 * Valiant intermediate, the dependency graph of (channel, class) pairs — an edge from each
 * hop to the next hop of the same route — has no cycle (Dally & Seitz: then wormhole
 * routing cannot deadlock), while the graph of plain channels has one on every ring and
 * torus (so the check can fail). */
#include "rs_test.h"

#include "routesim/route.h"

struct graph {
    uint32_t n;      /* vertices: channel * 4 + class */
    uint8_t *adj;    /* n x n adjacency (small networks only) */
};

/* Add every hop-to-hop edge of the route of st from terminal st->src. classes: 0 = none
 * (class 0 everywhere), 2 = dateline bit only (direct), 4 = dateline and phase. */
static void add_route(const struct rs_net *net, struct graph *g, struct rs_route_state st,
                      int classes)
{
    uint32_t node = net->ops->src_node(net, st.src), prev = RS_NONE;
    for (;;) {
        uint32_t port = rs_route_port(net, NULL, node, &st);
        if (port == RS_ROUTE_DONE)
            break;
        uint32_t cls =
            classes ? rs_route_vc_class(net, NULL, node, port, &st) & (uint32_t)(classes - 1) : 0;
        uint32_t v = (uint32_t)rs_net_channel(net, node, port) * 4 + cls;
        assert_true(v < g->n);
        if (prev != RS_NONE)
            g->adj[(size_t)prev * g->n + v] = 1;
        prev = v;
        node = net->ops->neighbor(net, node, port, NULL);
        assert_int_not_equal(node, RS_NONE);
        st.hops++;
        assert_true(st.hops < 1000);
    }
}

/* 1 when the graph has a cycle (iterative colouring DFS). */
static int has_cycle(const struct graph *g)
{
    uint8_t *col = calloc(g->n, 1);
    uint32_t *stack = malloc(g->n * sizeof *stack), *it = calloc(g->n, sizeof *it);
    int cyc = 0;
    for (uint32_t s = 0; s < g->n && !cyc; s++) {
        if (col[s])
            continue;
        uint32_t sp = 0;
        stack[sp++] = s;
        col[s] = 1;
        while (sp && !cyc) {
            uint32_t u = stack[sp - 1];
            if (it[u] == g->n) {
                col[u] = 2;
                sp--;
                continue;
            }
            uint32_t v = it[u]++;
            if (!g->adj[(size_t)u * g->n + v])
                continue;
            if (col[v] == 1)
                cyc = 1;
            else if (!col[v]) {
                col[v] = 1;
                stack[sp++] = v;
            }
        }
    }
    free(col);
    free(stack);
    free(it);
    return cyc;
}

/* The dependency graph of every direct route (valiant = 0) or every Valiant route through
 * every intermediate terminal (valiant = 1), with the given classes. */
static int cycle_in(const char *kv, int valiant, int classes)
{
    struct rs_net net;
    rs_test_net(&net, kv);
    assert_non_null(net.ops->vc_class);
    struct graph g = {(uint32_t)(net.n_nodes * net.max_ports * 4), NULL};
    g.adj = calloc((size_t)g.n * g.n, 1);
    assert_non_null(g.adj);
    uint32_t N = net.n_terminals;
    for (uint32_t s = 0; s < N; s++)
        for (uint32_t d = 0; d < N; d++)
            for (uint32_t m = 0; m < (valiant ? N : 1); m++) {
                struct rs_route_state st = {s, d, valiant ? m : RS_NONE, 0, 0};
                add_route(&net, &g, st, classes);
            }
    int c = has_cycle(&g);
    free(g.adj);
    rs_net_free(&net);
    return c;
}

static void test_rings_and_tori(void **state)
{
    const char *nets[] = {"topology=ring k=5", "topology=ring k=8", "topology=torus k=4 n=2",
                          "topology=torus k=5 n=2", "topology=torus k=4 n=3"};
    for (int i = 0; i < 5; i++) {
        assert_true(cycle_in(nets[i], 0, 0));  /* one class: cyclic */
        assert_false(cycle_in(nets[i], 0, 2)); /* dateline: acyclic */
        assert_false(cycle_in(nets[i], 1, 4)); /* Valiant, class per phase: acyclic */
    }
}

/* Meshes: direct dimension order is acyclic without classes; Valiant's two phases are not
 * (a second-phase X hop after a first-phase Y hop), and are with the phase classes. */
static void test_meshes(void **state)
{
    assert_false(cycle_in("topology=mesh k=4 n=2", 0, 0));
    assert_true(cycle_in("topology=mesh k=4 n=2", 1, 0));
    assert_false(cycle_in("topology=mesh k=4 n=2", 1, 4));
    assert_false(cycle_in("topology=chain k=6", 1, 4));
}

/* The wrapped butterfly: routes go round the levels (direct: once, Valiant: twice). */
static void test_wrapped_butterfly(void **state)
{
    assert_true(cycle_in("topology=butterfly N=8 wrap=1", 1, 0));
    assert_false(cycle_in("topology=butterfly N=8 wrap=1", 0, 2));
    assert_false(cycle_in("topology=butterfly N=8 wrap=1", 1, 4));
    assert_false(cycle_in("topology=butterfly N=16 wrap=1", 1, 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rings_and_tori),
        cmocka_unit_test(test_meshes),
        cmocka_unit_test(test_wrapped_butterfly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
