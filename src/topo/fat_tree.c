/* topology=fat_tree: a complete binary tree of N = 2^n leaves whose channels have the
 * capacities (wires) of a rule (000 §2: area_universal 2^ceil(h/2), full, constant, or one
 * per height); every wire is two channels (up and down), the node's switch is ideal.
 * Fat-tree view: include/routesim/pruned_butterfly.h; docs/topologies.md. */
#include <stdio.h>
#include <stdlib.h>

#include "routesim/alloc.h"
#include "routesim/pruned_butterfly.h"
#include "topo/topo_util.h"

#define FT_MAX_CAP (1u << 26) /* most wires of one channel */

static const char *const capacity_rules[] = {"area_universal", "full", "constant", "list",
                                             NULL};

static const struct rs_optdef ft_options[] = {
    {"N", RS_OPT_INT, "16", 2, 1u << RS_FT_MAX_LOG2N, NULL, "leaves (terminals), a power of 2",
     "terminals"},
    {"capacity", RS_OPT_CHOICE, "area_universal", 0, 0, capacity_rules,
     "wires of the channel at height h: area_universal 2^ceil(h/2) (000 §2), full 2^(h-1) "
     "(full bisection), constant cap, or list caps", "-"},
    {"cap", RS_OPT_INT, "1", 1, FT_MAX_CAP, NULL, "wires of every channel (capacity=constant)",
     "wires"},
    {"caps", RS_OPT_LIST, "1", 0, 0, NULL,
     "wires per height h = 1..log2 N, leaves' channels first (capacity=list; 2,2,4 or 2/2/4)",
     "wires"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

/* caps=... into cap[] by height: exactly n integers 1..FT_MAX_CAP. */
static int parse_caps(const struct rs_params *p, uint32_t n, struct rs__ftree *ft,
                      struct rs_err *err)
{
    const char *text, *c;
    int rc = rs_opt_string(p, ft_options, "caps", &text, err);
    if (rc)
        return rc;
    uint32_t h = 0;
    for (c = text;;) {
        char *end;
        unsigned long v = (*c >= '0' && *c <= '9') ? strtoul(c, &end, 10) : 0;
        if (v < 1 || v > FT_MAX_CAP || h == n)
            break;
        ft->cap[n - h] = (uint32_t)v; /* height h+1 is level n-h */
        h++;
        c = end;
        if (*c == '\0' && h == n)
            return 0;
        if (*c != ',' && *c != '/')
            break;
        c++;
    }
    return rs_err_set(err, RS_EINVAL,
                      "topology=fat_tree: key 'caps': expected %u integers 1..%u (one per "
                      "height, leaves' channels first, 2,2,4 or 2/2/4), got '%.60s'",
                      n, FT_MAX_CAP, text);
}

static int ft_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int rc, rule;
    int64_t cap;
    if ((rc = rs__topo_read_pow2(p, ft_options, "fat_tree", 1u << RS_FT_MAX_LOG2N, &net->N,
                                 &net->log2n, err)) ||
        (rc = rs_opt_choice(p, ft_options, "capacity", &rule, err)) ||
        (rc = rs_opt_int(p, ft_options, "cap", &cap, err)))
        return rc;
    uint32_t n = net->log2n;
    struct rs__ftree *ft = rs_calloc(1, sizeof *ft);
    if (!ft)
        return rs_err_set(err, RS_ENOMEM, "out of memory for topology=fat_tree");
    rs__ftree_init_area_universal(ft, n);
    for (uint32_t i = 1; i <= n; i++) {
        if (rule == 1)
            ft->cap[i] = 1u << (n - i); /* the leaves below: 2^(h-1) */
        else if (rule == 2)
            ft->cap[i] = (uint32_t)cap;
    }
    if (rule == 3 && (rc = parse_caps(p, n, ft, err))) {
        rs_free(ft);
        return rc;
    }
    net->priv = ft;
    net->n_nodes = 2 * net->N - 1;
    net->n_terminals = net->N;
    net->n_levels = 0; /* channels go both up and down: not leveled in the sense of net.h */
    net->max_ports = 0;
    for (uint32_t i = 0; i <= n; i++) {
        uint32_t down = i < n ? 2 * ft->cap[i + 1] : 0;
        if (down + ft->cap[i] > net->max_ports)
            net->max_ports = down + ft->cap[i];
        if (i >= 1)
            net->n_channels += 2ull * (1ull << i) * ft->cap[i];
    }
    net->shape_k = 2;
    net->shape_n = n;
    return 0;
}

static void ft_destroy(struct rs_net *net)
{
    rs_free(net->priv);
}

/* Node (i, j) is network node 2^i - 1 + j (heap order from 0). */
static uint32_t ft_node_of(uint32_t i, uint32_t j)
{
    return (1u << i) - 1 + j;
}

/* Ports of node (i, j): c cap[i+1] + w down into child c on wire w (i < n), then
 * 2 cap[i+1] + w up on wire w (i > 0); in-slots the same: from child c on wire w at
 * c cap[i+1] + w, from the parent on wire w at 2 cap[i+1] + w. */
static uint32_t ft_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                            uint32_t *in_slot)
{
    const struct rs__ftree *ft = net->priv;
    if (node >= net->n_nodes)
        return RS_NONE;
    uint32_t id = node + 1, i = rs__ft_level(id), j = rs__ft_index(id), n = ft->n;
    uint32_t down = i < n ? ft->cap[i + 1] : 0;
    if (port < 2 * down) {
        uint32_t c = port / down, w = port % down;
        uint32_t below = i + 1 < n ? ft->cap[i + 2] : 0;
        if (in_slot)
            *in_slot = 2 * below + w;
        return ft_node_of(i + 1, 2 * j + c);
    }
    uint32_t w = port - 2 * down;
    if (i == 0 || w >= ft->cap[i])
        return RS_NONE;
    if (in_slot)
        *in_slot = (j & 1) * ft->cap[i] + w;
    return ft_node_of(i - 1, j / 2);
}

static uint32_t ft_leaf_node(const struct rs_net *net, uint32_t t)
{
    return ft_node_of(net->log2n, t);
}

static int ft_level(const struct rs_net *net, uint32_t node)
{
    (void)net;
    (void)node;
    return -1; /* not leveled (net.h) */
}

static void ft_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    (void)net;
    snprintf(buf, n, "(%u,%u)", rs__ft_level(node + 1), rs__ft_index(node + 1));
}

/* The engines' partition order (rs_topo_ops.part_pos): in order (left subtree, node, right
 * subtree), node (i, j) at (2j + 1) 2^(n-i) - 1, so that a range of positions is a run of
 * subtrees with the nodes between them and leaf t is at 2t. */
static uint32_t ft_part_pos(const struct rs_net *net, uint32_t node)
{
    uint32_t id = node + 1, i = rs__ft_level(id), j = rs__ft_index(id);
    return ((2 * j + 1) << (net->log2n - i)) - 1;
}

/* The node at position pos (the inverse of ft_part_pos). */
static uint32_t ft_part_node(const struct rs_net *net, uint32_t pos)
{
    uint32_t q = pos + 1, h = (uint32_t)__builtin_ctz(q);
    return ft_node_of(net->log2n - h, q >> (h + 1));
}

/* Up while the target is outside the node, on wire `source mod cap`; then down toward the
 * target on wire `target mod cap`. */
static uint32_t ft_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    const struct rs__ftree *ft = net->priv;
    uint32_t id = node + 1, i = rs__ft_level(id), j = rs__ft_index(id), n = ft->n;
    uint32_t from = st->src, to = st->dst;
    uint32_t down = i < n ? ft->cap[i + 1] : 0;
    if (rs__ft_below(ft, i, j, to))
        return i == n ? RS_ROUTE_DONE : ((to >> (n - i - 1)) & 1) * down + to % down;
    return 2 * down + from % ft->cap[i];
}

static uint32_t ft_path_length(const struct rs_net *net, const struct rs_route_state *st)
{
    return rs__ft_path_length(net->priv, st->src, st->dst);
}

const struct rs_topo_ops rs_topo_fat_tree = {
    .name = "fat_tree",
    .summary = "fat-tree of N = 2^n leaves, channel capacities by rule (area-universal, "
               "full, constant, list; 000 §2)",
    .options = ft_options,
    .caps = RS_CAP_FAT_TREE,
    .build = ft_build,
    .destroy = ft_destroy,
    .neighbor = ft_neighbor,
    .src_node = ft_leaf_node,
    .dst_node = ft_leaf_node,
    .level = ft_level,
    .label = ft_label,
    .route = ft_route,
    .valiant_via_terminal = 1,
    .path_length = ft_path_length,
    .part_pos = ft_part_pos,
    .part_node = ft_part_node,
};
