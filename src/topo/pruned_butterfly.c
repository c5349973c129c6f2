/* topology=pruned_butterfly: the pruned butterfly of Bay & Bilardi (000 §3.1), N a power
 * of 4, vertices <i,j,k> as network nodes, each wire two channels (up and down); routes go
 * up choosing the root by the source's low bits and down the unique way. Arithmetic:
 * include/routesim/pruned_butterfly.h. */
#include <stdio.h>

#include "routesim/alloc.h"
#include "routesim/pruned_butterfly.h"
#include "topo/topo_util.h"

static const struct rs_optdef pb_options[] = {
    {"N", RS_OPT_INT, "16", 4, 1u << RS_FT_MAX_LOG2N, NULL, "leaves (terminals), a power of 4",
     "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

static int pb_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int rc = rs__topo_read_pow2(p, pb_options, "pruned_butterfly", 1u << RS_FT_MAX_LOG2N,
                                &net->N, &net->log2n, err);
    if (rc)
        return rc;
    if (net->log2n % 2)
        return rs_err_set(err, RS_ECONSTRAINT,
                          "topology=pruned_butterfly needs N a power of 4 (000 §3.1; got N=%u)",
                          net->N);
    struct rs__pb *pb = rs_calloc(1, sizeof *pb);
    if (!pb)
        return rs_err_set(err, RS_ENOMEM, "out of memory for topology=pruned_butterfly");
    rs__pb_init(pb, net->log2n);
    uint32_t n = net->log2n;
    net->priv = pb;
    net->n_nodes = pb->first[n + 1];
    net->max_ports = RS_PB_PORTS;
    net->n_terminals = net->N;
    net->n_levels = 0; /* channels go both up and down: not leveled in the sense of net.h */
    for (uint32_t i = 1; i <= n; i++)
        net->n_channels += 2ull * (1ull << i) * pb->ft.cap[i];
    net->shape_k = 2;
    net->shape_n = n;
    return 0;
}

static void pb_destroy(struct rs_net *net)
{
    rs_free(net->priv);
}

static uint32_t pb_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                            uint32_t *in_slot)
{
    const struct rs__pb *pb = net->priv;
    uint32_t i, j, k, n = pb->ft.n;
    if (node >= net->n_nodes || port >= RS_PB_PORTS)
        return RS_NONE;
    rs__pb_decode(pb, node, &i, &j, &k);
    if (port < RS_PB_UP) { /* down into child node 2j + port */
        if (i == n)
            return RS_NONE;
        uint32_t w = rs__pb_width(n, i + 1);
        if (in_slot)
            *in_slot = RS_PB_UP + k / w;
        return rs__pb_vertex(pb, i + 1, 2 * j + port, k % w);
    }
    uint32_t b = port - RS_PB_UP;
    if (i == 0 || (b && i % 2))
        return RS_NONE;
    if (in_slot)
        *in_slot = RS_PB_DOWN + (j & 1);
    return rs__pb_vertex(pb, i - 1, j / 2, k + b * rs__pb_width(n, i));
}

static uint32_t pb_leaf_node(const struct rs_net *net, uint32_t t)
{
    return rs__pb_leaf(net->priv, t);
}

static int pb_level(const struct rs_net *net, uint32_t node)
{
    (void)net;
    (void)node;
    return -1; /* not leveled (net.h); the tree level is rs__pb_decode's i */
}

static void pb_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    uint32_t i, j, k;
    rs__pb_decode(net->priv, node, &i, &j, &k);
    snprintf(buf, n, "<%u,%u,%u>", i, j, k);
}

/* Up while the target is outside the node (even levels take bit (n-i)/2 of the
 * source, so the route is the unique path toward root `source mod sqrt(N)`), then
 * down toward the target (one edge per child). */
static uint32_t pb_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    const struct rs__pb *pb = net->priv;
    uint32_t i, j, k, from = st->src, to = st->dst, n = pb->ft.n;
    rs__pb_decode(pb, node, &i, &j, &k);
    if (rs__ft_below(&pb->ft, i, j, to))
        return i == n ? RS_ROUTE_DONE : RS_PB_DOWN + ((to >> (n - i - 1)) & 1);
    return RS_PB_UP + (i % 2 ? 0 : (from >> ((n - i) / 2)) & 1);
}

static uint32_t pb_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    const struct rs__ftree *ft = net->priv;
    return rs__ft_path_length(ft, st->src, st->dst);
}

const struct rs_topo_ops rs_topo_pruned_butterfly = {
    .name = "pruned_butterfly",
    .summary = "pruned butterfly, a fat-tree of N = 4^m leaves with area-universal "
               "channels (000 §3.1)",
    .options = pb_options,
    .caps = RS_CAP_FAT_TREE | RS_CAP_PRUNED_BUTTERFLY,
    .build = pb_build,
    .destroy = pb_destroy,
    .neighbor = pb_neighbor,
    .src_node = pb_leaf_node,
    .dst_node = pb_leaf_node,
    .level = pb_level,
    .label = pb_label,
    .route = pb_route,
    .valiant_via_terminal = 1,
    .path_length = pb_path_length,
};
