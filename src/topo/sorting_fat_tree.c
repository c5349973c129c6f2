/* topology=sorting_fat_tree (000 §4.2): N terminals in m x m meshes (m = 2^ceil(log2 log2 N)
 * unless side= gives it) at the leaves of a fat-tree with §4.2's channel capacities; the
 * route goes up the source's column, up and down the tree, down the destination's column.
 * Arithmetic: include/routesim/sorting_fat_tree.h; docs/topologies.md. */
#include <stdio.h>

#include "routesim/alloc.h"
#include "routesim/sorting_fat_tree.h"
#include "topo/topo_util.h"

static const struct rs_optdef sft_options[] = {
    {"N", RS_OPT_INT, "256", 4, 1u << RS_SFT_MAX_LOG2N, NULL,
     "terminals, a power of 2 (meshes of side^2 terminals)", "terminals"},
    {"side", RS_OPT_INT, "0", 0, 1u << (RS_SFT_MAX_LOG2N / 2), NULL,
     "mesh side m, a power of 2 with m^2 <= N; 0: the smallest power of 2 >= log2 N (§4.2)",
     "terminals"},
    {NULL, 0, NULL, 0, 0, NULL, NULL, NULL}};

const struct rs__sft *rs__sft_of(const struct rs_net *net)
{
    return net && (net->caps & RS_CAP_SORTING_FAT_TREE) ? net->priv : NULL;
}

void rs__sft_init(struct rs__sft *s, uint32_t n, uint32_t logm)
{
    RS_ASSERT(logm >= 1 && 2 * logm <= n && n <= RS_SFT_MAX_LOG2N);
    s->n = n;
    s->N = 1u << n;
    s->logm = logm;
    s->m = 1u << logm;
    s->H = n - 2 * logm;
    for (uint32_t i = 0; i <= RS_SFT_MAX_LOG2N + 1; i++)
        s->cap[i] = i >= 1 && i <= s->H ? 1u << ((n - i + 1) / 2) : 0;
}

uint32_t rs__sft_path_length(const struct rs__sft *s, uint32_t a, uint32_t b)
{
    uint32_t qa = rs__sft_mesh(s, a), qb = rs__sft_mesh(s, b);
    uint32_t ra = rs__sft_row(s, a), rb = rs__sft_row(s, b);
    uint32_t ca = rs__sft_col(s, a), cb = rs__sft_col(s, b);
    if (qa == qb)
        return (ra > rb ? ra - rb : rb - ra) + (ca > cb ? ca - cb : cb - ca);
    return ra + rb + 2 * (s->H - rs__sft_peak(s, qa, qb));
}

double rs__sft_side(const struct rs__sft *s, double xi)
{
    return 2.0 * xi * (double)(1u << (s->n / 2)) * (s->n % 2 ? 1.4142135623730951 : 1.0) *
           (double)s->n;
}

static int sft_build(struct rs_net *net, const struct rs_params *p, struct rs_err *err)
{
    int rc;
    int64_t side;
    if ((rc = rs__topo_read_pow2(p, sft_options, "sorting_fat_tree", 1u << RS_SFT_MAX_LOG2N,
                                 &net->N, &net->log2n, err)) ||
        (rc = rs_opt_int(p, sft_options, "side", &side, err)))
        return rc;
    uint32_t n = net->log2n, logm = 0;
    if (side == 0) {
        while ((1u << logm) < n)
            logm++;
        if (2 * logm > n)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=sorting_fat_tree: N=%u needs meshes of side %u "
                              "(>= log2 N), more than N terminals; give side= or a larger N",
                              net->N, 1u << logm);
    } else {
        while ((1ll << logm) < side)
            logm++;
        if ((1ll << logm) != side || logm < 1 || 2 * logm > n)
            return rs_err_set(err, RS_ECONSTRAINT,
                              "topology=sorting_fat_tree: key 'side': expected a power of 2 "
                              ">= 2 with side^2 <= N=%u (got side=%lld)",
                              net->N, (long long)side);
    }
    struct rs__sft *s = rs_calloc(1, sizeof *s);
    if (!s)
        return rs_err_set(err, RS_ENOMEM, "out of memory for topology=sorting_fat_tree");
    rs__sft_init(s, n, logm);
    net->priv = s;
    uint32_t M = 1u << s->H, m = s->m;
    net->n_nodes = net->N + M - 1;
    net->n_terminals = net->N;
    net->n_levels = 0;
    net->max_ports = s->H ? 5 : 4;
    net->n_channels = (uint64_t)M * 4u * m * (m - 1);
    for (uint32_t i = 0; i < s->H; i++) {
        uint32_t ports = 2 * s->cap[i + 1] + s->cap[i];
        if (ports > net->max_ports)
            net->max_ports = ports;
        net->n_channels += 2ull * (2u << i) * s->cap[i + 1];
    }
    net->shape_k = 2;
    net->shape_n = n;
    return 0;
}

static void sft_destroy(struct rs_net *net)
{
    rs_free(net->priv);
}

static uint32_t tree_node(const struct rs_net *net, uint32_t i, uint32_t j)
{
    return net->N + (1u << i) - 1 + j;
}

/* Level i and index j of tree node `node` (>= N). */
static void tree_ij(const struct rs_net *net, uint32_t node, uint32_t *i, uint32_t *j)
{
    uint32_t id = node - net->N + 1;
    *i = 31u - (uint32_t)__builtin_clz(id);
    *j = id - (1u << *i);
}

/* Terminals: ports N S W E (in-slot: the reverse direction's port) and UP from row 0 into
 * tree node (H-1, q/2) at in-slot (q mod 2) m + column. Tree node (i, j): c cap[i+1] + w
 * down into child c on wire w (a mesh's child: terminal (0, w), in-slot UP), 2 cap[i+1] + w
 * up on wire w (i >= 1; in-slot (j mod 2) cap[i] + w at the parent); a child tree node
 * gets the parent's wire w at in-slot 2 cap[i+2] + w. */
static uint32_t sft_neighbor(const struct rs_net *net, uint32_t node, uint32_t port,
                             uint32_t *in_slot)
{
    const struct rs__sft *s = net->priv;
    uint32_t slot = 0, head = RS_NONE;
    if (node < net->N) {
        uint32_t r = rs__sft_row(s, node), c = rs__sft_col(s, node), m = s->m;
        switch (port) {
        case RS_SFT_NORTH: if (r > 0) { head = node - m; slot = RS_SFT_SOUTH; } break;
        case RS_SFT_SOUTH: if (r + 1 < m) { head = node + m; slot = RS_SFT_NORTH; } break;
        case RS_SFT_WEST: if (c > 0) { head = node - 1; slot = RS_SFT_EAST; } break;
        case RS_SFT_EAST: if (c + 1 < m) { head = node + 1; slot = RS_SFT_WEST; } break;
        case RS_SFT_UP:
            if (r == 0 && s->H > 0) {
                uint32_t q = rs__sft_mesh(s, node);
                head = tree_node(net, s->H - 1, q / 2);
                slot = (q & 1) * m + c;
            }
            break;
        default: break;
        }
    } else if (node < net->n_nodes) {
        uint32_t i, j;
        tree_ij(net, node, &i, &j);
        uint32_t down = s->cap[i + 1];
        if (port < 2 * down) {
            uint32_t c = port / down, w = port % down, child = 2 * j + c;
            if (i + 1 == s->H) {
                head = (child << (2 * s->logm)) + w;
                slot = RS_SFT_UP;
            } else {
                head = tree_node(net, i + 1, child);
                slot = 2 * s->cap[i + 2] + w;
            }
        } else if (i > 0 && port - 2 * down < s->cap[i]) {
            uint32_t w = port - 2 * down;
            head = tree_node(net, i - 1, j / 2);
            slot = (j & 1) * s->cap[i] + w;
        }
    }
    if (head != RS_NONE && in_slot)
        *in_slot = slot;
    return head;
}

static uint32_t sft_terminal_node(const struct rs_net *net, uint32_t t)
{
    (void)net;
    return t;
}

static int sft_level(const struct rs_net *net, uint32_t node)
{
    (void)net;
    (void)node;
    return -1; /* not leveled (net.h) */
}

static void sft_label(const struct rs_net *net, uint32_t node, char *buf, size_t n)
{
    const struct rs__sft *s = net->priv;
    if (node < net->N) {
        snprintf(buf, n, "m%u(%u,%u)", rs__sft_mesh(s, node), rs__sft_row(s, node),
                 rs__sft_col(s, node));
    } else {
        uint32_t i, j;
        tree_ij(net, node, &i, &j);
        snprintf(buf, n, "(%u,%u)", i, j);
    }
}

/* In the target's mesh: column first (W/E), then row (N/S). In another mesh: north to row
 * 0, then UP on the column's wire. Tree node: down toward the target's mesh on wire
 * `target mod cap` (into a mesh: the target's column), else up on wire `source mod cap`. */
static uint32_t sft_route(const struct rs_net *net, uint32_t node, const struct rs_route_state *st)
{
    const struct rs__sft *s = net->priv;
    uint32_t from = st->src, to = st->dst;
    uint32_t qt = rs__sft_mesh(s, to);
    if (node < net->N) {
        if (rs__sft_mesh(s, node) != qt)
            return rs__sft_row(s, node) > 0 ? RS_SFT_NORTH : RS_SFT_UP;
        uint32_t c = rs__sft_col(s, node), ct = rs__sft_col(s, to);
        uint32_t r = rs__sft_row(s, node), rt = rs__sft_row(s, to);
        if (c != ct)
            return c < ct ? RS_SFT_EAST : RS_SFT_WEST;
        if (r != rt)
            return r < rt ? RS_SFT_SOUTH : RS_SFT_NORTH;
        return RS_ROUTE_DONE;
    }
    uint32_t i, j;
    tree_ij(net, node, &i, &j);
    uint32_t down = s->cap[i + 1];
    if ((qt >> (s->H - i)) == j)
        return ((qt >> (s->H - i - 1)) & 1) * down + to % down;
    return 2 * down + from % s->cap[i];
}

static uint32_t sft_route_length(const struct rs_net *net, const struct rs_route_state *st)
{
    return rs__sft_path_length(net->priv, st->src, st->dst);
}

const struct rs_topo_ops rs_topo_sorting_fat_tree = {
    .name = "sorting_fat_tree",
    .summary = "sorting fat-tree: m x m meshes (m >= log2 N) at the leaves of a fat-tree "
               "with capacities 2^ceil(log2(n)/2) (000 §4.2)",
    .options = sft_options,
    .caps = RS_CAP_SORTING_FAT_TREE,
    .build = sft_build,
    .destroy = sft_destroy,
    .neighbor = sft_neighbor,
    .src_node = sft_terminal_node,
    .dst_node = sft_terminal_node,
    .level = sft_level,
    .label = sft_label,
    .route = sft_route,
    .valiant_via_terminal = 1,
    .path_length = sft_route_length,
};
