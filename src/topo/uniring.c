/* topology=uniring (scratch, how-to check): a unidirectional ring of k nodes, one port
 * each (node i -> i+1 mod k); every node is a terminal; packets go forward to their
 * destination. */
#include <stdio.h>

#include "routesim/net.h"

static const struct rs_optdef uniring_options[] = {
    {"k", RS_OPT_INT, "8", 2, 65536, NULL, "nodes on the ring"},
    {NULL, 0, NULL, 0, 0, NULL, NULL}};

static int uniring_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int64_t k;
    int rc = rs_opt_int(p, uniring_options, "k", &k, err);
    if (rc)
        return rc;
    net->k = (uint32_t)k;
    net->n_nodes = net->n_terminals = net->N = (uint32_t)k;
    net->max_ports = 1;
    net->n_channels = (uint64_t)k;
    net->shape_k = (uint32_t)k;
    net->shape_n = 1;
    net->dims = 1;
    return 0;
}

static uint32_t uniring_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                                 uint32_t *in_slot)
{
    if (node >= net->n_nodes || port != 0)
        return RS_NONE;
    if (in_slot)
        *in_slot = 0;
    return (node + 1) % net->k;
}

static uint32_t uniring_terminal(const struct rs_net *net, uint32_t t)
{
    return t;
}

static int uniring_level(const struct rs_net *net, uint32_t node)
{
    return -1;
}

static void uniring_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    snprintf(buf, n, "(%u)", node);
}

static uint32_t uniring_route(const struct rs_net *net, uint32_t node,
                              const struct rs_route_state *st)
{
    uint32_t target = st->mid != RS_NONE && st->hops < (st->mid + net->k - st->src) % net->k
                          ? st->mid
                          : st->dst;
    return node == target ? RS_ROUTE_DONE : 0;
}

const struct rs_topo_ops rs_topo_uniring = {
    .name = "uniring",
    .summary = "unidirectional ring of k nodes (scratch)",
    .options = uniring_options,
    .caps = 0,
    .build = uniring_build,
    .neighbor = uniring_neighbor,
    .src_node = uniring_terminal,
    .dst_node = uniring_terminal,
    .level = uniring_level,
    .label = uniring_label,
    .route = uniring_route,
    .valiant_via_terminal = 1,
};
