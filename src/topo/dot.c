/* Graphviz export of any network: nodes with their labels, one edge per channel, and one
 * rank per level for leveled networks and LCANs; fat-trees (000 §2) drawn as their fat-tree
 * view: an undirected tree of nodes and channels (pruned butterfly: every vertex and wire,
 * the vertices of a fat-tree node in one cluster, as in the paper's Figure 1); the sorting
 * fat-tree as its tree over one cluster per mesh. */
#include <stdio.h>
#include <string.h>

#include "routesim/net.h"
#include "routesim/dragonfly.h"
#include "routesim/slimfly.h"
#include "routesim/lcan.h"
#include "routesim/pruned_butterfly.h"
#include "routesim/sorting_fat_tree.h"

/* The fat-tree view of a network with RS_CAP_FAT_TREE (root at the top):
 *   graph "<name>" {
 *     node [shape=box];
 *   fat_tree:
 *     n<v> [label="(i,j)"];                     one per fat-tree node, by id
 *     n<parent> -- n<child> [label="<cap>"];   one per channel, by child id
 *   pruned_butterfly:
 *     subgraph cluster_<i>_<j> { label="(i,j)"; n<v> [label="<i,j,k>"]; ... }
 *                                               one per fat-tree node, its vertices by k
 *     n<upper> -- n<lower>;                     one per wire, by upper vertex then child
 *   }
 */
static int write_fat_tree_dot(const struct rs_net *net, const struct rs__ftree *ft,
                              struct rs_buf *out)
{
    char label[128];
    const struct rs__pb *pb = rs__pb_of(net);
    int rc = rs_buf_printf(out, "graph \"%s\" {\n  node [shape=box];\n", net->name);
    if (!pb) {
        for (uint32_t v = 0; v < net->n_nodes && !rc; v++) {
            net->ops->label(net, v, label, sizeof label);
            rc = rs_buf_printf(out, "  n%u [label=\"%s\"];\n", v, label);
        }
        for (uint32_t c = 2; c < 2 * ft->N && !rc; c++) /* node (i,j) is network node c - 1 */
            rc = rs_buf_printf(out, "  n%u -- n%u [label=\"%u\"];\n", c / 2 - 1, c - 1,
                               ft->cap[rs__ft_level(c)]);
    } else {
        for (uint32_t id = 1; id < 2 * ft->N && !rc; id++) {
            uint32_t i = rs__ft_level(id), j = rs__ft_index(id), w = rs__pb_width(ft->n, i);
            rc = rs_buf_printf(out, "  subgraph cluster_%u_%u { label=\"(%u,%u)\";", i, j, i, j);
            for (uint32_t k = 0; k < w && !rc; k++) {
                uint32_t v = rs__pb_vertex(pb, i, j, k);
                net->ops->label(net, v, label, sizeof label);
                rc = rs_buf_printf(out, " n%u [label=\"%s\"];", v, label);
            }
            if (!rc)
                rc = rs_buf_puts(out, " }\n");
        }
        for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
            for (uint32_t port = RS_PB_DOWN; port < RS_PB_DOWN + 2 && !rc; port++) {
                uint32_t w = net->ops->neighbor(net, v, port, NULL);
                if (w != RS_NONE)
                    rc = rs_buf_printf(out, "  n%u -- n%u;\n", v, w);
            }
    }
    if (!rc)
        rc = rs_buf_puts(out, "}\n");
    return rc ? RS_ENOMEM : 0;
}

/* The sorting fat-tree (000 §4.2), root at the top:
 *   graph "sorting_fat_tree" {
 *     node [shape=box];
 *     n<v> [label="(i,j)"];                        one per tree node, by id
 *     n<parent> -- n<child> [label="<cap>"];      one per tree channel, by child
 *     subgraph cluster_mesh<q> { label="mesh q, m x m, channel of m wires";
 *       n<t> [label="m<q>(r,c)"]; ...             its terminals, row-major (row 0 on top)
 *       n<t> -- n<t+1>; n<t> -- n<t+m>; ... }     its links, east then south, by terminal
 *     n<node> -- n<t>;                            one per wire of a mesh's channel, by column
 *   } */
static int write_sorting_fat_tree_dot(const struct rs_net *net, const struct rs__sft *s,
                                      struct rs_buf *out)
{
    char label[128];
    uint32_t M = 1u << s->H, m = s->m, mm = m * m;
    int rc = rs_buf_printf(out, "graph \"%s\" {\n  node [shape=box];\n", net->name);
    for (uint32_t v = net->N; v < net->n_nodes && !rc; v++) {
        net->ops->label(net, v, label, sizeof label);
        rc = rs_buf_printf(out, "  n%u [label=\"%s\"];\n", v, label);
    }
    for (uint32_t id = 2; id < M && !rc; id++) /* tree node of heap id is N + id - 1 */
        rc = rs_buf_printf(out, "  n%u -- n%u [label=\"%u\"];\n", net->N + id / 2 - 1,
                           net->N + id - 1, s->cap[31u - (uint32_t)__builtin_clz(id)]);
    for (uint32_t q = 0; q < M && !rc; q++) {
        rc = rs_buf_printf(out, "  subgraph cluster_mesh%u { label=\"mesh %u, %u x %u, channel "
                                "of %u wires\";\n", q, q, m, m, s->H ? m : 0);
        for (uint32_t t = q * mm; t < (q + 1) * mm && !rc; t++) {
            net->ops->label(net, t, label, sizeof label);
            rc = rs_buf_printf(out, "    n%u [label=\"%s\"];\n", t, label);
        }
        for (uint32_t t = q * mm; t < (q + 1) * mm && !rc; t++) {
            if (t % m + 1 < m)
                rc = rs_buf_printf(out, "    n%u -- n%u;\n", t, t + 1);
            if (!rc && (t / m) % m + 1 < m)
                rc = rs_buf_printf(out, "    n%u -- n%u;\n", t, t + m);
        }
        if (!rc)
            rc = rs_buf_puts(out, "  }\n");
        for (uint32_t c = 0; c < m && s->H && !rc; c++)
            rc = rs_buf_printf(out, "  n%u -- n%u;\n", net->N + (1u << (s->H - 1)) - 1 + q / 2,
                               q * mm + c);
    }
    if (!rc)
        rc = rs_buf_puts(out, "}\n");
    return rc ? RS_ENOMEM : 0;
}

/* Output, in this order (deterministic; ids increasing):
 *   digraph "<name>" {
 *     rankdir=LR;
 *     node [shape=box];
 *     n<v> [label="<label of v>"];              one per node
 *     n<v> -> n<w>;                             one per channel, by (v, port)
 *     { rank=same; n<v>; ... }                  leveled networks: one per level
 *   }
 * Leveled networks with two ports (butterfly, Beneš) have port 0 = straight edge and
 * port 1 = cross edge; their channel lines carry [label="s"] / [label="c"].
 * LCANs are drawn bottom-up (rankdir=BT) with one rank for the PEs and one per switch
 * level; their down channels carry [label="d"], their up channels [label="u"]. */
static int write_dot(const struct rs_net *net, struct rs_buf *out, int pin,
                     const uint64_t *marked, size_t n_marked);

/* Positions for a grid: 1 when net has coordinates in one or two dimensions. */
static int grid_pinned(const struct rs_net *net)
{
    return (net->caps & RS_CAP_COORDS) && net->dims >= 1 && net->dims <= 2 &&
           !rs__lcan_of(net) && !rs__ftree_of(net) && !rs__sft_of(net) && !rs_dfly_of(net);
}

int rs_net_write_dot(const struct rs_net *net, struct rs_buf *out)
{
    return write_dot(net, out, 0, NULL, 0);
}

int rs_net_write_dot_drawing(const struct rs_net *net, struct rs_buf *out, int *pinned)
{
    *pinned = grid_pinned(net);
    return write_dot(net, out, *pinned, NULL, 0);
}

int rs_net_write_dot_marked(const struct rs_net *net, struct rs_buf *out, int *pinned,
                            const uint64_t *marked, size_t n_marked)
{
    *pinned = grid_pinned(net);
    return write_dot(net, out, *pinned, marked, n_marked);
}

/* 1 when channel c (node * max_ports + port) is among marked[0..n). */
static int is_marked(const uint64_t *marked, size_t n, uint64_t c)
{
    for (size_t i = 0; i < n; i++)
        if (marked[i] == c)
            return 1;
    return 0;
}

/* 1 when node v is the tail or the head of a channel of marked[0..n). */
static int node_marked(const struct rs_net *net, const uint64_t *marked, size_t n, uint32_t v)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t tail = (uint32_t)(marked[i] / net->max_ports);
        if (tail == v ||
            net->ops->neighbor(net, tail, (uint32_t)(marked[i] % net->max_ports), NULL) == v)
            return 1;
    }
    return 0;
}

/* The digraph of rs_net_write_dot; with pin, every node's grid position (pos="X,Y!"); the
 * channels of marked[0..n_marked) red and thick (class "deadlock"), their end nodes filled
 * (the fat-tree, sorting fat-tree and dragonfly views are replaced by the digraph then: one
 * edge per channel). */
static int write_dot(const struct rs_net *net, struct rs_buf *out, int pin,
                     const uint64_t *marked, size_t n_marked)
{
    char label[128];
    const struct rs_lcan *lc = rs__lcan_of(net);
    const struct rs__ftree *ft = rs__ftree_of(net);
    if (ft && !n_marked)
        return write_fat_tree_dot(net, ft, out);
    if (rs__sft_of(net) && !n_marked)
        return write_sorting_fat_tree_dot(net, rs__sft_of(net), out);
    if (rs_dfly_of(net) && !n_marked)
        return rs__dfly_write_dot(net, out);
    if (rs_sfly_of(net))
        return rs__sfly_write_dot(net, out);
    int leveled = net->n_levels > 0 && net->ops->level;
    int straight_cross = leveled && net->max_ports == 2;
    int rc = rs_buf_printf(out, "digraph \"%s\" {\n  rankdir=%s;\n  node [shape=box];\n",
                           net->name, lc ? "BT" : "LR");
    static const char node_mark[] = ", style=filled, fillcolor=\"#ffb0b0\", color=red";
    static const char edge_mark[] = "color=red, penwidth=4, class=\"deadlock\"";
    for (uint32_t v = 0; v < net->n_nodes && !rc; v++) {
        const char *mark = n_marked && node_marked(net, marked, n_marked, v) ? node_mark : "";
        net->ops->label(net, v, label, sizeof label);
        if (pin) /* 72 points apart: x_0 across, x_1 up */
            rc = rs_buf_printf(out, "  n%u [label=\"%s\", pos=\"%u,%u!\"%s];\n", v, label,
                               72 * (v % net->k), net->dims > 1 ? 72 * (v / net->k % net->k) : 0,
                               mark);
        else if (*mark)
            rc = rs_buf_printf(out, "  n%u [label=\"%s\"%s];\n", v, label, mark);
        else
            rc = rs_buf_printf(out, "  n%u [label=\"%s\"];\n", v, label);
    }
    for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
        for (uint32_t port = 0; port < net->max_ports && !rc; port++) {
            uint32_t w = net->ops->neighbor(net, v, port, NULL);
            if (w == RS_NONE)
                continue;
            const char *tag = straight_cross ? (port ? "c" : "s")
                              : lc ? (rs__lcan_level(lc, w) > rs__lcan_level(lc, v) ? "u" : "d")
                                   : NULL;
            int mark = n_marked &&
                       is_marked(marked, n_marked, (uint64_t)v * net->max_ports + port);
            if (tag && mark)
                rc = rs_buf_printf(out, "  n%u -> n%u [label=\"%s\", %s];\n", v, w, tag,
                                   edge_mark);
            else if (tag)
                rc = rs_buf_printf(out, "  n%u -> n%u [label=\"%s\"];\n", v, w, tag);
            else if (mark)
                rc = rs_buf_printf(out, "  n%u -> n%u [%s];\n", v, w, edge_mark);
            else
                rc = rs_buf_printf(out, "  n%u -> n%u;\n", v, w);
        }
    for (uint32_t l = 0; leveled && l < net->n_levels && !rc; l++) {
        rc = rs_buf_puts(out, "  { rank=same;");
        for (uint32_t v = 0; v < net->n_nodes && !rc; v++)
            if (net->ops->level(net, v) == (int)l)
                rc = rs_buf_printf(out, " n%u;", v);
        if (!rc)
            rc = rs_buf_puts(out, " }\n");
    }
    /* LCAN ranks: the PEs (level -1), then every switch level; nodes are numbered by level */
    for (int l = -1; lc && l < (int)lc->l && !rc; l++) {
        uint32_t lo = l < 0 ? 0 : lc->first[l], hi = l < 0 ? lc->N : lo + lc->S[l];
        rc = rs_buf_puts(out, "  { rank=same;");
        for (uint32_t v = lo; v < hi && !rc; v++)
            rc = rs_buf_printf(out, " n%u;", v);
        if (!rc)
            rc = rs_buf_puts(out, " }\n");
    }
    if (!rc)
        rc = rs_buf_puts(out, "}\n");
    return rc ? RS_ENOMEM : 0;
}

/* Decimal digits of v. */
static uint64_t dot_digits(uint64_t v)
{
    uint64_t d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

uint64_t rs_net_dot_bytes(const struct rs_net *net)
{
    char label[128];
    uint64_t lab = 0, V = net->n_nodes, d = dot_digits(V ? V - 1 : 0);
    uint32_t sample[3] = {0, net->n_nodes / 2, net->n_nodes ? net->n_nodes - 1 : 0};
    for (int i = 0; i < 3 && V; i++) {
        net->ops->label(net, sample[i], label, sizeof label);
        uint64_t len = strlen(label);
        lab = len > lab ? len : lab;
    }
    const struct rs__ftree *ft = rs__ftree_of(net);
    if (ft && rs__pb_of(net)) /* " n<v> [label="<label>"];" (labels at most one digit past
                               * the samples), a cluster line per node, a line per wire */
        return 64 + V * (16 + d + lab + 1) + 2ull * ft->N * (48 + 3 * dot_digits(ft->n) +
                                                              2 * dot_digits(ft->N)) +
               net->n_channels / 2 * (10 + 2 * d);
    if (ft) /* node lines, then "  n<v> -- n<w> [label="<cap>"];\n" per channel */
        return 64 + V * (16 + d + lab + 2) + 2ull * ft->N * (22 + 2 * d + 10);
    if (rs__sft_of(net)) /* node lines, a mesh link or tree channel per channel pair */
        return 64 + V * (20 + d + lab) + net->n_channels / 2 * (18 + 2 * d) +
               (1ull << rs__sft_of(net)->H) * 64;
    if (rs_dfly_of(net)) /* node lines (terminals with a shape), bold edges, a cluster per group */
        return 64 + V * (42 + d + lab) + net->n_channels * (26 + 2 * d) +
               (uint64_t)rs_dfly_of(net)->g * 64;
    if (rs_sfly_of(net)) /* node lines, bold edges, a cluster per column */
        return 64 + V * (14 + d + lab) + net->n_channels * (26 + 2 * d) +
               (uint64_t)rs_sfly_of(net)->q * 2 * 64;
    /* "  n<v> [label="<label>"];\n", "  n<v> -> n<w> [label="s"];\n", " n<v>;" in a rank */
    uint64_t node_line = 15 + d + lab + 2, edge_line = 23 + 2 * d, rank_entry = 3 + d;
    return 128 + V * (node_line + rank_entry) + net->n_channels * edge_line +
           (uint64_t)(net->n_levels + 1) * 20;
}
